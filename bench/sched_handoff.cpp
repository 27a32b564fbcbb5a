// Should Myrmics-style schedulers be dedicated threads or a role the
// workers take (issue 12, docs/regions.md)? The cost of one scheduler
// operation (a spawn's dependence analysis: `work` ns touching the
// scheduler's state) done three ways by `clients` worker threads on this
// machine:
//   role:    the worker takes the scheduler's lock and does it itself;
//   spin:    a dedicated scheduler thread polls one 64-byte-message queue
//            per worker (per-pair queues) and replies; it and the workers
//            spin (yielding the core) when there is nothing to do;
//   block:   the same, but the scheduler thread and the workers sleep on a
//            condition variable when there is nothing to do.
// Prints ns per operation: median [min, max] of interleaved repetitions.
//
// usage: sched_handoff [--ops N] [--reps R] [--work NS]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

// The scheduler's state and the work of one operation.
struct state {
  uint64_t cells[64] = {};
  void operate(uint64_t key, int work_ns) {
    auto end = clock_type::now() + std::chrono::nanoseconds(work_ns);
    do
      cells[key % 64] += key;
    while (clock_type::now() < end);
  }
};

struct alignas(64) message {
  std::atomic<uint64_t> seq{0}; // a request when odd
  uint64_t key = 0;
  char pad[48];
};
static_assert(sizeof(message) == 64, "the paper's 64-byte messages");

double run_role(int clients, int ops, int work) {
  state s;
  std::mutex m;
  auto t0 = clock_type::now();
  std::vector<std::thread> ts;
  for (int c = 0; c < clients; ++c)
    ts.emplace_back([&, c] {
      for (int i = 0; i < ops; ++i) {
        std::lock_guard<std::mutex> lk(m);
        s.operate(uint64_t(c) * ops + i, work);
      }
    });
  for (auto &t : ts)
    t.join();
  return std::chrono::duration<double, std::nano>(clock_type::now() - t0)
             .count() /
         (double(ops) * clients);
}

double run_thread(int clients, int ops, int work, bool block) {
  state s;
  std::vector<message> q(clients); // one slot per worker: request, reply
  std::atomic<int> done{0};
  std::mutex m;
  std::condition_variable cv_sched, cv_client;
  std::atomic<int> pending{0};
  auto t0 = clock_type::now();
  std::thread sched([&] {
    while (done.load(std::memory_order_acquire) < clients) {
      bool any = false;
      for (message &x : q) {
        uint64_t v = x.seq.load(std::memory_order_acquire);
        if (v & 1) {
          s.operate(x.key, work);
          x.seq.store(v + 1, std::memory_order_release);
          any = true;
          if (block) {
            pending.fetch_sub(1);
            std::lock_guard<std::mutex> lk(m);
            cv_client.notify_all();
          }
        }
      }
      if (!any && !block)
        std::this_thread::yield();
      if (!any && block) {
        std::unique_lock<std::mutex> lk(m);
        cv_sched.wait_for(lk, std::chrono::milliseconds(1), [&] {
          return pending.load() > 0 || done.load() >= clients;
        });
      }
    }
  });
  std::vector<std::thread> ts;
  for (int c = 0; c < clients; ++c)
    ts.emplace_back([&, c] {
      message &x = q[c];
      for (int i = 0; i < ops; ++i) {
        uint64_t v = x.seq.load(std::memory_order_relaxed);
        x.key = uint64_t(c) * ops + i;
        x.seq.store(v + 1, std::memory_order_release);
        if (block) {
          pending.fetch_add(1);
          std::unique_lock<std::mutex> lk(m);
          cv_sched.notify_one();
          cv_client.wait(lk, [&] {
            return x.seq.load(std::memory_order_acquire) == v + 2;
          });
        } else {
          while (x.seq.load(std::memory_order_acquire) != v + 2)
            std::this_thread::yield();
        }
      }
      done.fetch_add(1, std::memory_order_release);
      if (block) {
        std::lock_guard<std::mutex> lk(m);
        cv_sched.notify_one();
      }
    });
  for (auto &t : ts)
    t.join();
  sched.join();
  return std::chrono::duration<double, std::nano>(clock_type::now() - t0)
             .count() /
         (double(ops) * clients);
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"Scheduler as a dedicated thread or a worker's role"};
  int ops = 20000, reps = 7, work = 200;
  app.add_option("--ops", ops, "operations per worker")
      ->check(CLI::PositiveNumber);
  app.add_option("--reps", reps, "interleaved repetitions")
      ->check(CLI::PositiveNumber);
  app.add_option("--work", work, "ns of scheduler work per operation")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  std::printf("scheduler operations of %d ns, %d per worker, %d interleaved "
              "repetitions, %u hardware threads; ns per operation: median "
              "[min, max]\n",
              work, ops, reps, std::thread::hardware_concurrency());
  std::printf("%-8s %-26s %-26s %-26s\n", "workers", "role (lock)",
              "dedicated thread, spin", "dedicated thread, block");
  for (int clients : {1, 2}) {
    std::vector<double> r[3];
    for (int i = 0; i < reps; ++i) {
      r[0].push_back(run_role(clients, ops, work));
      r[1].push_back(run_thread(clients, ops, work, false));
      r[2].push_back(run_thread(clients, ops, work, true));
    }
    std::printf("%-8d", clients);
    for (auto &v : r) {
      std::sort(v.begin(), v.end());
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.0f [%.0f, %.0f]", v[v.size() / 2],
                    v.front(), v.back());
      std::printf(" %-26s", cell);
    }
    std::printf("\n");
  }
  return 0;
}
