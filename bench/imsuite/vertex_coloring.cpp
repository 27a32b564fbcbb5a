// IMSuite's vertexColoring (a 3-colouring of a rooted tree: Cole-Vishkin
// colour reduction to 6 colours, then three shift-down rounds to 3),
// ported to weft places: node i lives at place i mod P and starts with
// colour i. Every step that needs the parent's colour is an exchange, one
// at() per pair of places carrying a registered batch of (child, colour)
// pairs. Cole-Vishkin: a node takes 2k + bit k of its colour, k the lowest
// bit where it differs from its parent's (the root: k = 0), until every
// colour is below 6. Then for x = 5, 4, 3: every node takes its parent's
// colour (the root the smallest of 0-2 unlike its own), and each node of
// colour x takes the smallest of 0-2 unlike its parent's and its children's
// (all of them now hold its previous colour). The input is a random tree
// (node i's parent drawn from 0..i-1). Verified against a serial run of the
// same steps (equal colours) and as a proper colouring with 3 colours. In
// one process (WEFT_PLACES=P) or on MPI ranks (--mpi).
//
//   vertex_coloring [--nodes 256] [--seed 1] [--mpi]
#include "kernel_main.hpp"

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <vector>

namespace vc {

struct batch {
  weft::array<std::int64_t> pairs; // node, colour
};

constexpr int kMaxPlaces = 64;

struct tree {
  std::vector<std::int64_t> parent; // parent[0] == -1
  std::vector<std::vector<std::int64_t>> children;
};

tree make_tree(std::int64_t n, std::uint64_t seed) {
  tree t;
  t.parent.assign(std::size_t(n), -1);
  t.children.resize(std::size_t(n));
  std::uint64_t x = seed;
  for (std::int64_t i = 1; i < n; ++i) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    t.parent[std::size_t(i)] = std::int64_t(z % std::uint64_t(i));
    t.children[std::size_t(t.parent[std::size_t(i)])].push_back(i);
  }
  return t;
}

// One Cole-Vishkin step of colour c against its parent's colour p (p < 0:
// the root).
std::int64_t reduce(std::int64_t c, std::int64_t p) {
  int k = p < 0 ? 0 : std::countr_zero(std::uint64_t(c ^ p));
  return 2 * k + ((c >> k) & 1);
}

// The smallest of 0-2 unlike a and b.
std::int64_t free_colour(std::int64_t a, std::int64_t b) {
  for (std::int64_t c = 0;; ++c)
    if (c != a && c != b)
      return c;
}

struct place_nodes {
  tree t; // the whole tree (every place makes it from the seed)
  std::vector<std::int64_t> colour, parent_colour, before; // of its nodes
  std::mutex lock; // parent_colour: batches from several places at once
};
place_nodes g_nodes[kMaxPlaces];

} // namespace vc

WEFT_TYPE(vc::batch, &vc::batch::pairs);

namespace vc {

template <class F> void on_every_place(F body) {
  int P = weft::num_places();
  weft::finish([&] {
    for (int p = 0; p < P; ++p)
      weft::async_at(weft::place{p}, static_cast<batch *>(nullptr),
                     [body](batch *) {
                       int me = weft::here().id;
                       body(g_nodes[me], me);
                     });
  });
}

// Every node's parent_colour becomes its parent's colour (the root's: -1).
void exchange_parent_colours() {
  on_every_place([](place_nodes &s, int me) {
    const int P = weft::num_places();
    std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(P));
    for (std::size_t k = 0; k < s.colour.size(); ++k) {
      std::int64_t i = std::int64_t(k) * P + me;
      for (std::int64_t j : s.t.children[std::size_t(i)])
        out[std::size_t(j % P)].insert(out[std::size_t(j % P)].end(),
                                       {j, s.colour[k]});
    }
    for (std::size_t q = 0; q < out.size(); ++q) {
      if (out[q].empty())
        continue;
      batch *b = weft::make<batch>(weft::here());
      b->pairs = weft::make_array<std::int64_t>(weft::here(), out[q].size());
      std::copy(out[q].begin(), out[q].end(), b->pairs.begin());
      imsuite::send(weft::place{int(q)}, b, [](batch *c) {
        place_nodes &d = g_nodes[weft::here().id];
        const auto n = std::int64_t(weft::num_places());
        std::lock_guard<std::mutex> lk(d.lock);
        for (std::size_t t = 0; t + 1 < c->pairs.size(); t += 2)
          d.parent_colour[std::size_t(c->pairs[t] / n)] = c->pairs[t + 1];
      });
    }
  });
}

std::int64_t max_colour() {
  const int P = weft::num_places();
  std::vector<weft::future<std::int64_t>> m;
  weft::finish([&] {
    for (int p = 0; p < P; ++p)
      m.push_back(weft::async_at(
          weft::place{p}, static_cast<batch *>(nullptr), [](batch *) {
            auto &c = g_nodes[weft::here().id].colour;
            return c.empty() ? std::int64_t(0)
                             : *std::max_element(c.begin(), c.end());
          }));
  });
  std::int64_t r = 0;
  for (auto &f : m)
    r = std::max(r, f.get());
  return r;
}

