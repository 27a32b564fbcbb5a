// at(), async_at() and finish() across places: results against the serial
// meaning, copies in the destination's partition, results copied back,
// nesting, exceptions. Run at 1, 2 and 4 threads with several places.
#include "graph_util.hpp"

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <vector>

// The worked example of docs/places.md.
struct city {
  long id;
  weft::array<double> temps;
  weft::array<city *> roads;
  city *capital;
  weft::transient<void *> cache;
};
WEFT_TYPE(city, &city::temps, &city::roads, &city::capital, &city::cache);

namespace {

using pt::fnode;
using pt::leaf;

struct Runtime : ::testing::Environment {
  void SetUp() override {
    ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  }
  void TearDown() override { (void)weft_shutdown(); }
};
[[maybe_unused]] auto *const env =
    ::testing::AddGlobalTestEnvironment(new Runtime);

double scale() {
  const char *s = std::getenv("WEFT_TEST_SCALE");
  return s && *s ? std::atof(s) : 1.0;
}

leaf *make_list(weft::place p, int n, std::int64_t first) {
  leaf *head = nullptr;
  for (int i = n - 1; i >= 0; --i)
    head = weft::make<leaf>(p, first + i, head);
  return head;
}

std::int64_t sum(const leaf *l) {
  std::int64_t s = 0;
  for (; l; l = static_cast<const leaf *>(l->next))
    s += l->v;
  return s;
}

TEST(At, RunsOnTheCopyInTheDestinationPlace) {
  int np = weft::num_places();
  ASSERT_GE(np, 2) << "WEFT_PLACES";
  leaf *list = make_list(weft::place{0}, 100, 1);
  for (int p = 0; p < np; ++p) {
    std::int64_t s = weft::at(weft::place{p}, list, [p](leaf *c) {
      EXPECT_EQ(weft::here().id, p);
      EXPECT_EQ(weft::place_of(c), p);
      c->v = -1000; // the copy, not the source
      return sum(c);
    });
    EXPECT_EQ(s, 5050 - 1 - 1000);
  }
  EXPECT_EQ(sum(list), 5050);
  EXPECT_EQ(weft::here().id, 0);
}

TEST(At, PointerResultComesBackAsAGraphInTheCallersPlace) {
  int np = weft::num_places();
  leaf *list = make_list(weft::place{0}, 50, 0);
  weft::place to{np - 1};
  // Reverse the list there, in objects made at here().
  weft::graph<leaf> rev = weft::at(to, list, [](leaf *c) {
    leaf *r = nullptr;
    for (; c; c = static_cast<leaf *>(c->next))
      r = weft::make<leaf>(weft::here(), c->v, r);
    return r;
  });
  ASSERT_TRUE(rev);
  EXPECT_EQ(rev.where().id, 0);
  std::int64_t expect = 49;
  for (const leaf *l = rev.get(); l; l = static_cast<const leaf *>(l->next)) {
    EXPECT_EQ(l->v, expect--);
    EXPECT_EQ(weft::place_of(l), 0);
  }
  EXPECT_EQ(expect, -1);
}

TEST(At, AsyncAtInFinishMatchesSerialMeaning) {
  int np = weft::num_places();
  std::mt19937_64 rng(99);
  int n = int(200 * scale()) + 8;
  std::vector<leaf *> lists;
  std::vector<std::int64_t> want;
  for (int i = 0; i < n; ++i) {
    int len = 1 + int(rng() % 200);
    lists.push_back(make_list(weft::place{int(rng() % np)}, len, i));
    want.push_back(sum(lists.back()));
  }
  std::vector<weft::future<std::int64_t>> fs;
  std::atomic<int> ran{0};
  weft::finish([&] {
    for (int i = 0; i < n; ++i)
      fs.push_back(
          weft::async_at(weft::place{i % np}, lists[i], [&ran, i, np](leaf *c) {
            EXPECT_EQ(weft::here().id, i % np);
            ran.fetch_add(1);
            return sum(c);
          }));
  });
  EXPECT_EQ(ran.load(), n) << "finish returned before every async_at ran";
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(fs[i].ready());
    EXPECT_EQ(fs[i].get(), want[i]);
  }
}

