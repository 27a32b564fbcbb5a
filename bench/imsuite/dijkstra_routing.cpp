// IMSuite's dijkstraRouting (every node's routing table: the distance to
// every other node and the neighbour to send through), ported to weft places
// as a synchronous distance-vector exchange: node i lives at place i mod P;
// each round, every node sends the entries of its table that fell last
// round, plus the edge's weight, to its neighbours: one at() per pair of
// places carrying a registered batch of (to, destination, distance, via)
// quadruples. A node keeps the smallest (distance, via) per destination; it
// ends when no distance falls. The input is a random connected graph (a ring
// plus n log2 n random edges, weights 1-9 from the seed). Verified against
// Dijkstra from every node (every distance; the next hop is the
// smallest-numbered neighbour on a shortest path). In one process
// (WEFT_PLACES=P) or on MPI ranks (--mpi).
//
//   dijkstra_routing [--nodes 128] [--seed 1] [--mpi]
#include "kernel_main.hpp"

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <queue>
#include <utility>
#include <vector>

namespace dr {

struct batch {
  weft::array<std::int64_t> quads; // to, destination, distance, via
};

constexpr std::int64_t kInf = INT64_MAX / 4;
constexpr int kMaxPlaces = 64;

struct edge {
  std::int64_t to, weight;
};
using graph = std::vector<std::vector<edge>>;

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A ring plus n log2 n random edges (no self-loops or duplicates), each
// weighing 1-9.
graph make_graph(std::int64_t n, std::uint64_t seed) {
  graph adj(static_cast<std::size_t>(n));
  auto add = [&](std::int64_t a, std::int64_t b) {
    if (a == b)
      return;
    auto &l = adj[std::size_t(a)];
    if (std::any_of(l.begin(), l.end(), [b](edge e) { return e.to == b; }))
      return;
    std::int64_t w =
        1 +
        std::int64_t(mix(seed ^
                         std::uint64_t(std::min(a, b)) * 0x9e3779b97f4a7c15ull ^
                         std::uint64_t(std::max(a, b))) %
                     9);
    l.push_back({b, w});
    adj[std::size_t(b)].push_back({a, w});
  };
  for (std::int64_t i = 0; i < n; ++i)
    add(i, (i + 1) % n);
  std::uint64_t x = seed;
  auto extra = std::int64_t(double(n) * std::log2(double(n)));
  for (std::int64_t e = 0; e < extra; ++e) {
    std::int64_t a =
        std::int64_t(mix(x += 0x9e3779b97f4a7c15ull) % std::uint64_t(n));
    std::int64_t b =
        std::int64_t(mix(x += 0x9e3779b97f4a7c15ull) % std::uint64_t(n));
    add(a, b);
  }
  return adj;
}

struct place_nodes {
  graph adj; // the whole graph (every place makes it from the seed)
  // Per node of this place, per destination: distance, next hop, fell.
  std::vector<std::vector<std::int64_t>> dist, via;
  std::vector<std::vector<char>> fell;
  std::mutex inbox_lock; // batches from several places at once
  std::vector<std::int64_t> inbox;
};
place_nodes g_nodes[kMaxPlaces];

} // namespace dr

WEFT_TYPE(dr::batch, &dr::batch::quads);

