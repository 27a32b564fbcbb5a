// The copy of a leaf graph (a root whose type has no pointer word and no
// array of pointers: the object and its data array stores), which skips the
// visited marks, the copy map and the transition state (graph_copy.cpp,
// copy_leaf). Array sizes around the 16 KiB threshold above which the
// intermediate variant copies a store from its source straight into the
// destination (detail::kDirectStoreBytes), odd byte counts, empty arrays,
// every copy map, direct and through the intermediate buffer: each copy
// equals its source word for word (its own stores, transient words zero,
// store padding zero, transition words clean, a large store aligned as its
// source modulo 64), the source is unchanged, the measured size is the
// copy's, and releasing the copies gives every byte back.
#include "places/dist_seam.hpp"

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct flat { // data, a transient word and three data arrays
  std::int64_t id;
  double xs_sum;
  weft::array<double> xs;
  weft::transient<std::uint64_t> cache;
  weft::array<char> bytes;
  weft::array<std::int32_t> ints;
  std::int64_t tail;
};

struct plain { // data words only
  std::int64_t a, b, c;
};

} // namespace

WEFT_TYPE(flat, &flat::xs, &flat::cache, &flat::bytes, &flat::ints);
WEFT_TYPE(plain);

namespace {

struct Places : ::testing::Environment {
  void SetUp() override { weft::places_init(2, std::size_t(1) << 30); }
};
[[maybe_unused]] auto *const env =
    ::testing::AddGlobalTestEnvironment(new Places);

// The object's words and every store's bytes.
std::vector<std::uint8_t> contents(const flat *f) {
  std::vector<std::uint8_t> out(reinterpret_cast<const std::uint8_t *>(f),
                                reinterpret_cast<const std::uint8_t *>(f + 1));
  auto add = [&](const void *p, std::size_t n) {
    auto *b = static_cast<const std::uint8_t *>(p);
    out.insert(out.end(), b, b + n);
  };
  add(f->xs.data, f->xs.bytes);
  add(f->bytes.data, f->bytes.bytes);
  add(f->ints.data, f->ints.bytes);
  return out;
}

template <class E>
void expect_array_copy(const weft::array<E> &s, const weft::array<E> &c, int to,
                       const char *what) {
  EXPECT_EQ(s.length, c.length) << what;
  EXPECT_EQ(s.bytes, c.bytes) << what;
  if (!s.data) {
    EXPECT_EQ(c.data, nullptr) << what;
    return;
  }
  ASSERT_NE(c.data, nullptr) << what;
  EXPECT_NE(static_cast<const void *>(c.data),
            static_cast<const void *>(s.data))
      << what;
  EXPECT_EQ(weft::place_of(c.data), to) << what;
  EXPECT_EQ(0, std::memcmp(s.data, c.data, s.bytes)) << what;
  // A store of 4 KiB or more lies at its source's address modulo 64 (a
  // filler block before it; rep movsb is slower between misaligned
  // buffers), smaller ones back to back.
  if (s.bytes >= 4096) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c.data) % 64,
              reinterpret_cast<std::uintptr_t>(s.data) % 64)
        << what;
  }
  const auto *end = reinterpret_cast<const char *>(c.data) + c.bytes;
  for (std::size_t i = 0; i < (8 - c.bytes % 8) % 8; ++i)
    EXPECT_EQ(end[i], 0) << what << ": padding byte " << i;
}

void expect_clean_header(const void *c) {
  const auto *h = reinterpret_cast<const std::uint64_t *>(
      static_cast<const char *>(c) - weft::detail::kObjectHeaderBytes);
  EXPECT_EQ(h[1] | h[2] | h[3] | h[4], 0u) << "transition words set";
}

flat *make_flat(std::mt19937_64 &rng, weft::place p, std::size_t nx,
                std::size_t nb, std::size_t ni) {
  auto *f = weft::make<flat>(p);
  f->id = std::int64_t(rng());
  f->tail = std::int64_t(rng());
  f->cache.value = rng() | 1; // not carried
  f->xs_sum = 0;
  f->xs = weft::make_array<double>(p, nx);
  for (double &x : f->xs) {
    x = double(rng() % 1000003) / 7.0;
    f->xs_sum += x;
  }
  f->bytes = weft::make_array<char>(p, nb);
  for (char &b : f->bytes)
    b = char(rng());
  f->ints = weft::make_array<std::int32_t>(p, ni);
  for (auto &i : f->ints)
    i = std::int32_t(rng());
  return f;
}

void free_flat(flat *f) {
  weft::release(f->xs);
  weft::release(f->bytes);
  weft::release(f->ints);
  weft::release(f);
}

