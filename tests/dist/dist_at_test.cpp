// at()/async_at()/finish() across MPI ranks (run by run_mpi.py under
// mpirun at 2 and 4 ranks): rank 0 runs the tests; the other ranks serve
// from places_mpi_finalize. Random graphs (sharing, cycles, arrays, long
// chains) go to every rank and come back; each copy must be isomorphic to
// its source and the source untouched.
#include "../places/call_tree.hpp"
#include "../places/graph_util.hpp"

#include "dist_env.hpp"

#include <weft/dist.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace {

using dist_test::expected_world;
using dist_test::scale;

struct doubles { // a leaf type: its graph is the object and one data store
  std::int64_t id;
  weft::array<double> xs;
};

} // namespace

WEFT_TYPE(doubles, &doubles::xs);

// In the shared objects fn_module.cpp builds: weft_dist_fn_linked (linked,
// so loaded on every rank) and weft_dist_fn_rank0 (dlopen'd by rank 0).
extern "C" long weft_test_linked_fn(void *obj);

namespace {

using pt::fnode;
using pt::leaf;

// Each test releases what it makes in rank 0's place (the arena part of a
// 64 MiB window: 16 MiB): the place's used bytes are back at their start
// when it ends. Printed: what a test left live, and the most it held at
// the points where it holds the most (note()).
class Dist : public ::testing::Test {
protected:
  static std::size_t used() { return weft::place_bytes_used(weft::here()); }
  void SetUp() override { start_ = peak_ = used(); }
  void note() { peak_ = std::max(peak_, used()); }
  void TearDown() override {
    std::size_t end = used();
    note();
    std::printf("[ place    ] %s: %zu bytes left live, %zu at most (of %zu "
                "before)\n",
                ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                end - std::min(end, start_), peak_ - start_, start_);
    EXPECT_EQ(end, start_) << "the test left blocks it made in the place";
  }
  std::size_t start_ = 0, peak_ = 0;
};

TEST_F(Dist, WorldSizeAndHere) {
  ASSERT_EQ(weft::num_places(), expected_world());
  EXPECT_EQ(weft::here().id, 0);
  for (int r = 1; r < weft::num_places(); ++r) {
    int where = weft::at(weft::place{r}, static_cast<leaf *>(nullptr),
                         [](leaf *) { return weft::here().id; });
    EXPECT_EQ(where, r);
  }
}

TEST_F(Dist, CapturedValuesTravel) {
  long k = 41;
  int r = weft::num_places() - 1;
  leaf *l = weft::make<leaf>(weft::here(), 1000, nullptr);
  long v = weft::at(weft::place{r}, l, [k](leaf *c) { return c->v + k; });
  EXPECT_EQ(v, 1041);
  weft::release(l);
}

// Function-pointer closures: defined in the main program (a PIE, loaded at
// another address on every rank).
long leaf_value_and_rank(leaf *c) { return c->v * 100 + weft::here().id; }
leaf *leaf_itself(leaf *c) { return c; }

TEST_F(Dist, FunctionPointerClosuresTravel) {
  leaf *l = weft::make<leaf>(weft::here(), 1000, nullptr);
  for (int r = 1; r < weft::num_places(); ++r) {
    const weft::place p{r};
    // &f and f (a function name decays): the target runs its own f.
    EXPECT_EQ(weft::at(p, l, &leaf_value_and_rank), 100000 + r);
    EXPECT_EQ(weft::at(p, l, leaf_value_and_rank), 100000 + r);
    long (*fp)(leaf *) = leaf_value_and_rank;
    weft::future<long> fut = weft::async_at(p, l, fp);
    EXPECT_EQ(fut.get(), 100000 + r);
    // A function of a shared object every rank loaded (at its own address).
    EXPECT_EQ(weft::at(p, l, &weft_test_linked_fn), 10001);
    // A pointer result: its graph copied back.
    weft::graph<leaf> back = weft::at(p, l, &leaf_itself);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->v, 1000);
    EXPECT_NE(back.get(), l);
  }
  // In-process places (this rank's own) keep taking function pointers.
  EXPECT_EQ(weft::at(weft::here(), l, &leaf_value_and_rank), 100000);
  weft::release(l);
}

