// regions_bench — the region runtime's overheads (issue 12).
//
//   overhead  The paper's intrinsic-overhead microbenchmark: T empty tasks
//             (default 1000) on one argument, spawned by the main program,
//             then one weft_wait. Variants, interleaved in every repetition:
//               object  region tasks, inout on one weft_alloc object
//               region  region tasks, inout on one region
//               core    plain weft_spawn tasks, inout on one address (the
//                       core's own dependences: the peer)
//             Reported per task: spawn = the spawn loop / T; total = (spawn
//             loop + wait) / T, i.e. spawn + execute. Medians over the
//             repetitions, with min and max.
//   scaling   Dependence-analysis cost against the number of live objects
//             and regions: L objects (in L/64 regions under one region, plus
//             those regions) are live; T tasks each take inout on one object
//             (every 16th on a region), spawned and run at 1 thread so that
//             the time is the analysis and hand-over, not parallelism. Two
//             tables: "working set" (the tasks use the same 100 objects in
//             2 regions at every L, the L others stay live: the analysis'
//             dependence on L alone) and "all live" (random ones of all L:
//             memory latency included). Per-task time for each L, and its
//             ratio to the smallest L.
//
// usage: regions_bench [--tasks T] [--reps R] [--threads P]
//                      [--live 100,1000,...] [--scaling-tasks N]
//                      [--only overhead|scaling]
#include <weft/regions.h>
#include <weft/weft.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using clk = std::chrono::steady_clock;

double ns_since(clk::time_point t0) {
  return std::chrono::duration<double, std::nano>(clk::now() - t0).count();
}

[[noreturn]] void die(const char *what) {
  std::fprintf(stderr, "regions_bench: %s failed: %s\n", what,
               weft_last_error());
  std::exit(1);
}

void *rid_arg(weft_rid r) { return reinterpret_cast<void *>(uintptr_t(r)); }

long g_count = 0; // written by tasks that hold its object / region

void region_task(void **) { ++g_count; }
void core_task(void *) { ++g_count; }

struct sample {
  double spawn_ns, total_ns;
};

// One repetition of the overhead benchmark for one variant.
sample overhead_once(const std::string &variant, int tasks) {
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  if (!r)
    die("weft_ralloc");
  void *obj = weft_alloc(sizeof(long), r);
  if (!obj)
    die("weft_alloc");
  void *arg[] = {variant == "region" ? rid_arg(r) : obj};
  int type[] = {variant == "region" ? WEFT_ARG_INOUT | WEFT_ARG_REGION
                                    : WEFT_ARG_INOUT};
  weft_dep dep = {&g_count, WEFT_INOUT};
  g_count = 0;
  auto t0 = clk::now();
  for (int i = 0; i < tasks; ++i) {
    int rc = variant == "core" ? weft_spawn(core_task, nullptr, &dep, 1)
                               : weft_rspawn(region_task, 1, arg, type);
    if (rc != WEFT_OK)
      die("spawn");
  }
  double spawn = ns_since(t0);
  int rc = variant == "core" ? weft_taskwait() : weft_wait(arg, type, 1);
  if (rc != WEFT_OK)
    die("wait");
  double total = ns_since(t0);
  if (g_count != tasks) {
    std::fprintf(stderr, "regions_bench: %s: %ld of %d tasks ran\n",
                 variant.c_str(), g_count, tasks);
    std::exit(1);
  }
  if (weft_rfree(r) != WEFT_OK)
    die("weft_rfree");
  return {spawn / tasks, total / tasks};
}

struct stats {
  double median, min, max;
};
stats summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

void overhead(int tasks, int reps) {
  const std::vector<std::string> variants = {"object", "region", "core"};
  std::vector<std::vector<double>> spawn(3), total(3);
  for (const auto &v : variants) // warm-up
    overhead_once(v, tasks);
  for (int r = 0; r < reps; ++r)
    for (std::size_t k = 0; k < variants.size(); ++k) {
      sample s = overhead_once(variants[k], tasks);
      spawn[k].push_back(s.spawn_ns);
      total[k].push_back(s.total_ns);
    }
  std::printf("overhead: %d empty tasks on one argument, %d threads, %d "
              "interleaved repetitions (median [min, max], ns per task)\n",
              tasks, weft_num_threads(), reps);
  std::printf("  %-8s %-28s %-28s %s\n", "variant", "spawn", "spawn+execute",
              "total vs core");
  stats core = summarize(total[2]);
  for (std::size_t k = 0; k < variants.size(); ++k) {
    stats s = summarize(spawn[k]), t = summarize(total[k]);
    std::printf("  %-8s %7.0f [%6.0f, %7.0f]     %7.0f [%6.0f, %7.0f]     "
                "%.2fx\n",
                variants[k].c_str(), s.median, s.min, s.max, t.median, t.min,
                t.max, t.median / core.median);
  }
}

