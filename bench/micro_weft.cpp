// micro_weft — the task-overhead microbenchmarks (issue 2) written with
// weft's C API (weft_init, weft_spawn with a weft_dep array, weft_taskwait,
// weft_shutdown); the OpenMP twin is micro_omp.c, same workloads, same CLI,
// same JSON record ("runtime": "weft", plus "engine" from weft_stats_get).
//
// Workloads (docs/benchmarks.md; the code is in micro_workloads.hpp, which
// `weft mtt` shares):
//   task-free   T independent tasks, each with N inout dependences on
//               addresses unique to that task (&buf[i*N + k], k < N), then
//               one taskwait. Creation + scheduling + retirement with no
//               ordering between tasks (Picos paper, Task-Free).
//   task-chain  T tasks, each with N inout dependences on the same N
//               addresses (&buf[k], k < N): every task depends on the
//               previous one; then one taskwait (Picos paper, Task-Chain).
//               With N = 0 it is task-free with N = 0.
//   emptytask   chains of 1000 tasks, each adding 1 to a shared counter with
//               inout on it (so each depends on the previous), a taskwait
//               after each chain, T/1000 chains (Nexus++ paper, emptytask).
// Task bodies: task-free (and task-chain N = 0) adds 1 to its own slot of a
// volatile array; task-chain N > 0 stores its predecessor's slot + 1 into its
// own, which checks the order; emptytask adds 1 to the volatile counter. Each
// repetition is checked (micro_check) and the program aborts with a message
// when a result is wrong.
//
// Timing: CLOCK_MONOTONIC from just before the first weft_spawn to the end of
// the final weft_taskwait, per repetition, on the thread that called
// weft_init(P) (worker 0, as the OpenMP single thread); runtime start and
// shutdown are not timed; one untimed warm-up repetition first. ns_per_task
// = elapsed / T; the printed ns_per_task is the median over the repetitions.
//
// CLI: micro_weft --pattern task-free|task-chain|emptytask --deps N (0..15)
//      --tasks T (200000) --reps R (5) --threads P
#include <string>
#include <vector>

#include <weft/weft.h>

#include "micro_common.h"
#include "workloads/micro_workloads.hpp"

namespace {

void check_rc(int rc, const char *what) {
  if (rc != WEFT_OK)
    micro_die("%s failed (%d): %s", what, rc, weft_last_error());
}

void check(weft::micro::status s) { check_rc(s.rc, s.what); }

static_assert(weft::micro::kMaxDeps == MICRO_MAX_DEPS &&
              weft::micro::kChainLength == MICRO_CHAIN_LEN);

} // namespace

int main(int argc, char **argv) {
  micro_options o = micro_parse_args(argc, argv);
  const char *runtime = "weft";

  check_rc(weft_init(o.threads), "weft_init");
  int team = weft_num_threads();
  if (team != o.threads)
    micro_die("weft started %d threads, %d asked", team, o.threads);

  int n = o.deps;
  long nbuf = o.pattern == MICRO_TASK_FREE ? o.tasks * n : n;
  long *buf = static_cast<long *>(micro_alloc(sizeof(long) * size_t(nbuf)));
  int *done =
      static_cast<int *>(micro_alloc(sizeof(int) * size_t(o.tasks + 1)));
  long counter = 0;
  double *ns =
      static_cast<double *>(micro_alloc(sizeof(double) * size_t(o.reps)));

  for (int rep = -1; rep < o.reps; rep++) { // rep -1: warm-up
    memset(done, 0, sizeof(int) * size_t(o.tasks + 1));
    counter = 0;
    long long t0 = micro_now_ns();
    switch (o.pattern) {
    case MICRO_TASK_FREE:
      check(weft::micro::task_free(n, o.tasks, buf, done));
      break;
    case MICRO_TASK_CHAIN:
      check(weft::micro::task_chain(n, o.tasks, buf, done));
      break;
    case MICRO_EMPTYTASK:
      check(weft::micro::emptytask(o.tasks, &counter));
      break;
    }
    long long t1 = micro_now_ns();
    micro_check(&o, done, counter, runtime, rep);
    if (rep >= 0)
      ns[rep] = double(t1 - t0) / double(o.tasks);
  }

  // What the engine reports over every repetition (the warm-up too): the
  // modelled hardware cycles and the model's own counters.
  std::string extra;
  weft_stats st;
  if (weft_stats_get(&st) == WEFT_OK) {
    st.engine[sizeof st.engine - 1] = '\0';
    char head[256];
    snprintf(head, sizeof head,
             "\"engine\": \"%s\", \"tasks_total\": %lld, "
             "\"modelled_cycles\": %llu, \"serialized\": %llu, "
             "\"counters\": {",
             st.engine, (long long)o.tasks * (o.reps + 1),
             (unsigned long long)st.modelled_cycles,
             (unsigned long long)st.tasks_serialized);
    extra = head;
    int nc = weft_engine_counters(nullptr, 0);
    std::vector<weft_counter> cs(nc > 0 ? size_t(nc) : 0);
    if (nc > 0 && weft_engine_counters(cs.data(), nc) == nc)
      for (int i = 0; i < nc; ++i) {
        char one[160];
        snprintf(one, sizeof one, "%s\"%s\": %llu", i ? ", " : "",
                 cs[size_t(i)].name, (unsigned long long)cs[size_t(i)].value);
        extra += one;
      }
    extra += "}";
  }
  check_rc(weft_shutdown(), "weft_shutdown");
  micro_print_json(runtime, &o, ns, extra.c_str());
  free(ns);
  free(done);
  free(buf);
  return 0;
}
