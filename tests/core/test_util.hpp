// Helpers shared by the weft test suite (tests/core/*.cpp).
//
// Conventions:
// * Every test binary links test_support.cpp, which starts the runtime with
//   weft_init(0) (so WEFT_NUM_THREADS from the environment decides the thread
//   count) before the first test and shuts it down after the last one.
// * Orderings are checked with a global sequence counter: a task takes a
//   number when it starts and another when it ends. If task a happens-before
//   task b (through the runtime), a's numbers are smaller than b's (coherence
//   of one atomic object). The counter uses relaxed operations on purpose, so
//   that it adds no happens-before edges that would hide a missing one from
//   ThreadSanitizer.
// * "Must overlap" and "must not wait" checks never rely on timing alone: a
//   task that must be running concurrently with something waits for it with a
//   generous timeout (kWaitSeconds) and a task that blocks does so only on a
//   thread where blocking cannot deadlock a correct runtime (see Guard).
#ifndef WEFT_TESTS_TEST_UTIL_HPP
#define WEFT_TESTS_TEST_UTIL_HPP

#include <weft/weft.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <thread>

namespace wt {

// How long a task waits for something that a correct runtime makes happen
// "soon" (another task starting, a flag being released). Generous: the
// machine may be a busy 2-core box running ThreadSanitizer with 4 threads.
inline double wait_seconds() {
  const char *s = std::getenv("WEFT_TEST_WAIT_SECONDS");
  if (s && *s)
    return std::atof(s);
  return 20.0;
}

inline long env_long(const char *name, long def) {
  const char *s = std::getenv(name);
  if (!s || !*s)
    return def;
  return std::strtol(s, nullptr, 0);
}

// WEFT_TEST_SCALE multiplies the amount of work of the heavy tests
// (iterations of the randomized test, number of tiny tasks). 1 by default;
// the ThreadSanitizer registration sets it lower.
inline double test_scale() {
  const char *s = std::getenv("WEFT_TEST_SCALE");
  if (!s || !*s)
    return 1.0;
  double v = std::atof(s);
  return v > 0 ? v : 1.0;
}

inline long scaled(long n, long at_least = 1) {
  long v = static_cast<long>(static_cast<double>(n) * test_scale());
  return v < at_least ? at_least : v;
}

// The thread count the test was registered with (WEFT_NUM_THREADS), or 0.
inline int expected_threads() {
  return static_cast<int>(env_long("WEFT_NUM_THREADS", 0));
}

inline const char *engine_name() {
  const char *s = std::getenv("WEFT_ENGINE");
  return (s && *s) ? s : "sw";
}

// Global sequence numbers (see the header comment).
inline std::atomic<std::int64_t> &seq_counter() {
  static std::atomic<std::int64_t> c{0};
  return c;
}
inline std::int64_t now_seq() {
  return seq_counter().fetch_add(1, std::memory_order_relaxed) + 1;
}

// seconds as a steady_clock duration (wait_seconds() by default): the
// deadline of a wait for something a correct runtime makes happen soon.
inline std::chrono::steady_clock::duration
wait_limit(double seconds = wait_seconds()) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}

// Spin (yielding) until pred() or the timeout; returns pred().
template <class P> bool spin_until(P pred, double seconds = wait_seconds()) {
  auto deadline = std::chrono::steady_clock::now() + wait_limit(seconds);
  for (unsigned i = 0;; ++i) {
    if (pred())
      return true;
    if ((i & 63) == 0 && std::chrono::steady_clock::now() > deadline)
      return pred();
    std::this_thread::yield();
  }
}

inline void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Burn roughly n iterations of CPU without touching shared memory.
inline void busy_work(unsigned n) {
  volatile unsigned sink = 0;
  for (unsigned i = 0; i < n; ++i)
    sink = sink + i;
  (void)sink;
}

// A thread that must not block. A task that blocks until something happens
// (Gate::wait) must not block on a thread that would have to make that thing
// happen, or the test would deadlock a correct runtime (which may run any
// ready task at a scheduling point: a spawn, a taskwait). Guard:
//  * the code that spawns the blocking task and the task that releases it (a
//    runtime may run a task inline at spawn, before the releaser exists);
//  * code that itself releases the gate afterwards (e.g. after a taskwait_on).
// A blocking task that finds itself on the guarded thread returns at once and
// marks the attempt inconclusive; the tests then retry. A blocking task on an
// unguarded thread may block it: another thread must run the releaser.
struct Guard {
  std::atomic<int> tid{-100};
  void begin() { tid.store(weft_thread_id()); }
  void end() { tid.store(-100); }
  bool on_guarded_thread() const { return weft_thread_id() == tid.load(); }
};

