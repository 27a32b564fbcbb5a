// The sw engine's dependence map on its own (one thread, as the engine uses
// it): lookups through growth and deletion, the map's references on tasks,
// and the collection of entries whose tasks have all retired, checked
// against a plain std::map of the live entries.
#include "core/runtime.hpp"
#include "engines/sw/dependence_map.hpp"

#include "test_scale.hpp"

#include <gtest/gtest.h>
#include <weft/weft.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

namespace weft {
namespace {

void nothing(void *) {}

class DependenceMap : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(weft_init(1), WEFT_OK) << weft_last_error();
    w_ = tl_worker;
    ASSERT_NE(w_, nullptr);
  }
  void TearDown() override { ASSERT_EQ(weft_shutdown(), WEFT_OK); }

  // A task that last wrote addr, placed as the sw engine places a writer in
  // a new entry: the map holds one reference (engine_data counts its slots:
  // the entry's and the log record's), the test holds the other until
  // retire().
  task *place(dep_domain &d, uintptr_t addr) {
    task *t = w_->alloc_task(nothing, nullptr);
    uintptr_t &word = d.find_or_insert(addr, *w_);
    EXPECT_EQ(word, 0u) << "address " << addr << " already mapped";
    word = dep_word::of_lone(t, access::out);
    ++t->engine_data;
    d.log_insert(addr, t);
    t->refs.store(2, std::memory_order_relaxed);
    return t;
  }
  // The task finished: no successor may join it, its run reference goes.
  void retire(task *t) {
    t->succ_state.fetch_or(kSuccClosed, std::memory_order_acq_rel);
    w_->release_ref(t);
  }

  worker *w_ = nullptr;
};

TEST_F(DependenceMap, FindsWhatWasInsertedThroughGrowth) {
  dep_domain d;
  std::vector<task *> ts;
  const uintptr_t n = 5000;
  for (uintptr_t i = 1; i <= n; ++i)
    ts.push_back(place(d, i * 4096)); // a stride that collides in low bits
  EXPECT_EQ(d.size(), n);
  for (uintptr_t i = 1; i <= n; ++i) {
    uintptr_t word = d.find(i * 4096);
    ASSERT_NE(word, 0u) << i;
    EXPECT_TRUE(dep_word::lone(word));
    EXPECT_EQ(dep_word::lone_task(word), ts[i - 1]);
    EXPECT_EQ(dep_word::lone_kind(word), access::out);
  }
  EXPECT_EQ(d.find(4096 * (n + 1)), 0u);
  EXPECT_EQ(d.find(4095), 0u);
  for (task *t : ts)
    retire(t);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(d.find(4096), 0u);
}

// Random insertions and retirements: every entry with a live task stays
// findable and unchanged; entries whose tasks retired are deleted as the
// log reaches them, so the table stays near the live count.
TEST_F(DependenceMap, CollectsRetiredEntriesAndKeepsLiveOnes) {
  std::mt19937_64 rng(12345);
  dep_domain d;
  std::map<uintptr_t, task *> live;
  uintptr_t next_addr = 64;
  const int ops = static_cast<int>(40000 * test_scale()) + 12000;
  for (int op = 0; op < ops; ++op) {
    // Up to 512 live entries, then up to 2048 (past the log's high mark, see
    // dep_domain::collect): without collection the table would hold every
    // insertion (tens of thousands).
    std::size_t cap = op < ops / 2 ? 512 : 2048;
    if (live.empty() || (live.size() < cap && rng() % 3 != 0)) {
      // Fresh addresses, some adjacent, some far apart.
      next_addr += rng() % 4 == 0 ? (rng() % 100000) * 8 : 8;
      live[next_addr] = place(d, next_addr);
    } else {
      auto it = live.begin();
      std::advance(it, static_cast<long>(rng() % live.size()));
      retire(it->second);
      live.erase(it);
    }
    if (op == ops / 2 - 1) {
      // Retired entries stay in the table while a live record heads the log,
      // up to the log's high mark.
      EXPECT_LE(d.size(), std::max(2 * live.size(), dep_domain::kLogHigh) + 70);
    }
    if (op % 97 == 0)
      for (auto &[addr, t] : live) {
        uintptr_t word = d.find(addr);
        ASSERT_NE(word, 0u) << "live entry lost at op " << op;
        ASSERT_EQ(dep_word::first(word), t);
        ASSERT_EQ(t->engine_data, 2u); // the entry and its log record
      }
  }
  // The table holds the live entries plus retired ones not yet collected:
  // a live record at the log's head stops the collection only up to the
  // log's high mark; past it each insertion collects up to two of the
  // oldest records, so retired entries cannot pile up beyond the live ones
  // and the slack.
  EXPECT_GE(d.size(), live.size());
  EXPECT_GT(live.size(), dep_domain::kLogHigh / 2) << "the high mark untested";
  EXPECT_LE(d.size(), std::max(2 * live.size(), dep_domain::kLogHigh) + 70);

  for (auto &[addr, t] : live)
    retire(t);
  live.clear();
  // Only retired entries now: new (retired at once) insertions collect them.
  for (int i = 0; i < 1000 + ops; ++i) {
    next_addr += 8;
    retire(place(d, next_addr));
  }
  EXPECT_LE(d.size(), 70u);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
}

