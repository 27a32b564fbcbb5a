// dist::block_cache (src/dist/block_cache.hpp), the per-thread cache of
// the arrived calls' blocks: randomised at 1, 2 and 4 threads, blocks taken
// on one thread and given back on another (as a call received by the
// progress thread and run by a worker), checking that no block is handed
// out while it is still in use and that each holder's bytes stay its own.
#include "dist/block_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_set>
#include <vector>

namespace {

constexpr std::size_t kBytes = 176, kKeep = 8;
using cache = weft::dist::block_cache<kBytes, kKeep>;

struct shared_state {
  std::mutex lock;
  std::unordered_set<void *> live; // blocks handed out and not given back
  std::deque<void *> passed;       // blocks handed to another thread
  std::atomic<std::uint64_t> duplicates{0}, corrupted{0}, reused{0};
};

void stamp(void *b, std::uint64_t v) {
  for (std::size_t i = 0; i < kBytes / 8; ++i)
    std::memcpy(static_cast<char *>(b) + 8 * i, &v, 8);
}
bool stamped(const void *b, std::uint64_t v) {
  for (std::size_t i = 0; i < kBytes / 8; ++i) {
    std::uint64_t w;
    std::memcpy(&w, static_cast<const char *>(b) + 8 * i, 8);
    if (w != v)
      return false;
  }
  return true;
}

void run(int threads, unsigned seed) {
  shared_state st;
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      std::mt19937_64 rng(seed + unsigned(t));
      // Blocks this thread holds, with the stamp it wrote.
      std::vector<std::pair<void *, std::uint64_t>> held;
      std::unordered_set<void *> given_here;
      for (int i = 0; i < 20000; ++i) {
        const unsigned op = unsigned(rng() % 8);
        if (op < 3 || held.empty()) { // take
          void *b = cache::take();
          {
            std::lock_guard<std::mutex> lk(st.lock);
            if (!st.live.insert(b).second)
              st.duplicates.fetch_add(1);
          }
          if (given_here.erase(b))
            st.reused.fetch_add(1);
          std::uint64_t v = rng() | 1;
          stamp(b, v);
          held.emplace_back(b, v);
        } else if (op < 5) { // give back here
          std::size_t k = rng() % held.size();
          auto [b, v] = held[k];
          held[k] = held.back();
          held.pop_back();
          if (!stamped(b, v))
            st.corrupted.fetch_add(1);
          {
            std::lock_guard<std::mutex> lk(st.lock);
            st.live.erase(b);
          }
          cache::give(b);
          given_here.insert(b);
          EXPECT_LE(cache::cached(), kKeep);
        } else if (op < 7) { // pass to another thread
          std::size_t k = rng() % held.size();
          auto [b, v] = held[k];
          held[k] = held.back();
          held.pop_back();
          if (!stamped(b, v))
            st.corrupted.fetch_add(1);
          stamp(b, 0);
          std::lock_guard<std::mutex> lk(st.lock);
          st.passed.push_back(b);
        } else { // receive one passed by some thread, and give it back
          void *b = nullptr;
          {
            std::lock_guard<std::mutex> lk(st.lock);
            if (!st.passed.empty()) {
              b = st.passed.front();
              st.passed.pop_front();
            }
          }
          if (!b)
            continue;
          if (!stamped(b, 0))
            st.corrupted.fetch_add(1);
          {
            std::lock_guard<std::mutex> lk(st.lock);
            st.live.erase(b);
          }
          cache::give(b);
          given_here.insert(b);
        }
      }
      for (auto [b, v] : held) {
        if (!stamped(b, v))
          st.corrupted.fetch_add(1);
        {
          std::lock_guard<std::mutex> lk(st.lock);
          st.live.erase(b);
        }
        cache::give(b);
      }
    });
  for (auto &t : ts)
    t.join();
  for (void *b : st.passed) // given back on this thread
    cache::give(b);
  EXPECT_EQ(st.duplicates.load(), 0u)
      << "a block handed out twice (seed " << seed << ")";
  EXPECT_EQ(st.corrupted.load(), 0u)
      << "a holder's bytes changed (seed " << seed << ")";
  // The cache is used: blocks given back on a thread come back there.
  EXPECT_GT(st.reused.load(), 0u);
}

} // namespace

TEST(BlockCache, NoBlockHandedOutTwice) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  for (int threads : {1, 2, 4})
    run(threads, seed);
}

TEST(BlockCache, KeepsAtMostNAndFreesTheRest) {
  std::thread([] {
    std::vector<void *> bs;
    for (std::size_t i = 0; i < 3 * kKeep; ++i)
      bs.push_back(cache::take());
    EXPECT_EQ(cache::cached(), 0u);
    for (void *b : bs)
      cache::give(b);
    EXPECT_EQ(cache::cached(), kKeep);
    // Taken back last in, first out: the last kKeep given.
    for (std::size_t i = 0; i < kKeep; ++i)
      EXPECT_EQ(cache::take(), bs[kKeep - 1 - i]);
    EXPECT_EQ(cache::cached(), 0u);
    for (std::size_t i = 0; i < kKeep; ++i)
      cache::give(bs[kKeep - 1 - i]);
  }).join(); // the thread's cached blocks are freed (ASan/valgrind: no leak)
}
