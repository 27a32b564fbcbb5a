// The round trip split (issue 13, stop 28): a compile-time instrumentation
// of the remote call's path, off unless WEFT_AT_SPLIT is defined to 1. It
// stamps the TSC (constant and synchronised across cores, so the two ranks'
// stamps compare on one machine) at the caller's call start and MPI_Send
// return, the receiving MPI_Test that completes a message (with the end of
// the previous MPI_Test of the receive on that thread: the poll period), the
// target's f start, the reply's MPI_Send, and the caller's reply handler,
// keyed by the call's sequence number; and counts with cycles of the idle
// MPI_Tests, the barriers' MPI_Tests, comm::poll and the time between two
// polls of a thread. Each rank writes them to
// /tmp/weft_at_split.<rank>.txt at exit (bench/at_split.py joins them).
// Off, every point is an empty inline function.
#pragma once
#include <cstdint>

#if defined(WEFT_AT_SPLIT) && WEFT_AT_SPLIT
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <x86intrin.h>
#endif

namespace weft::dist::at_split {

enum event : std::uint8_t {
  kCallBegin = 0, // caller: op_call entered
  kSendBegin = 1, // either: MPI_Send called (handler says call or reply)
  kSendEnd = 2,   // either: MPI_Send returned
  kReceived = 3,  // either: MPI_Test completed the receive (aux: the end of
                  // this thread's previous MPI_Test of the receive)
  kFnBegin = 4,   // target: the arrived call's runner starts
  kReplyDone = 5, // caller: on_reply handed the result to the waiter
  kTestBegin = 6, // either: the MPI_Test that completed the receive began
};

#if defined(WEFT_AT_SPLIT) && WEFT_AT_SPLIT
struct record {
  std::uint64_t tsc, aux, seq;
  std::uint8_t kind, handler;
};

struct log {
  static constexpr std::size_t kCap = std::size_t(1) << 21;
  std::unique_ptr<record[]> r{new record[kCap]};
  std::atomic<std::size_t> n{0};
  // Failed MPI_Test calls of the receive and of barriers: count, cycles.
  std::atomic<std::uint64_t> idle_tests{0}, idle_cycles{0};
  std::atomic<std::uint64_t> barrier_tests{0}, barrier_cycles{0};
  // comm::poll from a waiting thread (src/places/place_set.cpp's
  // async_wait and the idle hook): [0] the poll itself, [1] from its end
  // to the next poll's start on the thread (help_once, run_external, the
  // backoff pause), [2] unused: count, cycles.
  std::atomic<std::uint64_t> part_n[3]{}, part_cycles[3]{};
  int rank = -1;
  std::uint64_t tsc0 = __rdtsc();
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  ~log() {
    if (rank < 0)
      return;
    std::uint64_t tsc1 = __rdtsc();
    double ns = double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now() - t0)
                           .count());
    char name[64];
    std::snprintf(name, sizeof name, "/tmp/weft_at_split.%d.txt", rank);
    std::FILE *f = std::fopen(name, "w");
    if (!f)
      return;
    std::fprintf(f, "ghz %.6f\n", double(tsc1 - tsc0) / ns);
    std::fprintf(f, "idle_tests %llu %llu\n",
                 (unsigned long long)idle_tests.load(),
                 (unsigned long long)idle_cycles.load());
    std::fprintf(f, "barrier_tests %llu %llu\n",
                 (unsigned long long)barrier_tests.load(),
                 (unsigned long long)barrier_cycles.load());
    const char *parts[3] = {"poll", "between_polls", "unused"};
    for (int i = 0; i < 3; ++i)
      std::fprintf(f, "%s %llu %llu\n", parts[i],
                   (unsigned long long)part_n[i].load(),
                   (unsigned long long)part_cycles[i].load());
    std::size_t m = n.load() < kCap ? n.load() : kCap;
    for (std::size_t i = 0; i < m; ++i)
      std::fprintf(f, "%u %u %llu %llu %llu\n", unsigned(r[i].kind),
                   unsigned(r[i].handler), (unsigned long long)r[i].seq,
                   (unsigned long long)r[i].tsc, (unsigned long long)r[i].aux);
    std::fclose(f);
  }
};
inline log g_log;
inline thread_local std::uint64_t tl_last_test_end = 0;

inline std::uint64_t now() { return __rdtsc(); }
inline void set_rank(int r) { g_log.rank = r; }
inline void stamp(event k, unsigned handler, std::uint64_t seq,
                  std::uint64_t aux = 0, std::uint64_t tsc = __rdtsc()) {
  std::size_t i = g_log.n.fetch_add(1, std::memory_order_relaxed);
  if (i < log::kCap)
    g_log.r[i] = {tsc, aux, seq, k, std::uint8_t(handler)};
}
// Around the MPI_Test of the receive: t0 before, flag after.
inline void receive_tested(std::uint64_t t0, bool flag, unsigned handler,
                           std::uint64_t seq) {
  std::uint64_t t1 = __rdtsc();
  if (flag) {
    stamp(kTestBegin, handler, seq, 0, t0);
    stamp(kReceived, handler, seq, tl_last_test_end, t1);
  } else {
    g_log.idle_tests.fetch_add(1, std::memory_order_relaxed);
    g_log.idle_cycles.fetch_add(t1 - t0, std::memory_order_relaxed);
  }
  tl_last_test_end = t1;
}
// One part of an async_wait round ended; t0: its start. Returns now.
inline thread_local std::uint64_t tl_poll_end = 0;
inline std::uint64_t round_part(int part, std::uint64_t t0) {
  std::uint64_t t1 = __rdtsc();
  g_log.part_n[part].fetch_add(1, std::memory_order_relaxed);
  g_log.part_cycles[part].fetch_add(t1 - t0, std::memory_order_relaxed);
  return t1;
}
// comm::poll entered (returns now) and left: its time, and the time since
// the last poll on this thread when that was under 52 000 cycles (20 us
// at this machine's 2.6 GHz TSC: a waiting loop's
// round, not a thread that came back from other work).
inline std::uint64_t poll_begin() {
  std::uint64_t t = __rdtsc();
  if (tl_poll_end && t - tl_poll_end < 20 * 2600)
    round_part(1, tl_poll_end);
  return t;
}
inline void poll_end(std::uint64_t t0) { tl_poll_end = round_part(0, t0); }
inline void barrier_tested(std::uint64_t t0) {
  g_log.barrier_tests.fetch_add(1, std::memory_order_relaxed);
  g_log.barrier_cycles.fetch_add(__rdtsc() - t0, std::memory_order_relaxed);
}
#else
inline std::uint64_t now() { return 0; }
inline void set_rank(int) {}
inline void stamp(event, unsigned, std::uint64_t, std::uint64_t = 0,
                  std::uint64_t = 0) {}
inline void receive_tested(std::uint64_t, bool, unsigned, std::uint64_t) {}
inline void barrier_tested(std::uint64_t) {}
inline std::uint64_t poll_begin() { return 0; }
inline void poll_end(std::uint64_t) {}
#endif

} // namespace weft::dist::at_split
