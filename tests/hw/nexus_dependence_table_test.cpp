// hw/nexus/nexus_dependence_table.sv (16 sets x 8 ways, 64-bit keys, 32-bit
// states) against a reference table with the same set function: lookups,
// inserts (new keys, overwrites, set conflicts), updates and deletes, random
// and on keys that crowd one set; 2 cycles per operation, one at a time or
// back to back (the pipeline: an operation every cycle, its predecessor's
// write forwarded when both touch one set); the direct write port (new key
// into the lowest free way, a given way written or freed) beside lookups
// every cycle.
#include "Vnexus_dependence_table.h"
#include "verilated.h"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <memory>
#include <random>
#include <vector>

namespace {

constexpr unsigned kSets = 16, kWays = 8;
enum op : unsigned { lookup = 0, insert = 1, update = 2, erase = 3 };

unsigned set_of(uint64_t k) { // the RTL's set function (the model's)
  uint64_t x = ((k & ((uint64_t(1) << 48) - 1)) >> 3) ^ (k >> 48);
  x ^= x >> 32;
  x ^= x >> 16;
  return unsigned(x) & (kSets - 1);
}

struct answer {
  bool hit, full;
  uint32_t data;
  unsigned cycles;
};

struct dt_tb {
  VerilatedContext ctx;
  std::unique_ptr<Vnexus_dependence_table> m =
      std::make_unique<Vnexus_dependence_table>(&ctx, "dt");
  dt_tb() {
    m->clk_i = 0;
    m->rst_ni = 0;
    m->req_valid_i = 0;
    m->wr_valid_i = 0;
    m->eval();
    m->rst_ni = 1;
    m->eval();
  }
  ~dt_tb() { m->final(); }
  void tick() {
    m->clk_i = 1;
    m->eval();
    m->clk_i = 0;
    m->eval();
  }
  answer run(unsigned o, uint64_t key, uint32_t data) {
    EXPECT_TRUE(m->req_ready_o);
    m->req_valid_i = 1;
    m->req_op_i = o;
    m->req_key_i = key;
    m->req_data_i = data;
    tick();
    m->req_valid_i = 0;
    m->eval();
    unsigned n = 1;
    while (!m->rsp_valid_o && n < 100) {
      tick();
      ++n;
    }
    return {bool(m->rsp_hit_o), bool(m->rsp_full_o), m->rsp_data_o, n};
  }
};

// Back to back: an operation presented every cycle; the answers come in
// order, each 2 cycles after its operation.
std::vector<answer>
run_pipelined(dt_tb &tb, const std::vector<std::array<uint64_t, 3>> &ops) {
  std::vector<answer> got;
  std::vector<size_t> issued_at;
  size_t cycle = 0;
  for (size_t i = 0; i < ops.size() || got.size() < ops.size(); ++cycle) {
    if (tb.m->rsp_valid_o) {
      EXPECT_EQ(cycle - issued_at[got.size()], 2u) << "answer " << got.size();
      got.push_back(
          {bool(tb.m->rsp_hit_o), bool(tb.m->rsp_full_o), tb.m->rsp_data_o, 2});
    }
    tb.m->req_valid_i = i < ops.size();
    if (i < ops.size()) {
      EXPECT_TRUE(tb.m->req_ready_o);
      tb.m->req_op_i = unsigned(ops[i][0]);
      tb.m->req_key_i = ops[i][1];
      tb.m->req_data_i = uint32_t(ops[i][2]);
      issued_at.push_back(cycle);
      ++i;
    }
    tb.tick();
    tb.m->req_valid_i = 0;
    tb.m->eval();
    if (cycle > 4 * ops.size() + 10) {
      ADD_FAILURE() << "answers missing";
      break;
    }
  }
  return got;
}

// The reference: per set, key -> state, at most kWays keys.
struct reference {
  std::vector<std::map<uint64_t, uint32_t>> sets{kSets};
  answer run(unsigned o, uint64_t key, uint32_t data) {
    auto &s = sets[set_of(key)];
    auto it = s.find(key);
    const bool hit = it != s.end();
    answer a{hit, false, hit ? it->second : 0, 2};
    switch (o) {
    case insert:
      if (hit)
        it->second = data;
      else if (s.size() < kWays)
        s[key] = data;
      else
        a.full = true;
      break;
    case update:
      if (hit)
        it->second = data;
      break;
    case erase:
      if (hit)
        s.erase(it);
      break;
    default:
      break;
    }
    return a;
  }
};

void check(dt_tb &tb, reference &ref, unsigned o, uint64_t key, uint32_t data) {
  const answer r = tb.run(o, key, data), e = ref.run(o, key, data);
  ASSERT_EQ(r.hit, e.hit) << "op " << o << " key " << key;
  ASSERT_EQ(r.full, e.full) << "op " << o << " key " << key;
  ASSERT_EQ(r.data, e.data) << "op " << o << " key " << key;
  ASSERT_EQ(r.cycles, 2u);
}

TEST(NexusDependenceTable, SetConflictsAndReuseOfFreedWays) {
  dt_tb tb;
  reference ref;
  // Keys of one set: the 9th is refused until one leaves.
  std::vector<uint64_t> keys;
  for (uint64_t k = 8; keys.size() < kWays + 2; k += 8)
    if (set_of(k) == 5)
      keys.push_back(k);
  for (size_t i = 0; i < keys.size(); ++i)
    check(tb, ref, insert, keys[i], uint32_t(100 + i));
  EXPECT_TRUE(tb.run(insert, keys[kWays], 1).full);
  ref.run(insert, keys[kWays], 1);
  check(tb, ref, erase, keys[3], 0);
  check(tb, ref, insert, keys[kWays], 7);
  check(tb, ref, lookup, keys[kWays], 0);
  for (uint64_t k : keys)
    check(tb, ref, lookup, k, 0);
}

TEST(NexusDependenceTable, RandomAgainstReference) {
  dt_tb tb;
  reference ref;
  std::mt19937_64 rng(42);
  std::vector<uint64_t> pool;
  for (int i = 0; i < 200; ++i) // 200 keys over 16 sets of 8: conflicts
    pool.push_back((rng() & ~uint64_t(7)) >> (rng() % 40));
  for (int i = 0; i < 30000; ++i) {
    const unsigned o = unsigned(rng() % 4);
    check(tb, ref, o, pool[rng() % pool.size()], uint32_t(rng()));
    if (HasFatalFailure())
      return;
  }
}

// Operations every cycle on keys crowding two sets: inserts of new keys
// into one set back to back (each must take the next free way), an update
// or lookup right after the write of the same key, a delete followed at
// once by an insert reusing the way, mixed at random.
TEST(NexusDependenceTable, BackToBackOperationsSeeEachOther) {
  dt_tb tb;
  reference ref;
  std::vector<uint64_t> keys;
  for (uint64_t k = 8; keys.size() < 2 * kWays + 4; k += 8)
    if (set_of(k) == 2 || set_of(k) == 9)
      keys.push_back(k);
  std::vector<std::array<uint64_t, 3>> ops;
  for (uint64_t k : keys) // fills both sets back to back, then refuses
    ops.push_back({insert, k, k + 1});
  for (uint64_t k : keys) {
    ops.push_back({update, k, k * 3});
    ops.push_back({lookup, k, 0});
    ops.push_back({erase, k, 0});
    ops.push_back({insert, keys[(k / 8) % keys.size()], k});
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i)
    ops.push_back({rng() % 4, keys[rng() % keys.size()], rng() & 0xffffffff});
  const std::vector<answer> got = run_pipelined(tb, ops);
  ASSERT_EQ(got.size(), ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    const answer e =
        ref.run(unsigned(ops[i][0]), ops[i][1], uint32_t(ops[i][2]));
    ASSERT_EQ(got[i].hit, e.hit) << "operation " << i;
    ASSERT_EQ(got[i].full, e.full) << "operation " << i;
    ASSERT_EQ(got[i].data, e.data) << "operation " << i;
  }
}

// The direct write port beside lookups every cycle, against a reference
// that knows each key's way: WrNew puts a new key in its set's lowest free
// way (reported by wr_way_o), WrWay rewrites a key's way, WrFree frees it.
// Every lookup answers with the key's state and way as of the edge that
// took it (a direct write on that edge included).
TEST(NexusDependenceTable, DirectWritesBesideLookups) {
  enum wr : unsigned { wr_new = 0, wr_way = 1, wr_free = 2 };
  dt_tb tb;
  struct slot {
    bool valid = false;
    uint64_t key = 0;
    uint32_t data = 0;
  };
  std::vector<std::array<slot, kWays>> sets(kSets);
  auto find = [&](uint64_t k) -> int {
    auto &s = sets[set_of(k)];
    for (unsigned w = 0; w < kWays; ++w)
      if (s[w].valid && s[w].key == k)
        return int(w);
    return -1;
  };
  std::vector<uint64_t> keys; // crowding two sets, and others
  for (uint64_t k = 8; keys.size() < 2 * kWays + 6; k += 8)
    if (set_of(k) == 3 || set_of(k) == 12 || keys.size() % 4 == 0)
      keys.push_back(k);
  struct expect {
    bool hit;
    uint32_t data;
    unsigned way;
  };
  std::vector<expect> pending; // lookups in flight, oldest first
  std::vector<size_t> due;
  std::mt19937_64 rng(11);
  unsigned direct = 0, answered = 0;
  for (size_t cycle = 0; cycle < 40000; ++cycle) {
    if (tb.m->rsp_valid_o) {
      ASSERT_FALSE(pending.empty());
      ASSERT_EQ(due.front(), cycle);
      const expect e = pending.front();
      ASSERT_EQ(bool(tb.m->rsp_hit_o), e.hit) << "cycle " << cycle;
      ASSERT_EQ(tb.m->rsp_data_o, e.data) << "cycle " << cycle;
      if (e.hit) {
        ASSERT_EQ(tb.m->rsp_way_o, e.way) << "cycle " << cycle;
      }
      pending.erase(pending.begin());
      due.erase(due.begin());
      ++answered;
    }
    // A direct write on this edge, at random.
    tb.m->wr_valid_i = 0;
    if (rng() % 2) {
      const uint64_t k = keys[rng() % keys.size()];
      auto &s = sets[set_of(k)];
      const int w = find(k);
      const uint32_t d = uint32_t(rng());
      int free_way = -1;
      for (unsigned i = 0; i < kWays && free_way < 0; ++i)
        if (!s[i].valid)
          free_way = int(i);
      tb.m->wr_key_i = k;
      tb.m->wr_data_i = d;
      if (w < 0 && free_way >= 0) {
        tb.m->wr_valid_i = 1;
        tb.m->wr_op_i = wr_new;
        tb.m->eval();
        ASSERT_EQ(tb.m->wr_way_o, unsigned(free_way));
        s[free_way] = {true, k, d};
      } else if (w >= 0) {
        tb.m->wr_valid_i = 1;
        tb.m->wr_way_i = unsigned(w);
        tb.m->wr_op_i = rng() % 3 ? wr_way : wr_free;
        if (tb.m->wr_op_i == wr_way)
          s[w].data = d;
        else
          s[w].valid = false;
      }
      direct += tb.m->wr_valid_i;
    }
    // A lookup taken on this edge sees the state after the direct write.
    const uint64_t k = keys[rng() % keys.size()];
    tb.m->req_valid_i = 1;
    tb.m->req_op_i = lookup;
    tb.m->req_key_i = k;
    const int w = find(k);
    pending.push_back({w >= 0, w >= 0 ? sets[set_of(k)][w].data : 0,
                       unsigned(w >= 0 ? w : 0)});
    due.push_back(cycle + 2);
    tb.tick();
    tb.m->req_valid_i = 0;
    tb.m->wr_valid_i = 0;
    tb.m->eval();
  }
  EXPECT_GT(direct, 10000u);
  EXPECT_GT(answered, 39000u);
}

} // namespace