// One copy of f into `to` with opt (and a copy of that copy back), checked
// against f.
void check_copy(const flat *f, int to, weft::copy_options opt,
                const char *what) {
  auto before = contents(f);
  weft::graph_size m = weft::measure(f);
  EXPECT_EQ(m.objects, 1u) << what;
  auto g = weft::copy(weft::place{to}, f, opt);
  ASSERT_TRUE(g) << what;
  EXPECT_NE(g.get(), f) << what;
  EXPECT_EQ(weft::place_of(g.get()), to) << what;
  EXPECT_EQ(g.size().objects, 1u) << what;
  EXPECT_EQ(g.size().bytes, m.bytes) << what;
  EXPECT_EQ(g->id, f->id) << what;
  EXPECT_EQ(g->xs_sum, f->xs_sum) << what;
  EXPECT_EQ(g->tail, f->tail) << what;
  EXPECT_EQ(g->cache.value, 0u) << what << ": transient word copied";
  expect_array_copy(f->xs, g->xs, to, what);
  expect_array_copy(f->bytes, g->bytes, to, what);
  expect_array_copy(f->ints, g->ints, to, what);
  expect_clean_header(g.get());
  // The copy's blocks belong to the graph (the in-graph bitmap covers its
  // first and last granules): releasing one alone is refused.
  auto refused = [&](auto &&release_one, const char *block) {
    try {
      release_one();
      ADD_FAILURE() << what << ": releasing the copy's " << block;
    } catch (const std::invalid_argument &e) {
      EXPECT_NE(std::string(e.what()).find("lies in a graph copied"),
                std::string::npos)
          << what << ": " << e.what();
    }
  };
  refused([&] { weft::release(g.get()); }, "root");
  // The last block of the buffer: ints' store, else bytes', else xs'.
  weft::array<std::int32_t> ints = g->ints;
  weft::array<char> chars = g->bytes;
  weft::array<double> doubles = g->xs;
  if (ints.data)
    refused([&] { weft::release(ints); }, "last store");
  else if (chars.data)
    refused([&] { weft::release(chars); }, "last store");
  else if (doubles.data)
    refused([&] { weft::release(doubles); }, "last store");
  EXPECT_EQ(before, contents(f)) << what << ": source changed";
  // The copy of the copy is the same graph again.
  auto g2 = weft::copy(weft::place{1 - to}, g.get(), opt);
  EXPECT_EQ(g2->id, f->id) << what;
  EXPECT_EQ(0, std::memcmp(g2->xs.data, f->xs.data, f->xs.bytes)) << what;
}

// Doubles around 2048 (16 KiB) and 4096, char arrays around 16 KiB (odd
// byte counts), int arrays around 4096 elements; every map, both variants.
TEST(LeafCopy, SizesAroundTheDirectThresholdEveryMode) {
  static_assert(weft::detail::kDirectStoreBytes == 16384,
                "the sizes below straddle it");
  std::mt19937_64 rng(2026);
  const std::size_t xs[] = {0, 1, 2046, 2047, 2048, 2049, 4095, 4096, 16384};
  const std::size_t bs[] = {0, 7, 16383, 16384, 16385};
  const std::size_t is[] = {0, 3, 4095, 4096, 4097};
  const weft::copy_map maps[] = {weft::copy_map::automatic,
                                 weft::copy_map::linear, weft::copy_map::hash};
  std::size_t used0 = weft::place_bytes_used(weft::place{0});
  std::size_t used1 = weft::place_bytes_used(weft::place{1});
  for (std::size_t nx : xs)
    for (int k = 0; k < 3; ++k) {
      std::size_t nb = bs[(nx + k) % 5], ni = is[(nx / 2 + 2 * k) % 5];
      int from = int(rng() % 2);
      flat *f = make_flat(rng, weft::place{from}, nx, nb, ni);
      std::size_t u0 = weft::place_bytes_used(weft::place{0});
      std::size_t u1 = weft::place_bytes_used(weft::place{1});
      for (weft::copy_map map : maps)
        for (bool inter : {false, true})
          for (int to : {0, 1}) {
            std::string what =
                "xs " + std::to_string(nx) + " bytes " + std::to_string(nb) +
                " ints " + std::to_string(ni) + " map " +
                std::to_string(int(map)) + " inter " + std::to_string(inter) +
                " " + std::to_string(from) + "->" + std::to_string(to);
            check_copy(f, to, {map, inter}, what.c_str());
            if (::testing::Test::HasFailure())
              return;
          }
      // Every copy released: the places are as before the copies.
      EXPECT_EQ(weft::place_bytes_used(weft::place{0}), u0);
      EXPECT_EQ(weft::place_bytes_used(weft::place{1}), u1);
      free_flat(f);
    }
  EXPECT_EQ(weft::place_bytes_used(weft::place{0}), used0);
  EXPECT_EQ(weft::place_bytes_used(weft::place{1}), used1);
}

TEST(LeafCopy, DataOnlyObject) {
  auto *p = weft::make<plain>(weft::place{0}, 1, -2, 3);
  for (bool inter : {false, true}) {
    auto g = weft::copy(weft::place{1}, p, {weft::copy_map::automatic, inter});
    ASSERT_TRUE(g);
    EXPECT_EQ(g->a, 1);
    EXPECT_EQ(g->b, -2);
    EXPECT_EQ(g->c, 3);
    EXPECT_EQ(g.size().bytes, weft::detail::kObjectHeaderBytes + sizeof(plain));
    expect_clean_header(g.get());
  }
  weft::release(p);
}

// A leaf's array pointing into the middle of a store is refused by the
// measure pass, naming the call; nothing is copied, the source unchanged.
TEST(LeafCopy, BadStorePointerRefused) {
  std::mt19937_64 rng(9);
  flat *f = make_flat(rng, weft::place{0}, 4096, 0, 0);
  double *good = f->xs.data;
  f->xs.data = good + 1;
  f->xs.length -= 1;
  f->xs.bytes -= 8;
  auto before = contents(f);
  std::size_t used = weft::place_bytes_used(weft::place{1});
  try {
    (void)weft::copy(weft::place{1}, f);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("weft::copy"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("start of a store"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(before, contents(f));
  EXPECT_EQ(weft::place_bytes_used(weft::place{1}), used);
  f->xs.data = good;
  f->xs.length += 1;
  f->xs.bytes += 8;
  free_flat(f);
}

} // namespace
