// Random object graphs over two registered types, snapshots of a graph's
// contents, and the isomorphism check between a graph and its copy.
#pragma once

#include <weft/places.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace pt {

// Every kind of word: data, pointers, a transient word, an array of data and
// an array of pointers (to either type).
struct fnode {
  std::int64_t id;
  void *a;
  double x;
  void *b;
  weft::transient<std::uint64_t> cache;
  weft::array<std::int32_t> ints;
  weft::array<void *> kids;
  std::int64_t tail;
};

struct leaf {
  std::int64_t v;
  void *next;
};

} // namespace pt

WEFT_TYPE(pt::fnode, &pt::fnode::a, &pt::fnode::b, &pt::fnode::cache,
          &pt::fnode::ints, &pt::fnode::kids);
WEFT_TYPE(pt::leaf, &pt::leaf::next);

namespace pt {

// The registered type of an object made by make<> (the header's low bits).
inline std::uint32_t type_of(const void *p) {
  std::uint64_t tag;
  std::memcpy(&tag, static_cast<const char *>(p) - 40, 8);
  return std::uint32_t(tag & 0xffffffffu);
}
inline bool is_fnode(const void *p) {
  return type_of(p) == weft::type_registration<fnode>::id;
}

struct shape {
  int nodes = 50;
  double leaf_share = 0.3;
  double null_share = 0.2;
  int max_ints = 12;
  int max_kids = 6;
};

// A random graph in place p: sharing, cycles and self-loops, nulls, empty
// and non-empty arrays. Returns the root.
inline void *random_graph(std::mt19937_64 &rng, weft::place p, const shape &s) {
  std::vector<void *> objs;
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < s.nodes; ++i) {
    if (i > 0 && u(rng) < s.leaf_share) {
      objs.push_back(weft::make<leaf>(p, std::int64_t(rng()), nullptr));
    } else {
      auto *f = weft::make<fnode>(p);
      f->id = std::int64_t(rng());
      f->x = u(rng);
      f->tail = -f->id;
      f->cache.value = rng() | 1;
      int ni = int(rng() % (s.max_ints + 1));
      f->ints = weft::make_array<std::int32_t>(p, std::size_t(ni));
      for (auto &v : f->ints)
        v = std::int32_t(rng());
      objs.push_back(f);
    }
  }
  auto pick = [&]() -> void * {
    if (u(rng) < s.null_share)
      return nullptr;
    return objs[rng() % objs.size()];
  };
  // A spanning chain keeps every object reachable from the root.
  for (std::size_t i = 0; i < objs.size(); ++i) {
    void *next = i + 1 < objs.size() ? objs[i + 1] : pick();
    if (is_fnode(objs[i])) {
      auto *f = static_cast<fnode *>(objs[i]);
      f->a = next;
      f->b = pick();
      int nk = int(rng() % (s.max_kids + 1));
      f->kids = weft::make_array<void *>(p, std::size_t(nk));
      for (auto &k : f->kids)
        k = pick();
    } else {
      static_cast<leaf *>(objs[i])->next = next;
    }
  }
  return objs[0];
}

// Every word of every reachable object and store, in traversal order.
inline std::vector<std::uint64_t> snapshot(const void *root) {
  std::vector<std::uint64_t> out;
  std::unordered_set<const void *> seen;
  std::vector<const void *> stack;
  if (root)
    stack.push_back(root);
  seen.insert(root);
  auto visit = [&](const void *p) {
    if (p && seen.insert(p).second)
      stack.push_back(p);
  };
  while (!stack.empty()) {
    const void *o = stack.back();
    stack.pop_back();
    out.push_back(reinterpret_cast<std::uintptr_t>(o));
    if (is_fnode(o)) {
      auto *f = static_cast<const fnode *>(o);
      const auto *w = reinterpret_cast<const std::uint64_t *>(f);
      out.insert(out.end(), w, w + sizeof(fnode) / 8);
      out.insert(out.end(), f->ints.begin(), f->ints.end());
      for (void *k : f->kids) {
        out.push_back(reinterpret_cast<std::uintptr_t>(k));
        visit(k);
      }
      visit(f->a);
      visit(f->b);
    } else {
      auto *l = static_cast<const leaf *>(o);
      out.push_back(std::uint64_t(l->v));
      out.push_back(reinterpret_cast<std::uintptr_t>(l->next));
      visit(l->next);
    }
  }
  return out;
}

