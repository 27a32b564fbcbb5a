// IMSuite's bfsBellmanFord (a BFS tree by distributed Bellman-Ford), ported
// to weft places: node i lives at place i mod P; each synchronous round,
// every place sends, to every place, one at() whose closure carries a
// registered batch (an array of (to, distance, from) triples) for the
// neighbours of its nodes whose distance fell last round; then every place
// applies its inboxes (the smallest distance wins, ties to the smallest
// parent). It ends when no distance falls. The input is a random connected
// graph (a ring plus n log2 n random edges) made from the seed; verified
// against a serial BFS (every distance, every parent one level up and a
// neighbour). In one process (WEFT_PLACES=P) or on MPI ranks (--mpi).
//
//   bfs_bellman_ford [--nodes 256] [--seed 1] [--mpi]
#include "kernel_main.hpp"

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <random>
#include <vector>

namespace bfs {

struct batch {
  weft::array<std::int64_t> triples; // to, distance, from
};

constexpr std::int64_t kInf = INT64_MAX;
constexpr int kMaxPlaces = 64;

using adjacency = std::vector<std::vector<std::int64_t>>;

// A ring plus n log2 n random edges (no self-loops, duplicates dropped).
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
  std::mt19937_64 rng(seed);
  auto extra = std::int64_t(double(n) * std::log2(double(n)));
  for (std::int64_t e = 0; e < extra; ++e)
    add(std::int64_t(rng() % std::uint64_t(n)),
        std::int64_t(rng() % std::uint64_t(n)));
  return adj;
}

struct place_nodes {
  adjacency adj; // the whole graph (every place makes it from the seed)
  std::vector<std::int64_t> dist, parent; // of this place's nodes
  std::vector<char> changed;
  std::mutex inbox_lock;           // batches from several places at once
  std::vector<std::int64_t> inbox; // triples received this round
};
place_nodes g_nodes[kMaxPlaces];

} // namespace bfs

WEFT_TYPE(bfs::batch, &bfs::batch::triples);

