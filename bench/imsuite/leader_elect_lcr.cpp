// IMSuite's leader_elect_lcr (LeLann-Chang-Roberts leader election in a
// unidirectional ring), ported to weft places: node i lives at place
// i mod P; each synchronous round, every node holding a message sends it
// to the next node with an at() to that node's place (the closure carries a
// registered message object), then every place applies its nodes' inboxes:
// a larger id is forwarded next round, a smaller one dropped, its own id
// makes the node the leader. Verified against a serial run of the same ring
// (the leader and the number of messages). In one process (WEFT_PLACES=P)
// or on MPI ranks (--mpi, a place per rank).
//
//   leader_elect_lcr [--nodes 64] [--seed 1] [--mpi]
#include "kernel_main.hpp"

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace lcr {

struct message {
  std::int64_t to; // the receiving node
  std::int64_t id; // the id it carries
};

// The nodes of one place (index: node / P).
struct place_nodes {
  std::vector<std::int64_t> uid, pending, inbox;
  std::int64_t leader = -1; // the node that found itself leader
};
constexpr int kMaxPlaces = 64;
place_nodes g_nodes[kMaxPlaces];

// The ring's ids: a permutation of 1..n from the seed (every place makes
// the same one).
std::vector<std::int64_t> ring_ids(std::int64_t n, std::uint64_t seed) {
  std::vector<std::int64_t> ids(std::size_t(n), 0);
  std::iota(ids.begin(), ids.end(), 1);
  std::mt19937_64 rng(seed);
  std::shuffle(ids.begin(), ids.end(), rng);
  return ids;
}

struct round_result {
  std::int64_t sent = 0;
  std::int64_t leader = -1;
};

// The serial meaning: the leader (node index) and the messages sent.
round_result serial(const std::vector<std::int64_t> &ids) {
  std::int64_t n = std::int64_t(ids.size());
  std::vector<std::int64_t> pending(ids), next(ids.size());
  round_result r;
  while (r.leader < 0) {
    std::fill(next.begin(), next.end(), -1);
    for (std::int64_t i = 0; i < n; ++i) {
      if (pending[std::size_t(i)] < 0)
        continue;
      ++r.sent;
      std::int64_t j = (i + 1) % n, m = pending[std::size_t(i)];
      if (m > ids[std::size_t(j)])
        next[std::size_t(j)] = m;
      else if (m == ids[std::size_t(j)])
        r.leader = j;
    }
    pending.swap(next);
  }
  return r;
}

} // namespace lcr

WEFT_TYPE(lcr::message);

namespace lcr {

round_result elect(std::int64_t n, std::uint64_t seed) {
  int P = weft::num_places();
  // Set-up at every place.
  weft::finish([&] {
    for (int p = 0; p < P; ++p)
      weft::async_at(weft::place{p}, static_cast<message *>(nullptr),
                     [n, seed, P](message *) {
                       place_nodes &s = g_nodes[weft::here().id];
                       std::vector<std::int64_t> ids = ring_ids(n, seed);
                       s = {};
                       for (std::int64_t i = weft::here().id; i < n; i += P)
                         s.uid.push_back(ids[std::size_t(i)]);
                       s.pending = s.uid;
                       s.inbox.assign(s.uid.size(), -1);
                     });
  });
  round_result total;
  while (total.leader < 0) {
    // Send: every node with a message calls the next node's place.
    std::vector<weft::future<std::int64_t>> sent;
    weft::finish([&] {
      for (int p = 0; p < P; ++p)
        sent.push_back(weft::async_at(
            weft::place{p}, static_cast<message *>(nullptr), [n, P](message *) {
              int me = weft::here().id;
              place_nodes &s = g_nodes[me];
              std::int64_t count = 0;
              for (std::size_t k = 0; k < s.pending.size(); ++k) {
                if (s.pending[k] < 0)
                  continue;
                std::int64_t i = std::int64_t(k) * P + me, j = (i + 1) % n;
                message *m = weft::make<message>(weft::here(), j, s.pending[k]);
                imsuite::send(weft::place{int(j % P)}, m, [P](message *c) {
                  g_nodes[weft::here().id].inbox[std::size_t(c->to / P)] =
                      c->id;
                });
                s.pending[k] = -1;
                ++count;
              }
              return count;
            }));
    });
    for (auto &f : sent)
      total.sent += f.get();
    // Receive: every place applies its nodes' inboxes.
    std::vector<weft::future<std::int64_t>> found;
    weft::finish([&] {
      for (int p = 0; p < P; ++p)
        found.push_back(weft::async_at(
            weft::place{p}, static_cast<message *>(nullptr), [P](message *) {
              int me = weft::here().id;
              place_nodes &s = g_nodes[me];
              std::int64_t leader = -1;
              for (std::size_t k = 0; k < s.inbox.size(); ++k) {
                std::int64_t m = s.inbox[k];
                s.inbox[k] = -1;
                if (m > s.uid[k])
                  s.pending[k] = m;
                else if (m == s.uid[k])
                  leader = std::int64_t(k) * P + me;
              }
              return leader;
            }));
    });
    for (auto &f : found)
      total.leader = std::max(total.leader, f.get());
  }
  return total;
}

} // namespace lcr

int main(int argc, char **argv) {
  using imsuite::kernel_main;
  return kernel_main(
      argc, argv,
      {"IMSuite leader_elect_lcr on weft places", "leader_elect_lcr",
       "ring size", "the ids' permutation", 64, 1 << 20, lcr::kMaxPlaces},
      lcr::elect,
      [](std::int64_t n, std::uint64_t seed, const lcr::round_result &got) {
        std::vector<std::int64_t> ids = lcr::ring_ids(n, seed);
        lcr::round_result want = lcr::serial(ids);
        bool ok = got.leader == want.leader && got.sent == want.sent &&
                  ids[std::size_t(got.leader)] == n;
        if (!ok)
          std::fprintf(stderr,
                       "leader_elect_lcr: leader %lld with %lld messages; "
                       "the serial run found %lld with %lld\n",
                       static_cast<long long>(got.leader),
                       static_cast<long long>(got.sent),
                       static_cast<long long>(want.leader),
                       static_cast<long long>(want.sent));
        return imsuite::outcome{ok, imsuite::field("leader", got.leader) +
                                        ", " +
                                        imsuite::field("messages", got.sent)};
      });
}
