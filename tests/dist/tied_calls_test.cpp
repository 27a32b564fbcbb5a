// Remote calls from OpenMP tied tasks (issue 13, docs/places.md "Nested
// waits"): on rank 0 an OpenMP region (parallel + single) makes tied tasks
// that call rank 1 with at(), whose f calls back into rank 0. Rank 0's
// workers all wait under tied tasks then; the call-backs must still be
// served (an arrived call is a root: serving it breaks no scheduling
// constraint of the program's own tasks), and a worker inside the region
// must see the native team's inbox where the progress thread queues them
// (FUNNELED). Before the fix this hung: run under a time limit (ctest's
// TIMEOUT), a hang is a failure.
//
// Built with -fopenmp but linked against weft alone (no libgomp): the
// pragmas run on weft's OpenMP front end, which turns the tied-task
// constraint on (worker::tied_limit).
#include "../places/graph_util.hpp"

#include "dist_env.hpp"

#include <weft/dist.hpp>

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

using dist_test::expected_world;
using dist_test::scale;

using pt::leaf;

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

// A chain of calls bouncing between ranks: on rank r, a call at depth d > 0
// calls rank (r + 1) % world with depth d - 1, by at() or async_at + get
// (by the seed), and combines that value with its own. From rank 0 at depth
// 2k, rank 0 is called back k times, nested.
struct bounce {
  std::uint64_t seed;
  int depth;
  std::uint64_t operator()(leaf *) const {
    const int here = weft::here().id;
    std::uint64_t v = seed % 1000 + 1000 * std::uint64_t(here);
    if (depth == 0)
      return v;
    weft::place next{(here + 1) % weft::num_places()};
    bounce c{mix(seed + 1), depth - 1};
    std::uint64_t got;
    if (seed & 16) {
      got = weft::at(next, static_cast<leaf *>(nullptr), c);
    } else {
      auto f = weft::async_at(next, static_cast<leaf *>(nullptr), c);
      got = f.get();
    }
    return v * 31 + got;
  }
};

// The serial meaning of bounce{seed, depth} started on rank `from`.
std::uint64_t bounce_value(std::uint64_t seed, int depth, int from, int world) {
  std::uint64_t v = seed % 1000 + 1000 * std::uint64_t(from);
  if (depth == 0)
    return v;
  return v * 31 +
         bounce_value(mix(seed + 1), depth - 1, (from + 1) % world, world);
}

// The trial program of docs/places.md: 8 tied tasks, each calling rank 1
// whose f calls back into rank 0.
TEST(TiedCalls, TiedTasksCallOutAndAreCalledBack) {
  ASSERT_EQ(weft::num_places(), expected_world());
  constexpr int kTasks = 8;
  std::vector<std::uint64_t> got(kTasks, 0);
  std::atomic<int> threads{0};
  weft::dist_stats before = weft::places_mpi_stats();
#pragma omp parallel
  {
#pragma omp single
    {
      threads.store(omp_get_num_threads());
      for (int i = 0; i < kTasks; ++i) {
#pragma omp task firstprivate(i) shared(got)
        got[i] =
            weft::at(weft::place{1}, static_cast<leaf *>(nullptr),
                     [i](leaf *) -> std::uint64_t {
                       // On rank 1: call back into rank 0.
                       int back = weft::at(
                           weft::place{0}, static_cast<leaf *>(nullptr),
                           [i](leaf *) { return weft::here().id * 100 + i; });
                       return std::uint64_t(back) * 10 + weft::here().id;
                     });
      }
    }
  }
  weft::dist_stats after = weft::places_mpi_stats();
  for (int i = 0; i < kTasks; ++i)
    EXPECT_EQ(got[i], std::uint64_t(i) * 10 + 1) << "task " << i;
  EXPECT_GE(after.calls_received - before.calls_received, std::uint64_t(kTasks))
      << "rank 0 served the call-backs";
  std::printf("tied tasks: %d threads in the region, rank 0 served %llu "
              "calls (%llu by a waiting thread)\n",
              threads.load(),
              static_cast<unsigned long long>(after.calls_received -
                                              before.calls_received),
              static_cast<unsigned long long>(after.calls_polled -
                                              before.calls_polled));
}