// One scaling point: per-task ns with `live` live objects.
// hot: the tasks use a fixed working set (100 objects in two sub-regions of
// one region, the same at every L) while the L others stay live and idle;
// otherwise they use random ones of all L.
double scaling_once(long live, int tasks, uint64_t seed, bool hot) {
  weft_rid top = weft_ralloc(WEFT_ROOT_REGION, 0);
  long nregions = std::max(1L, live / 64);
  std::vector<weft_rid> regs(static_cast<std::size_t>(nregions));
  for (auto &r : regs)
    if (!(r = weft_ralloc(top, 1)))
      die("weft_ralloc");
  std::vector<void *> objs(static_cast<std::size_t>(live));
  for (long i = 0; i < live; ++i)
    if (!(objs[std::size_t(i)] =
              weft_alloc(sizeof(long), regs[std::size_t(i % nregions)])))
      die("weft_alloc");
  if (hot) {
    weft_rid ws = weft_ralloc(top, 1);
    regs.assign({weft_ralloc(ws, 2), weft_ralloc(ws, 2)});
    objs.resize(100);
    for (std::size_t i = 0; i < objs.size(); ++i)
      if (!(objs[i] = weft_alloc(sizeof(long), regs[i % 2])))
        die("weft_alloc");
    nregions = 2;
    live = 100;
  }
  uint64_t x = seed;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  // The arguments are drawn before timing: the benchmark's own random reads
  // of a large pointer array are not the runtime's cost.
  std::vector<void *> arg(static_cast<std::size_t>(tasks));
  std::vector<int> type(static_cast<std::size_t>(tasks));
  for (std::size_t i = 0; i < arg.size(); ++i)
    if (i % 16 == 15) {
      arg[i] = rid_arg(regs[next() % uint64_t(nregions)]);
      type[i] = WEFT_ARG_INOUT | WEFT_ARG_REGION;
    } else {
      arg[i] = objs[next() % uint64_t(live)];
      type[i] = WEFT_ARG_INOUT;
    }
  auto t0 = clk::now();
  for (std::size_t i = 0; i < arg.size(); ++i)
    if (weft_rspawn(region_task, 1, &arg[i], &type[i]) != WEFT_OK)
      die("weft_rspawn");
  void *all[] = {rid_arg(top)};
  int all_t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  if (weft_wait(all, all_t, 1) != WEFT_OK)
    die("weft_wait");
  double per_task = ns_since(t0) / tasks;
  if (weft_rfree(top) != WEFT_OK)
    die("weft_rfree");
  return per_task;
}

void scaling(const std::vector<long> &lives, int tasks, int reps, bool hot) {
  std::vector<std::vector<double>> t(lives.size());
  for (int r = 0; r < reps; ++r)
    for (std::size_t k = 0; k < lives.size(); ++k)
      t[k].push_back(
          scaling_once(lives[k], tasks, 88172645463325252ull + r, hot));
  std::printf("scaling (%s): %d tasks on %s (every 16th on a region), %d "
              "threads, %d interleaved repetitions (ns per task, median "
              "[min, max])\n",
              hot ? "working set" : "all live", tasks,
              hot ? "random ones of 100 objects in 2 regions, the rest idle"
                  : "random ones of all live objects",
              weft_num_threads(), reps);
  double base = summarize(t[0]).median;
  for (std::size_t k = 0; k < lives.size(); ++k) {
    stats s = summarize(t[k]);
    std::printf("  live %8ld objects + %6ld regions: %6.0f [%6.0f, %6.0f]  "
                "%.2fx\n",
                lives[k], std::max(1L, lives[k] / 64), s.median, s.min, s.max,
                s.median / base);
  }
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"weft regions: intrinsic overhead and analysis-cost scaling"};
  int tasks = 1000, reps = 11, threads = 0, scaling_tasks = 20000;
  std::vector<long> lives = {100, 1000, 10000, 100000, 1000000};
  std::string only;
  app.add_option("--tasks", tasks, "tasks per overhead repetition")
      ->check(CLI::PositiveNumber);
  app.add_option("--reps", reps, "repetitions")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "workers for the overhead benchmark");
  app.add_option("--live", lives, "live object counts for scaling")
      ->delimiter(',');
  app.add_option("--scaling-tasks", scaling_tasks, "tasks per scaling point")
      ->check(CLI::PositiveNumber);
  app.add_option("--only", only, "overhead or scaling")
      ->check(CLI::IsMember({"overhead", "scaling"}));
  CLI11_PARSE(app, argc, argv);

  if (only != "scaling") {
    if (weft_init(threads) != WEFT_OK)
      die("weft_init");
    overhead(tasks, reps);
    weft_shutdown();
  }
  if (only != "overhead") {
    if (weft_init(1) != WEFT_OK)
      die("weft_init");
    scaling(lives, scaling_tasks, reps, true);
    scaling(lives, scaling_tasks, reps, false);
    weft_shutdown();
  }
  return 0;
}