// Checks that copy is isomorphic to src: a bijection between their objects
// preserving types, data, arrays and pointers (sharing and cycles), copies
// distinct from sources, transient words zero. Returns the object count.
inline std::size_t expect_isomorphic(const void *src, const void *copy) {
  std::unordered_map<const void *, const void *> fwd, back;
  std::vector<std::pair<const void *, const void *>> stack;
  std::size_t bad = 0;
  auto pair = [&](const void *s, const void *c) {
    if (!s || !c) {
      if (s != c && bad++ < 5)
        ADD_FAILURE() << "null mismatch " << s << " vs " << c;
      return;
    }
    auto f = fwd.find(s);
    if (f != fwd.end()) {
      if (f->second != c && bad++ < 5)
        ADD_FAILURE() << "shared object " << s << " copied twice";
      return;
    }
    if (back.count(c)) {
      if (bad++ < 5)
        ADD_FAILURE() << "copy " << c << " stands for two sources";
      return;
    }
    if (s == c && bad++ < 5)
      ADD_FAILURE() << "copy aliases its source " << s;
    fwd[s] = c;
    back[c] = s;
    stack.push_back({s, c});
  };
  pair(src, copy);
  while (!stack.empty()) {
    auto [s, c] = stack.back();
    stack.pop_back();
    if (type_of(s) != type_of(c)) {
      ADD_FAILURE() << "type differs at " << s;
      continue;
    }
    if (is_fnode(s)) {
      auto *a = static_cast<const fnode *>(s);
      auto *b = static_cast<const fnode *>(c);
      EXPECT_EQ(a->id, b->id);
      EXPECT_EQ(a->x, b->x);
      EXPECT_EQ(a->tail, b->tail);
      EXPECT_EQ(b->cache.value, 0u) << "transient word copied";
      EXPECT_EQ(a->ints.length, b->ints.length);
      EXPECT_EQ(a->ints.bytes, b->ints.bytes);
      if (a->ints.length) {
        EXPECT_NE(a->ints.data, b->ints.data);
        EXPECT_EQ(0, std::memcmp(a->ints.data, b->ints.data, a->ints.bytes));
      }
      EXPECT_EQ(a->kids.length, b->kids.length);
      if (a->kids.length == b->kids.length) {
        if (a->kids.length) {
          EXPECT_NE(a->kids.data, b->kids.data);
        }
        for (std::size_t i = 0; i < a->kids.size(); ++i)
          pair(a->kids[i], b->kids[i]);
      }
      pair(a->a, b->a);
      pair(a->b, b->b);
    } else {
      auto *a = static_cast<const leaf *>(s);
      auto *b = static_cast<const leaf *>(c);
      EXPECT_EQ(a->v, b->v);
      pair(a->next, b->next);
    }
    // The transition structure is clean after the copy.
    const auto *h = reinterpret_cast<const std::uint64_t *>(
        static_cast<const char *>(c) - 40);
    if ((h[1] | h[2] | h[3] | h[4]) && bad++ < 5)
      ADD_FAILURE() << "transition words left set in copy " << c;
  }
  return fwd.size();
}

// The objects reachable from root, each once.
inline std::vector<void *> objects_of(void *root) {
  std::vector<void *> out, stack;
  std::unordered_set<void *> seen;
  auto visit = [&](void *p) {
    if (p && seen.insert(p).second)
      stack.push_back(p);
  };
  visit(root);
  while (!stack.empty()) {
    void *o = stack.back();
    stack.pop_back();
    out.push_back(o);
    if (is_fnode(o)) {
      auto *f = static_cast<fnode *>(o);
      visit(f->a);
      visit(f->b);
      for (void *k : f->kids)
        visit(k);
    } else {
      visit(static_cast<leaf *>(o)->next);
    }
  }
  return out;
}

