// The randomized property test over region trees: random nesting, objects,
// in/out/inout on regions and objects, nested spawns, weft_wait, allocation
// and frees of objects and regions inside tasks. Each round runs one random
// program twice — serially (a spawn calls the task at once, a wait does
// nothing) and on weft — and compares what every task read and the final
// contents and shape of the whole tree. Tasks choose their children and
// their structural changes from what they see in their arguments (with a
// random generator seeded by the task's id), so a wrong order shows up as a
// different read, value or shape.
#include "test_util.hpp"

#include <weft/regions.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr int kMaxObjects = 6;
constexpr int kMaxSubs = 3;
constexpr int kMaxArgs = 4;

struct object {
  uint64_t val;
};

// Lives in its own region: the region's objects and sub-regions.
struct header {
  weft_rid rid;
  int nobj;
  object *objs[kMaxObjects];
  int nsub;
  header *subs[kMaxSubs];
};

struct config {
  int max_depth = 4;
  int max_children = 3;
};

bool g_serial = false;
config g_cfg;
std::mutex g_results_lock;
std::map<uint64_t, uint64_t> g_results;
std::atomic<int> g_failures{0};
std::string g_first_failure;

void fail(const char *what, int rc) {
  std::lock_guard<std::mutex> lk(g_results_lock);
  if (g_failures++ == 0)
    g_first_failure = std::string(what) + " failed (" + std::to_string(rc) +
                      "): " + weft_last_error();
}

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct rng {
  uint64_t s;
  uint64_t next() { return s = mix(s); }
  int below(int n) { return int(next() % uint64_t(n)); }
};

header *new_region(weft_rid parent, rng &r, uint64_t salt) {
  weft_rid rid = weft_ralloc(parent, r.below(4));
  if (!rid) {
    fail("weft_ralloc", 0);
    return nullptr;
  }
  auto *h = static_cast<header *>(weft_alloc(sizeof(header), rid));
  if (!h) {
    fail("weft_alloc(header)", 0);
    return nullptr;
  }
  *h = header{};
  h->rid = rid;
  int n = 1 + r.below(3);
  for (int i = 0; i < n; ++i) {
    auto *o = static_cast<object *>(weft_alloc(sizeof(object), rid));
    if (!o) {
      fail("weft_alloc(object)", 0);
      return h;
    }
    o->val = salt + uint64_t(i);
    h->objs[h->nobj++] = o;
  }
  return h;
}

// Reads (sum) or writes (val update) every object below h.
void visit(header *h, bool write, uint64_t id, uint64_t &sum) {
  for (int i = 0; i < h->nobj; ++i) {
    if (write)
      h->objs[i]->val = h->objs[i]->val * 31 + id;
    sum = sum * 17 + h->objs[i]->val;
  }
  for (int i = 0; i < h->nsub; ++i)
    visit(h->subs[i], write, id, sum);
  sum = sum * 13 + uint64_t(h->nobj * 8 + h->nsub);
}

// A task's argument as the test sees it.
struct targ {
  bool is_region;
  header *h; // region
  object *o; // object
  int mode;  // WEFT_ARG_IN / OUT / INOUT
};

void task_fn(void **a);

// Builds the args/types arrays and spawns (or, serially, calls) a task.
void launch(uint64_t id, int depth, const targ *args, int n) {
  void *v[3 + 3 * kMaxArgs];
  int t[3 + 3 * kMaxArgs];
  v[0] = reinterpret_cast<void *>(uintptr_t(id));
  v[1] = reinterpret_cast<void *>(intptr_t(depth));
  v[2] = reinterpret_cast<void *>(intptr_t(n));
  t[0] = t[1] = t[2] = WEFT_ARG_SAFE;
  for (int k = 0; k < n; ++k) {
    const targ &g = args[k];
    v[3 + 3 * k] =
        g.is_region ? reinterpret_cast<void *>(uintptr_t(g.h->rid)) : g.o;
    t[3 + 3 * k] = g.mode | (g.is_region ? WEFT_ARG_REGION : 0);
    v[4 + 3 * k] = g.h;
    t[4 + 3 * k] = WEFT_ARG_SAFE;
    v[5 + 3 * k] = reinterpret_cast<void *>(intptr_t(g.mode));
    t[5 + 3 * k] = WEFT_ARG_SAFE;
  }
  if (g_serial) {
    task_fn(v);
    return;
  }
  if (int rc = weft_rspawn(task_fn, 3 + 3 * n, v, t); rc != WEFT_OK)
    fail("weft_rspawn", rc);
}

void wait_for(const targ *args, int n) {
  if (g_serial)
    return;
  void *v[kMaxArgs];
  int t[kMaxArgs];
  for (int k = 0; k < n; ++k) {
    v[k] = args[k].is_region
               ? reinterpret_cast<void *>(uintptr_t(args[k].h->rid))
               : args[k].o;
    t[k] = args[k].mode | (args[k].is_region ? WEFT_ARG_REGION : 0);
  }
  if (int rc = weft_wait(v, t, n); rc != WEFT_OK)
    fail("weft_wait", rc);
}

