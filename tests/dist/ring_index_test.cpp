// The incoming ring's bookkeeping alone (src/dist/ring_index.hpp), against
// its serial meaning: two ordered maps (live and released blocks by
// position) and the tail moved over released blocks from the tail on, as
// remote_at.cpp kept them before. Random reservations of random sizes
// arrive (live) or are forfeited (released unarrived), live graphs are
// released in random order, and graphs may land more than a lap past the
// tail over released holes (as senders reserve around a graph pinned at
// the tail), so blocks a lap apart share a table entry (the overflow map).
// After every step the tail and every block past it agree with the model.
// The errors: a double release, a release of a graph not in use, an arrival
// where a block starts, a release behind the tail, bad ranges.
#include "ring_index.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using weft::dist::ring_index;

struct model {
  std::uint64_t tail = 0;
  std::map<std::uint64_t, std::uint64_t> live, released;
  void release(std::uint64_t s, std::uint64_t e) {
    released.emplace(s, e);
    for (auto it = released.begin(); it != released.end() && it->first == tail;
         it = released.erase(it))
      tail = it->second;
  }
};

void agree(const ring_index &r, const model &m, std::uint64_t top) {
  ASSERT_EQ(r.released(), m.released.size());
  for (std::uint64_t p = m.tail; p < top; p += 64) {
    ring_index::block b = r.find(p);
    auto l = m.live.find(p);
    auto d = m.released.find(p);
    if (l != m.live.end()) {
      ASSERT_EQ(b.k, ring_index::kind::live) << p;
      ASSERT_EQ(b.end, l->second) << p;
    } else if (d != m.released.end()) {
      ASSERT_EQ(b.k, ring_index::kind::released) << p;
      ASSERT_EQ(b.end, d->second) << p;
    } else {
      ASSERT_EQ(b.k, ring_index::kind::none) << p;
    }
  }
}

bool overlaps_live(const model &m, std::uint64_t ring, std::uint64_t s,
                   std::uint64_t n) {
  for (const auto &l : m.live) {
    std::uint64_t a = l.first % ring, b = s % ring, ln = l.second - l.first;
    // Either may run past the ring's end (into the slack): compare both
    // laps' copies.
    for (std::uint64_t x : {a, a + ring})
      for (std::uint64_t y : {b, b + ring})
        if (x < y + n && y < x + ln)
          return true;
  }
  return false;
}

// Checks every block past the tail against the model every check_every
// steps (a scan of up to three laps).
void run(std::uint32_t seed, std::uint64_t ring, int steps, int check_every) {
  std::mt19937_64 rng(seed);
  ring_index r(ring);
  model m;
  std::uint64_t top = 0;
  const std::uint64_t max_block = ring / 4;
  for (int i = 0; i < steps; ++i) {
    const int what = int(rng() % 10);
    if (what < 5 || m.live.empty()) {
      std::uint64_t n = 64 * (1 + rng() % (max_block / 64));
      std::uint64_t s = top;
      top += n;
      // Within a lap past the tail, or up to two laps past it off every
      // live graph's memory (over released holes); else forfeited.
      bool ok = !overlaps_live(m, ring, s, n) && s + n - m.tail <= 2 * ring;
      if (ok && rng() % 8 != 0) {
        r.arrive(s, s + n);
        m.live.emplace(s, s + n);
      } else {
        std::uint64_t t = r.release(s, s + n, m.tail);
        m.release(s, s + n);
        ASSERT_EQ(t, m.tail);
      }
    } else {
      auto it = std::next(m.live.begin(), long(rng() % m.live.size()));
      std::uint64_t s = it->first, e = it->second;
      ring_index::block b = r.live_at(s % ring);
      ASSERT_EQ(b.start, s);
      ASSERT_EQ(b.end, e);
      m.live.erase(it);
      std::uint64_t t = r.release(s, e, m.tail);
      m.release(s, e);
      ASSERT_EQ(t, m.tail);
      // Released twice: an error, the state unchanged.
      if (m.tail <= s) {
        EXPECT_THROW(r.release(s, e, m.tail), std::logic_error);
      }
      bool still_live = false;
      for (const auto &l : m.live)
        still_live |= l.first % ring == s % ring;
      if (!still_live) {
        EXPECT_THROW(r.live_at(s % ring), std::logic_error);
      }
    }
    if (i % check_every == 0 || i == steps - 1)
      agree(r, m, top);
    if (::testing::Test::HasFatalFailure())
      return;
  }
  // The lap-apart case was exercised (else this test would prove less).
  EXPECT_GT(r.overflowed(), 0u) << "seed " << seed;
}

TEST(RingIndex, RandomAgainstMaps) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    run(seed, 64 * 64, 3000, 1);
    if (HasFatalFailure())
      return;
  }
  run(99, 64 * 1024, 20000, 97);
}

TEST(RingIndex, Errors) {
  ring_index r(64 * 16);
  r.arrive(0, 128);
  EXPECT_THROW(r.arrive(0, 64), std::logic_error);     // a block starts there
  EXPECT_THROW(r.arrive(64, 64), std::logic_error);    // empty range
  EXPECT_THROW(r.arrive(70, 128), std::logic_error);   // not a multiple of 64
  EXPECT_THROW(r.live_at(64), std::logic_error);       // none live there
  EXPECT_THROW(r.release(0, 64, 0), std::logic_error); // not the live range
  EXPECT_EQ(r.release(0, 128, 0), 128u);
  EXPECT_THROW(r.live_at(0), std::logic_error);           // released
  EXPECT_THROW(r.release(0, 128, 128), std::logic_error); // behind the tail
  r.arrive(256, 320);
  EXPECT_EQ(r.release(256, 320, 128), 128u); // a hole: the tail waits
  EXPECT_THROW(r.release(256, 320, 128), std::logic_error); // twice
  EXPECT_EQ(r.released(), 1u);
  EXPECT_EQ(r.release(128, 256, 128), 320u); // forfeit: the tail moves on
  EXPECT_EQ(r.released(), 0u);
  EXPECT_THROW(ring_index(100), std::invalid_argument);
}

} // namespace