// A log record holds a slot on the task it names. When a later writer takes
// that task's place in the entry, the record still keeps the task (so the
// collection may read it); once it has retired, the collection moves the
// record to the entry's current task, and deletes the entry only when that
// one has retired too.
TEST_F(DependenceMap, RecordFollowsTheEntryToItsLaterWriter) {
  dep_domain d;
  const uintptr_t a = 8;
  task *t1 = place(d, a);
  ASSERT_EQ(t1->engine_data, 2u); // the entry and the record
  // t2 writes a after t1, as sw_engine::apply's writer-after-writer path
  // does (t2 would follow t1; here t1 simply retires first).
  task *t2 = w_->alloc_task(nothing, nullptr);
  uintptr_t &word = d.find_or_insert(a, *w_);
  ASSERT_EQ(dep_word::lone_task(word), t1);
  map_release(t1, *w_);
  word = dep_word::of_lone(t2, access::out);
  ++t2->engine_data;
  t2->refs.store(2, std::memory_order_relaxed);
  EXPECT_EQ(t1->engine_data, 1u) << "the record must keep t1";
  retire(t1);

  // Fresh entries, retired at once, push a's record to the log's head.
  uintptr_t next = 4096;
  auto churn = [&] {
    for (int i = 0; i < 300; ++i) {
      next += 8;
      retire(place(d, next));
    }
  };
  churn();
  uintptr_t found = d.find(a);
  ASSERT_NE(found, 0u) << "the entry went while t2 is live";
  EXPECT_EQ(dep_word::first(found), t2);
  EXPECT_EQ(t2->engine_data, 2u) << "the record should have moved to t2";

  retire(t2);
  churn();
  EXPECT_EQ(d.find(a), 0u) << "the entry stayed after t2 retired";
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
}

// Full slots (a stage of several readers, as sw_engine::apply makes it)
// among lone ones: the entries keep their tasks through growth, the
// backward shift of deletions around them and the free list's reuse; a full
// entry is collected only once every member has retired; make_lone_if_one
// turns one back into a lone word only when one task is left in its stage.
TEST_F(DependenceMap, FullEntriesAmongLoneOnesCollectedWhenAllMembersRetire) {
  std::mt19937_64 rng(777);
  dep_domain d;
  struct expect {
    std::vector<task *> members; // unretired first member kept in the entry
    std::vector<task *> live;
  };
  std::map<uintptr_t, expect> live;
  uintptr_t next_addr = 64;
  const int ops = static_cast<int>(20000 * test_scale()) + 6000;
  for (int op = 0; op < ops; ++op) {
    if (live.empty() || (live.size() < 700 && rng() % 3 != 0)) {
      next_addr += rng() % 4 == 0 ? (rng() % 50000) * 8 : 8;
      expect x;
      if (rng() % 2) {
        x.members.push_back(place(d, next_addr));
      } else {
        // A stage of 2..9 readers in a full entry (its members beyond the
        // first in a block), now and then 10..29 (in a malloc'd array),
        // logged under the first.
        uint32_t n = rng() % 8 ? 2 + static_cast<uint32_t>(rng() % 8)
                               : 10 + static_cast<uint32_t>(rng() % 20);
        uintptr_t &word = d.find_or_insert(next_addr, *w_);
        ASSERT_EQ(word, 0u);
        dep_entry &e = d.make_full(next_addr, word);
        ASSERT_FALSE(dep_word::lone(word));
        e.kind = access::in;
        e.cur_more = d.alloc_members(n - 1, e.cur_more_cap);
        for (uint32_t k = 0; k < n; ++k) {
          task *t = w_->alloc_task(nothing, nullptr);
          t->refs.store(2, std::memory_order_relaxed);
          ++t->engine_data;
          if (k == 0)
            e.cur_one = t;
          else
            e.cur_more[k - 1] = t;
          x.members.push_back(t);
        }
        e.cur_n = n;
        d.log_insert(next_addr, e.cur_one);
        d.make_lone_if_one(word);
        ASSERT_FALSE(dep_word::lone(word)) << "several readers made lone";
      }
      x.live = x.members;
      live[next_addr] = std::move(x);
    } else {
      // Retire one member of a random entry; the entry goes once none is
      // left (the map may still hold it until the log reaches it).
      auto it = live.begin();
      std::advance(it, static_cast<long>(rng() % live.size()));
      auto &ml = it->second.live;
      std::size_t k = rng() % ml.size();
      retire(ml[k]);
      ml.erase(ml.begin() + static_cast<long>(k));
      if (ml.empty())
        live.erase(it);
    }
    if (op % 89 == 0)
      for (auto &[addr, x] : live) {
        uintptr_t word = d.find(addr);
        ASSERT_NE(word, 0u) << "entry with a live member lost at op " << op;
        if (x.members.size() == 1) {
          ASSERT_TRUE(dep_word::lone(word));
          ASSERT_EQ(dep_word::lone_task(word), x.members[0]);
        } else {
          ASSERT_FALSE(dep_word::lone(word));
          const dep_entry &e = *dep_word::full(word);
          ASSERT_EQ(e.addr, addr);
          ASSERT_EQ(e.cur_n, x.members.size());
          for (uint32_t m = 0; m < e.cur_n; ++m)
            ASSERT_EQ(e.cur(m), x.members[m]);
        }
      }
  }
  EXPECT_LE(d.size(), std::max(2 * live.size(), dep_domain::kLogHigh) + 70);
  for (auto &[addr, x] : live)
    for (task *t : x.live)
      retire(t);
  live.clear();
  for (int i = 0; i < 1000 + ops; ++i) {
    next_addr += 8;
    retire(place(d, next_addr));
  }
  EXPECT_LE(d.size(), 70u);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
}