int sub_mode(rng &r, int mode) {
  if (mode == WEFT_ARG_IN)
    return WEFT_ARG_IN;
  static const int modes[] = {WEFT_ARG_IN, WEFT_ARG_OUT, WEFT_ARG_INOUT};
  return modes[r.below(3)];
}

// Something inside (or equal to) a: the region itself, a sub-region
// (recursively), or one of its objects.
targ pick_inside(rng &r, const targ &a) {
  targ g = a;
  g.mode = sub_mode(r, a.mode);
  if (!a.is_region)
    return g;
  header *h = a.h;
  for (;;) {
    int c = r.below(4);
    if (c == 0 || (h->nobj == 0 && h->nsub == 0))
      break;
    if (c == 1 && h->nsub > 0) {
      h = h->subs[r.below(h->nsub)];
      continue;
    }
    if (h->nobj > 0) {
      g.is_region = false;
      g.o = h->objs[r.below(h->nobj)];
      g.h = nullptr;
      return g;
    }
    break;
  }
  g.h = h;
  return g;
}

// Structural changes in a region the task holds for writing.
void restructure(header *h, rng &r, uint64_t id) {
  int c = r.below(8);
  if (c == 0 && h->nobj < kMaxObjects) {
    auto *o = static_cast<object *>(weft_alloc(sizeof(object), h->rid));
    if (!o)
      return fail("weft_alloc", 0);
    o->val = id;
    h->objs[h->nobj++] = o;
  } else if (c == 1 && h->nobj > 1) {
    int j = r.below(h->nobj);
    if (int rc = weft_free(h->objs[j]); rc != WEFT_OK)
      return fail("weft_free", rc);
    h->objs[j] = h->objs[--h->nobj];
  } else if (c == 2 && h->nsub < kMaxSubs) {
    if (header *s = new_region(h->rid, r, id))
      h->subs[h->nsub++] = s;
  } else if (c == 3 && h->nsub > 0) {
    int j = r.below(h->nsub);
    if (int rc = weft_rfree(h->subs[j]->rid); rc != WEFT_OK)
      return fail("weft_rfree", rc);
    h->subs[j] = h->subs[--h->nsub];
  } else if (c == 4 && h->nobj > 0) {
    int j = r.below(h->nobj);
    void *q = weft_realloc(h->objs[j], sizeof(object) + 16, h->rid);
    if (!q)
      return fail("weft_realloc", 0);
    h->objs[j] = static_cast<object *>(q);
  }
}

void body(uint64_t id, int depth, targ *args, int n) {
  rng r{id};
  uint64_t sum = id;
  auto spin = unsigned(r.next() % 400); // drawn in both runs alike
  if (!g_serial)
    wt::busy_work(spin); // vary the interleavings
  for (int k = 0; k < n; ++k) {
    bool write = args[k].mode & WEFT_ARG_OUT;
    if (args[k].is_region) {
      if (write)
        restructure(args[k].h, r, id);
      visit(args[k].h, write, id, sum);
    } else {
      if (write)
        args[k].o->val = args[k].o->val * 31 + id;
      sum = sum * 17 + args[k].o->val;
    }
  }
  if (depth < g_cfg.max_depth && n > 0) {
    // Delegation rules: once part of an argument went to a child, the task
    // may not look inside it (its header may change) until it waits for it.
    bool delegated[kMaxArgs] = {};
    int nchild = depth == 0 ? 4 + r.below(12) : r.below(g_cfg.max_children + 1);
    for (int c = 0; c < nchild; ++c) {
      targ cargs[kMaxArgs];
      int cn = 0;
      for (int k = 0; k < n; ++k) {
        if (r.below(3) == 0)
          continue;
        if (delegated[k] && r.below(2) == 0) {
          wait_for(&args[k], 1);
          delegated[k] = false;
        }
        if (delegated[k]) {
          cargs[cn] = args[k];
          cargs[cn++].mode = sub_mode(r, args[k].mode);
        } else if (args[k].is_region && args[k].h->nobj >= 2 &&
                   cn + 2 <= kMaxArgs && r.below(3) == 0) {
          // Two distinct objects of one region (disjoint arguments).
          header *h = args[k].h;
          int i = r.below(h->nobj),
              j = (i + 1 + r.below(h->nobj - 1)) % h->nobj;
          for (int x : {i, j}) {
            cargs[cn] = {false, nullptr, h->objs[x], sub_mode(r, args[k].mode)};
            ++cn;
          }
        } else {
          cargs[cn++] = pick_inside(r, args[k]);
        }
        delegated[k] = true;
      }
      // (A task without arguments would not be ordered before the final
      // weft_wait: only argument-holding tasks are.)
      if (cn > 0)
        launch(mix(id * 8 + uint64_t(c) + 1), depth + 1, cargs, cn);
      if (r.below(5) == 0) {
        // Take some arguments back, then touch them again.
        targ w[kMaxArgs];
        int wn = 0;
        for (int k = 0; k < n; ++k)
          if (r.below(2) == 0) {
            w[wn] = args[k];
            w[wn++].mode = sub_mode(r, args[k].mode);
            delegated[k] = false;
          }
        wait_for(w, wn);
        for (int k = 0; k < wn; ++k) {
          bool write = w[k].mode & WEFT_ARG_OUT;
          if (w[k].is_region)
            visit(w[k].h, write, id + 1, sum);
          else {
            if (write)
              w[k].o->val = w[k].o->val * 31 + id + 1;
            sum = sum * 17 + w[k].o->val;
          }
        }
      }
    }
  }
  std::lock_guard<std::mutex> lk(g_results_lock);
  if (!g_results.emplace(id, sum).second)
    g_results[id] ^= mix(sum); // an id collision: still deterministic
}

