// Bad input to the graph copy and the type registry: a clear error naming the
// call and the value, and the source untouched.
#include "graph_util.hpp"

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using pt::fnode;
using pt::leaf;

struct Places : ::testing::Environment {
  // Small places: graphs larger than the free space are refused.
  void SetUp() override { weft::places_init(2, std::size_t(16) << 20); }
};
[[maybe_unused]] auto *const env =
    ::testing::AddGlobalTestEnvironment(new Places);

// Runs f, which must throw E whose message contains every fragment.
template <class E, class F>
void expect_error(F f, std::initializer_list<const char *> fragments) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E &e) {
    std::string m = e.what();
    for (const char *frag : fragments)
      EXPECT_NE(m.find(frag), std::string::npos)
          << "message \"" << m << "\" lacks \"" << frag << "\"";
  }
}

std::string hex(const void *p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}

TEST(BadInput, PointerOutsideEveryArena) {
  static leaf outside{7, nullptr}; // not made with weft::make
  auto *f = weft::make<fnode>(weft::place{0});
  f->a = &outside;
  auto before = std::memcmp(f, f, sizeof *f);
  (void)before;
  std::string addr = hex(&outside);
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{1}, f); },
      {"weft::copy", "word 1", addr.c_str(), "outside every place's arena"});
  expect_error<std::invalid_argument>(
      [&] {
        (void)weft::at(weft::place{1}, &outside, [](leaf *) { return 0; });
      },
      {"weft::async_at", "root", "outside every place's arena"});
  EXPECT_EQ(f->a, &outside);
}

TEST(BadInput, PointerIntoTheMiddleOfAnObject) {
  auto *f = weft::make<fnode>(weft::place{0});
  auto *g = weft::make<fnode>(weft::place{0});
  f->b = reinterpret_cast<char *>(g) + 16;
  std::string addr = hex(f->b);
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{1}, f); },
      {"weft::copy", "word 3", addr.c_str(), "start of an object"});
  expect_error<std::invalid_argument>(
      [&] {
        (void)weft::copy(weft::place{1}, f, {weft::copy_map::hash, true});
      },
      {"weft::copy", addr.c_str()});
}

TEST(BadInput, PointerToAStoreOrIntoAStore) {
  auto *f = weft::make<fnode>(weft::place{0});
  f->ints = weft::make_array<std::int32_t>(weft::place{0}, 8);
  f->kids = weft::make_array<void *>(weft::place{0}, 2);
  f->kids[1] = f->ints.data + 2;
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{1}, f); },
      {"word 8 element 1", "start of an object"});
  f->kids[1] = nullptr;
  f->ints.data += 2; // an array descriptor pointing into its store
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{1}, f); },
      {"word 5", "array store", "start of a store"});
  f->ints.data -= 2;
  f->ints.length = 9; // length and size disagree
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{1}, f); },
      {"array length 9", "32 bytes"});
}

TEST(BadInput, CorruptHeaderAndUnregisteredType) {
  auto *l = weft::make<leaf>(weft::place{0}, 1, nullptr);
  auto *hdr =
      reinterpret_cast<std::uint64_t *>(reinterpret_cast<char *>(l) - 40);
  std::uint64_t saved = hdr[0];
  hdr[0] = (saved & ~0xffffffffull) | 0x7777; // a type id nobody registered
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{1}, l); },
      {"weft::copy", "type id 30583", "not registered"});
  hdr[0] = 0x1234; // no object tag at all
  expect_error<std::invalid_argument>([&] { (void)weft::measure(l); },
                                      {"weft::measure", "corrupt header"});
  hdr[0] = saved;
  EXPECT_EQ(weft::measure(l).objects, 1u);
}

TEST(BadInput, CorruptMasksAreRefusedAtRegistration) {
  using weft::detail::register_type;
  // An array descriptor followed by a transient and a data word.
  expect_error<std::invalid_argument>(
      [] {
        register_type("test", "bad1", 24, {3, 2, 0}, {8, 0, 0});
      },
      {"bad1", "array descriptor at word 0", "10 (transient)", "00 (data)"});
  // An array descriptor that does not fit in the object.
  expect_error<std::invalid_argument>(
      [] {
        register_type("test", "bad2", 16, {0, 3}, {0, 8});
      },
      {"bad2", "word 1", "needs words 2-3", "the object has 2"});
  // A kind that is not 2 bits.
  expect_error<std::invalid_argument>(
      [] { register_type("test", "bad3", 8, {5}, {0}); },
      {"bad3", "word 0 has kind 5"});
  // Mask and size disagree.
  expect_error<std::invalid_argument>(
      [] {
        register_type("test", "bad4", 32, {0, 0}, {0, 0});
      },
      {"bad4", "mask has 2 words, the object 4"});
  // An array of pointers whose elements are not words.
  expect_error<std::invalid_argument>(
      [] {
        register_type("test", "bad5", 24, {3, 1, 1}, {4, 0, 0});
      },
      {"bad5", "4-byte elements"});
}