// make_lone_if_one: a full entry left with one task in an in, out or inoutset
// stage and nothing before it becomes a lone word again (its reader array
// freed, the entry back on the free list); one with a stage before it, or a
// mutexinoutset stage, stays full.
TEST_F(DependenceMap, FullEntryBecomesLoneWhenOneTaskIsLeft) {
  dep_domain d;
  task *a = w_->alloc_task(nothing, nullptr);
  task *b = w_->alloc_task(nothing, nullptr);
  for (task *t : {a, b})
    t->refs.store(2, std::memory_order_relaxed);
  uintptr_t &word = d.find_or_insert(8, *w_);
  dep_entry &e = d.make_full(8, word);
  EXPECT_EQ(e.kind, access::none);
  EXPECT_EQ(e.addr, 8u);
  e.kind = access::in;
  e.cur_one = a;
  e.cur_n = 1;
  e.prev_one = b;
  e.prev_n = 1;
  ++a->engine_data;
  ++b->engine_data;
  d.log_insert(8, a);
  d.make_lone_if_one(word);
  EXPECT_FALSE(dep_word::lone(word)) << "the stage before it was lost";
  // The stage before it ends (apply's drop_prev when a writer comes).
  d.drop_prev(e, *w_);
  e.cur_more = d.alloc_members(4, e.cur_more_cap);
  d.make_lone_if_one(word);
  ASSERT_TRUE(dep_word::lone(word));
  EXPECT_EQ(dep_word::lone_task(word), a);
  EXPECT_EQ(dep_word::lone_kind(word), access::in);
  // A lone word made full again holds the same stage.
  dep_entry &f = d.make_full(8, word);
  EXPECT_EQ(f.cur_one, a);
  EXPECT_EQ(f.cur_n, 1u);
  EXPECT_EQ(f.kind, access::in);
  EXPECT_EQ(f.cur_more, nullptr);
  f.kind = access::mutexinoutset;
  d.make_lone_if_one(word);
  EXPECT_FALSE(dep_word::lone(word)) << "a mutexinoutset stage made lone";
  f.kind = access::in;
  retire(a);
  retire(b);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
}