void task_fn(void **a) {
  auto id = uint64_t(reinterpret_cast<uintptr_t>(a[0]));
  int depth = int(reinterpret_cast<intptr_t>(a[1]));
  int n = int(reinterpret_cast<intptr_t>(a[2]));
  targ args[kMaxArgs];
  for (int k = 0; k < n; ++k) {
    args[k].mode = int(reinterpret_cast<intptr_t>(a[5 + 3 * k]));
    args[k].h = static_cast<header *>(a[4 + 3 * k]);
    args[k].is_region = args[k].h != nullptr;
    args[k].o =
        args[k].is_region ? nullptr : static_cast<object *>(a[3 + 3 * k]);
  }
  body(id, depth, args, n);
}

void dump(header *h, std::string &out) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%d %d:", h->nobj, h->nsub);
  out += buf;
  for (int i = 0; i < h->nobj; ++i) {
    std::snprintf(buf, sizeof buf, " %llx",
                  static_cast<unsigned long long>(h->objs[i]->val));
    out += buf;
  }
  for (int i = 0; i < h->nsub; ++i)
    dump(h->subs[i], out);
  out += "]";
}

struct outcome {
  std::map<uint64_t, uint64_t> results;
  std::string tree;
};

// One run of the random program with this seed: builds the initial tree
// under a fresh region, runs the program as a task holding it (main itself
// plays the top task), waits, dumps, frees.
outcome run(uint64_t seed, bool serial) {
  g_serial = serial;
  g_results.clear();
  rng r{seed};
  header *top = new_region(WEFT_ROOT_REGION, r, seed);
  int nsub = 1 + r.below(kMaxSubs);
  for (int i = 0; i < nsub && top; ++i)
    if (header *s = new_region(top->rid, r, seed + 100 + uint64_t(i))) {
      top->subs[top->nsub++] = s;
      if (r.below(2))
        if (header *ss = new_region(s->rid, r, seed + 200 + uint64_t(i)))
          s->subs[s->nsub++] = ss;
    }
  outcome o;
  if (!top)
    return o;
  targ a{true, top, nullptr, WEFT_ARG_INOUT};
  body(seed, 0, &a, 1);
  targ all{true, top, nullptr, WEFT_ARG_INOUT};
  wait_for(&all, 1);
  dump(top, o.tree);
  o.results = g_results;
  if (int rc = weft_rfree(top->rid); rc != WEFT_OK)
    fail("weft_rfree(top)", rc);
  return o;
}

void rounds(int n, int max_depth, int max_children) {
  g_cfg = {max_depth, max_children};
  std::size_t tasks = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t seed = mix(uint64_t(i) + 1000 * uint64_t(max_depth));
    outcome want = run(seed, true);
    ASSERT_EQ(g_failures.load(), 0)
        << "serial run, seed " << seed << ": " << g_first_failure;
    outcome got = run(seed, false);
    ASSERT_EQ(g_failures.load(), 0)
        << "seed " << seed << ": " << g_first_failure;
    ASSERT_EQ(got.tree, want.tree) << "seed " << seed;
    ASSERT_EQ(got.results.size(), want.results.size()) << "seed " << seed;
    for (auto &[id, sum] : want.results) {
      auto it = got.results.find(id);
      ASSERT_NE(it, got.results.end()) << "seed " << seed << " task " << id;
      ASSERT_EQ(it->second, sum) << "seed " << seed << " task " << id;
    }
    tasks += want.results.size();
  }
  std::printf("%d programs, %zu tasks, each run serially and on %d threads\n",
              n, tasks, weft_num_threads());
  // The programs must be more than a handful of tasks to mean anything.
  EXPECT_GT(tasks, std::size_t(n) * 4);
}

TEST(RegionRandom, ShallowWide) { rounds(int(wt::scaled(1000, 10)), 2, 4); }

TEST(RegionRandom, DeepNested) { rounds(int(wt::scaled(600, 6)), 5, 3); }

} // namespace
