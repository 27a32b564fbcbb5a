// at() between two MPI ranks against raw MPI in the same run (issue 13's
// targets): an at() with an empty closure against an MPI ping-pong of the
// same size as the call's message, and a primitive array carried by at()
// against one MPI_Put + MPI_Win_flush of its bytes (mpi_put) and against
// that put followed by a ping-pong of the call's message (mpi_put_notify:
// the bytes moved, the target told, its answer received, as an at() does),
// and against the same put into a rotating destination (mpi_put_ring: the
// positions an at()'s graphs take in the target's ring, one after another
// until the ring restarts past 256 KiB, as its drained ring does; mpi_put
// writes the same bytes of the window every time).
// Repetitions interleave
// the kinds in a shuffled order (the same on both ranks); each measurement
// is the mean over enough iterations for ~10 ms. Prints JSON (per kind and
// size: the median time per operation and its min-max over repetitions, and
// the minor page faults per operation on each rank, from getrusage: the
// first touches of the incoming ring, which the ring restart avoids), and
// the context switches per operation on each rank (voluntary and
// involuntary, from getrusage: a thread that sleeps and is woken, or is
// preempted, on the operation's path; they do not move with the load as
// times do). With --empty-only, only the empty at() and the ping-pong.
// With --strategies, the same arrays and doubly-linked lists also travel
// under the three strategies of bench/imsuite/strategy.hpp (weft's copy,
// Boost.Serialization message passing, the Pegasus-style walk), each an at()
// whose f is empty: kinds array_<strategy> and list_<strategy>.
//
//   mpirun -n 2 places_dist [--reps 7] [--quick] [--sizes 8192,65536]
//       [--strategies] [--empty-only] [--min-iters N] [--idle SECONDS]
//       [--calls N [--gap-us G] [--array D] [--target-busy]]
//
// --calls N: only N empty at() from rank 0 to rank 1, each timed, G us
// apart (0: back to back), no calibration: a fixed amount of work for
// per-call counts (valgrind --tool=callgrind, perf stat, strace -c) and,
// with a gap, the isolated call (the threads of both ranks have gone idle
// meanwhile). Prints the median, min and max per call and the context
// switches per call on each rank. With --array D each call carries a
// primitive array of D doubles; the comm layer's counts per call (messages,
// puts and their bytes, remote atomics, arrays staged before their put
// because page-aliased: docs/places.md) on each rank are printed too.
// --target-busy: rank 1's main thread spins outside weft meanwhile (it never
// polls), so the calls are received by another worker of rank 1 (the idle
// hook) or by its progress thread.
#include "imsuite/strategy.hpp"

#include <weft/dist.hpp>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {

// --calls --target-busy: calls served on rank 1.
std::atomic<long> g_served{0};

struct vec {
  weft::array<double> xs;
};

struct lnode {
  std::int64_t v;
  lnode *next;
  lnode *prev;
};

// The Pegasus-style walk of a list (strategy.hpp; vec, flat, is walked by
// its registered layout).
lnode *pull(imsuite::puller &p, const lnode *head) {
  lnode *c = p.object(head);
  std::vector<lnode *> todo{c};
  while (!todo.empty()) {
    lnode *x = todo.back();
    todo.pop_back();
    for (lnode **f : {&x->next, &x->prev}) {
      if (!*f)
        continue;
      bool fresh = !p.seen(*f);
      lnode *y = p.object(*f);
      if (fresh)
        todo.push_back(y);
      *f = y;
    }
  }
  return c;
}

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

} // namespace

WEFT_TYPE(vec, &vec::xs);
WEFT_TYPE(lnode, &lnode::next, &lnode::prev);

// The message-passing strategy's serialisation (strategy.hpp).
namespace boost::serialization {
template <class A> void serialize(A &a, lnode &n, unsigned) {
  a &n.v &n.next &n.prev;
}
} // namespace boost::serialization