namespace dr {

struct result {
  std::vector<std::vector<std::int64_t>> dist, via; // [node][destination]
  std::int64_t rounds = 0;
};

result run(std::int64_t n, std::uint64_t seed) {
  const int P = weft::num_places();
  auto every_place = [P](auto body) {
    std::vector<weft::future<std::int64_t>> r;
    weft::finish([&] {
      for (int p = 0; p < P; ++p)
        r.push_back(weft::async_at(
            weft::place{p}, static_cast<batch *>(nullptr), [body](batch *) {
              int me = weft::here().id;
              return body(g_nodes[me], me);
            }));
    });
    std::int64_t total = 0;
    for (auto &f : r)
      total += f.get();
    return total;
  };
  every_place([n, seed, P](place_nodes &s, int me) {
    s.adj = make_graph(n, seed);
    std::size_t k = std::size_t((n - me + P - 1) / P);
    s.dist.assign(k, std::vector<std::int64_t>(std::size_t(n), kInf));
    s.via.assign(k, std::vector<std::int64_t>(std::size_t(n), -1));
    s.fell.assign(k, std::vector<char>(std::size_t(n), 0));
    for (std::size_t j = 0; j < k; ++j) {
      std::size_t i = j * std::size_t(P) + std::size_t(me);
      s.dist[j][i] = 0;
      s.via[j][i] = std::int64_t(i);
      s.fell[j][i] = 1;
    }
    s.inbox.clear();
    return std::int64_t(0);
  });
  result r;
  for (;;) {
    ++r.rounds;
    // Send what fell, over every edge.
    every_place([P](place_nodes &s, int me) {
      std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(P));
      for (std::size_t k = 0; k < s.dist.size(); ++k) {
        std::int64_t i = std::int64_t(k) * P + me;
        for (std::size_t v = 0; v < s.fell[k].size(); ++v) {
          if (!s.fell[k][v])
            continue;
          s.fell[k][v] = 0;
          for (edge e : s.adj[std::size_t(i)])
            out[std::size_t(e.to % P)].insert(
                out[std::size_t(e.to % P)].end(),
                {e.to, std::int64_t(v), s.dist[k][v] + e.weight, i});
        }
      }
      for (std::size_t q = 0; q < out.size(); ++q) {
        if (out[q].empty())
          continue;
        batch *b = weft::make<batch>(weft::here());
        b->quads = weft::make_array<std::int64_t>(weft::here(), out[q].size());
        std::copy(out[q].begin(), out[q].end(), b->quads.begin());
        imsuite::send(weft::place{int(q)}, b, [](batch *c) {
          place_nodes &t = g_nodes[weft::here().id];
          std::lock_guard<std::mutex> lk(t.inbox_lock);
          t.inbox.insert(t.inbox.end(), c->quads.begin(), c->quads.end());
        });
      }
      return std::int64_t(0);
    });
    // Apply: the smallest (distance, via) wins; count the distances that
    // fell.
    std::int64_t fell = every_place([P](place_nodes &s, int) {
      std::int64_t count = 0;
      for (std::size_t t = 0; t + 3 < s.inbox.size(); t += 4) {
        std::size_t k = std::size_t(s.inbox[t] / P);
        std::size_t v = std::size_t(s.inbox[t + 1]);
        std::int64_t d = s.inbox[t + 2], via = s.inbox[t + 3];
        std::int64_t &cur = s.dist[k][v];
        if (d < cur) {
          count += !s.fell[k][v];
          s.fell[k][v] = 1;
          cur = d;
          s.via[k][v] = via;
        } else if (d == cur && via < s.via[k][v]) {
          s.via[k][v] = via;
        }
      }
      s.inbox.clear();
      return count;
    });
    if (fell == 0)
      break;
  }
  // Gather the tables: one graph per node, copied back.
  r.dist.resize(std::size_t(n));
  r.via.resize(std::size_t(n));
  for (std::int64_t i = 0; i < n; ++i) {
    weft::graph<batch> g =
        weft::at(weft::place{int(i % P)}, static_cast<batch *>(nullptr),
                 [i, P](batch *) {
                   place_nodes &s = g_nodes[weft::here().id];
                   std::size_t k = std::size_t(i / P);
                   batch *b = weft::make<batch>(weft::here());
                   b->quads = weft::make_array<std::int64_t>(
                       weft::here(), 2 * s.dist[k].size());
                   for (std::size_t v = 0; v < s.dist[k].size(); ++v) {
                     b->quads[2 * v] = s.dist[k][v];
                     b->quads[2 * v + 1] = s.via[k][v];
                   }
                   return b;
                 });
    for (std::size_t v = 0; 2 * v + 1 < g->quads.size(); ++v) {
      r.dist[std::size_t(i)].push_back(g->quads[2 * v]);
      r.via[std::size_t(i)].push_back(g->quads[2 * v + 1]);
    }
  }
  return r;
}

// Checks r against Dijkstra from every node; prints the first mismatch.
bool verify(const graph &adj, const result &r) {
  std::size_t n = adj.size();
  std::vector<std::vector<std::int64_t>> d(n);
  for (std::size_t s = 0; s < n; ++s) {
    auto &ds = d[s];
    ds.assign(n, kInf);
    using item = std::pair<std::int64_t, std::int64_t>;
    std::priority_queue<item, std::vector<item>, std::greater<item>> q;
    ds[s] = 0;
    q.push({0, std::int64_t(s)});
    while (!q.empty()) {
      auto [du, u] = q.top();
      q.pop();
      if (du != ds[std::size_t(u)])
        continue;
      for (edge e : adj[std::size_t(u)])
        if (du + e.weight < ds[std::size_t(e.to)]) {
          ds[std::size_t(e.to)] = du + e.weight;
          q.push({du + e.weight, e.to});
        }
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t v = 0; v < n; ++v) {
      std::int64_t hop = std::int64_t(v);
      if (i != v) {
        hop = kInf;
        for (edge e : adj[i])
          if (e.weight + d[std::size_t(e.to)][v] == d[i][v])
            hop = std::min(hop, e.to);
      }
      if (r.dist[i][v] != d[i][v] || r.via[i][v] != hop) {
        std::fprintf(stderr,
                     "dijkstra_routing: node %zu to %zu: distance %lld via "
                     "%lld; Dijkstra %lld via %lld\n",
                     i, v, static_cast<long long>(r.dist[i][v]),
                     static_cast<long long>(r.via[i][v]),
                     static_cast<long long>(d[i][v]),
                     static_cast<long long>(hop));
        return false;
      }
    }
  return true;
}

} // namespace dr

int main(int argc, char **argv) {
  using imsuite::kernel_main;
  return kernel_main(
      argc, argv,
      {"IMSuite dijkstraRouting on weft places", "dijkstraRouting",
       "graph size", "the random edges and weights", 128, 4096, dr::kMaxPlaces},
      dr::run, [](std::int64_t n, std::uint64_t seed, const dr::result &r) {
        return imsuite::outcome{dr::verify(dr::make_graph(n, seed), r),
                                imsuite::field("rounds", r.rounds)};
      });
}