struct result {
  std::vector<std::int64_t> colour;
  std::int64_t steps = 0;
};

result run(std::int64_t n, std::uint64_t seed) {
  const int P = weft::num_places();
  on_every_place([n, seed, P](place_nodes &s, int me) {
    s.t = make_tree(n, seed);
    std::size_t k = std::size_t((n - me + P - 1) / P);
    s.colour.resize(k);
    for (std::size_t j = 0; j < k; ++j)
      s.colour[j] = std::int64_t(j) * P + me;
    s.parent_colour.assign(k, -1);
    s.before.assign(k, -1);
  });
  result r;
  while (max_colour() >= 6) {
    ++r.steps;
    exchange_parent_colours();
    on_every_place([](place_nodes &s, int) {
      for (std::size_t k = 0; k < s.colour.size(); ++k)
        s.colour[k] = reduce(s.colour[k], s.parent_colour[k]);
    });
  }
  for (std::int64_t x = 5; x >= 3; --x) {
    ++r.steps;
    exchange_parent_colours(); // shift down
    on_every_place([](place_nodes &s, int) {
      for (std::size_t k = 0; k < s.colour.size(); ++k) {
        s.before[k] = s.colour[k];
        s.colour[k] = s.parent_colour[k] >= 0
                          ? s.parent_colour[k]
                          : free_colour(s.colour[k], s.colour[k]);
      }
    });
    exchange_parent_colours(); // the parents' colours after the shift
    on_every_place([x](place_nodes &s, int) {
      for (std::size_t k = 0; k < s.colour.size(); ++k)
        if (s.colour[k] == x)
          s.colour[k] = free_colour(s.parent_colour[k], s.before[k]);
    });
  }
  r.colour.assign(std::size_t(n), -1);
  for (int p = 0; p < P; ++p) {
    weft::graph<batch> g =
        weft::at(weft::place{p}, static_cast<batch *>(nullptr), [](batch *) {
          auto &c = g_nodes[weft::here().id].colour;
          batch *b = weft::make<batch>(weft::here());
          b->pairs = weft::make_array<std::int64_t>(weft::here(), c.size());
          std::copy(c.begin(), c.end(), b->pairs.begin());
          return b;
        });
    for (std::size_t k = 0; k < g->pairs.size(); ++k)
      r.colour[k * std::size_t(P) + std::size_t(p)] = g->pairs[k];
  }
  return r;
}

// The same steps in one loop.
result serial(const tree &t) {
  std::size_t n = t.parent.size();
  result r;
  r.colour.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    r.colour[i] = std::int64_t(i);
  auto parents = [&] {
    std::vector<std::int64_t> p(n, -1);
    for (std::size_t i = 1; i < n; ++i)
      p[i] = r.colour[std::size_t(t.parent[i])];
    return p;
  };
  while (*std::max_element(r.colour.begin(), r.colour.end()) >= 6) {
    ++r.steps;
    std::vector<std::int64_t> p = parents();
    for (std::size_t i = 0; i < n; ++i)
      r.colour[i] = reduce(r.colour[i], p[i]);
  }
  for (std::int64_t x = 5; x >= 3; --x) {
    ++r.steps;
    std::vector<std::int64_t> before = r.colour, p = parents();
    for (std::size_t i = 0; i < n; ++i)
      r.colour[i] = p[i] >= 0 ? p[i] : free_colour(before[i], before[i]);
    p = parents();
    for (std::size_t i = 0; i < n; ++i)
      if (r.colour[i] == x)
        r.colour[i] = free_colour(p[i], before[i]);
  }
  return r;
}

// r equals the serial run and is a proper colouring with colours 0-2;
// prints the first violation.
bool verify(const tree &t, const result &r) {
  result s = serial(t);
  for (std::size_t i = 0; i < t.parent.size(); ++i) {
    std::int64_t c = r.colour[i];
    std::int64_t pc = i ? r.colour[std::size_t(t.parent[i])] : -1;
    const char *why = c != s.colour[i] ? "differs from the serial run"
                      : c < 0 || c > 2 ? "is not one of 0-2"
                      : c == pc        ? "equals its parent's"
                                       : nullptr;
    if (why) {
      std::fprintf(stderr, "vertex_coloring: node %zu colour %lld %s\n", i,
                   static_cast<long long>(c), why);
      return false;
    }
  }
  if (r.steps != s.steps) {
    std::fprintf(stderr, "vertex_coloring: %lld steps, the serial run %lld\n",
                 static_cast<long long>(r.steps),
                 static_cast<long long>(s.steps));
    return false;
  }
  return true;
}

} // namespace vc

int main(int argc, char **argv) {
  using imsuite::kernel_main;
  return kernel_main(
      argc, argv,
      {"IMSuite vertexColoring on weft places", "vertexColoring", "tree size",
       "the random tree", 256, 1 << 20, vc::kMaxPlaces},
      vc::run, [](std::int64_t n, std::uint64_t seed, const vc::result &r) {
        return imsuite::outcome{vc::verify(vc::make_tree(n, seed), r),
                                imsuite::field("steps", r.steps)};
      });
}