// A flag a task blocks on (with the generous timeout), released by the test.
struct Gate {
  std::atomic<bool> released{false};
  std::atomic<bool> timed_out{false};
  std::atomic<bool> inconclusive{false};
  std::atomic<bool> started{false};
  std::atomic<bool> finished{false};
  // Called inside a task. Blocks until release(), unless running on the
  // guarded thread.
  void wait(const Guard &g) {
    started.store(true);
    if (g.on_guarded_thread()) {
      inconclusive.store(true);
    } else if (!spin_until([&] { return released.load(); })) {
      timed_out.store(true);
    }
    finished.store(true);
  }
  void release() { released.store(true); }
};

// Two (or n) tasks that must run at the same time meet here; each waits up
// to the timeout for the others. Returns whether everyone arrived.
struct Rendezvous {
  explicit Rendezvous(int n) : need(n) {}
  int need;
  std::atomic<int> arrived{0};
  bool meet() {
    arrived.fetch_add(1);
    return spin_until([&] { return arrived.load() >= need; });
  }
};

// Tokens a message that "names the bad value" NULL may use.
inline bool mentions_null(const std::string &m) {
  for (const char *t : {"NULL", "null", "nullptr", "0x0", "(nil)", "nil"})
    if (m.find(t) != std::string::npos)
      return true;
  return false;
}

// ---- dependence rules (OpenMP 5.x), shared by the checks -------------------

enum class Rel {
  None,     // may run in any order, also concurrently
  Order,    // the later task starts after the earlier one ended
  Exclusive // any order, never at the same time (mutexinoutset pairs)
};

// What the runtime must guarantee between an earlier and a later sibling that
// both name the same address with these modes.
inline Rel relation(weft_dep_mode earlier, weft_dep_mode later) {
  if (earlier == WEFT_IN && later == WEFT_IN)
    return Rel::None;
  if (earlier == WEFT_INOUTSET && later == WEFT_INOUTSET)
    return Rel::None;
  if (earlier == WEFT_MUTEXINOUTSET && later == WEFT_MUTEXINOUTSET)
    return Rel::Exclusive;
  return Rel::Order;
}

inline const char *mode_name(int m) {
  switch (m) {
  case WEFT_IN:
    return "in";
  case WEFT_OUT:
    return "out";
  case WEFT_INOUT:
    return "inout";
  case WEFT_INOUTSET:
    return "inoutset";
  case WEFT_MUTEXINOUTSET:
    return "mutexinoutset";
  case WEFT_VALUE:
    return "value";
  }
  return "?";
}

// Start and end sequence numbers of one task run.
struct Span {
  std::atomic<std::int64_t> s{0}, e{0};
  void begin() { s.store(now_seq(), std::memory_order_relaxed); }
  void end() { e.store(now_seq(), std::memory_order_relaxed); }
  bool ran() const { return s.load() != 0 && e.load() != 0; }
  // This run ended before o started.
  bool before(const Span &o) const {
    return ran() && o.ran() && e.load() < o.s.load();
  }
  bool disjoint(const Span &o) const { return before(o) || o.before(*this); }
  std::string str() const {
    return "[" + std::to_string(s.load()) + "," + std::to_string(e.load()) +
           "]";
  }
};

// Spawn a C++ callable through the C API (weft_spawn): the callable is moved
// to the heap and deleted by the task. Returns weft_spawn's code.
template <class F> int c_spawn(std::initializer_list<weft_dep> deps, F f) {
  F *p = new F(std::move(f));
  weft_task_fn fn = [](void *a) {
    F *g = static_cast<F *>(a);
    (*g)();
    delete g;
  };
  int rc = weft_spawn(fn, p, deps.size() ? deps.begin() : nullptr,
                      static_cast<int>(deps.size()));
  if (rc != WEFT_OK)
    delete p;
  return rc;
}

} // namespace wt

// Spawn through the C API and fail the test (from the calling thread) if the
// runtime refuses.
#define WT_SPAWN(...)                                                          \
  ASSERT_EQ(wt::c_spawn(__VA_ARGS__), WEFT_OK) << weft_last_error()
#define WT_TASKWAIT() ASSERT_EQ(weft_taskwait(), WEFT_OK) << weft_last_error()

#endif
