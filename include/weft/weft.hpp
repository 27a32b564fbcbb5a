// weft — the C++ API.
//
//   int a = 0, b = 0;
//   weft::spawn(weft::out(a), [&] { a = 1; });
//   weft::spawn(weft::in(a), weft::out(b), [&] { b = a + 1; });
//   weft::taskwait();   // rethrows the first exception a child threw
//
// Same semantics as weft.h; errors throw std::invalid_argument or
// std::logic_error naming the call and the value.
#ifndef WEFT_WEFT_HPP
#define WEFT_WEFT_HPP

#include <weft/weft.h>

#include <cstddef>
#include <exception>
#include <new>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

namespace weft {

struct dep {
  const void *addr;
  weft_dep_mode mode;
};

template <class T> dep in(const T &x) { return {&x, WEFT_IN}; }
template <class T> dep out(const T &x) { return {&x, WEFT_OUT}; }
template <class T> dep inout(const T &x) { return {&x, WEFT_INOUT}; }
template <class T> dep inoutset(const T &x) { return {&x, WEFT_INOUTSET}; }
template <class T> dep mutexinoutset(const T &x) {
  return {&x, WEFT_MUTEXINOUTSET};
}
/// Runs before higher-priority tasks are preferred when several are ready.
struct priority {
  int value;
};

namespace detail {
// Validate deps and priority (naming `call` in errors) and allocate a task
// whose payload (size bytes, align <= 16) lives in the descriptor when it
// fits. On success sets *handle and *payload; both null: the runtime chose to
// run the task here and now instead (throttling), through run_here.
WEFT_API int task_create(const char *call, weft_task_fn fn, std::size_t size,
                         const weft_dep *deps, int ndeps, int priority,
                         void **handle, void **payload);
// Submit a created task (deps as given to task_create); or discard it.
WEFT_API int task_submit(void *handle, const weft_dep *deps, int ndeps,
                         int priority);
WEFT_API void task_discard(void *handle);
// Runs fn(arg) here and now as a child task of the caller's (after
// task_create chose that); an exception is the child's, as if deferred.
WEFT_API void run_here(weft_task_fn fn, void *arg);
// run_here with the task's dependences (deps as given to task_create), which
// a trace records so that its replay keeps the task's edges.
WEFT_API void run_here_deps(weft_task_fn fn, void *arg, const weft_dep *deps,
                            int ndeps);
// The exception behind the last WEFT_ETASK on this thread (cleared).
WEFT_API std::exception_ptr take_exception();

[[noreturn]] inline void raise(int rc) {
  if (rc == WEFT_ETASK)
    std::rethrow_exception(take_exception());
  if (rc == WEFT_EINVAL)
    throw std::invalid_argument(weft_last_error());
  throw std::logic_error(weft_last_error());
}
inline void check(int rc) {
  if (rc != WEFT_OK)
    raise(rc);
}

template <class F> void call_closure(void *p) { (*static_cast<F *>(p))(); }

template <class F> void run_closure(void *p) {
  F *f = static_cast<F *>(p);
  struct destroy {
    F *f;
    ~destroy() { f->~F(); }
  } guard{f};
  (*f)();
}

inline void collect(weft_dep *d, int &n, int &, dep x) {
  d[n++] = {x.addr, x.mode};
}
inline void collect(weft_dep *, int &, int &prio, priority p) {
  prio = p.value;
}
} // namespace detail

/// spawn(dep..., [priority,] f): run f() after the earlier siblings it
/// depends on. The last argument is the callable; f is moved into the task.
template <class... Args> void spawn(Args &&...args) {
  static_assert(sizeof...(Args) >= 1, "weft::spawn needs a callable");
  auto all = std::forward_as_tuple(std::forward<Args>(args)...);
  constexpr std::size_t last = sizeof...(Args) - 1;
  using F = std::decay_t<std::tuple_element_t<last, std::tuple<Args...>>>;
  static_assert(std::is_invocable_v<F &>,
                "weft::spawn: the last argument must be callable with no "
                "arguments");
  static_assert(alignof(F) <= 16, "weft::spawn: closure over-aligned");
  weft_dep deps[sizeof...(Args)] = {};
  int n = 0, prio = 0;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (detail::collect(deps, n, prio, std::get<I>(all)), ...);
  }
  (std::make_index_sequence<last>{});
  void *handle = nullptr, *mem = nullptr;
  detail::check(detail::task_create("weft::spawn", &detail::run_closure<F>,
                                    sizeof(F), deps, n, prio, &handle, &mem));
  if (!handle) {
    F f(std::forward<std::tuple_element_t<last, std::tuple<Args...>>>(
        std::get<last>(all)));
    detail::run_here_deps(&detail::call_closure<F>, &f, deps, n);
    return;
  }
  try {
    ::new (mem) F(std::forward<std::tuple_element_t<last, std::tuple<Args...>>>(
        std::get<last>(all)));
  } catch (...) {
    detail::task_discard(handle);
    throw;
  }
  detail::check(detail::task_submit(handle, deps, n, prio));
}

/// Wait for all children of the calling task; rethrows a child's exception.
inline void taskwait() { detail::check(weft_taskwait()); }

/// Wait for the earlier children that access x.
template <class T> void taskwait_on(const T &x) {
  detail::check(weft_taskwait_on(&x));
}

/// Runs f() inside a taskgroup and waits for all tasks created in it (and
/// their descendants); rethrows the first exception one of them threw.
template <class F> void taskgroup(F &&f) {
  detail::check(weft_taskgroup_begin());
  try {
    f();
  } catch (...) {
    (void)weft_taskgroup_end();
    throw;
  }
  detail::check(weft_taskgroup_end());
}

inline int num_threads() { return weft_num_threads(); }
inline int thread_id() { return weft_thread_id(); }

} // namespace weft

#endif // WEFT_WEFT_HPP
