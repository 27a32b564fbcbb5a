// How long one cache line takes to move between two CPUs of this machine:
// two threads, pinned to the first two CPUs the process may use, pass a
// counter back and forth through one line. On the development VM this
// swings between about 25 ns and 160 ns from one minute to the next (the
// host places the two virtual CPUs on one core's hyperthreads or on two
// cores), and every cross-core hand-off of a runtime with it:
// docs/benchmarks.md, "Two machines in one". The drivers print it beside
// their tables (benchlib.line_transfer).
//
// usage: line_transfer [--trips N] [--reps R]
// Prints `line_transfer_ns=M min=A max=B cpus=X,Y` (ns one way, median of
// R repetitions of N round trips each); exit 77 (a skip for ctest) with fewer
// than two CPUs.
#include <CLI/CLI.hpp>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

bool pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

struct echo_args {
  std::atomic<long> *line;
  long trips;
};

// The second thread: answers each odd value with the next even one.
void *echo(void *p) {
  echo_args &a = *static_cast<echo_args *>(p);
  for (long v = 1; v < 2 * a.trips; v += 2) {
    while (a.line->load(std::memory_order_acquire) != v) {
    }
    a.line->store(v + 1, std::memory_order_release);
  }
  return nullptr;
}

// ns one way over `trips` round trips between the calling thread on cpu a
// and a second thread on cpu b. The second thread starts on b (created
// with that affinity, not pinning itself once running: under a real-time
// policy, a thread that inherited the caller's cpu a would never run there
// beside the spinning caller).
double measure(int a, int b, long trips) {
  alignas(64) std::atomic<long> line{0};
  echo_args args{&line, trips};
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(b, &set);
  pthread_attr_t attr;
  pthread_t thread;
  if (pthread_attr_init(&attr) != 0 ||
      pthread_attr_setaffinity_np(&attr, sizeof set, &set) != 0 ||
      pthread_create(&thread, &attr, echo, &args) != 0) {
    std::fprintf(stderr, "line_transfer: cannot start a thread on cpu %d\n", b);
    std::exit(1);
  }
  pthread_attr_destroy(&attr);
  pin(a);
  auto t0 = std::chrono::steady_clock::now();
  for (long v = 0; v < 2 * trips; v += 2) {
    line.store(v + 1, std::memory_order_release);
    while (line.load(std::memory_order_acquire) != v + 2) {
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  pthread_join(thread, nullptr);
  return std::chrono::duration<double, std::nano>(t1 - t0).count() /
         static_cast<double>(2 * trips);
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"One-way cache-line transfer time between two CPUs"};
  long trips = 100000;
  int reps = 5;
  app.add_option("--trips", trips, "round trips per repetition")
      ->check(CLI::Range(1L, 100000000L));
  app.add_option("--reps", reps, "repetitions")->check(CLI::Range(1, 1000));
  CLI11_PARSE(app, argc, argv);

  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    std::perror("line_transfer: sched_getaffinity");
    return 2;
  }
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c)
    if (CPU_ISSET(c, &allowed))
      cpus.push_back(c);
  if (cpus.size() < 2) {
    std::fprintf(stderr,
                 "line_transfer: the process may use %zu CPU(s); it needs "
                 "two\n",
                 cpus.size());
    return 77;
  }
  std::vector<double> ns;
  for (int r = 0; r < reps; ++r)
    ns.push_back(measure(cpus[0], cpus[1], trips));
  std::sort(ns.begin(), ns.end());
  std::printf("line_transfer_ns=%.1f min=%.1f max=%.1f cpus=%d,%d\n",
              ns[ns.size() / 2], ns.front(), ns.back(), cpus[0], cpus[1]);
  return 0;
}