// Random rounds: each an OpenMP region whose single makes 1-12 tied tasks,
// each making a chain with 1-4 nested call-backs into rank 0 (and, at more
// ranks, through every rank in turn); some tasks make two chains, one of
// them from a child task (tied too). Checked against the serial meaning.
TEST(TiedCalls, RandomCallBackDepthsFromTiedTasks) {
  const int world = weft::num_places();
  const std::uint64_t seed = dist_test::seed();
  std::printf("TiedCalls.RandomCallBackDepthsFromTiedTasks: seed %llu "
              "(WEFT_TEST_SEED)\n",
              static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const int rounds = int(6 * scale()) + 1;
  int max_depth = 0, total = 0;
  for (int round = 0; round < rounds; ++round) {
    const int tasks = 1 + int(rng() % 12);
    struct plan {
      std::uint64_t seed[2];
      int depth[2];
      bool two;
    };
    std::vector<plan> plans(static_cast<std::size_t>(tasks));
    for (plan &p : plans) {
      for (int k = 0; k < 2; ++k) {
        p.seed[k] = rng();
        // d call-backs into rank 0: the chain goes round the world d times.
        int callbacks = 1 + int(rng() % 4);
        p.depth[k] = callbacks * world;
        max_depth = std::max(max_depth, callbacks);
      }
      p.two = rng() % 3 == 0;
    }
    std::vector<std::uint64_t> got(static_cast<std::size_t>(tasks) * 2, 0);
#pragma omp parallel shared(plans, got)
    {
#pragma omp single
      for (int i = 0; i < tasks; ++i) {
#pragma omp task firstprivate(i) shared(plans, got)
        {
          const plan &p = plans[std::size_t(i)];
          if (p.two) {
#pragma omp task firstprivate(i) shared(plans, got)
            got[std::size_t(i) * 2 + 1] =
                weft::at(weft::place{1 % world}, static_cast<leaf *>(nullptr),
                         bounce{plans[std::size_t(i)].seed[1],
                                plans[std::size_t(i)].depth[1] - 1});
          }
          got[std::size_t(i) * 2] =
              weft::at(weft::place{1 % world}, static_cast<leaf *>(nullptr),
                       bounce{p.seed[0], p.depth[0] - 1});
#pragma omp taskwait
        }
      }
    }
    for (int i = 0; i < tasks; ++i) {
      const plan &p = plans[std::size_t(i)];
      for (int k = 0; k < (p.two ? 2 : 1); ++k) {
        EXPECT_EQ(got[std::size_t(i) * 2 + std::size_t(k)],
                  bounce_value(p.seed[k], p.depth[k] - 1, 1 % world, world))
            << "round " << round << " task " << i << " chain " << k << " seed "
            << seed;
        ++total;
      }
    }
  }
  std::printf("random tied calls: %d rounds, %d chains, up to %d "
              "call-backs into rank 0 nested\n",
              rounds, total, max_depth);
}

// One chain with more call-backs into rank 0 than one stack serves above a
// tied task (worker::kMaxServedUnderTied = 16): past the bound a worker
// hands the call on (the inbox) and another worker of rank 0 serves it. At
// W workers a rank hangs only with 16 x W such calls nested at once
// (docs/places.md), so this needs 2 workers: 20 nested call-backs < 32.
TEST(TiedCalls, ChainPastTheServingBound) {
  const char *t = std::getenv("WEFT_NUM_THREADS");
  if (!t || std::atoi(t) < 2)
    GTEST_SKIP() << "needs 2 workers per rank (one stack serves at most 16 "
                    "call-backs above a tied task)";
  const int world = weft::num_places();
  constexpr int kCallbacks = 20;
  const std::uint64_t seed = mix(dist_test::seed() + 99);
  std::uint64_t got = 0;
#pragma omp parallel shared(got)
  {
#pragma omp single
    {
#pragma omp task shared(got)
      got = weft::at(weft::place{1 % world}, static_cast<leaf *>(nullptr),
                     bounce{seed, kCallbacks * world - 1});
    }
  }
  EXPECT_EQ(got, bounce_value(seed, kCallbacks * world - 1, 1 % world, world));
}

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  weft::places_mpi_init(std::size_t(16) << 20);
  int rc = dist_test::run_tests_on_rank0();
  weft::places_mpi_finalize();
  return rc;
}
