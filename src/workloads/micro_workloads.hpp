// The Task-Free, Task-Chain and emptytask workloads on weft's C API
// (docs/benchmarks.md), shared by bench/micro_weft.cpp and `weft mtt`.
// Each runs one repetition: it spawns the tasks and ends with the taskwait.
#pragma once

#include <weft/weft.h>

namespace weft::micro {

inline constexpr int kMaxDeps = 15;       // the Picos paper's 0..15
inline constexpr int kChainLength = 1000; // emptytask: tasks per chain

// The outcome of a repetition: rc is WEFT_OK, or the first failing call's
// code, which `what` names (weft_last_error() has its message).
struct status {
  int rc = WEFT_OK;
  const char *what = nullptr;
};

// task-free (and task-chain with 0 deps): add 1 to the task's own slot.
inline void free_body(void *arg) {
  volatile int *d = static_cast<volatile int *>(arg);
  *d = *d + 1;
}

// task-chain with deps: the predecessor's slot + 1.
inline void chain_body(void *arg) {
  volatile int *d = static_cast<volatile int *>(arg);
  d[0] = d[-1] + 1;
}

// emptytask: one addition on the shared counter.
inline void empty_body(void *arg) {
  volatile long *c = static_cast<volatile long *>(arg);
  *c = *c + 1;
}

// `tasks` independent tasks with n inout dependences each on &buf[i*n + k];
// task i adds 1 to done[i + 1]. buf holds tasks * n longs.
inline status task_free(int n, long tasks, long *buf, int *done) {
  weft_dep deps[kMaxDeps];
  for (long i = 0; i < tasks; i++) {
    long *b = buf + i * n;
    for (int k = 0; k < n; k++)
      deps[k] = weft_dep{b + k, WEFT_INOUT};
    int rc = weft_spawn(free_body, done + i + 1, n ? deps : nullptr, n);
    if (rc != WEFT_OK)
      return {rc, "weft_spawn (task-free)"};
  }
  int rc = weft_taskwait();
  return rc == WEFT_OK ? status{} : status{rc, "weft_taskwait (task-free)"};
}

// `tasks` tasks with n inout dependences each on the same &buf[k]: a chain;
// task i stores done[i] + 1 into done[i + 1]. With n = 0, task_free.
inline status task_chain(int n, long tasks, long *buf, int *done) {
  if (n == 0)
    return task_free(0, tasks, buf, done);
  weft_dep deps[kMaxDeps];
  for (int k = 0; k < n; k++)
    deps[k] = weft_dep{buf + k, WEFT_INOUT};
  for (long i = 0; i < tasks; i++) {
    int rc = weft_spawn(chain_body, done + i + 1, deps, n);
    if (rc != WEFT_OK)
      return {rc, "weft_spawn (task-chain)"};
  }
  int rc = weft_taskwait();
  return rc == WEFT_OK ? status{} : status{rc, "weft_taskwait (task-chain)"};
}

// tasks / kChainLength chains of kChainLength tasks, each adding 1 to
// *counter with inout on it, a taskwait after each chain.
inline status emptytask(long tasks, long *counter) {
  const weft_dep dep{counter, WEFT_INOUT};
  for (long c = 0; c < tasks / kChainLength; c++) {
    for (int i = 0; i < kChainLength; i++) {
      int rc = weft_spawn(empty_body, counter, &dep, 1);
      if (rc != WEFT_OK)
        return {rc, "weft_spawn (emptytask)"};
    }
    if (int rc = weft_taskwait(); rc != WEFT_OK)
      return {rc, "weft_taskwait (emptytask)"};
  }
  return {};
}

// The first task whose slot is wrong after task_free / task_chain (done[i+1]
// must be 1, or i + 1 for a chain with deps), or -1 if every task ran once,
// in order where ordered.
inline long first_wrong_task(bool chain_with_deps, const int *done,
                             long tasks) {
  for (long i = 0; i < tasks; i++)
    if (done[i + 1] != (chain_with_deps ? i + 1 : 1))
      return i;
  return -1;
}

} // namespace weft::micro