// A stage's members beyond its first: up to kBlockMembers in a block of
// the entries' free list, then in a malloc'd array doubled as it fills
// (grow_members, as sw_engine::apply grows a reader set); the members stay
// in order through each move, and the block goes back to the free list
// when the array leaves it and when the entry is dropped (the next entry
// made takes it).
TEST_F(DependenceMap, MemberArrayMovesFromItsBlockToMallocAndBack) {
  dep_domain d;
  const uint32_t kb = dep_domain::kBlockMembers;
  ASSERT_EQ(kb, 8u);
  uintptr_t &word = d.find_or_insert(8, *w_);
  dep_entry &e = d.make_full(8, word);
  e.kind = access::in;
  std::vector<task *> members;
  std::vector<task **> arrays;
  for (uint32_t k = 0; k < 4 * kb + 2; ++k) {
    task *t = w_->alloc_task(nothing, nullptr);
    t->refs.store(2, std::memory_order_relaxed);
    ++t->engine_data;
    if (k == 0) {
      e.cur_one = t;
    } else {
      if (k == 1 + e.cur_more_cap)
        d.grow_members(e);
      if (arrays.empty() || arrays.back() != e.cur_more)
        arrays.push_back(e.cur_more);
      e.cur_more[k - 1] = t;
    }
    ++e.cur_n;
    members.push_back(t);
    for (uint32_t j = 0; j <= k; ++j)
      ASSERT_EQ(e.cur(j), members[j]) << "member " << j << " of " << k + 1;
  }
  // 34 members: 33 beyond the first, in capacities 8 (the block), 16, 32
  // and 64.
  EXPECT_EQ(e.cur_more_cap, 8 * kb);
  ASSERT_GE(arrays.size(), 2u);
  task **block = arrays[0];
  // The block went back to the free list when the members left it.
  uintptr_t &other = d.find_or_insert(16, *w_);
  dep_entry &f = d.make_full(16, other);
  EXPECT_EQ(reinterpret_cast<void *>(&f), reinterpret_cast<void *>(block));
  // A set of three readers takes a block too.
  f.kind = access::in;
  f.cur_more = d.alloc_members(2, f.cur_more_cap);
  EXPECT_EQ(f.cur_more_cap, kb);
  task **small = f.cur_more;
  for (uint32_t k = 0; k < 3; ++k) {
    task *t = w_->alloc_task(nothing, nullptr);
    t->refs.store(2, std::memory_order_relaxed);
    ++t->engine_data;
    (k == 0 ? f.cur_one : f.cur_more[k - 1]) = t;
    members.push_back(t);
  }
  f.cur_n = 3;
  d.log_insert(8, e.cur_one);
  d.log_insert(16, f.cur_one);
  // Every member retires; clear drops both entries (the malloc'd array
  // freed, the small one's block and both entries back on the free list,
  // in the order of the log: e's entry, f's array, f's entry).
  for (task *t : members)
    retire(t);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
  uintptr_t &again = d.find_or_insert(24, *w_);
  dep_entry &g = d.make_full(24, again);
  EXPECT_EQ(reinterpret_cast<void *>(&g), reinterpret_cast<void *>(block));
  g.cur_more = d.alloc_members(1, g.cur_more_cap);
  EXPECT_EQ(g.cur_more, small);
  task *t = w_->alloc_task(nothing, nullptr);
  t->refs.store(2, std::memory_order_relaxed);
  ++t->engine_data;
  g.kind = access::in;
  g.cur_one = t;
  g.cur_n = 1;
  d.log_insert(24, t);
  retire(t);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
}