// A random graph (pointers, pointer arrays, sharing, cycles) whose int
// arrays are mostly large: lengths around the copy's direct-store threshold
// (16 KiB: 4096 ints) and well past it, odd ones among them (padded
// stores), and some descriptors sharing another's store (the copy gives
// each its own). Random contents, so every byte is checked.
inline void *large_array_graph(std::mt19937_64 &rng, weft::place p,
                               int max_nodes = 30, bool smaller = false) {
  shape s;
  s.nodes = 1 + int(rng() % std::uint64_t(max_nodes));
  s.leaf_share = 0.2;
  s.null_share = 0.1;
  s.max_ints = 8;
  void *root = random_graph(rng, p, s);
  const std::size_t lengths[] = {
      4095, 4096, 4097, 9001, smaller ? 12000u : 65537u, 1000};
  std::vector<fnode *> fs;
  for (void *o : objects_of(root))
    if (is_fnode(o))
      fs.push_back(static_cast<fnode *>(o));
  // A store no other node's descriptor holds is released when its node
  // takes another: every store made stays reachable (release_made).
  auto drop = [&](fnode *f) {
    for (fnode *o : fs)
      if (o != f && o->ints.data == f->ints.data)
        return;
    weft::release(f->ints);
  };
  for (fnode *f : fs) {
    if (rng() % 4 == 0)
      continue; // a small array
    std::size_t n = rng() % 3 ? lengths[rng() % std::size(lengths)]
                              : std::size_t(rng() % (smaller ? 12000 : 40000));
    drop(f);
    f->ints = weft::make_array<std::int32_t>(p, n);
    for (auto &v : f->ints)
      v = std::int32_t(rng());
  }
  for (fnode *f : fs)
    if (rng() % 5 == 0) {
      fnode *o = fs[rng() % fs.size()];
      if (o->ints.data != f->ints.data) {
        drop(f);
        f->ints = o->ints; // one store, two descriptors
      }
    }
  return root;
}

// Releases every object and store reachable from root (each store once,
// however many descriptors share it), as made by random_graph or
// large_array_graph, in an order drawn from rng. The graph must not be
// used afterwards.
inline void release_made(void *root, std::mt19937_64 &rng) {
  std::vector<void *> objs = objects_of(root);
  std::vector<weft::array<std::int32_t>> ints;
  std::vector<weft::array<void *>> kids;
  std::unordered_set<const void *> seen;
  for (void *o : objs) {
    if (!is_fnode(o))
      continue;
    auto *f = static_cast<fnode *>(o);
    if (f->ints.data && seen.insert(f->ints.data).second)
      ints.push_back(f->ints);
    if (f->kids.data && seen.insert(f->kids.data).second)
      kids.push_back(f->kids);
  }
  std::shuffle(objs.begin(), objs.end(), rng);
  for (auto &a : ints)
    weft::release(a);
  for (auto &a : kids)
    weft::release(a);
  for (void *o : objs) {
    if (is_fnode(o))
      weft::release(static_cast<fnode *>(o));
    else
      weft::release(static_cast<leaf *>(o));
  }
}

// The padding of every odd-length int store reachable from root (the bytes
// between the data's end and the next word) is zero in a copy.
inline void expect_store_padding_zero(void *root) {
  for (void *o : objects_of(root)) {
    if (!is_fnode(o))
      continue;
    auto *f = static_cast<fnode *>(o);
    std::size_t pad = (8 - f->ints.bytes % 8) % 8;
    if (!f->ints.data || !pad)
      continue;
    const char *end =
        reinterpret_cast<const char *>(f->ints.data) + f->ints.bytes;
    for (std::size_t i = 0; i < pad; ++i)
      EXPECT_EQ(end[i], 0) << "padding byte " << i << " of a store of "
                           << f->ints.bytes << " bytes";
  }
}

} // namespace pt