// The error a call with function pointer f to p comes back with (printed),
// which must be the target's refusal of the pointer; "" if it ran there.
std::string refused_there(weft::place p, leaf *l, long (*f)(void *)) {
  try {
    long v = weft::at(p, l, f);
    ADD_FAILURE() << "no exception: rank " << p.id << " ran it (" << v << ")";
    return "";
  } catch (const std::runtime_error &e) {
    const std::string w = e.what();
    std::printf("[ refused  ] %s\n", w.c_str());
    EXPECT_NE(w.find("weft::at: the closure is a function pointer (offset "
                     "0x"),
              std::string::npos)
        << w;
    return w;
  }
}

TEST_F(Dist, FunctionPointerClosuresRefused) {
  leaf *l = weft::make<leaf>(weft::here(), 7, nullptr);
  const weft::place p{1};
  // Null: refused before anything is sent.
  weft::dist_stats s0 = weft::places_mpi_stats();
  long (*null_fn)(leaf *) = nullptr;
  try {
    (void)weft::at(p, l, null_fn);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("weft::at: the closure sent to place "
                                         "1 on another rank, function "
                                         "pointer 0x0, is null"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(weft::places_mpi_stats().calls_sent, s0.calls_sent);
  // A function of an object only this rank loaded: the target refuses it,
  // naming the object and the offset; the error comes back.
  void *h = dlopen(WEFT_TEST_RANK0_MODULE, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  auto *only_here =
      reinterpret_cast<long (*)(void *)>(dlsym(h, "weft_test_rank0_fn"));
  ASSERT_NE(only_here, nullptr) << dlerror();
  EXPECT_EQ(weft::at(weft::here(), l, only_here), 72); // in-process: fine
  const std::string w = refused_there(p, l, only_here);
  EXPECT_NE(w.find(std::string(" in ") + WEFT_TEST_RANK0_MODULE +
                   " on rank 0) whose object is not loaded on rank 1"),
            std::string::npos)
      << w;
  // The ranks still work afterwards, with function pointers too.
  EXPECT_EQ(weft::at(p, l, &leaf_value_and_rank), 701);
  EXPECT_EQ(dlclose(h), 0);
  weft::release(l);
}

// Dist.FunctionPointerClosuresOtherBuild: a build of fn_module.cpp copied
// to `dst` (a new file, renamed into place) and opened; on both ranks.
void *load_copy(const char *src, const std::string &dst) {
  const std::string tmp = dst + ".tmp";
  std::filesystem::copy_file(src, tmp);
  std::filesystem::rename(tmp, dst);
  void *h = dlopen(dst.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h)
    std::fprintf(stderr, "dlopen %s: %s\n", dst.c_str(), dlerror());
  return h;
}

// What rank 0 asks rank 1 to load: a closure's captured values (the path as
// characters, not a pointer).
struct load_request {
  char dir[200];
  int which; // 0: build b as 1.so, 1: noid as 2.so, 2: noid as 3.so
};

void *rank1_builds[3] = {};

// The same name (a file path) is another build on each rank: rank 0 loads
// build a, rank 1 build b (the same code but for a constant), and a call
// with rank 0's function must be refused by its build-id, naming both;
// without the check rank 1 would run b's function (74). A build without a
// build-id against one with: refused. Without one on either side: the
// offset check alone, and the call runs.
TEST_F(Dist, FunctionPointerClosuresOtherBuild) {
  leaf *l = weft::make<leaf>(weft::here(), 7, nullptr);
  const weft::place p{1};
  char dir_template[] = "/tmp/weft_fn_build.XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  load_request req{};
  std::snprintf(req.dir, sizeof req.dir, "%s", dir_template);
  const std::string dir = req.dir;
  struct remove_dir { // also when an ASSERT ends the test early
    std::string d;
    ~remove_dir() {
      std::error_code ec;
      std::filesystem::remove_all(d, ec);
    }
  } cleanup{dir};
  using fn_t = long (*)(void *);
  auto sym = [](void *h) {
    return reinterpret_cast<fn_t>(dlsym(h, "weft_test_build_fn"));
  };
  const char *here_src[3] = {WEFT_TEST_BUILD_A, WEFT_TEST_BUILD_A,
                             WEFT_TEST_BUILD_NOID};
  void *here[3] = {};
  for (int which = 0; which < 3; ++which) {
    const std::string path = dir + "/" + std::to_string(which + 1) + ".so";
    here[which] = load_copy(here_src[which], path);
    ASSERT_NE(here[which], nullptr);
    req.which = which;
    ASSERT_TRUE(weft::at(
        p, l,
        [req](leaf *) {
          const char *src =
              req.which == 0 ? WEFT_TEST_BUILD_B : WEFT_TEST_BUILD_NOID;
          void *&h = rank1_builds[req.which];
          h = load_copy(src, std::string(req.dir) + "/" +
                                 std::to_string(req.which + 1) + ".so");
          return h != nullptr;
        }))
        << "rank 1 did not load " << path;
    fn_t f = sym(here[which]);
    ASSERT_NE(f, nullptr) << dlerror();
    EXPECT_EQ(weft::at(weft::here(), l, f), which == 2 ? 74 : 73);
    if (which == 2) { // no build-id on either side: runs there
      EXPECT_EQ(weft::at(p, l, f), 74);
      continue;
    }
    const std::string w = refused_there(p, l, f);
    EXPECT_NE(w.find(" in " + path +
                     " on rank 0) whose object is another build on rank 1 "
                     "(build-id "),
              std::string::npos)
        << w;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        w, m,
        std::regex("build-id ([0-9a-f]+) on rank 0, ([0-9a-f]+|none) on "
                   "rank 1\\): do the ranks run the same binary\\?")))
        << w;
    EXPECT_NE(m[1].str(), m[2].str());
    EXPECT_EQ(m[2].str() == "none", which == 1) << w;
  }
  // The ranks still work afterwards, with function pointers too.
  EXPECT_EQ(weft::at(p, l, &leaf_value_and_rank), 701);
  EXPECT_TRUE(weft::at(p, l, [](leaf *) {
    bool ok = true;
    for (void *&h : rank1_builds) {
      ok = ok && h && dlclose(h) == 0;
      h = nullptr;
    }
    return ok;
  }));
  for (void *h : here)
    EXPECT_EQ(dlclose(h), 0);
  weft::release(l);
}

// A chain of n leaves in this place.
leaf *chain(std::size_t n) {
  leaf *head = nullptr;
  for (std::size_t i = 0; i < n; ++i)
    head = weft::make<leaf>(weft::here(), std::int64_t(i), head);
  return head;
}

void release_chain(leaf *head) {
  while (head) {
    leaf *next = static_cast<leaf *>(head->next);
    weft::release(head);
    head = next;
  }
}

TEST_F(Dist, RandomGraphsRoundTrip) {
  std::mt19937_64 rng(20261125);
  int rounds = std::max(4, int(24 * scale()));
  for (int i = 0; i < rounds; ++i) {
    pt::shape s;
    s.nodes = 1 + int(rng() % (i % 4 == 3 ? 5000 : 200));
    s.leaf_share = (rng() % 4) / 4.0;
    s.null_share = (rng() % 3) / 4.0;
    // Some rounds with arrays past kDirectStoreBytes (16 KiB), which travel
    // straight from their sources (odd lengths: padded stores).
    if (i % 4 == 1) {
      s.nodes = 1 + int(rng() % 20);
      s.max_ints = 9001;
    }
    auto *root = static_cast<fnode *>(pt::random_graph(rng, weft::here(), s));
    std::vector<std::uint64_t> before = pt::snapshot(root);
    int r = 1 + int(rng() % std::uint64_t(weft::num_places() - 1));
    weft::copy_options opt;
    opt.map = i % 3 == 0 ? weft::copy_map::linear : weft::copy_map::automatic;
    std::size_t remote_objects = weft::at(
        weft::place{r}, root,
        [](fnode *c) {
          if (weft::place_of(c) != weft::here().id)
            throw std::runtime_error("the closure copy is not in this place");
          return weft::measure(c).objects;
        },
        opt);
    EXPECT_EQ(remote_objects, weft::measure(root).objects);
    weft::graph<fnode> back =
        weft::at(weft::place{r}, root, [](fnode *c) { return c; });
    ASSERT_TRUE(back);
    note();
    EXPECT_EQ(weft::place_of(back.get()), 0);
    EXPECT_EQ(back.size().objects, weft::measure(root).objects);
    EXPECT_EQ(pt::expect_isomorphic(root, back.get()), back.size().objects);
    EXPECT_EQ(pt::snapshot(root), before) << "the source changed";
    back.reset();
    std::mt19937_64 order{std::uint64_t(i)};
    pt::release_made(root, order);
  }
}

TEST_F(Dist, LongChainRoundTrip) {
  std::size_t n = std::size_t(100000 * scale());
  leaf *head = chain(n);
  int r = weft::num_places() - 1;
  weft::graph<leaf> back = weft::at(weft::place{r}, head, [](leaf *c) {
    std::int64_t expect = c->v;
    for (leaf *p = c; p; p = static_cast<leaf *>(p->next), --expect)
      if (p->v != expect)
        throw std::runtime_error("chain broken at " + std::to_string(p->v));
    return c;
  });
  note();
  EXPECT_EQ(back.size().objects, n);
  EXPECT_EQ(pt::expect_isomorphic(head, back.get()), n);
  back.reset();
  release_chain(head);
}

TEST_F(Dist, TwoMessagesPerAtAtAnyObjectCount) {
  int r = weft::num_places() - 1;
  for (std::size_t n : {0, 1, 1000, 100000}) {
    leaf *head = chain(n);
    weft::dist_stats a = weft::places_mpi_stats();
    std::int64_t v = weft::at(weft::place{r}, head, [](leaf *c) {
      return c ? c->v : std::int64_t(-1);
    });
    weft::dist_stats b = weft::places_mpi_stats();
    EXPECT_EQ(v, std::int64_t(n) - 1);
    EXPECT_EQ(b.calls_sent - a.calls_sent, 1u) << n << " objects";
    EXPECT_EQ(b.replies_received - a.replies_received, 1u) << n;
    EXPECT_EQ(b.calls_received - a.calls_received, 0u) << n;
    EXPECT_EQ(b.control_sent - a.control_sent, 0u) << n;
    EXPECT_EQ(b.puts - a.puts, n ? 1u : 0u) << n;
    EXPECT_LE(b.atomics - a.atomics, n ? 1u : 0u) << n;

    // A graph result: the reply carries it (a put by the target).
    a = weft::places_mpi_stats();
    weft::graph<leaf> g =
        weft::at(weft::place{r}, head, [](leaf *c) { return c; });
    b = weft::places_mpi_stats();
    note();
    EXPECT_EQ(g.size().objects, n);
    EXPECT_EQ((b.calls_sent - a.calls_sent) +
                  (b.replies_received - a.replies_received),
              2u)
        << n;
    EXPECT_EQ(b.control_sent - a.control_sent, 0u) << n;
    g.reset();
    release_chain(head);
  }
  // Arrays gathered from their sources still make one put.
  for (std::size_t n : {4095, 4096, 100001}) {
    auto *root = weft::make<fnode>(weft::here());
    root->ints = weft::make_array<std::int32_t>(weft::here(), n);
    for (std::size_t i = 0; i < n; ++i)
      root->ints[i] = std::int32_t(i * 7 + 1);
    weft::dist_stats a = weft::places_mpi_stats();
    std::int64_t sum = weft::at(weft::place{r}, root, [](fnode *c) {
      std::int64_t t = 0;
      for (std::int32_t v : c->ints)
        t += v;
      return t;
    });
    weft::dist_stats b = weft::places_mpi_stats();
    std::int64_t expect = 0;
    for (std::size_t i = 0; i < n; ++i)
      expect += std::int32_t(i * 7 + 1);
    EXPECT_EQ(sum, expect) << n << " ints";
    EXPECT_EQ(b.calls_sent - a.calls_sent, 1u) << n;
    EXPECT_EQ(b.puts - a.puts, 1u) << n;
    weft::release(root->ints);
    weft::release(root);
  }
  // A primitive array alone (a leaf graph: no copy map, no marks), around
  // the 16 KiB direct-store threshold: the same two messages and one put
  // of the measured graph.
  for (std::size_t n : {1, 2047, 2048, 2049, 65536}) {
    auto *v = weft::make<doubles>(weft::here());
    v->id = std::int64_t(n);
    v->xs = weft::make_array<double>(weft::here(), n);
    for (std::size_t i = 0; i < n; ++i)
      v->xs[i] = double(i) * 0.5 + 1;
    weft::dist_stats a = weft::places_mpi_stats();
    double sum = weft::at(weft::place{r}, v, [](doubles *c) {
      double t = double(c->id);
      for (double x : c->xs)
        t += x;
      return t;
    });
    weft::dist_stats b = weft::places_mpi_stats();
    double expect = double(n);
    for (std::size_t i = 0; i < n; ++i)
      expect += double(i) * 0.5 + 1;
    EXPECT_EQ(sum, expect) << n << " doubles";
    EXPECT_EQ(b.calls_sent - a.calls_sent, 1u) << n;
    EXPECT_EQ(b.replies_received - a.replies_received, 1u) << n;
    EXPECT_EQ(b.control_sent - a.control_sent, 0u) << n;
    EXPECT_EQ(b.puts - a.puts, 1u) << n;
    EXPECT_LE(b.atomics - a.atomics, 1u) << n;
    // The object, the store and its bytes, and below 64 bytes of filler
    // that aligns a large store's data with its source's (graph_copy.cpp).
    const std::size_t tight = weft::detail::kObjectHeaderBytes +
                              sizeof(doubles) +
                              weft::detail::kStoreHeaderBytes + 8 * n;
    EXPECT_EQ(b.put_bytes - a.put_bytes, weft::measure(v).bytes) << n;
    EXPECT_GE(weft::measure(v).bytes, tight) << n;
    EXPECT_LT(weft::measure(v).bytes, tight + 64) << n;
    EXPECT_EQ(v->xs[n - 1], double(n - 1) * 0.5 + 1) << "source changed";
    weft::release(v->xs);
    weft::release(v);
  }
}

TEST_F(Dist, NestedAtReachesBackAndAcross) {
  int last = weft::num_places() - 1;
  int v =
      weft::at(weft::place{1}, static_cast<leaf *>(nullptr), [last](leaf *) {
        int inner = weft::at(weft::place{last == 1 ? 0 : last},
                             static_cast<leaf *>(nullptr),
                             [](leaf *) { return weft::here().id; });
        return inner * 10 + weft::here().id;
      });
  EXPECT_EQ(v, (last == 1 ? 0 : last) * 10 + 1);
}

TEST_F(Dist, FinishWaitsForAsyncAtOnEveryRank) {
  std::vector<weft::future<std::int64_t>> fs;
  int per_rank = 8;
  std::vector<leaf *> heads;
  for (int k = 0; k < per_rank; ++k)
    heads.push_back(chain(std::size_t(k) * 10 + 1));
  weft::finish([&] {
    for (int r = 1; r < weft::num_places(); ++r)
      for (int k = 0; k < per_rank; ++k)
        fs.push_back(weft::async_at(weft::place{r}, heads[k], [](leaf *c) {
          std::int64_t s = 0;
          for (leaf *p = c; p; p = static_cast<leaf *>(p->next))
            s += p->v;
          return s + weft::here().id * 1000000;
        }));
  });
  std::size_t i = 0;
  for (int r = 1; r < weft::num_places(); ++r)
    for (int k = 0; k < per_rank; ++k, ++i) {
      ASSERT_TRUE(fs[i].ready()) << "finish returned before async_at " << i;
      std::int64_t n = k * 10 + 1;
      EXPECT_EQ(fs[i].get(), n * (n - 1) / 2 + r * 1000000);
    }
  for (leaf *h : heads)
    release_chain(h);
}

TEST_F(Dist, ConcurrentAtFromTasks) {
  std::atomic<int> bad{0};
  int tasks = 16;
  weft::finish([&] {
    for (int t = 0; t < tasks; ++t)
      weft::spawn([t, &bad] {
        std::mt19937_64 rng(std::uint64_t(t) * 7919);
        for (int k = 0; k < 4; ++k) {
          pt::shape s;
          s.nodes = 1 + int(rng() % 300);
          auto *root =
              static_cast<fnode *>(pt::random_graph(rng, weft::here(), s));
          int r = 1 + int(rng() % std::uint64_t(weft::num_places() - 1));
          std::size_t n = weft::at(weft::place{r}, root, [](fnode *c) {
            return weft::measure(c).objects;
          });
          if (n != weft::measure(root).objects)
            bad.fetch_add(1);
          std::mt19937_64 order{std::uint64_t(t * 4 + k)};
          pt::release_made(root, order);
        }
      });
  });
  EXPECT_EQ(bad.load(), 0);
}

// Random trees of nested calls from concurrent tasks (calls back to rank 0,
// which waits in them; waits nested on every worker's stack; an async_at's
// future waited for by its caller and by the task finish() waits for, on
// two workers: issue 13's lost wake-up) must give the serial values. Calls
// received by a waiting worker run on it directly; those the progress
// thread receives go through the inbox: the trees mix both.
TEST_F(Dist, RandomNestedCallTreesDirectAndQueued) {
  const int world = weft::num_places();
  const int tasks = 6, trees = int(8 * scale()) + 1;
  std::atomic<int> bad{0}, done{0};
  weft::dist_stats before = weft::places_mpi_stats();
  weft::finish([&] {
    for (int t = 0; t < tasks; ++t)
      weft::spawn([t, trees, world, &bad, &done] {
        std::mt19937_64 rng(std::uint64_t(t) * 104729 + 20261127);
        for (int k = 0; k < trees; ++k) {
          std::uint64_t seed = rng();
          int depth = 1 + int(rng() % 3);
          // The root call goes to the rank seed % world (maybe this one).
          std::uint64_t got = weft::at(
              weft::place{int(seed % std::uint64_t(world))},
              static_cast<leaf *>(nullptr), pt::tree_call{seed, depth});
          if (got != pt::tree_value(seed, depth, world))
            bad.fetch_add(1);
          done.fetch_add(1);
        }
      });
  });
  weft::dist_stats after = weft::places_mpi_stats();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(done.load(), tasks * trees);
  // Rank 0 served calls too (the trees call back).
  EXPECT_GT(after.calls_received, before.calls_received);
  std::printf("nested trees: rank 0 received %llu calls, %llu of them by "
              "a waiting thread (run there)\n",
              static_cast<unsigned long long>(after.calls_received -
                                              before.calls_received),
              static_cast<unsigned long long>(after.calls_polled -
                                              before.calls_polled));
}

// Calls to a rank whose own thread is busy (never waiting in at, get,
// finish or a barrier): with MPI_THREAD_MULTIPLE an idle worker receives
// them itself while it backs off (core/idle.hpp's idle hook) and runs them; in
// FUNNELED only the progress thread receives, and they reach the idle
// worker through the inbox. Rank 0's main thread spins without weft (no
// wait that would poll) while rank 1 makes the calls back to it, one at a
// time (a burst arrives before the idle worker wakes: the progress thread
// takes it all, 0-88 of 200 by the worker in 10 runs).
std::atomic<int> g_busy_served{0};
struct serve_busy {
  int n;
  void operator()(leaf *) const {
    for (int i = 0; i < n; ++i)
      weft::at(weft::place{0}, static_cast<leaf *>(nullptr),
               [](leaf *) { g_busy_served.fetch_add(1); });
  }
};

TEST_F(Dist, IdleWorkersServeCallsWhileTheirRankIsBusy) {
  if (weft::num_threads() < 2)
    GTEST_SKIP() << "one worker per rank: no idle worker while it is busy";
  const int n = 200;
  const char *f = std::getenv("WEFT_DIST_FUNNELED");
  const bool funneled = (f && std::atoi(f) != 0) ||
                        weft::places_mpi_thread_level() != MPI_THREAD_MULTIPLE;
  g_busy_served.store(0);
  weft::dist_stats before = weft::places_mpi_stats();
  auto fut = weft::async_at(weft::place{1}, static_cast<leaf *>(nullptr),
                            serve_busy{n});
  // Busy: no weft wait (it would poll) until every call was served.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (g_busy_served.load() < n &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  ASSERT_EQ(g_busy_served.load(), n) << "calls to a busy rank not served";
  fut.get();
  weft::dist_stats after = weft::places_mpi_stats();
  const auto received = after.calls_received - before.calls_received;
  const auto polled = after.calls_polled - before.calls_polled;
  EXPECT_EQ(received, std::uint64_t(n));
  std::printf("busy rank: %llu calls received, %llu by an idle worker's "
              "poll (%s)\n",
              static_cast<unsigned long long>(received),
              static_cast<unsigned long long>(polled),
              funneled ? "FUNNELED" : "MULTIPLE");
  if (funneled) {
    EXPECT_EQ(polled, 0u) << "only the progress thread may call MPI";
  } else if (weft::num_places() == 2) {
    EXPECT_GT(polled, 0u) << "no idle worker received a call itself";
  }
  // At 4 ranks on this 2-core machine the idle worker's backoff may end
  // before rank 1's next call comes (0 of 200 in 1 of 6 runs with an
  // earlier variant of the hook; 200 of 200 in 6 since): printed, not
  // asserted.
}

TEST_F(Dist, RemoteExceptionComesBack) {
  try {
    (void)weft::at(weft::place{1}, static_cast<leaf *>(nullptr),
                   [](leaf *) -> int { throw std::runtime_error("boom 42"); });
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("boom 42"), std::string::npos)
        << e.what();
  }
}

