// `weft mtt`: the Picos paper's Maximum Task Throughput measurements
// (Task-Free and Task-Chain, 0..15 dependences) under one engine, the
// lifetime overhead Lo per task, and the speedup bound MS(t) = t / Lo.
#include "commands.hpp"
#include "workloads/micro_workloads.hpp"

#include <weft/weft.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace weft::cli {
namespace {

struct mtt_options {
  std::string engine;
  int threads = 0; // 0: weft's default (WEFT_NUM_THREADS, else the cores)
  long tasks = 50000;
  int reps = 5;
  std::string out;
};

// One benchmark at one dependence count.
struct cell {
  const char *bench;
  int deps;
  std::vector<double> lo_ns; // per timed repetition
  double cycles_per_task = 0;
  double modelled_ns_per_task = 0; // 0: the engine models no time
};

// A speedup curve's basis: Lo (ns per task) and where it comes from.
struct basis {
  const char *name;
  double lo_ns;
};

constexpr const char *kWho = "weft mtt";
constexpr int kPaperCores = 8;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool fail(const char *what, int rc) {
  std::fprintf(stderr, "%s: %s failed (%d): %s\n", kWho, what, rc,
               weft_last_error());
  return false;
}

// The engine's modelled time: its counters <engine>.modelled_ns (picos) or
// <engine>.unit_ns + <engine>.pcie_ns (nexus), summed; 0 if it has none.
double modelled_ns(const std::string &engine) {
  int n = weft_engine_counters(nullptr, 0);
  if (n <= 0)
    return 0;
  std::vector<weft_counter> cs(static_cast<size_t>(n));
  n = weft_engine_counters(cs.data(), n);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    std::string name = cs[static_cast<size_t>(i)].name;
    if (name.rfind(engine + ".", 0) != 0)
      continue;
    if (name.ends_with(".modelled_ns") || name.ends_with(".unit_ns") ||
        name.ends_with(".pcie_ns"))
      sum += static_cast<double>(cs[static_cast<size_t>(i)].value);
  }
  return sum;
}

// Runs one cell in a runtime of its own (so the engine's counters are this
// cell's): one untimed warm-up, then o.reps timed repetitions, each checked.
bool run_cell(const mtt_options &o, cell &c, int &team) {
  if (int rc = weft_init(o.threads); rc != WEFT_OK) {
    std::fprintf(stderr, "%s: --engine %s: %s\n", kWho, o.engine.c_str(),
                 weft_last_error());
    return false;
  }
  team = weft_num_threads();
  bool chain = std::strcmp(c.bench, "task-chain") == 0;
  int n = c.deps;
  std::vector<long> buf(static_cast<size_t>(chain ? n : o.tasks * n) + 1);
  std::vector<int> done(static_cast<size_t>(o.tasks) + 1);
  bool ok = true;
  for (int rep = -1; ok && rep < o.reps; ++rep) {
    std::fill(done.begin(), done.end(), 0);
    auto t0 = std::chrono::steady_clock::now();
    micro::status s =
        chain ? micro::task_chain(n, o.tasks, buf.data(), done.data())
              : micro::task_free(n, o.tasks, buf.data(), done.data());
    auto t1 = std::chrono::steady_clock::now();
    if (s.rc != WEFT_OK) {
      ok = fail(s.what, s.rc);
      break;
    }
    if (long bad =
            micro::first_wrong_task(chain && n > 0, done.data(), o.tasks);
        bad >= 0) {
      std::fprintf(stderr,
                   "%s: %s with %d deps under %s: task %ld left %d (it ran "
                   "twice, never, or before its predecessor)\n",
                   kWho, c.bench, n, o.engine.c_str(), bad,
                   done[static_cast<size_t>(bad) + 1]);
      ok = false;
    }
    if (rep >= 0)
      c.lo_ns.push_back(
          std::chrono::duration<double, std::nano>(t1 - t0).count() /
          static_cast<double>(o.tasks));
  }
  if (ok) {
    // The counters cover the warm-up too.
    double total = static_cast<double>(o.tasks) * (o.reps + 1);
    weft_stats st;
    if (int rc = weft_stats_get(&st); rc != WEFT_OK)
      ok = fail("weft_stats_get", rc);
    else
      c.cycles_per_task = static_cast<double>(st.modelled_cycles) / total;
    c.modelled_ns_per_task = modelled_ns(o.engine) / total;
  }
  if (int rc = weft_shutdown(); rc != WEFT_OK)
    ok = fail("weft_shutdown", rc);
  return ok;
}

