// IMSuite's mis (a maximal independent set by Luby's algorithm), ported to
// weft places: node i lives at place i mod P. Each round has two exchanges:
// every active node sends its draw for the round (a hash of the seed, the
// round and its id) to its neighbours; a node whose draw is below every draw
// it received from an active neighbour (ties to the smaller id) joins the
// set; then every node that joined tells its neighbours, which leave the
// game with it. An exchange is one at() per pair of places carrying a
// registered batch (an array of (to, value, from) triples). It ends when no
// node is active. The input is the random connected graph of
// bfs_bellman_ford (a ring plus n log2 n random edges). Verified against a
// serial run of the same rounds (the same set) and as an MIS (independent
// and maximal). In one process (WEFT_PLACES=P) or on MPI ranks (--mpi).
//
//   mis [--nodes 256] [--seed 1] [--mpi]
#include "kernel_main.hpp"

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <vector>

namespace mis {

struct batch {
  weft::array<std::int64_t> triples; // to, value, from
};

constexpr int kMaxPlaces = 64;

using adjacency = std::vector<std::vector<std::int64_t>>;

// A ring plus n log2 n random edges (no self-loops, duplicates dropped): the
// shape of bfs_bellman_ford's graphs, drawn from splitmix64 instead of its
// mt19937_64, so the two kernels' graphs for one seed differ.
adjacency make_graph(std::int64_t n, std::uint64_t seed) {
  adjacency adj(static_cast<std::size_t>(n));
  auto add = [&](std::int64_t a, std::int64_t b) {
    if (a == b)
      return;
    auto &l = adj[std::size_t(a)];
    if (std::find(l.begin(), l.end(), b) != l.end())
      return;
    l.push_back(b);
    adj[std::size_t(b)].push_back(a);
  };
  for (std::int64_t i = 0; i < n; ++i)
    add(i, (i + 1) % n);
  std::uint64_t x = seed;
  auto next = [&x] { // splitmix64: the same stream on every place
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  auto extra = std::int64_t(double(n) * std::log2(double(n)));
  for (std::int64_t e = 0; e < extra; ++e)
    add(std::int64_t(next() % std::uint64_t(n)),
        std::int64_t(next() % std::uint64_t(n)));
  return adj;
}

// Node i's draw in round r (non-negative, so it fits the int64 triples).
std::int64_t draw(std::uint64_t seed, std::int64_t r, std::int64_t i) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ull +
                    std::uint64_t(r) * 0xbf58476d1ce4e5b9ull +
                    std::uint64_t(i) * 0x94d049bb133111ebull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return std::int64_t((z ^ (z >> 31)) >> 1);
}

// Whether a draw (v, from) beats (w, other): smaller value, ties to the
// smaller id.
bool beats(std::int64_t v, std::int64_t from, std::int64_t w,
           std::int64_t other) {
  return v < w || (v == w && from < other);
}

enum : char { kActive = 0, kIn = 1, kOut = 2 };

struct place_nodes {
  adjacency adj; // the whole graph (every place makes it from the seed)
  std::vector<char> state; // of this place's nodes
  std::vector<char> joined;
  std::mutex inbox_lock; // batches from several places at once
  // Triples received: draws (exchange 1) and joins (exchange 2), apart:
  // joins may arrive while a place still reads its draws.
  std::vector<std::int64_t> inbox[2];
};
place_nodes g_nodes[kMaxPlaces];

} // namespace mis

WEFT_TYPE(mis::batch, &mis::batch::triples);