TEST_F(Dist, BadGraphIsRefusedBeforeAnythingIsSent) {
  leaf *a = weft::make<leaf>(weft::here(), 1, nullptr);
  leaf *b = weft::make<leaf>(weft::here(), 2, nullptr);
  // A pointer into the middle of b.
  a->next = reinterpret_cast<char *>(b) + 8;
  std::vector<std::uint64_t> before = pt::snapshot(b);
  weft::dist_stats s0 = weft::places_mpi_stats();
  try {
    (void)weft::at(weft::place{1}, a, [](leaf *c) { return c->v; });
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("weft::at"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("start of an object"),
              std::string::npos)
        << e.what();
  }
  weft::dist_stats s1 = weft::places_mpi_stats();
  EXPECT_EQ(s1.calls_sent, s0.calls_sent);
  EXPECT_EQ(s1.atomics, s0.atomics);
  EXPECT_EQ(s1.puts, s0.puts);
  EXPECT_EQ(a->v, 1);
  EXPECT_EQ(pt::snapshot(b), before);
  // The ranks still work afterwards.
  a->next = b;
  EXPECT_EQ(weft::at(weft::place{1}, a,
                     [](leaf *c) { return static_cast<leaf *>(c->next)->v; }),
            2);
  weft::release(a);
  weft::release(b);
}

