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
    dep_entry &e = d.find_or_insert(addr, *w_);
    EXPECT_EQ(e.kind, access::none) << "address " << addr << " already mapped";
    e.cur_one = t;
    e.cur_n = 1;
    e.kind = access::out;
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
    dep_entry *e = d.find(i * 4096);
    ASSERT_NE(e, nullptr) << i;
    EXPECT_EQ(e->cur_one, ts[i - 1]);
    EXPECT_EQ(e->cur_n, 1u);
  }
  EXPECT_EQ(d.find(4096 * (n + 1)), nullptr);
  EXPECT_EQ(d.find(4095), nullptr);
  for (task *t : ts)
    retire(t);
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(d.find(4096), nullptr);
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
        dep_entry *e = d.find(addr);
        ASSERT_NE(e, nullptr) << "live entry lost at op " << op;
        ASSERT_EQ(e->cur_one, t);
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
  dep_entry &e = d.find_or_insert(a, *w_);
  ASSERT_EQ(e.cur_one, t1);
  map_release(t1, *w_);
  e.cur_one = t2;
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
  dep_entry *found = d.find(a);
  ASSERT_NE(found, nullptr) << "the entry went while t2 is live";
  EXPECT_EQ(found->cur_one, t2);
  EXPECT_EQ(t2->engine_data, 2u) << "the record should have moved to t2";

  retire(t2);
  churn();
  EXPECT_EQ(d.find(a), nullptr) << "the entry stayed after t2 retired";
  d.clear(*w_);
  EXPECT_EQ(d.size(), 0u);
}

} // namespace
} // namespace weft
