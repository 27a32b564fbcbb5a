// The graph copy: random graphs (cycles, sharing, arrays of data and of
// pointers) copied with each copy map, directly and through the
// intermediate buffer; each copy is isomorphic to its source and the source
// is unchanged. Long chains, single large objects, big arrays.
#include "graph_util.hpp"

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace {

using pt::fnode;
using pt::leaf;

struct Places : ::testing::Environment {
  void SetUp() override { weft::places_init(3, std::size_t(4) << 30); }
};
[[maybe_unused]] auto *const env =
    ::testing::AddGlobalTestEnvironment(new Places);

double scale() {
  const char *s = std::getenv("WEFT_TEST_SCALE");
  return s && *s ? std::atof(s) : 1.0;
}

struct Mode {
  weft::copy_map map;
  bool intermediate;
};

class Fuzz : public ::testing::TestWithParam<Mode> {};

TEST_P(Fuzz, RandomGraphsCopyIsomorphicSourceUnchanged) {
  std::mt19937_64 rng(1234 + int(GetParam().map) * 7 + GetParam().intermediate);
  int rounds = int(300 * scale()) + 1;
  for (int r = 0; r < rounds; ++r) {
    pt::shape s;
    s.nodes = 1 + int(rng() % (r % 10 == 0 ? 3000 : 120));
    s.null_share = (rng() % 4) * 0.1;
    s.leaf_share = (rng() % 3) * 0.3;
    weft::place from{int(rng() % 3)}, to{int(rng() % 3)};
    void *root = pt::random_graph(rng, from, s);
    auto before = pt::snapshot(root);
    weft::graph_size m = weft::measure(root);
    auto g = weft::copy(to, static_cast<const fnode *>(root),
                        {GetParam().map, GetParam().intermediate});
    ASSERT_TRUE(g);
    EXPECT_EQ(weft::place_of(g.get()), to.id);
    EXPECT_EQ(g.size().objects, m.objects);
    EXPECT_EQ(g.size().bytes, m.bytes);
    std::size_t n = pt::expect_isomorphic(root, g.get());
    EXPECT_EQ(n, m.objects) << "round " << r;
    EXPECT_EQ(before, pt::snapshot(root)) << "source changed, round " << r;
    // A copy of the copy is a graph like any other.
    auto g2 = weft::copy(from, g.get(), {GetParam().map, false});
    EXPECT_EQ(pt::expect_isomorphic(root, g2.get()), n);
    if (::testing::Test::HasFailure())
      break;
  }
}

// Large primitive arrays (past the 16 KiB threshold above which the
// intermediate variant copies them from their sources straight into the
// destination) mixed with pointers, pointer arrays, sharing and stores
// shared by two descriptors: every byte of every store compared, the
// padding of odd-length stores zero, the source unchanged.
TEST_P(Fuzz, LargeArraysMixedWithPointersAndSharing) {
  std::mt19937_64 rng(77 + int(GetParam().map) * 7 + GetParam().intermediate);
  int rounds = int(30 * scale()) + 1;
  for (int r = 0; r < rounds; ++r) {
    weft::place from{int(rng() % 3)}, to{int(rng() % 3)};
    void *root = pt::large_array_graph(rng, from);
    auto before = pt::snapshot(root);
    weft::graph_size m = weft::measure(root);
    auto g = weft::copy(to, static_cast<const fnode *>(root),
                        {GetParam().map, GetParam().intermediate});
    ASSERT_TRUE(g);
    EXPECT_EQ(g.size().bytes, m.bytes);
    EXPECT_EQ(pt::expect_isomorphic(root, g.get()), m.objects) << "round " << r;
    pt::expect_store_padding_zero(g.get());
    EXPECT_EQ(before, pt::snapshot(root)) << "source changed, round " << r;
    if (::testing::Test::HasFailure())
      break;
  }
}

std::string mode_name(const ::testing::TestParamInfo<Mode> &i) {
  const char *names[] = {"auto", "linear", "hash"};
  return std::string(names[int(i.param.map)]) +
         (i.param.intermediate ? "_intermediate" : "_direct");
}

INSTANTIATE_TEST_SUITE_P(Maps, Fuzz,
                         ::testing::Values(Mode{weft::copy_map::linear, false},
                                           Mode{weft::copy_map::hash, false},
                                           Mode{weft::copy_map::automatic,
                                                false},
                                           Mode{weft::copy_map::hash, true},
                                           Mode{weft::copy_map::linear, true}),
                         mode_name);

TEST(GraphCopy, MillionObjectChain) {
  const std::size_t n = std::size_t(1000000 * std::min(1.0, scale()));
  weft::place p{0};
  leaf *head = weft::make<leaf>(p, 0, nullptr), *tail = head;
  for (std::size_t i = 1; i < n; ++i) {
    leaf *l = weft::make<leaf>(p, std::int64_t(i), nullptr);
    tail->next = l;
    tail = l;
  }
  tail->next = head; // one big cycle
  weft::graph_size m = weft::measure(head);
  EXPECT_EQ(m.objects, n);
  EXPECT_EQ(m.bytes, n * (40 + sizeof(leaf)));
  for (bool inter : {false, true}) {
    auto g = weft::copy(weft::place{1}, head, {weft::copy_map::hash, inter});
    std::size_t count = 0;
    const leaf *c = g.get();
    do {
      ASSERT_EQ(c->v, std::int64_t(count)) << "at element " << count;
      ASSERT_EQ(weft::place_of(c), 1);
      c = static_cast<const leaf *>(c->next);
      ++count;
    } while (c != g.get() && count <= n);
    EXPECT_EQ(count, n) << "the cycle closes on the copy's head";
  }
}

TEST(GraphCopy, SharedObjectCopiedOnceAndSelfLoop) {
  weft::place p{0};
  auto *shared = weft::make<leaf>(p, 42, nullptr);
  shared->next = shared;
  auto *f = weft::make<fnode>(p);
  f->a = shared;
  f->b = shared;
  f->kids = weft::make_array<void *>(p, 3);
  f->kids[0] = shared;
  f->kids[1] = f;
  f->kids[2] = nullptr;
  for (auto map : {weft::copy_map::linear, weft::copy_map::hash}) {
    auto g = weft::copy(weft::place{2}, f, {map, false});
    EXPECT_EQ(g.size().objects, 2u);
    EXPECT_EQ(g->a, g->b);
    EXPECT_EQ(g->kids[0], g->a);
    EXPECT_EQ(g->kids[1], g.get());
    EXPECT_EQ(g->kids[2], nullptr);
    auto *s = static_cast<leaf *>(g->a);
    EXPECT_EQ(s->next, s);
    EXPECT_NE(s, shared);
  }
}

TEST(GraphCopy, LargeDataArrayAndNullRoot) {
  weft::place p{0};
  auto *f = weft::make<fnode>(p);
  f->ints = weft::make_array<std::int32_t>(p, 1 << 20);
  for (std::size_t i = 0; i < f->ints.size(); ++i)
    f->ints[i] = std::int32_t(i * 2654435761u);
  auto g = weft::copy(weft::place{1}, f);
  ASSERT_EQ(g->ints.size(), f->ints.size());
  EXPECT_EQ(0, std::memcmp(g->ints.data, f->ints.data, f->ints.bytes));
  EXPECT_EQ(weft::place_of(g->ints.data), 1);
  auto none = weft::copy(weft::place{1}, static_cast<fnode *>(nullptr));
  EXPECT_FALSE(none);
}

TEST(GraphCopy, ReleasedBuffersAreReused) {
  weft::place p{0};
  void *root = nullptr;
  std::mt19937_64 rng(5);
  root = pt::random_graph(rng, p, pt::shape{});
  std::size_t before = weft::place_bytes_used(weft::place{2});
  for (int i = 0; i < 1000; ++i) {
    auto g = weft::copy(weft::place{2}, static_cast<fnode *>(root));
    ASSERT_TRUE(g);
  }
  EXPECT_EQ(weft::place_bytes_used(weft::place{2}), before);
}

} // namespace