// clear() walks the log (each slot in use has one record) instead of the
// table, zeroing keys only after every record was looked up. Rounds of a few
// entries and of many (past a quarter of the table, where clear scans it
// instead, and past 4096 slots, where it shrinks the table), on colliding
// addresses reused across rounds, lone and full entries, tasks named by
// several slots, some retired (so collected or re-logged before the clear)
// and some not: after each clear the map holds nothing and no reference
// (every task's engine_data 0, only the test's reference left), and behaves
// as an empty map (every address absent, insertable as new).
TEST_F(DependenceMap, ClearInterleavedWithInsertionsLeavesAnEmptyMap) {
  std::mt19937_64 rng(4242);
  dep_domain d;
  const int rounds = static_cast<int>(300 * test_scale()) + 40;
  // A pool of addresses: half a stride that collides in the low bits (long
  // probe runs), half scattered.
  std::vector<uintptr_t> pool;
  for (uintptr_t i = 1; i <= 3000; ++i)
    pool.push_back(i % 2 ? i * 4096 : (rng() % (1u << 26)) * 8 + 8);
  std::sort(pool.begin(), pool.end());
  pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
  int many_rounds = 0, few_rounds = 0;
  for (int round = 0; round < rounds; ++round) {
    std::shuffle(pool.begin(), pool.end(), rng);
    std::size_t n =
        rng() % 10 < 7 ? rng() % 9 : 100 + rng() % (pool.size() - 100);
    many_rounds += n > 1500;
    few_rounds += n < 9;
    std::vector<task *> tasks;         // the test holds one reference on each
    std::map<uintptr_t, task *> first; // address -> its first task
    std::vector<task *> last;          // lone tasks, for multi-slot use
    auto fresh = [&] {
      task *t = w_->alloc_task(nothing, nullptr);
      t->refs.store(1, std::memory_order_relaxed);
      tasks.push_back(t);
      return t;
    };
    auto map_ref = [](task *t) {
      if (t->engine_data++ == 0)
        t->refs.fetch_add(1, std::memory_order_relaxed);
    };
    for (std::size_t k = 0; k < n; ++k) {
      uintptr_t addr = pool[k];
      uintptr_t &word = d.find_or_insert(addr, *w_);
      ASSERT_EQ(word, 0u) << "address " << addr << " survived a clear, round "
                          << round;
      if (rng() % 4) {
        // A lone slot, sometimes a task already named by another slot (a
        // task with several dependences).
        task *t = !last.empty() && rng() % 3 == 0 ? last[rng() % last.size()]
                                                  : fresh();
        word = dep_word::of_lone(t, rng() % 2 ? access::out : access::in);
        map_ref(t);
        d.log_insert(addr, t);
        last.push_back(t);
        first[addr] = t;
      } else {
        // A full slot: a stage of 1..5 readers, sometimes a stage before it
        // (one reader after one writer: what sw_engine::submit makes of a
        // chain's read of its predecessor's output, which clear releases
        // without dep_domain::drop).
        uint32_t m = 1 + static_cast<uint32_t>(rng() % 5);
        dep_entry &e = d.make_full(addr, word);
        e.kind = access::in;
        if (m > 1)
          e.cur_more = d.alloc_members(m - 1, e.cur_more_cap);
        for (uint32_t j = 0; j < m; ++j) {
          task *t = fresh();
          map_ref(t);
          (j == 0 ? e.cur_one : e.cur_more[j - 1]) = t;
        }
        e.cur_n = m;
        if (rng() % 2) {
          e.prev_one = fresh();
          map_ref(e.prev_one);
          e.prev_n = 1;
        }
        d.log_insert(addr, e.cur_one);
        first[addr] = e.cur_one;
      }
      // Some tasks finish while the round goes on: the collection may
      // delete their entries or re-log them before the clear.
      if (rng() % 3 == 0) {
        task *t = tasks[rng() % tasks.size()];
        t->succ_state.fetch_or(kSuccClosed, std::memory_order_acq_rel);
      }
    }
    // Before the clear: every entry whose first task has not retired is
    // still there with it.
    for (auto &[addr, t] : first)
      if (!retired(t)) {
        uintptr_t word = d.find(addr);
        ASSERT_NE(word, 0u) << "live entry lost, round " << round;
        ASSERT_EQ(dep_word::first(word), t);
      }
    d.clear(*w_);
    ASSERT_EQ(d.size(), 0u) << "round " << round;
    auto no_map_refs = [&] {
      for (task *t : tasks) {
        ASSERT_EQ(t->engine_data, 0u) << "a slot kept, round " << round;
        ASSERT_EQ(t->refs.load(std::memory_order_relaxed), 1)
            << "the map's reference kept, round " << round;
      }
    };
    no_map_refs();
    if (HasFatalFailure())
      return;
    for (uintptr_t addr : pool)
      ASSERT_EQ(d.find(addr), 0u) << "round " << round;
    // The round's first addresses go in again as new slots, each adding
    // one to the size (a key left behind would be found, not added), and a
    // second clear releases them.
    for (std::size_t k = 0; k < std::min<std::size_t>(n, 32); ++k) {
      uintptr_t &word = d.find_or_insert(pool[k], *w_);
      ASSERT_EQ(word, 0u) << "round " << round;
      task *t = fresh();
      word = dep_word::of_lone(t, access::out);
      map_ref(t);
      d.log_insert(pool[k], t);
      ASSERT_EQ(d.size(), k + 1) << "a key left by the clear, round " << round;
      ASSERT_EQ(dep_word::lone_task(d.find(pool[k])), t);
    }
    d.clear(*w_);
    ASSERT_EQ(d.size(), 0u) << "round " << round;
    no_map_refs();
    if (HasFatalFailure())
      return;
    for (task *t : tasks) {
      t->succ_state.fetch_or(kSuccClosed, std::memory_order_acq_rel);
      w_->release_ref(t);
    }
  }
  EXPECT_GT(many_rounds, 0) << "no round past the table's shrink size";
  EXPECT_GT(few_rounds, rounds / 2) << "too few rounds of a few entries";
}

} // namespace
} // namespace weft