TEST(BadInput, GraphLargerThanTheDestination) {
  auto *f = weft::make<fnode>(weft::place{0});
  f->ints = weft::make_array<std::int32_t>(weft::place{0}, 3 << 20);
  f->ints[5] = 99;
  auto first = weft::copy(weft::place{1}, f); // 12 of place 1's 16 MiB
  ASSERT_TRUE(first);
  expect_error<std::length_error>(
      [&] { (void)weft::copy(weft::place{1}, f); },
      {"weft::copy", "1 objects", "does not fit in place 1"});
  expect_error<std::length_error>(
      [&] { weft::at(weft::place{1}, f, [](fnode *) {}); },
      {"weft::async_at", "does not fit in place 1"});
  EXPECT_EQ(f->ints[5], 99);
  EXPECT_EQ(f->ints.size(), 3u << 20);
}

TEST(BadInput, NoSuchPlace) {
  auto *l = weft::make<leaf>(weft::place{0}, 1, nullptr);
  expect_error<std::invalid_argument>(
      [&] { (void)weft::copy(weft::place{5}, l); },
      {"weft::copy", "place 5 does not exist", "2 places"});
  expect_error<std::invalid_argument>(
      [&] { weft::at(weft::place{-1}, l, [](leaf *) {}); },
      {"weft::async_at", "place -1"});
  expect_error<std::invalid_argument>(
      [&] { (void)weft::make<leaf>(weft::place{9}, 1, nullptr); },
      {"weft::make", "place 9"});
}

// Objects and stores made with make / make_array and given back with
// weft::release are reused by later makes of the same size: 200 000 make /
// release cycles (11 MiB without reuse) leave the place's bytes as they were.
TEST(Release, MadeObjectsAndStoresAreReused) {
  weft::place p{1};
  std::vector<leaf *> first;
  for (int i = 0; i < 100; ++i)
    first.push_back(weft::make<leaf>(p, i, nullptr));
  for (leaf *l : first)
    weft::release(l);
  std::size_t before = weft::place_bytes_used(p);
  for (int i = 0; i < 200000; ++i) {
    leaf *l = weft::make<leaf>(p, i, nullptr);
    EXPECT_EQ(l->v, i);
    weft::array<double> a = weft::make_array<double>(p, 5);
    a[4] = 1;
    weft::release(a);
    EXPECT_EQ(a.data, nullptr);
    weft::release(l);
  }
  EXPECT_EQ(weft::place_bytes_used(p), before);
  // A released block comes back zeroed where make says so.
  weft::array<double> a = weft::make_array<double>(p, 5);
  for (double x : a)
    EXPECT_EQ(x, 0.0);
  weft::release(a);
  // A graph copy given back returns its buffer.
  leaf *l = weft::make<leaf>(weft::place{0}, 3, nullptr);
  std::size_t used = weft::place_bytes_used(p);
  weft::graph<leaf> g = weft::copy(p, l);
  EXPECT_GT(weft::place_bytes_used(p), used);
  weft::release(g);
  EXPECT_FALSE(g);
  EXPECT_EQ(weft::place_bytes_used(p), used);
  weft::release(l);
}

TEST(BadInput, ReleaseRefusesWhatMakeDidNotReturn) {
  leaf *l = weft::make<leaf>(weft::place{0}, 1, nullptr);
  weft::release(l);
  std::string addr = hex(l);
  expect_error<std::invalid_argument>(
      [&] { weft::release(l); },
      {"weft::release", addr.c_str(), "released already"});
  expect_error<std::invalid_argument>(
      [&] { weft::release(static_cast<leaf *>(nullptr)); },
      {"weft::release", "is null"});
  static leaf outside{7, nullptr};
  expect_error<std::invalid_argument>(
      [&] { weft::release(&outside); },
      {"weft::release", hex(&outside).c_str(), "outside every place's arena"});
  auto *f = weft::make<fnode>(weft::place{0});
  auto *inside = reinterpret_cast<leaf *>(reinterpret_cast<char *>(f) + 16);
  expect_error<std::invalid_argument>(
      [&] { weft::release(inside); },
      {"weft::release", hex(inside).c_str(), "middle of one"});
  expect_error<std::invalid_argument>(
      [&] { weft::release(reinterpret_cast<leaf *>(f)); },
      {"weft::release", "type", "pt::leaf"});
  weft::array<double> a = weft::make_array<double>(weft::place{0}, 3);
  weft::array<double> twin = a;
  weft::release(a);
  expect_error<std::invalid_argument>([&] { weft::release(twin); },
                                      {"weft::release", "released already"});
  weft::release(f); // still live: the refusals left it alone
}

} // namespace