// Task sizes from 10 ns to 1 ms, 10 per decade.
std::vector<double> task_sizes() {
  std::vector<double> t;
  for (int i = 0; i <= 50; ++i)
    t.push_back(10.0 * std::pow(10.0, i / 10.0));
  return t;
}

double max_speedup(double t, double lo, int cores) {
  return std::min(t / lo, static_cast<double>(cores));
}

bool write_csv(const std::string &path, const mtt_options &o, int team,
               long reps, const std::vector<cell> &cells,
               const std::vector<basis> &bases,
               const std::vector<int> &core_counts) {
  std::ofstream f(path);
  if (!f) {
    std::fprintf(stderr, "%s: cannot write %s: %s\n", kWho, path.c_str(),
                 std::strerror(errno));
    return false;
  }
  char line[512];
  f << "table,engine,benchmark,deps,threads,tasks,reps,lo_ns,lo_min_ns,"
       "lo_max_ns,modelled_cycles_per_task,modelled_ns_per_task,basis,"
       "task_size_ns,cores,max_speedup\n";
  for (const cell &c : cells) {
    auto [lo, hi] = std::minmax_element(c.lo_ns.begin(), c.lo_ns.end());
    std::snprintf(line, sizeof line,
                  "lo,%s,%s,%d,%d,%ld,%ld,%.3f,%.3f,%.3f,%.3f,%.3f,,,,\n",
                  o.engine.c_str(), c.bench, c.deps, team, o.tasks, reps,
                  median(c.lo_ns), *lo, *hi, c.cycles_per_task,
                  c.modelled_ns_per_task);
    f << line;
  }
  for (const basis &b : bases)
    for (int cores : core_counts)
      for (double t : task_sizes()) {
        std::snprintf(
            line, sizeof line,
            "ms,%s,task-chain,1,%d,%ld,%ld,%.3f,,,,,%s,%.3f,%d,%.6f\n",
            o.engine.c_str(), team, o.tasks, reps, b.lo_ns, b.name, t, cores,
            max_speedup(t, b.lo_ns, cores));
        f << line;
      }
  f.close();
  if (!f) {
    std::fprintf(stderr, "%s: writing %s failed\n", kWho, path.c_str());
    return false;
  }
  return true;
}