namespace bfs {

struct result {
  std::vector<std::int64_t> dist, parent;
  std::int64_t rounds = 0, calls = 0;
};

result run(std::int64_t n, std::uint64_t seed) {
  int P = weft::num_places();
  weft::finish([&] {
    for (int p = 0; p < P; ++p)
      weft::async_at(
          weft::place{p}, static_cast<batch *>(nullptr), [n, seed, P](batch *) {
            place_nodes &s = g_nodes[weft::here().id];
            s.inbox.clear();
            s.adj = make_graph(n, seed);
            std::size_t k = std::size_t((n - weft::here().id + P - 1) / P);
            s.dist.assign(k, kInf);
            s.parent.assign(k, -1);
            s.changed.assign(k, 0);
            if (weft::here().id == 0) {
              s.dist[0] = 0; // the root: node 0
              s.parent[0] = 0;
              s.changed[0] = 1;
            }
          });
  });
  result r;
  for (;;) {
    ++r.rounds;
    // Send: place p to every place q, one at() with a batch each.
    weft::finish([&] {
      for (int p = 0; p < P; ++p)
        weft::async_at(
            weft::place{p}, static_cast<batch *>(nullptr), [P](batch *) {
              int me = weft::here().id;
              place_nodes &s = g_nodes[me];
              std::vector<std::vector<std::int64_t>> out(
                  static_cast<std::size_t>(P));
              for (std::size_t k = 0; k < s.dist.size(); ++k) {
                if (!s.changed[k])
                  continue;
                s.changed[k] = 0;
                std::int64_t i = std::int64_t(k) * P + me;
                for (std::int64_t j : s.adj[std::size_t(i)]) {
                  auto &o = out[std::size_t(j % P)];
                  o.insert(o.end(), {j, s.dist[k] + 1, i});
                }
              }
              for (int q = 0; q < P; ++q) {
                if (out[std::size_t(q)].empty())
                  continue;
                batch *b = weft::make<batch>(weft::here());
                b->triples = weft::make_array<std::int64_t>(
                    weft::here(), out[std::size_t(q)].size());
                std::copy(out[std::size_t(q)].begin(),
                          out[std::size_t(q)].end(), b->triples.begin());
                imsuite::send(weft::place{q}, b, [](batch *c) {
                  place_nodes &t = g_nodes[weft::here().id];
                  std::lock_guard<std::mutex> lk(t.inbox_lock);
                  auto &in = t.inbox;
                  in.insert(in.end(), c->triples.begin(), c->triples.end());
                });
              }
            });
    });
    // Receive: apply the inboxes; count the nodes whose distance fell.
    std::vector<weft::future<std::int64_t>> fell;
    weft::finish([&] {
      for (int p = 0; p < P; ++p)
        fell.push_back(weft::async_at(
            weft::place{p}, static_cast<batch *>(nullptr), [P](batch *) {
              place_nodes &s = g_nodes[weft::here().id];
              std::int64_t count = 0;
              for (std::size_t t = 0; t + 2 < s.inbox.size(); t += 3) {
                std::size_t k = std::size_t(s.inbox[t] / P);
                std::int64_t d = s.inbox[t + 1], from = s.inbox[t + 2];
                if (d < s.dist[k] || (d == s.dist[k] && from < s.parent[k])) {
                  count += d < s.dist[k] && !s.changed[k];
                  s.changed[k] |= d < s.dist[k];
                  s.dist[k] = d;
                  s.parent[k] = from;
                }
              }
              s.inbox.clear();
              return count;
            }));
    });
    std::int64_t total = 0;
    for (auto &f : fell)
      total += f.get();
    if (total == 0)
      break;
  }
  // Gather the tree: each place returns a batch of its nodes' (distance,
  // parent) pairs, a graph copied back.
  r.dist.assign(std::size_t(n), kInf);
  r.parent.assign(std::size_t(n), -1);
  for (int p = 0; p < P; ++p) {
    weft::graph<batch> g =
        weft::at(weft::place{p}, static_cast<batch *>(nullptr), [](batch *) {
          place_nodes &s = g_nodes[weft::here().id];
          batch *b = weft::make<batch>(weft::here());
          b->triples =
              weft::make_array<std::int64_t>(weft::here(), 2 * s.dist.size());
          for (std::size_t k = 0; k < s.dist.size(); ++k) {
            b->triples[2 * k] = s.dist[k];
            b->triples[2 * k + 1] = s.parent[k];
          }
          return b;
        });
    for (std::size_t k = 0; 2 * k + 1 < g->triples.size(); ++k) {
      r.dist[k * std::size_t(P) + std::size_t(p)] = g->triples[2 * k];
      r.parent[k * std::size_t(P) + std::size_t(p)] = g->triples[2 * k + 1];
    }
  }
  return r;
}

// Checks r against a serial BFS from node 0; prints the first mismatch.
bool verify(const adjacency &adj, const result &r) {
  std::size_t n = adj.size();
  std::vector<std::int64_t> d(n, kInf);
  std::deque<std::int64_t> q{0};
  d[0] = 0;
  while (!q.empty()) {
    std::int64_t u = q.front();
    q.pop_front();
    for (std::int64_t v : adj[std::size_t(u)])
      if (d[std::size_t(v)] == kInf) {
        d[std::size_t(v)] = d[std::size_t(u)] + 1;
        q.push_back(v);
      }
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t p = r.parent[i];
    bool ok = r.dist[i] == d[i] &&
              (i == 0 ? p == 0
                      : p >= 0 && d[std::size_t(p)] == d[i] - 1 &&
                            std::find(adj[i].begin(), adj[i].end(), p) !=
                                adj[i].end());
    if (!ok) {
      std::fprintf(stderr,
                   "bfs_bellman_ford: node %zu: distance %lld parent %lld; "
                   "BFS distance %lld\n",
                   i, static_cast<long long>(r.dist[i]),
                   static_cast<long long>(p), static_cast<long long>(d[i]));
      return false;
    }
  }
  return true;
}

} // namespace bfs

int main(int argc, char **argv) {
  using imsuite::kernel_main;
  return kernel_main(
      argc, argv,
      {"IMSuite bfsBellmanFord on weft places", "bfsBellmanFord", "graph size",
       "the random edges", 256, 1 << 20, bfs::kMaxPlaces},
      bfs::run, [](std::int64_t n, std::uint64_t seed, const bfs::result &r) {
        return imsuite::outcome{bfs::verify(bfs::make_graph(n, seed), r),
                                imsuite::field("rounds", r.rounds)};
      });
}