int main(int argc, char **argv) {
  CLI::App app{"weft places across ranks: at() against raw MPI"};
  int reps = 7;
  bool quick = false;
  app.add_option("--reps", reps, "interleaved repetitions")
      ->check(CLI::Range(1, 1000));
  app.add_flag("--quick", quick, "fewer sizes, shorter measurements");
  bool strategies = false;
  app.add_flag("--strategies", strategies,
               "arrays and lists under weft, mp and pegasus as well");
  std::vector<std::size_t> only;
  app.add_option("--sizes", only, "array lengths (doubles) to measure")
      ->delimiter(',')
      ->check(CLI::Range(std::size_t(1), std::size_t(1) << 24));
  bool empty_only = false;
  app.add_flag("--empty-only", empty_only,
               "the empty at() and the ping-pong only");
  long min_iters = 1;
  app.add_option("--min-iters", min_iters,
                 "iterations per measurement at least (the calibration "
                 "aims at ~10 ms; a slow first run under load gives few)")
      ->check(CLI::Range(1L, 1000000L));
  double idle_s = 0;
  app.add_option("--idle", idle_s,
                 "only: rank 1 waits in a barrier while rank 0 sleeps this "
                 "long; prints each rank's CPU seconds meanwhile")
      ->check(CLI::Range(0.0, 60.0));
  long calls = 0;
  app.add_option("--calls", calls,
                 "only: N empty at() calls from rank 0, each timed")
      ->check(CLI::Range(1L, 100000000L));
  std::size_t call_doubles = 0;
  app.add_option("--array", call_doubles,
                 "with --calls: each call carries a primitive array of this "
                 "many doubles (0: the empty at())")
      ->check(CLI::Range(std::size_t(0), std::size_t(1) << 24));
  double gap_us = 0;
  app.add_option("--gap-us", gap_us,
                 "with --calls: sleep this long before each call")
      ->check(CLI::Range(0.0, 1e6));
  bool target_busy = false;
  app.add_flag("--target-busy", target_busy,
               "with --calls: rank 1's main thread spins outside weft (no "
               "wait that polls) until every call was served, so another "
               "worker (WEFT_NUM_THREADS >= 2) or the progress thread must "
               "receive them");
  CLI11_PARSE(app, argc, argv);

  weft::places_mpi_init();
  int me = weft::here().id;
  if (weft::num_places() != 2) {
    std::fprintf(stderr, "places_dist: run on 2 ranks (mpirun -n 2)\n");
    weft::places_mpi_finalize();
    return 2;
  }
  if (weft::places_mpi_thread_level() < MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "places_dist: the raw MPI baselines need "
                         "MPI_THREAD_MULTIPLE\n");
    weft::places_mpi_finalize();
    return 2;
  }
  if (idle_s > 0) {
    // What an idle rank costs: its progress thread spins for a bounded
    // time after the last message, then naps; its waiting thread polls
    // for 1 ms, then sleeps.
    auto cpu = [] {
      rusage u{};
      getrusage(RUSAGE_SELF, &u);
      return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    };
    weft::places_mpi_barrier();
    double c0 = cpu();
    auto t0 = clock_type::now();
    if (me == 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(idle_s));
    weft::places_mpi_barrier();
    double used = cpu() - c0, wall = seconds_since(t0);
    std::printf("{\"rank\": %d, \"wall_s\": %.3f, \"cpu_s\": %.4f, "
                "\"cpu_share\": %.4f}\n",
                me, wall, used, used / wall);
    weft::places_mpi_finalize();
    return 0;
  }
  if (calls > 0) {
    auto switches = [] {
      rusage u{};
      getrusage(RUSAGE_SELF, &u);
      return std::vector<double>{double(u.ru_nvcsw), double(u.ru_nivcsw)};
    };
    std::vector<double> per(std::size_t(calls), 0.0);
    vec *carried = nullptr; // --array: the graph each call carries
    if (call_doubles) {
      carried = weft::make<vec>(weft::here());
      carried->xs = weft::make_array<double>(weft::here(), call_doubles);
      std::fill(carried->xs.begin(), carried->xs.end(), 2.5);
    }
    // The comm layer's counts per call on each rank (messages, puts, their
    // bytes, remote atomics), from places_mpi_stats around the calls.
    auto comm = [] {
      weft::dist_stats d = weft::places_mpi_stats();
      return std::vector<double>{double(d.calls_sent),
                                 double(d.replies_sent),
                                 double(d.control_sent),
                                 double(d.heartbeats_sent),
                                 double(d.puts),
                                 double(d.put_bytes),
                                 double(d.atomics),
                                 double(d.calls_received),
                                 double(d.replies_received),
                                 double(d.puts_staged)};
    };
    weft::places_mpi_barrier();
    if (target_busy && weft::num_threads() < 2) {
      std::fprintf(stderr, "places_dist: --target-busy needs "
                           "WEFT_NUM_THREADS >= 2\n");
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    weft::dist_stats d0 = weft::places_mpi_stats();
    std::vector<double> s0 = switches(), c0 = comm();
    if (me == 0)
      for (long i = 0; i < calls; ++i) {
        if (gap_us > 0)
          std::this_thread::sleep_for(
              std::chrono::duration<double, std::micro>(gap_us));
        auto t0 = clock_type::now();
        if (target_busy)
          weft::at(weft::place{1}, carried, [](vec *) {
            g_served.fetch_add(1, std::memory_order_relaxed);
          });
        else
          weft::at(weft::place{1}, carried, [](vec *) {});
        per[std::size_t(i)] = seconds_since(t0) * 1e6;
      }
    else if (target_busy)
      while (g_served.load(std::memory_order_relaxed) < calls)
        ; // busy: no weft wait, so no poll from this thread
    weft::dist_stats d1 = weft::places_mpi_stats();
    // Rank 1 served the calls until rank 0 reached this barrier (its few
    // switches are spread over the calls).
    weft::places_mpi_barrier(); // an MPI_Barrier: no messages counted
    std::vector<double> s1 = switches(), c1 = comm();
    double mine[3] = {(s1[0] - s0[0]) / double(calls),
                      (s1[1] - s0[1]) / double(calls),
                      double(d1.calls_polled - d0.calls_polled)};
    double both[6] = {};
    MPI_Gather(mine, 3, MPI_DOUBLE, both, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    std::vector<double> cm(c0.size()), cb(2 * c0.size());
    for (std::size_t i = 0; i < c0.size(); ++i)
      cm[i] = (c1[i] - c0[i]) / double(calls);
    MPI_Gather(cm.data(), int(cm.size()), MPI_DOUBLE, cb.data(), int(cm.size()),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (me == 0) {
      // The mean with the tail (what a timed loop of calls sees) and the
      // share of the time spent in calls over 10 us (preempted or woken).
      double sum = 0, slow = 0;
      for (double x : per) {
        sum += x;
        if (x > 10)
          slow += x;
      }
      std::sort(per.begin(), per.end());
      std::printf("{\"calls\": %ld, \"gap_us\": %g, \"mean_us\": %.3f, "
                  "\"time_in_calls_over_10us\": %.3f, \"median_us\": %.3f, "
                  "\"min_us\": %.3f, \"p90_us\": %.3f, \"p99_us\": %.3f, "
                  "\"max_us\": %.3f, "
                  "\"switches_per_call\": {\"caller\": [%.3f, %.3f], "
                  "\"target\": [%.3f, %.3f]}, \"target_busy\": %s, "
                  "\"calls_received_by_polling_threads\": %.0f, "
                  "\"array_doubles\": %zu, \"per_call\": {",
                  calls, gap_us, sum / double(calls), slow / sum,
                  per[per.size() / 2], per.front(), per[per.size() * 9 / 10],
                  per[per.size() * 99 / 100], per.back(), both[0], both[1],
                  both[3], both[4], target_busy ? "true" : "false", both[5],
                  call_doubles);
      const char *names[] = {
          "calls_sent",      "replies_sent",   "control_sent",
          "heartbeats_sent", "puts",           "put_bytes",
          "atomics",         "calls_received", "replies_received",
          "puts_staged"};
      for (int r = 0; r < 2; ++r) {
        std::printf("%s\"%s\": {", r ? ", " : "", r ? "target" : "caller");
        for (std::size_t i = 0; i < cm.size(); ++i)
          std::printf("%s\"%s\": %.3f", i ? ", " : "", names[i],
                      cb[r * cm.size() + i]);
        std::printf("}");
      }
      std::printf("}}\n");
    }
    weft::places_mpi_finalize();
    return 0;
  }
  std::vector<std::size_t> sizes = {1, 64, 512, 2048, 8192, 65536, 1048576};
  if (quick)
    sizes = {1, 2048, 65536};
  if (!only.empty()) {
    sizes = only;
    std::sort(sizes.begin(), sizes.end());
  }
  const double target_s = quick ? 0.004 : 0.01;

  // The raw baselines' own window and communicator.
  MPI_Comm raw;
  MPI_Comm_dup(MPI_COMM_WORLD, &raw);
  std::map<std::size_t, vec *> vecs;
  for (std::size_t n : sizes) {
    vec *v = weft::make<vec>(weft::here());
    v->xs = weft::make_array<double>(weft::here(), n);
    std::fill(v->xs.begin(), v->xs.end(), 2.5);
    vecs[n] = v;
  }
  // mpi_put_ring: the ring's positions for the graph at_array sends for n
  // doubles (what the measure pass counts, headers and alignment filler
  // included, in the ring's granules), from 0 until past kRingRestart,
  // then 0 again: the ring's own definitions (weft/dist.hpp).
  constexpr std::size_t kRingRestart = weft::detail::kRingRestartPast;
  auto ring_stride = [&vecs](std::size_t n) {
    return weft::detail::ring_bytes(weft::measure(vecs.at(n)).bytes);
  };
  void *raw_base = nullptr;
  MPI_Win raw_win;
  MPI_Win_allocate(MPI_Aint(kRingRestart + 2 * ring_stride(sizes.back()) + 64),
                   1, MPI_INFO_NULL, raw, &raw_base, &raw_win);
  // mpi_put_ring as an at()'s put: its destination and its source 64-byte
  // aligned (weft's window starts on a page; MPI_Win_allocate's base was 8
  // bytes past one, which mpi_put keeps: a memcpy between addresses that
  // differ modulo 64 is 5-35% slower here, docs/places.md).
  std::uint64_t target_base = reinterpret_cast<std::uintptr_t>(raw_base);
  MPI_Bcast(&target_base, 1, MPI_UINT64_T, 1, raw);
  const std::size_t ring0 = std::size_t(-target_base & 63);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, raw_win);
  std::vector<double> src(sizes.back(), 1.5);
  std::vector<double> src_ring_store(sizes.back() + 8, 1.5);
  double *src_ring = reinterpret_cast<double *>(
      (reinterpret_cast<std::uintptr_t>(src_ring_store.data()) + 63) &
      ~std::uintptr_t(63));

  constexpr int kMsg = 56; // the call message: header + objects word
  char msg[kMsg] = {};

  struct kind {
    std::string name;
    std::size_t n;
  };
  std::vector<kind> kinds = {{"at_empty", 0}, {"mpi_pingpong", 0}};
  for (std::size_t n : sizes) {
    if (empty_only)
      break;
    kinds.push_back({"at_array", n});
    kinds.push_back({"mpi_put", n});
    kinds.push_back({"mpi_put_ring", n});
    kinds.push_back({"mpi_put_notify", n});
  }
  const char *const strategy_names[] = {"weft", "mp", "pegasus"};
  std::vector<std::size_t> list_lengths = {1, 64, 1024};
  std::map<std::size_t, lnode *> lists;
  if (strategies) {
    for (const char *st : strategy_names) {
      for (std::size_t n : sizes)
        kinds.push_back({std::string("array_") + st, n});
      for (std::size_t n : list_lengths)
        kinds.push_back({std::string("list_") + st, n});
    }
    for (std::size_t n : list_lengths) {
      lnode *head = nullptr, *tail = nullptr;
      for (std::size_t i = 0; i < n; ++i) {
        lnode *x =
            weft::make<lnode>(weft::here(), std::int64_t(i), nullptr, tail);
        (tail ? tail->next : head) = x;
        tail = x;
      }
      lists[n] = head;
    }
  }
  auto strategy_of = [](const std::string &name) {
    std::string st = name.substr(name.find('_') + 1);
    return st == "mp"        ? imsuite::strategy::mp
           : st == "pegasus" ? imsuite::strategy::pegasus
                             : imsuite::strategy::weft;
  };
  std::map<std::string, std::map<std::size_t, std::vector<double>>> times;
  // Minor faults and voluntary and involuntary context switches per
  // operation of the last run() on [caller, target].
  enum { kFaults, kVoluntary, kInvoluntary, kCounts };
  double counts[kCounts][2] = {};
  std::map<std::string, std::map<std::size_t, std::vector<double>>>
      counts_at[kCounts][2];
  auto usage = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return std::vector<double>{double(u.ru_minflt), double(u.ru_nvcsw),
                               double(u.ru_nivcsw)};
  };
  std::mt19937 rng(12345); // the same order on both ranks
  auto run = [&](const kind &k, long iters) {
    weft::places_mpi_barrier();
    std::vector<double> u0 = usage();
    auto t0 = clock_type::now();
    if (k.name == "mpi_pingpong") {
      for (long i = 0; i < iters; ++i) {
        if (me == 0) {
          MPI_Send(msg, kMsg, MPI_BYTE, 1, 1, raw);
          MPI_Recv(msg, kMsg, MPI_BYTE, 1, 1, raw, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(msg, kMsg, MPI_BYTE, 0, 1, raw, MPI_STATUS_IGNORE);
          MPI_Send(msg, kMsg, MPI_BYTE, 0, 1, raw);
        }
      }
    } else if (me == 0 && k.name == "at_empty") {
      for (long i = 0; i < iters; ++i)
        weft::at(weft::place{1}, static_cast<vec *>(nullptr), [](vec *) {});
    } else if (me == 0 && k.name == "at_array") {
      vec *v = vecs[k.n];
      for (long i = 0; i < iters; ++i)
        weft::at(weft::place{1}, v, [](vec *) {});
    } else if (me == 0 && k.name.rfind("array_", 0) == 0) {
      imsuite::g_strategy = strategy_of(k.name);
      vec *v = vecs[k.n];
      for (long i = 0; i < iters; ++i)
        imsuite::send(weft::place{1}, v, [](vec *) {});
    } else if (me == 0 && k.name.rfind("list_", 0) == 0) {
      imsuite::g_strategy = strategy_of(k.name);
      lnode *head = lists[k.n];
      for (long i = 0; i < iters; ++i)
        imsuite::send(weft::place{1}, head, [](lnode *) {});
    } else if (k.name == "mpi_put_notify") {
      // Raw MPI doing what an at() with the array does at the least: the
      // put, then a message that tells the target, and its answer.
      for (long i = 0; i < iters; ++i) {
        if (me == 0) {
          MPI_Put(src.data(), int(k.n * sizeof(double)), MPI_BYTE, 1, 0,
                  int(k.n * sizeof(double)), MPI_BYTE, raw_win);
          MPI_Win_flush(1, raw_win);
          MPI_Send(msg, kMsg, MPI_BYTE, 1, 2, raw);
          MPI_Recv(msg, kMsg, MPI_BYTE, 1, 2, raw, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(msg, kMsg, MPI_BYTE, 0, 2, raw, MPI_STATUS_IGNORE);
          MPI_Send(msg, kMsg, MPI_BYTE, 0, 2, raw);
        }
      }
    } else if (me == 0 && k.name == "mpi_put_ring") {
      const std::size_t stride = ring_stride(k.n);
      std::size_t at = 0;
      for (long i = 0; i < iters; ++i) {
        MPI_Put(src_ring, int(k.n * sizeof(double)), MPI_BYTE, 1,
                MPI_Aint(ring0 + at), int(k.n * sizeof(double)), MPI_BYTE,
                raw_win);
        MPI_Win_flush(1, raw_win);
        at = at + stride >= kRingRestart ? 0 : at + stride;
      }
    } else if (me == 0 && k.name == "mpi_put") {
      for (long i = 0; i < iters; ++i) {
        MPI_Put(src.data(), int(k.n * sizeof(double)), MPI_BYTE, 1, 0,
                int(k.n * sizeof(double)), MPI_BYTE, raw_win);
        MPI_Win_flush(1, raw_win);
      }
    }
    double t = seconds_since(t0);
    weft::places_mpi_barrier(); // rank 1 serves the at() calls meanwhile
    // (the barrier's own few switches are spread over the iterations)
    std::vector<double> u1 = usage();
    for (int c = 0; c < kCounts; ++c) {
      double mine = (u1[c] - u0[c]) / double(iters);
      MPI_Gather(&mine, 1, MPI_DOUBLE, counts[c], 1, MPI_DOUBLE, 0, raw);
    }
    return t / double(iters);
  };
  // Calibrate the iteration counts on rank 0; rank 1 follows.
  std::map<std::string, std::map<std::size_t, long>> iters;
  for (const kind &k : kinds) {
    long n = 1;
    for (;;) {
      double per = run(k, n);
      long want = 0;
      if (me == 0)
        want = per * double(n) >= target_s / 4
                   ? 0
                   : std::max<long>(2 * n, long(target_s / 4 / per));
      MPI_Bcast(&want, 1, MPI_LONG, 0, raw);
      if (!want) {
        long full = 0;
        if (me == 0)
          full = std::max<long>(1, long(target_s / per));
        MPI_Bcast(&full, 1, MPI_LONG, 0, raw);
        iters[k.name][k.n] = std::max(full, min_iters);
        break;
      }
      n = want;
    }
  }
  for (int r = 0; r < reps; ++r) {
    std::shuffle(kinds.begin(), kinds.end(), rng);
    for (const kind &k : kinds) {
      times[k.name][k.n].push_back(run(k, iters[k.name][k.n]));
      for (int c = 0; c < kCounts; ++c)
        for (int who = 0; who < 2; ++who)
          counts_at[c][who][k.name][k.n].push_back(counts[c][who]);
    }
  }
  // Who received the messages: a waiting thread itself (polling) or the
  // progress thread; on [caller, target].
  weft::dist_stats ds = weft::places_mpi_stats();
  // And the arrays staged before their put (page-aliased, docs/places.md).
  double mine[6] = {double(ds.calls_received),   double(ds.calls_polled),
                    double(ds.replies_received), double(ds.replies_polled),
                    double(ds.progress_naps),    double(ds.puts_staged)};
  double both[12] = {};
  MPI_Gather(mine, 6, MPI_DOUBLE, both, 6, MPI_DOUBLE, 0, raw);
  if (me == 0) {
    nlohmann::json out;
    for (int r = 0; r < 2; ++r)
      out["comm"][r == 0 ? "caller" : "target"] = {
          {"calls_received", both[6 * r]},
          {"calls_polled", both[6 * r + 1]},
          {"replies_received", both[6 * r + 2]},
          {"replies_polled", both[6 * r + 3]},
          {"progress_naps", both[6 * r + 4]},
          {"puts_staged", both[6 * r + 5]}};
    out["reps"] = reps;
    out["ranks"] = 2;
    out["mpi_thread_level"] = weft::places_mpi_thread_level();
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    for (auto &[name, by_n] : times)
      for (auto &[n, v] : by_n) {
        std::vector<double> s = v;
        std::sort(s.begin(), s.end());
        out["results"][name][std::to_string(n)] = {
            {"median_us", s[s.size() / 2] * 1e6},
            {"min_us", s.front() * 1e6},
            {"max_us", s.back() * 1e6},
            {"bytes", n * sizeof(double)},
            {"minor_faults_per_op_caller",
             median(counts_at[kFaults][0][name][n])},
            {"minor_faults_per_op_target",
             median(counts_at[kFaults][1][name][n])},
            {"voluntary_switches_per_op_caller",
             median(counts_at[kVoluntary][0][name][n])},
            {"voluntary_switches_per_op_target",
             median(counts_at[kVoluntary][1][name][n])},
            {"involuntary_switches_per_op_caller",
             median(counts_at[kInvoluntary][0][name][n])},
            {"involuntary_switches_per_op_target",
             median(counts_at[kInvoluntary][1][name][n])}};
      }
    std::printf("%s\n", out.dump(1).c_str());
  }
  MPI_Win_unlock_all(raw_win);
  MPI_Win_free(&raw_win);
  MPI_Comm_free(&raw);
  weft::places_mpi_finalize();
  return 0;
}
