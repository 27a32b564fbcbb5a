// The Myrmics model of `weft sim` on the paper's synthetic programs
// (docs/validation.md): Fig. 7b (one scheduler, 512 independent tasks,
// speedup against task size and worker count, and the best worker count
// per task size), and the workers-per-leaf sweep of a two-level program.
#include "myrmics.hpp"
#include "synthetic.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ws = weft::sim;

namespace {

double cycles(const weft::trace::task_graph &g, const std::string &sched,
              uint32_t workers, std::vector<std::string> extra = {}) {
  extra.push_back("schedulers=" + sched);
  ws::params p(extra);
  ws::myrmics_config c = ws::myrmics_config::from(p);
  p.check_all_used("myrmics");
  return double(ws::simulate_myrmics(g, c, workers).makespan_cycles);
}

void fig7b(const std::vector<std::string> &extra) {
  const std::vector<uint64_t> sizes = {8192,   32768,   131072,
                                       524288, 2097152, 8388608};
  std::vector<uint32_t> workers;
  for (uint32_t w = 1; w <= 512; w *= 2)
    workers.push_back(w);
  std::printf("Fig. 7b: one scheduler, 512 independent one-argument tasks; "
              "speedup over 1 worker\n%-10s",
              "task cyc");
  for (uint32_t w : workers)
    std::printf(" %7u", w);
  std::printf("  knee  size/16.2k\n");
  for (uint64_t s : sizes) {
    weft::trace::task_graph g = ws::fork_join_graph({512}, s);
    double one = cycles(g, "flat", 1, extra);
    std::printf("%-10llu", static_cast<unsigned long long>(s));
    for (uint32_t w : workers)
      std::printf(" %7.2f", one / cycles(g, "flat", w, extra));
    // The knee: the fewest workers (any count up to 512) reaching 95% of
    // the best speedup.
    std::vector<double> sp(513);
    double best = 0;
    for (uint32_t w = 1; w <= 512; ++w)
      best = std::max(best, sp[w] = one / cycles(g, "flat", w, extra));
    uint32_t knee = 1;
    while (sp[knee] < 0.95 * best)
      ++knee;
    std::printf("  %4u  %9.1f\n", knee, double(s) / 16200.0);
  }
}

// Programs of 1M-cycle tasks, three per worker: two task levels (64
// coarse tasks) under flat and two-level scheduler trees, and three task
// levels (8 x 8 coarse tasks) under two- and three-level trees.
void per_leaf(std::vector<std::string> extra, uint64_t size, uint32_t args,
              uint64_t arg_cycles) {
  extra.push_back("arg_cycles=" + std::to_string(arg_cycles));
  std::printf("\n%llu-cycle tasks of %u arguments (arg_cycles=%llu), three "
              "per worker; speedup over 1 worker flat\n",
              static_cast<unsigned long long>(size), args,
              static_cast<unsigned long long>(arg_cycles));
  std::printf("%-8s %-12s %-10s %9s %13s\n", "workers", "program", "schedulers",
              "speedup", "workers/leaf");
  for (uint32_t w : {128u, 512u}) {
    auto row = [&](const weft::trace::task_graph &g, const char *prog,
                   double one, const std::string &s) {
      ws::myrmics_config c;
      c.fanout = ws::myrmics_config::parse_schedulers(s);
      std::printf("%-8u %-12s %-10s %9.1f %13.1f\n", w, prog, s.c_str(),
                  one / cycles(g, s, w, extra), double(w) / c.leaves());
    };
    weft::trace::task_graph g2 =
        ws::fork_join_graph({64, 3 * w / 64}, size, args);
    double one2 = cycles(g2, "flat", 1, extra);
    for (const char *s : {"flat", "1x2", "1x4", "1x8", "1x16", "1x32", "1x64"})
      row(g2, "64 x n", one2, s);
    weft::trace::task_graph g3 =
        ws::fork_join_graph({8, 8, 3 * w / 64}, size, args);
    double one3 = cycles(g3, "flat", 1, extra);
    for (const char *s : {"1x8", "1x32", "1x8x2", "1x8x4", "1x8x8"})
      row(g3, "8 x 8 x n", one3, s);
  }
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"The Myrmics model on the paper's synthetic programs"};
  std::vector<std::string> params;
  uint64_t size = 1 << 20, arg_cycles = 16200;
  uint32_t args = 4;
  app.add_option("--param", params, "a myrmics model parameter key=value");
  app.add_option("--size", size, "task cycles of the two-level program");
  app.add_option("--args", args, "arguments per task, second sweep");
  app.add_option("--arg-cycles", arg_cycles,
                 "analysis cycles per extra argument, second sweep");
  CLI11_PARSE(app, argc, argv);
  try {
    fig7b(params);
    per_leaf(params, size, 1, 0);
    per_leaf(params, size, args, arg_cycles);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "myrmics_model: %s\n", e.what());
    return 2;
  }
  return 0;
}