int mtt(const mtt_options &o) {
  namespace fs = std::filesystem;
  // The engine is chosen when the runtime starts (docs/engines.md).
  setenv("WEFT_ENGINE", o.engine.c_str(), 1);
  std::vector<cell> cells;
  for (const char *bench : {"task-free", "task-chain"})
    for (int n = 0; n <= micro::kMaxDeps; ++n)
      cells.push_back({bench, n, {}});
  int team = 0;
  bool progress = isatty(STDERR_FILENO);
  for (cell &c : cells) {
    if (progress)
      std::fprintf(stderr, "\r%s: %s %2d deps (%s)   ", kWho, c.bench, c.deps,
                   o.engine.c_str());
    if (!run_cell(o, c, team))
      return 1;
  }
  if (progress)
    std::fprintf(stderr, "\r%60s\r", "");

  const cell &chain1 = cells[micro::kMaxDeps + 2]; // task-chain, 1 dep
  std::vector<basis> bases{{"measured", median(chain1.lo_ns)}};
  if (chain1.modelled_ns_per_task > 0)
    bases.push_back({"modelled", chain1.modelled_ns_per_task});
  int machine = static_cast<int>(std::thread::hardware_concurrency());
  std::vector<int> core_counts{kPaperCores};
  if (machine > 0 && machine != kPaperCores)
    core_counts.push_back(machine);

  fs::path dir = o.out.empty() ? fs::path(".") : fs::path(o.out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "%s: --out %s: %s\n", kWho, dir.c_str(),
                 ec.message().c_str());
    return 1;
  }
  std::string stem = (dir / ("mtt-" + o.engine)).string();
  std::string csv = stem + ".csv";
  if (!write_csv(csv, o, team, o.reps, cells, bases, core_counts))
    return 1;

  bool model = chain1.modelled_ns_per_task > 0 || chain1.cycles_per_task > 0;
  std::printf("engine %s, %d threads, %ld tasks, median of %d repetitions\n",
              o.engine.c_str(), team, o.tasks, o.reps);
  std::printf("Lo (ns per task)%s\n",
              model ? "; model: cycles / modelled ns per task" : "");
  std::printf("deps  task-free   task-chain\n");
  for (int n = 0; n <= micro::kMaxDeps; ++n) {
    const cell &f = cells[static_cast<size_t>(n)];
    const cell &c = cells[static_cast<size_t>(micro::kMaxDeps + 1 + n)];
    std::printf("%4d  %9.1f  %11.1f", n, median(f.lo_ns), median(c.lo_ns));
    if (model)
      std::printf("   model free %.1f / %.1f  chain %.1f / %.1f",
                  f.cycles_per_task, f.modelled_ns_per_task, c.cycles_per_task,
                  c.modelled_ns_per_task);
    std::printf("\n");
  }
  std::printf("MS(t) = min(t / Lo, cores), Lo of task-chain 1 dep\n");
  for (const basis &b : bases)
    for (int cores : core_counts) {
      std::printf("  %-8s Lo %.1f ns, %2d cores:", b.name, b.lo_ns, cores);
      for (double t : {100.0, 1e3, 1e4, 1e5})
        std::printf("  t=%gus %.2f", t / 1e3, max_speedup(t, b.lo_ns, cores));
      std::printf("\n");
    }

  std::fflush(stdout);
  int rc = run_plot(kWho, "mtt.py", {csv, stem + "-lo.png", stem + "-ms.png"});
  std::printf("csv   %s\n", csv.c_str());
  if (rc == 0)
    std::printf("plots %s-lo.png %s-ms.png\n", stem.c_str(), stem.c_str());
  return rc == 0 ? 0 : 1;
}

} // namespace

command add_mtt_command(CLI::App &app) {
  auto o = std::make_shared<mtt_options>();
  CLI::App *sub = app.add_subcommand(
      "mtt", "Lifetime overhead per task (Task-Free, Task-Chain, 0..15 deps) "
             "and the MTT speedup bound MS(t) = t / Lo");
  sub->add_option("--engine", o->engine,
                  "dependency engine (WEFT_ENGINE): sw, nexus or picos")
      ->required();
  sub->add_option("--threads", o->threads,
                  "workers, the task-creating one included (default: "
                  "WEFT_NUM_THREADS, else the cores available)")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--tasks", o->tasks, "tasks per repetition (default 50000)")
      ->check(CLI::Range(1L, 100000000L));
  sub->add_option("--reps", o->reps,
                  "timed repetitions per cell, after an untimed warm-up; Lo "
                  "is their median (default 5)")
      ->check(CLI::Range(1, 1000));
  sub->add_option("-o,--out", o->out,
                  "folder for mtt-<engine>.csv and the two PNGs, created if "
                  "needed (default: the current folder)");
  return {sub, [o] { return mtt(*o); }};
}

} // namespace weft::cli