namespace mis {

// Runs body(place_nodes &, me) on every place, in parallel.
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

constexpr int kDraws = 0, kJoins = 1;

// From the calling place: out[q]'s triples to place q's inbox[which], one
// at() each.
void send_batches(const std::vector<std::vector<std::int64_t>> &out,
                  int which) {
  for (std::size_t q = 0; q < out.size(); ++q) {
    if (out[q].empty())
      continue;
    batch *b = weft::make<batch>(weft::here());
    b->triples = weft::make_array<std::int64_t>(weft::here(), out[q].size());
    std::copy(out[q].begin(), out[q].end(), b->triples.begin());
    imsuite::send(weft::place{int(q)}, b, [which](batch *c) {
      place_nodes &s = g_nodes[weft::here().id];
      std::lock_guard<std::mutex> lk(s.inbox_lock);
      auto &in = s.inbox[which];
      in.insert(in.end(), c->triples.begin(), c->triples.end());
    });
  }
}

struct result {
  std::vector<char> in_set;
  std::int64_t rounds = 0;
};

result run(std::int64_t n, std::uint64_t seed) {
  const int P = weft::num_places();
  on_every_place([n, seed, P](place_nodes &s, int me) {
    s.inbox[kDraws].clear();
    s.inbox[kJoins].clear();
    s.adj = make_graph(n, seed);
    std::size_t k = std::size_t((n - me + P - 1) / P);
    s.state.assign(k, kActive);
    s.joined.assign(k, 0);
  });
  result r;
  for (;; ++r.rounds) {
    const std::int64_t round = r.rounds;
    // Exchange 1: active nodes send their draws to their neighbours.
    on_every_place([seed, round, P](place_nodes &s, int me) {
      std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(P));
      for (std::size_t k = 0; k < s.state.size(); ++k) {
        if (s.state[k] != kActive)
          continue;
        std::int64_t i = std::int64_t(k) * P + me;
        std::int64_t v = draw(seed, round, i);
        for (std::int64_t j : s.adj[std::size_t(i)])
          out[std::size_t(j % P)].insert(out[std::size_t(j % P)].end(),
                                         {j, v, i});
      }
      send_batches(out, kDraws);
    });
    // A node beaten by no active neighbour joins; joined nodes tell their
    // neighbours (exchange 2).
    on_every_place([seed, round, P](place_nodes &s, int me) {
      std::fill(s.joined.begin(), s.joined.end(), 1);
      for (std::size_t k = 0; k < s.state.size(); ++k)
        if (s.state[k] != kActive)
          s.joined[k] = 0;
      for (std::size_t t = 0; t + 2 < s.inbox[kDraws].size(); t += 3) {
        std::size_t k = std::size_t(s.inbox[kDraws][t] / P);
        std::int64_t i = std::int64_t(k) * P + me;
        if (beats(s.inbox[kDraws][t + 1], s.inbox[kDraws][t + 2],
                  draw(seed, round, i), i))
          s.joined[k] = 0;
      }
      s.inbox[kDraws].clear();
      std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(P));
      for (std::size_t k = 0; k < s.state.size(); ++k) {
        if (!s.joined[k])
          continue;
        s.state[k] = kIn;
        std::int64_t i = std::int64_t(k) * P + me;
        for (std::int64_t j : s.adj[std::size_t(i)])
          out[std::size_t(j % P)].insert(out[std::size_t(j % P)].end(),
                                         {j, 1, i});
      }
      send_batches(out, kJoins);
    });
    // Neighbours of joined nodes leave; count the nodes still active.
    std::vector<weft::future<std::int64_t>> active;
    weft::finish([&] {
      for (int p = 0; p < P; ++p)
        active.push_back(weft::async_at(
            weft::place{p}, static_cast<batch *>(nullptr), [P](batch *) {
              place_nodes &s = g_nodes[weft::here().id];
              for (std::size_t t = 0; t + 2 < s.inbox[kJoins].size(); t += 3) {
                std::size_t k = std::size_t(s.inbox[kJoins][t] / P);
                if (s.state[k] == kActive)
                  s.state[k] = kOut;
              }
              s.inbox[kJoins].clear();
              return std::int64_t(
                  std::count(s.state.begin(), s.state.end(), kActive));
            }));
    });
    std::int64_t left = 0;
    for (auto &f : active)
      left += f.get();
    if (left == 0) {
      ++r.rounds;
      break;
    }
  }
  // Gather the set: each place returns a batch of its nodes' states.
  r.in_set.assign(std::size_t(n), 0);
  for (int p = 0; p < P; ++p) {
    weft::graph<batch> g =
        weft::at(weft::place{p}, static_cast<batch *>(nullptr), [](batch *) {
          place_nodes &s = g_nodes[weft::here().id];
          batch *b = weft::make<batch>(weft::here());
          b->triples =
              weft::make_array<std::int64_t>(weft::here(), s.state.size());
          for (std::size_t k = 0; k < s.state.size(); ++k)
            b->triples[k] = s.state[k];
          return b;
        });
    for (std::size_t k = 0; k < g->triples.size(); ++k)
      r.in_set[k * std::size_t(P) + std::size_t(p)] = g->triples[k] == kIn;
  }
  return r;
}

// The same rounds in one loop.
result serial(const adjacency &adj, std::uint64_t seed) {
  std::size_t n = adj.size();
  std::vector<char> state(n, kActive);
  result r;
  for (;;) {
    std::int64_t round = r.rounds++;
    std::vector<char> join(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (state[i] != kActive)
        continue;
      join[i] = 1;
      std::int64_t v = draw(seed, round, std::int64_t(i));
      for (std::int64_t j : adj[i])
        if (state[std::size_t(j)] == kActive &&
            beats(draw(seed, round, j), j, v, std::int64_t(i)))
          join[i] = 0;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (join[i]) {
        state[i] = kIn;
        for (std::int64_t j : adj[i])
          if (state[std::size_t(j)] == kActive)
            state[std::size_t(j)] = kOut;
      }
    if (std::count(state.begin(), state.end(), kActive) == 0)
      break;
  }
  r.in_set.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    r.in_set[i] = state[i] == kIn;
  return r;
}

// r equals the serial run and is independent and maximal; prints the first
// violation.
bool verify(const adjacency &adj, std::uint64_t seed, const result &r) {
  result s = serial(adj, seed);
  for (std::size_t i = 0; i < adj.size(); ++i) {
    bool has_in = false;
    for (std::int64_t j : adj[i])
      has_in |= r.in_set[std::size_t(j)] != 0;
    const char *why = r.in_set[i] != s.in_set[i] ? "differs from the serial run"
                      : r.in_set[i] && has_in    ? "has a neighbour in the set"
                      : !r.in_set[i] && !has_in
                          ? "is out of the set with no neighbour in it"
                          : nullptr;
    if (why) {
      std::fprintf(stderr, "mis: node %zu (%s the set) %s\n", i,
                   r.in_set[i] ? "in" : "out of", why);
      return false;
    }
  }
  if (r.rounds != s.rounds) {
    std::fprintf(stderr, "mis: %lld rounds, the serial run %lld\n",
                 static_cast<long long>(r.rounds),
                 static_cast<long long>(s.rounds));
    return false;
  }
  return true;
}

} // namespace mis

int main(int argc, char **argv) {
  using imsuite::kernel_main;
  return kernel_main(
      argc, argv,
      {"IMSuite mis on weft places", "mis", "graph size",
       "the random edges and draws", 256, 1 << 20, mis::kMaxPlaces},
      mis::run, [](std::int64_t n, std::uint64_t seed, const mis::result &r) {
        return imsuite::outcome{
            mis::verify(mis::make_graph(n, seed), seed, r),
            imsuite::field("rounds", r.rounds) + ", " +
                imsuite::field(
                    "in_set", std::count(r.in_set.begin(), r.in_set.end(), 1))};
      });
}
