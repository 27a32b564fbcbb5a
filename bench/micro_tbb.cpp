// micro_tbb — the task-overhead microbenchmarks (docs/benchmarks.md) on
// oneTBB's native API: the peer of micro_weft for independent tasks. Same
// CLI, same checks (micro_check), same JSON record ("runtime": "tbb", plus
// "tbb_version").
//
// oneTBB has no data dependences; each workload is written the way a oneTBB
// user would express the same ordering:
//   task-free    (any N, and task-chain N = 0) the tasks are independent: one
//                tbb::task_group, T run() calls, one wait(). The N addresses
//                order nothing, so there is nothing for oneTBB to track.
//   task-chain   (N > 0) every task depends on the previous one: a
//                tbb::flow::graph of T continue_nodes, each with an edge from
//                its predecessor (one edge stands for the N shared
//                addresses), the first node started, then wait_for_all().
//   emptytask    per chain of 1000 tasks, such a graph, wait_for_all().
// Building, running and destroying the graph are all timed (weft's time
// covers creating, tracking and retiring its tasks).
//
// Threads: --threads P limits oneTBB to P threads (global_control
// max_allowed_parallelism), the main thread included, as weft and OpenMP.
#include <deque>

#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/version.h>

#include "micro_common.h"

namespace {

using node = tbb::flow::continue_node<tbb::flow::continue_msg>;

void task_free(long tasks, int *done) {
  tbb::task_group tg;
  for (long i = 0; i < tasks; i++)
    tg.run([d = done + i + 1] {
      volatile int *v = d;
      *v = *v + 1;
    });
  tg.wait();
}

// A chain of `tasks` nodes; node i runs body(i).
template <class Body> void chain(long tasks, Body body) {
  tbb::flow::graph g;
  std::deque<node> nodes;
  for (long i = 0; i < tasks; i++) {
    nodes.emplace_back(g,
                       [body, i](const tbb::flow::continue_msg &) { body(i); });
    if (i > 0)
      tbb::flow::make_edge(nodes[size_t(i - 1)], nodes.back());
  }
  nodes.front().try_put(tbb::flow::continue_msg());
  g.wait_for_all();
}

void task_chain(long tasks, int *done) {
  chain(tasks, [done](long i) {
    volatile int *d = done + i + 1;
    d[0] = d[-1] + 1;
  });
}

void emptytask(long tasks, long *counter) {
  for (long c = 0; c < tasks / MICRO_CHAIN_LEN; c++)
    chain(MICRO_CHAIN_LEN, [counter](long) {
      volatile long *v = counter;
      *v = *v + 1;
    });
}

} // namespace

int main(int argc, char **argv) {
  micro_options o = micro_parse_args(argc, argv);
  const char *runtime = "tbb";
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism,
                            size_t(o.threads));
  size_t active = tbb::global_control::active_value(
      tbb::global_control::max_allowed_parallelism);
  if (active != size_t(o.threads))
    micro_die("oneTBB allows %zu threads, %d asked", active, o.threads);

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
      task_free(o.tasks, done);
      break;
    case MICRO_TASK_CHAIN:
      if (o.deps == 0)
        task_free(o.tasks, done);
      else
        task_chain(o.tasks, done);
      break;
    case MICRO_EMPTYTASK:
      emptytask(o.tasks, &counter);
      break;
    }
    long long t1 = micro_now_ns();
    micro_check(&o, done, counter, runtime, rep);
    if (rep >= 0)
      ns[rep] = double(t1 - t0) / double(o.tasks);
  }

  char extra[64];
  snprintf(extra, sizeof extra, "\"tbb_version\": \"%s\"", TBB_VERSION_STRING);
  micro_print_json(runtime, &o, ns, extra);
  free(ns);
  free(done);
  return 0;
}