TEST(At, NestedAtHopsAcrossPlaces) {
  int np = weft::num_places();
  std::mt19937_64 rng(7);
  void *g = pt::random_graph(rng, weft::place{0}, pt::shape{});
  std::size_t objects = weft::measure(g).objects;
  // Each hop copies the graph on to the next place, np hops deep.
  std::function<std::size_t(fnode *, int)> hop = [&](fnode *c, int left) {
    if (left == 0)
      return pt::expect_isomorphic(g, c);
    int next = (weft::here().id + 1) % np;
    return weft::at(weft::place{next}, c,
                    [&hop, left](fnode *d) { return hop(d, left - 1); });
  };
  std::size_t n = weft::at(weft::place{1 % np}, static_cast<fnode *>(g),
                           [&](fnode *c) { return hop(c, np + 1); });
  EXPECT_EQ(n, objects);
}

TEST(At, ManyConcurrentCopiesOfOneSharedGraph) {
  int np = weft::num_places();
  std::mt19937_64 rng(3);
  pt::shape s;
  s.nodes = 300;
  void *g = pt::random_graph(rng, weft::place{0}, s);
  auto before = pt::snapshot(g);
  std::size_t objects = weft::measure(g).objects;
  int n = int(64 * scale()) + 4;
  std::vector<weft::future<std::size_t>> fs;
  weft::finish([&] {
    for (int i = 0; i < n; ++i)
      fs.push_back(weft::async_at(
          weft::place{i % np}, static_cast<fnode *>(g),
          [](fnode *c) { return weft::measure(c).objects; },
          {i % 2 ? weft::copy_map::hash : weft::copy_map::linear, i % 3 == 0}));
  });
  for (auto &f : fs)
    EXPECT_EQ(f.get(), objects);
  EXPECT_EQ(before, pt::snapshot(g));
}

TEST(At, DocsExample) {
  weft::place home{0}, there{1};
  city *a = weft::make<city>(home, 1), *b = weft::make<city>(home, 2);
  a->temps = weft::make_array<double>(home, 365);
  a->roads = weft::make_array<city *>(home, 2);
  a->roads[0] = b;
  a->roads[1] = a;
  a->capital = b;
  b->capital = b;
  a->cache.value = a;
  long roads = weft::at(there, a, [](city *c) {
    EXPECT_EQ(c->cache.value, nullptr);
    EXPECT_EQ(c->roads[1], c);
    EXPECT_EQ(c->roads[0]->capital, c->roads[0]);
    return long(c->roads.size() + (c->capital == c->roads[0]));
  });
  EXPECT_EQ(roads, 3);
  weft::graph<city> back = weft::at(there, a, [](city *c) {
    return weft::make<city>(weft::here(), c->id * 10);
  });
  EXPECT_EQ(back->id, 10);
  EXPECT_EQ(back.where().id, 0);
  std::vector<weft::future<long>> fs;
  weft::finish([&] {
    for (int i = 0; i < 8; ++i)
      fs.push_back(weft::async_at(there, a, [](city *c) { return c->id; }));
  });
  for (auto &f : fs)
    EXPECT_EQ(f.get(), 1);
}

TEST(At, ExceptionReachesTheCaller) {
  leaf *l = make_list(weft::place{0}, 3, 0);
  EXPECT_THROW(weft::at(weft::place{weft::num_places() - 1}, l,
                        [](leaf *) -> int { throw std::runtime_error("x"); }),
               std::runtime_error);
  auto f = weft::async_at(weft::place{0}, l, [](leaf *c) {
    if (c)
      throw std::out_of_range("remote");
  });
  EXPECT_THROW(f.get(), std::out_of_range);
}

TEST(At, BuffersOfClosuresAreReleased) {
  int np = weft::num_places();
  leaf *l = make_list(weft::place{0}, 1000, 0);
  std::vector<std::size_t> before;
  for (int p = 0; p < np; ++p)
    before.push_back(weft::place_bytes_used(weft::place{p}));
  weft::finish([&] {
    for (int i = 0; i < 200; ++i)
      (void)weft::async_at(weft::place{i % np}, l,
                           [](leaf *c) { return c->v; });
  });
  for (int p = 0; p < np; ++p)
    EXPECT_EQ(weft::place_bytes_used(weft::place{p}), before[p]);
}

} // namespace