TEST_F(Dist, PlacesOnOtherRanksRejectLocalCalls) {
  EXPECT_THROW(weft::make<leaf>(weft::place{1}, 1, nullptr),
               std::invalid_argument);
  EXPECT_THROW(weft::at(weft::place{weft::num_places()},
                        static_cast<leaf *>(nullptr), [](leaf *) { return 0; }),
               std::invalid_argument);
}

// Large arrays (gathered from their sources into the put) mixed with
// pointers, sharing and stores shared by two descriptors, to every rank
// and back: every byte compared, padding zero, the source unchanged.
TEST_F(Dist, LargeArraysMixedWithPointersAndSharingRoundTrip) {
  std::mt19937_64 rng(1313);
  int rounds = std::max(4, int(8 * scale()));
  // Arrays up to 65 537 ints (256 KiB and more: stores with an extent of
  // their own), released after each round (until issue 13's release work
  // they stayed made and were kept under 48 KiB, the tests before this one
  // having nearly filled the place).
  for (int i = 0; i < rounds; ++i) {
    auto *root =
        static_cast<fnode *>(pt::large_array_graph(rng, weft::here(), 8));
    std::vector<std::uint64_t> before = pt::snapshot(root);
    int r = 1 + i % (weft::num_places() - 1);
    // At the target: a digest of every int of the arrived copy against the
    // source's.
    auto digest = [](fnode *g) {
      std::uint64_t sum = 0;
      for (void *o : pt::objects_of(g)) {
        if (!pt::is_fnode(o))
          continue;
        std::uint64_t h = 1469598103934665603ull;
        for (std::int32_t v : static_cast<fnode *>(o)->ints)
          h = (h ^ std::uint32_t(v)) * 1099511628211ull;
        sum += h;
      }
      return sum;
    };
    std::uint64_t there = weft::at(weft::place{r}, root, digest);
    EXPECT_EQ(there, digest(root)) << "round " << i;
    weft::graph<fnode> back =
        weft::at(weft::place{r}, root, [](fnode *c) { return c; });
    ASSERT_TRUE(back);
    note();
    EXPECT_EQ(pt::expect_isomorphic(root, back.get()), back.size().objects);
    pt::expect_store_padding_zero(back.get());
    EXPECT_EQ(pt::snapshot(root), before) << "the source changed";
    back.reset();
    std::mt19937_64 order{std::uint64_t(i)};
    pt::release_made(root, order);
    if (::testing::Test::HasFailure())
      break;
  }
}

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  try {
    weft::places_mpi_init(std::size_t(64) << 20);
  } catch (const std::invalid_argument &e) {
    std::fprintf(stderr, "%s\n", e.what()); // dist.env.bad_place_bytes
    return 2;
  }
  int rc = dist_test::run_tests_on_rank0();
  weft::places_mpi_finalize();
  return rc;
}
