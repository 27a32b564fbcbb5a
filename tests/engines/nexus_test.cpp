// The Nexus++ Task Maestro model (src/engines/nexus/), driven directly: no
// runtime, no workers. The test plays the Nexus Plugin: it formats
// descriptors, inserts them, reads the Ready FIFO, "runs" tasks and reports
// them finished, and checks the model's answers, statistics and cycle counts
// against hand-computed values and against OpenMP's dependence rule.
#include "engines/nexus/nexus_config.hpp"
#include "engines/nexus/nexus_cost_model.hpp"
#include "engines/nexus/nexus_descriptor.hpp"
#include "engines/nexus/nexus_domain.hpp"
#include "engines/nexus/nexus_engine.hpp"
#include "engines/nexus/nexus_fifo.hpp"
#include "engines/nexus/nexus_task_maestro.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace weft {
namespace {

using refusal = nexus_refusal;

// A small deterministic generator (splitmix64).
struct rng {
  uint64_t s;
  explicit rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 7) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) {
    return static_cast<int>(next() % static_cast<uint64_t>(n));
  }
};

// The test as the unit's surroundings: it reads the Ready FIFO when the unit
// finds it full, and collects released waiters.
struct test_port final : nexus_port {
  nexus_task_maestro *unit = nullptr;
  bool shared = false; // the unit uses the concurrent FIFO operations
  std::vector<task *> ready;
  std::vector<task *> released;
  uint64_t rooms = 0;

  void drain() {
    task *t;
    while (shared ? unit->ready_fifo().try_pop(t)
                  : unit->ready_fifo().try_pop_exclusive(t))
      ready.push_back(t);
  }
  uint64_t make_room() override {
    ++rooms;
    drain();
    return 1;
  }
  void waiter_released(task *w) override { released.push_back(w); }
};

nexus_config small_config() {
  nexus_config c; // Table I
  return c;
}

// A unit with its port and task descriptors.
struct bench {
  explicit bench(const nexus_config &c, bool reservations = false)
      : cfg(c), unit(c, port, reservations) {
    port.unit = &unit;
    port.shared = reservations;
  }

  task *new_task() {
    tasks.push_back(std::make_unique<task>());
    task *t = tasks.back().get();
    t->engine_data = 0;
    return t;
  }
  nexus_descriptor desc(task *t, uint32_t tag, std::vector<weft_dep> deps,
                        bool waiter = false) {
    nexus_descriptor d;
    d.t = t;
    d.tag = tag;
    d.waiter = waiter;
    if (!deps.empty())
      nexus_format(d, deps.data(), static_cast<int>(deps.size()), spill);
    if (d.n == 0)
      d.tag = 0;
    nexus_own_params(d); // keep the parameters past the next format
    owned.push_back(d);
    return d;
  }
  refusal insert(task *t, uint32_t tag, std::vector<weft_dep> deps,
                 bool waiter = false) {
    refusal r = unit.insert(desc(t, tag, std::move(deps), waiter));
    port.drain();
    return r;
  }
  void finish(task *t) {
    ASSERT_NE(t->engine_data, 0u);
    unit.finish(t->engine_data - 1);
    port.drain();
  }
  // Takes the tasks read from the Ready FIFO so far.
  std::vector<task *> take_ready() {
    std::vector<task *> r;
    r.swap(port.ready);
    return r;
  }
  ~bench() {
    for (nexus_descriptor &d : owned)
      nexus_free_params(d);
  }

  nexus_config cfg;
  test_port port;
  nexus_task_maestro unit;
  std::vector<std::unique_ptr<task>> tasks;
  std::vector<nexus_param> spill;
  std::vector<nexus_descriptor> owned;
};

long cell[4096]; // addresses for dependences
const void *A(int i) { return &cell[i]; }
weft_dep in(int i) { return {A(i), WEFT_IN}; }
weft_dep out(int i) { return {A(i), WEFT_OUT}; }
weft_dep inout(int i) { return {A(i), WEFT_INOUT}; }
weft_dep ioset(int i) { return {A(i), WEFT_INOUTSET}; }
weft_dep mutex(int i) { return {A(i), WEFT_MUTEXINOUTSET}; }

uint64_t counter(const nexus_counter &c) { return c.get(); }

// ---- configuration
// -----------------------------------------------------------
const char *no_env(const char *) { return nullptr; }

std::map<std::string, std::string> g_env;
const char *map_env(const char *name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TEST(NexusConfig, DefaultsAreTableOne) {
  nexus_config c = nexus_config::from_env(no_env);
  EXPECT_EQ(c.pool, 1024u);
  EXPECT_EQ(c.params, 8u);
  EXPECT_EQ(c.sets, 256u);
  EXPECT_EQ(c.ways, 8u);
  EXPECT_EQ(c.kol, 8u);
  EXPECT_EQ(c.dummy_kol, 1024u);
  EXPECT_EQ(c.task_buffer, 8u);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 12.5);
  EXPECT_EQ(c.pcie_write_ns, 250u);
  EXPECT_EQ(c.pcie_read_ns, 400u);
  EXPECT_EQ(c.mode, nexus_mode::inline_unit);
}

TEST(NexusConfig, EnvironmentOverrides) {
  g_env = {{"WEFT_NEXUS_POOL", "4"},          {"WEFT_NEXUS_PARAMS", "2"},
           {"WEFT_NEXUS_SETS", "1"},          {"WEFT_NEXUS_WAYS", "3"},
           {"WEFT_NEXUS_KOL", "1"},           {"WEFT_NEXUS_DUMMY_KOL", "0"},
           {"WEFT_NEXUS_FIFO", "1"},          {"WEFT_NEXUS_READY_FIFO", "5"},
           {"WEFT_NEXUS_MODE", "thread"},     {"WEFT_NEXUS_CLOCK_MHZ", "100"},
           {"WEFT_NEXUS_TASK_BUFFER", "0x2"}, {"WEFT_NEXUS_PCIE_READ_NS", "0"}};
  nexus_config c = nexus_config::from_env(map_env);
  EXPECT_EQ(c.pool, 4u);
  EXPECT_EQ(c.params, 2u);
  EXPECT_EQ(c.sets, 1u);
  EXPECT_EQ(c.ways, 3u);
  EXPECT_EQ(c.kol, 1u);
  EXPECT_EQ(c.dummy_kol, 0u);
  EXPECT_EQ(c.new_fifo, 1u);
  EXPECT_EQ(c.ready_fifo, 5u); // the per-FIFO variable wins
  EXPECT_EQ(c.finished_fifo, 1u);
  EXPECT_EQ(c.mode, nexus_mode::thread);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 100.0);
  EXPECT_EQ(c.task_buffer, 2u);
  EXPECT_EQ(c.pcie_read_ns, 0u);
}

TEST(NexusConfigDeathTest, BadValuesNameTheVariable) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  struct bad {
    const char *var, *value;
  } cases[] = {{"WEFT_NEXUS_POOL", "0"},         {"WEFT_NEXUS_POOL", "12abc"},
               {"WEFT_NEXUS_SETS", "-1"},        {"WEFT_NEXUS_WAYS", "65"},
               {"WEFT_NEXUS_KOL", "0"},          {"WEFT_NEXUS_FIFO", "0"},
               {"WEFT_NEXUS_MODE", "hardware"},  {"WEFT_NEXUS_CLOCK_MHZ", "0"},
               {"WEFT_NEXUS_CLOCK_MHZ", "fast"}, {"WEFT_NEXUS_PARAMS", ""}};
  for (const bad &b : cases) {
    g_env = {{b.var, b.value}};
    std::string want = std::string(b.var) + "=" + b.value;
    EXPECT_DEATH(nexus_config::from_env(map_env), want) << want;
  }
}

// ---- descriptors
// -------------------------------------------------------------
TEST(NexusDescriptor, DuplicatesMergeToTheStrongerAccess) {
  std::vector<nexus_param> spill;
  nexus_descriptor d;
  std::vector<weft_dep> deps = {in(1),    in(1), out(2),   in(2),    ioset(3),
                                ioset(3), in(4), ioset(4), mutex(5), in(6)};
  nexus_format(d, deps.data(), static_cast<int>(deps.size()), spill);
  ASSERT_EQ(d.n, 6u);
  EXPECT_EQ(d.ndeps, 10u);
  const nexus_param *p = d.params();
  EXPECT_EQ(p[0].addr, reinterpret_cast<uintptr_t>(A(1)));
  EXPECT_EQ(p[0].acc, nexus_access::in);
  EXPECT_EQ(p[1].acc, nexus_access::out);
  EXPECT_EQ(p[2].acc, nexus_access::inoutset);
  EXPECT_EQ(p[3].acc, nexus_access::out); // in + inoutset
  EXPECT_EQ(p[4].acc, nexus_access::out); // mutexinoutset is inout
  EXPECT_EQ(p[5].acc, nexus_access::in);
}

TEST(NexusDescriptor, ManyParametersKeepFirstOccurrenceOrder) {
  std::vector<nexus_param> spill;
  std::vector<weft_dep> deps;
  for (int i = 0; i < 300; ++i)
    deps.push_back(i % 3 == 0 ? in(299 - i % 150) : out(299 - i % 150));
  nexus_descriptor d;
  nexus_format(d, deps.data(), static_cast<int>(deps.size()), spill);
  ASSERT_EQ(d.n, 150u);
  for (uint32_t i = 0; i < d.n; ++i) {
    EXPECT_EQ(d.params()[i].addr, reinterpret_cast<uintptr_t>(A(299 - int(i))));
    // i and i + 150 name the same address; one of them is an out unless
    // both are multiples of 3.
    bool both_in = i % 3 == 0 && (i + 150) % 3 == 0;
    EXPECT_EQ(d.params()[i].acc,
              both_in ? nexus_access::in : nexus_access::out);
  }
}

// ---- FIFOs
// -------------------------------------------------------------------
TEST(NexusFifo, DepthOneAndPeak) {
  nexus_fifo<int> f(1);
  int v = 0;
  EXPECT_FALSE(f.try_pop(v));
  EXPECT_TRUE(f.try_push(7));
  EXPECT_FALSE(f.try_push(8)); // full: back-pressure, nothing lost
  EXPECT_TRUE(f.try_pop(v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(f.try_push(9));
  EXPECT_TRUE(f.try_pop(v));
  EXPECT_EQ(v, 9);
  EXPECT_EQ(f.peak(), 1u);
  nexus_fifo<int> g(5);
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(g.try_push_exclusive(i));
  EXPECT_TRUE(g.try_pop_exclusive(v));
  EXPECT_EQ(v, 0);
  EXPECT_EQ(g.peak(), 3u);
  EXPECT_EQ(g.pushed(), 3u);
}

TEST(NexusFifo, ManyProducersAndConsumersLoseNothing) {
  nexus_fifo<uint64_t> f(3); // not a power of two
  constexpr uint64_t kPer = 20000;
  std::atomic<uint64_t> sum{0}, count{0};
  std::vector<std::thread> th;
  for (uint64_t p = 0; p < 2; ++p)
    th.emplace_back([&f, p] {
      for (uint64_t i = 1; i <= kPer; ++i)
        while (!f.try_push(p * kPer + i))
          std::this_thread::yield();
    });
  for (int c = 0; c < 2; ++c)
    th.emplace_back([&] {
      uint64_t v;
      while (count.load() < 2 * kPer)
        if (f.try_pop(v)) {
          sum.fetch_add(v);
          count.fetch_add(1);
        } else {
          std::this_thread::yield();
        }
    });
  for (std::thread &t : th)
    t.join();
  uint64_t n = 2 * kPer;
  EXPECT_EQ(count.load(), n);
  EXPECT_EQ(sum.load(), n * (n + 1) / 2);
  EXPECT_LE(f.peak(), 3u);
}

// ---- the Task Maestro
// ----------------------------------------------------------
TEST(NexusMaestro, IndependentTasksLeaveInInsertionOrder) {
  bench b(small_config());
  std::vector<task *> ts;
  for (int i = 0; i < 10; ++i) {
    ts.push_back(b.new_task());
    ASSERT_EQ(b.insert(ts.back(), 1, {out(i)}), refusal::none);
  }
  EXPECT_EQ(b.take_ready(), ts);
  for (task *t : ts)
    b.finish(t);
  EXPECT_EQ(b.unit.pool().used_entries(), 0u);
  EXPECT_EQ(b.unit.table().used(), 0u);
}

TEST(NexusMaestro, ReadersShareWritersWaitInOrder) {
  bench b(small_config());
  task *w1 = b.new_task(), *r1 = b.new_task(), *r2 = b.new_task(),
       *w2 = b.new_task(), *r3 = b.new_task(), *r4 = b.new_task();
  b.insert(w1, 1, {out(0)});
  b.insert(r1, 1, {in(0)});
  b.insert(r2, 1, {in(0)});
  b.insert(w2, 1, {inout(0)});
  b.insert(r3, 1, {in(0)});
  b.insert(r4, 1, {in(0)});
  EXPECT_EQ(b.take_ready(), std::vector<task *>{w1});
  b.finish(w1); // RAW: both readers at once
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{r1, r2}));
  b.finish(r2);
  EXPECT_TRUE(b.take_ready().empty()); // WAR: w2 waits for r1 too
  b.finish(r1);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{w2});
  b.finish(w2);
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{r3, r4}));
  // A reader joins readers that hold the address when nobody waits.
  task *r5 = b.new_task();
  b.insert(r5, 1, {in(0)});
  EXPECT_EQ(b.take_ready(), std::vector<task *>{r5});
  // r2 waited (a writer held the address), r4 joined r3 in the kick-off,
  // only r5 joined holders at its insertion.
  EXPECT_EQ(counter(b.unit.stats().joins), 1u);
}

TEST(NexusMaestro, InoutsetMembersRunTogetherOrderedAgainstOthers) {
  bench b(small_config());
  task *w = b.new_task(), *s1 = b.new_task(), *s2 = b.new_task(),
       *r = b.new_task(), *s3 = b.new_task();
  b.insert(w, 1, {out(0)});
  b.insert(s1, 1, {ioset(0)});
  b.insert(s2, 1, {ioset(0)});
  b.insert(r, 1, {in(0)});
  b.insert(s3, 1, {ioset(0)});
  EXPECT_EQ(b.take_ready(), std::vector<task *>{w});
  b.finish(w);
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{s1, s2})); // concurrent
  b.finish(s1);
  EXPECT_TRUE(b.take_ready().empty());
  b.finish(s2);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{r});
  b.finish(r);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{s3});
}

TEST(NexusMaestro, MutexinoutsetSerialisesInSubmissionOrder) {
  bench b(small_config());
  task *m1 = b.new_task(), *m2 = b.new_task(), *m3 = b.new_task();
  b.insert(m1, 1, {mutex(0)});
  b.insert(m2, 1, {mutex(0)});
  b.insert(m3, 1, {mutex(0)});
  EXPECT_EQ(b.take_ready(), std::vector<task *>{m1});
  b.finish(m1);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{m2});
  b.finish(m2);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{m3});
}

TEST(NexusMaestro, DomainsKeepSiblingsOfDifferentParentsApart) {
  bench b(small_config());
  task *a = b.new_task(), *c = b.new_task(), *a2 = b.new_task();
  b.insert(a, 1, {out(0)});
  b.insert(c, 2, {out(0)}); // same address, another parent
  b.insert(a2, 1, {in(0)});
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{a, c}));
  EXPECT_EQ(b.unit.table().used(), 2u);
  b.finish(c);
  EXPECT_TRUE(b.take_ready().empty());
  b.finish(a);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{a2});
}

TEST(NexusMaestro, DuplicateAddressesInOneTaskDoNotWaitForThemselves) {
  bench b(small_config());
  task *t = b.new_task(), *u = b.new_task();
  b.insert(t, 1, {in(0), out(0), in(0), inout(1), inout(1)});
  EXPECT_EQ(b.take_ready(), std::vector<task *>{t});
  b.insert(u, 1, {in(0)});
  EXPECT_TRUE(b.take_ready().empty()); // t writes 0
  b.finish(t);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{u});
  EXPECT_EQ(counter(b.unit.stats().params), 3u);
  EXPECT_EQ(counter(b.unit.stats().deps), 6u);
}

// Kick-Off List overflow: 20 tasks wait on one address held by a writer;
// the entry's list takes 8, two Dummy Kick-Off Lists the other 12.
TEST(NexusMaestro, KickOffListOverflowsIntoDummyLists) {
  bench b(small_config());
  task *w = b.new_task();
  b.insert(w, 1, {out(0)});
  std::vector<task *> waiting;
  for (int i = 0; i < 20; ++i) {
    waiting.push_back(b.new_task());
    ASSERT_EQ(b.insert(waiting.back(), 1, {inout(0)}), refusal::none);
  }
  const nexus_stats &s = b.unit.stats();
  EXPECT_EQ(b.unit.table().dummy_used(), 2u);
  EXPECT_EQ(counter(s.dummy_kol_allocs), 2u);
  EXPECT_EQ(counter(s.peak_dummy_kol), 2u);
  EXPECT_EQ(counter(s.peak_kol), 20u);
  EXPECT_EQ(counter(s.kol_appends), 20u);
  b.take_ready();
  // Each writer's end kicks off the next one, in submission order; the
  // entry's list is refilled from a dummy list when it runs dry (after the
  // 8th and the 16th).
  b.finish(w);
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(b.take_ready(), std::vector<task *>{waiting[i]}) << i;
    b.finish(waiting[i]);
  }
  EXPECT_EQ(counter(s.dummy_kol_refills), 2u);
  EXPECT_EQ(b.unit.table().dummy_used(), 0u);
  EXPECT_EQ(b.unit.table().used(), 0u);
}

TEST(NexusMaestro, ManyReadersBehindAWriterLeaveTogetherThroughDummies) {
  nexus_config c = small_config();
  c.ready_fifo = 4; // smaller than the burst: the unit stalls on it
  bench b(c);
  task *w = b.new_task();
  b.insert(w, 1, {out(0)});
  std::vector<task *> readers;
  for (int i = 0; i < 30; ++i) {
    readers.push_back(b.new_task());
    b.insert(readers.back(), 1, {in(0)});
  }
  b.take_ready();
  b.finish(w);
  EXPECT_EQ(b.take_ready(), readers); // all 30, in order
  // 30 ready words through a FIFO of 4: the unit found it full 7 times.
  EXPECT_EQ(counter(b.unit.stats().stall_ready), 7u);
  EXPECT_EQ(b.port.rooms, 7u);
  EXPECT_EQ(counter(b.unit.stats().dummy_kol_allocs), 3u); // 8 + 3 x 8 >= 30
  EXPECT_EQ(b.unit.ready_fifo().peak(), 4u);
}

// A task with 20 parameters takes 3 Task Pool entries of 8: 2 dummies.
TEST(NexusMaestro, ManyParametersTakeDummyPoolEntries) {
  bench b(small_config());
  task *big = b.new_task(), *later = b.new_task();
  std::vector<weft_dep> deps;
  for (int i = 0; i < 20; ++i)
    deps.push_back(inout(100 + i));
  ASSERT_EQ(b.insert(big, 1, deps), refusal::none);
  EXPECT_EQ(b.unit.pool().used_entries(), 3u);
  EXPECT_EQ(b.unit.pool().used_dummies(), 2u);
  // Its 20th parameter, in its second dummy entry, orders a later task.
  ASSERT_EQ(b.insert(later, 1, {in(119)}), refusal::none);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{big});
  b.finish(big);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{later});
  b.finish(later);
  const nexus_stats &s = b.unit.stats();
  EXPECT_EQ(counter(s.dummy_entries), 2u);
  EXPECT_EQ(counter(s.peak_dummy_pool), 2u);
  EXPECT_EQ(counter(s.peak_pool), 4u);
  EXPECT_EQ(b.unit.pool().used_entries(), 0u);
}

TEST(NexusMaestro, FitsEverNamesTasksThatCanNeverBeInserted) {
  nexus_config c = small_config();
  c.pool = 2;
  c.params = 2;
  c.sets = 1;
  c.ways = 3;
  bench b(c);
  task *t = b.new_task();
  EXPECT_TRUE(b.unit.fits_ever(b.desc(t, 1, {in(0), in(1), in(2)})));
  // 4 distinct addresses in the only set of 3 ways.
  EXPECT_FALSE(b.unit.fits_ever(b.desc(t, 1, {in(0), in(1), in(2), in(3)})));
  // Duplicates merge first: 3 distinct addresses fit.
  EXPECT_TRUE(
      b.unit.fits_ever(b.desc(t, 1, {in(0), out(1), in(2), in(0), out(2)})));
  c.ways = 8;
  bench b2(c);
  // 5 parameters of 2 per entry need 3 entries of a pool of 2.
  EXPECT_FALSE(
      b2.unit.fits_ever(b2.desc(t, 1, {in(0), in(1), in(2), in(3), in(4)})));
  EXPECT_TRUE(b2.unit.fits_ever(b2.desc(t, 1, {in(0), in(1), in(2), in(3)})));
}

// Set conflicts: one set of two ways. A task with a third address stalls
// (nothing changes) until an entry of the set is freed.
TEST(NexusMaestro, SetConflictStallsThenSucceeds) {
  nexus_config c = small_config();
  c.sets = 1;
  c.ways = 2;
  bench b(c);
  task *t1 = b.new_task(), *t2 = b.new_task(), *t3 = b.new_task(),
       *t4 = b.new_task();
  ASSERT_EQ(b.insert(t1, 1, {out(0)}), refusal::none);
  ASSERT_EQ(b.insert(t2, 1, {out(1)}), refusal::none);
  // An address already in the table needs no way: t4 waits behind t1.
  ASSERT_EQ(b.insert(t4, 1, {in(0)}), refusal::none);
  uint64_t cycles = counter(b.unit.stats().cycles);
  EXPECT_EQ(b.insert(t3, 1, {in(0), out(2)}), refusal::set);
  EXPECT_EQ(b.insert(t3, 1, {in(0), out(2)}), refusal::set);
  EXPECT_EQ(counter(b.unit.stats().set_conflicts), 2u);
  // Each refused attempt looked up two addresses: 2 x 3 stall cycles, and
  // no work was counted.
  EXPECT_EQ(counter(b.unit.stats().stall_cycles), 12u);
  EXPECT_EQ(counter(b.unit.stats().cycles), cycles);
  EXPECT_EQ(b.unit.pool().used_entries(), 3u);
  EXPECT_EQ(b.unit.table().used(), 2u);
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{t1, t2}));
  b.finish(t2); // frees the way of address 1
  EXPECT_EQ(b.insert(t3, 1, {in(0), out(2)}), refusal::none);
  EXPECT_TRUE(b.take_ready().empty()); // t3 reads 0 after t1
  b.finish(t1);
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{t4, t3}));
  EXPECT_EQ(counter(b.unit.stats().peak_set), 2u);
  EXPECT_EQ(counter(b.unit.stats().peak_table), 2u);
}

TEST(NexusMaestro, DummyKickOffListExhaustionStalls) {
  nexus_config c = small_config();
  c.kol = 2;
  c.dummy_kol = 1;
  bench b(c);
  std::vector<task *> t;
  for (int i = 0; i < 6; ++i)
    t.push_back(b.new_task());
  b.insert(t[0], 1, {out(0)});
  for (int i = 1; i <= 4; ++i) // 2 in the entry's list, 2 in the dummy
    ASSERT_EQ(b.insert(t[i], 1, {out(0)}), refusal::none);
  EXPECT_EQ(b.insert(t[5], 1, {out(0)}), refusal::dummy_kol);
  EXPECT_EQ(counter(b.unit.stats().stall_dummy_kol), 1u);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{t[0]});
  b.finish(t[0]);
  EXPECT_EQ(b.take_ready(), std::vector<task *>{t[1]});
  EXPECT_EQ(b.unit.table().dummy_used(), 1u);
  b.finish(t[1]);
  // The entry's list ran dry and took the dummy list's tasks: it is free.
  EXPECT_EQ(b.unit.table().dummy_used(), 0u);
  EXPECT_EQ(counter(b.unit.stats().dummy_kol_refills), 1u);
  EXPECT_EQ(b.insert(t[5], 1, {out(0)}), refusal::none);
  for (int i = 2; i <= 5; ++i) {
    ASSERT_EQ(b.take_ready(), std::vector<task *>{t[i]}) << i;
    b.finish(t[i]);
  }
}

// A full Task Pool with one producer: every refused insertion is followed by
// running a ready task, and the whole chain completes in order.
TEST(NexusMaestro, FullPoolBackPressureWithOneProducer) {
  nexus_config c = small_config();
  c.pool = 4;
  bench b(c);
  std::deque<task *> ready;
  std::vector<task *> order, all;
  int refused = 0;
  for (int i = 0; i < 200; ++i) {
    task *t = b.new_task();
    all.push_back(t);
    std::vector<weft_dep> deps = {inout(i % 3)};
    for (;;) {
      refusal r = b.insert(t, 1, deps);
      for (task *x : b.take_ready())
        ready.push_back(x);
      if (r == refusal::none)
        break;
      ASSERT_EQ(r, refusal::pool);
      ++refused;
      ASSERT_FALSE(ready.empty()) << "refused with nothing to run: deadlock";
      task *x = ready.front();
      ready.pop_front();
      order.push_back(x);
      b.finish(x);
      for (task *y : b.take_ready())
        ready.push_back(y);
    }
  }
  while (!ready.empty()) {
    task *x = ready.front();
    ready.pop_front();
    order.push_back(x);
    b.finish(x);
    for (task *y : b.take_ready())
      ready.push_back(y);
  }
  ASSERT_EQ(order.size(), all.size());
  // Tasks on one address ran in submission order.
  for (int a = 0; a < 3; ++a) {
    std::vector<task *> want, got;
    for (int i = a; i < 200; i += 3)
      want.push_back(all[static_cast<size_t>(i)]);
    for (task *x : order)
      if (std::find(want.begin(), want.end(), x) != want.end())
        got.push_back(x);
    EXPECT_EQ(got, want);
  }
  EXPECT_GT(refused, 0);
  EXPECT_EQ(counter(b.unit.stats().stall_pool), static_cast<uint64_t>(refused));
  EXPECT_EQ(counter(b.unit.stats().peak_pool), 4u);
}

// taskwait depend: the waiter is a pseudo task; the unit retires it when it
// becomes ready and hands it to the port.
TEST(NexusMaestro, WaitersAreReleasedWhenTheirPredecessorsEnd) {
  bench b(small_config());
  task *r = b.new_task(), *w = b.new_task(), *waiter1 = b.new_task(),
       *waiter2 = b.new_task(), *waiter3 = b.new_task();
  b.insert(r, 1, {in(0)});
  b.insert(w, 1, {out(1)});
  // in on 0: readers do not block it; released during its insertion.
  ASSERT_EQ(b.insert(waiter1, 1, {in(0)}, true), refusal::none);
  EXPECT_EQ(b.port.released, std::vector<task *>{waiter1});
  // out on 0 waits for the reader; in on 1 for the writer.
  ASSERT_EQ(b.insert(waiter2, 1, {out(0)}, true), refusal::none);
  ASSERT_EQ(b.insert(waiter3, 1, {in(1), in(2)}, true), refusal::none);
  EXPECT_EQ(b.port.released.size(), 1u);
  b.finish(r);
  EXPECT_EQ(b.port.released, (std::vector<task *>{waiter1, waiter2}));
  b.finish(w);
  EXPECT_EQ(b.port.released, (std::vector<task *>{waiter1, waiter2, waiter3}));
  EXPECT_EQ(b.take_ready(), (std::vector<task *>{r, w})); // never waiters
  EXPECT_EQ(b.unit.pool().used_entries(), 0u);
  EXPECT_EQ(b.unit.table().used(), 0u);
  EXPECT_EQ(counter(b.unit.stats().waiters), 3u);
}

// Hand-computed statistics for a small scenario (see the comments).
TEST(NexusMaestro, StatisticsOfASmallScenario) {
  nexus_config c = small_config();
  c.kol = 2;
  bench b(c);
  task *w = b.new_task(), *r1 = b.new_task(), *r2 = b.new_task(),
       *r3 = b.new_task(), *big = b.new_task();
  b.insert(w, 1, {out(0), out(1)}); // 2 entries created
  b.insert(r1, 1, {in(0)});         // waits (list 1/2)
  b.insert(r2, 1, {in(0), in(0)});  // waits (list 2/2); merged
  b.insert(r3, 1, {in(0)});         // waits: a dummy list
  std::vector<weft_dep> many;
  for (int i = 0; i < 10; ++i)
    many.push_back(in(10 + i));
  b.insert(big, 1, many); // 10 entries, 1 dummy pool entry
  b.take_ready();
  b.finish(w); // kicks off r1, r2, r3
  b.finish(r1);
  b.finish(r2);
  b.finish(r3);
  b.finish(big);
  const nexus_stats &s = b.unit.stats();
  EXPECT_EQ(counter(s.tasks_new), 5u);
  EXPECT_EQ(counter(s.tasks_finished), 5u);
  EXPECT_EQ(counter(s.tasks_ready), 5u);
  EXPECT_EQ(counter(s.deps), 2u + 1 + 2 + 1 + 10);
  EXPECT_EQ(counter(s.params), 2u + 1 + 1 + 1 + 10);
  EXPECT_EQ(counter(s.inserts), 12u);
  EXPECT_EQ(counter(s.deletes), 12u);
  EXPECT_EQ(counter(s.joins), 0u);
  EXPECT_EQ(counter(s.kol_appends), 3u);
  EXPECT_EQ(counter(s.kickoffs), 3u);
  EXPECT_EQ(counter(s.dummy_kol_allocs), 1u);
  EXPECT_EQ(counter(s.dummy_kol_refills), 1u);
  EXPECT_EQ(counter(s.dummy_entries), 1u);
  EXPECT_EQ(counter(s.lookups), 15u + 15u); // each parameter in and out
  EXPECT_EQ(counter(s.peak_pool), 6u);      // 4 tasks + big's 2 entries
  EXPECT_EQ(counter(s.peak_dummy_pool), 1u);
  EXPECT_EQ(counter(s.peak_table), 12u);
  EXPECT_EQ(counter(s.peak_dummy_kol), 1u);
  EXPECT_EQ(counter(s.peak_kol), 3u);
  EXPECT_EQ(counter(s.peak_task_buffer), 1u);
  EXPECT_EQ(counter(s.pcie_written), (3u + 2 + 2 + 2 + 11) + 5);
  EXPECT_EQ(counter(s.pcie_read), 5u);
  EXPECT_EQ(counter(s.stall_pool) + counter(s.set_conflicts) +
                counter(s.stall_dummy_kol) + counter(s.stall_ready),
            0u);
}

// The cost model (docs/engines.md, "Cost model"): a two-task chain on
// one address.
//   insert t1: 2 descriptor words + 1 pool entry + lookup 3 + create 1
//              + 1 ready word                                         =  8
//   insert t2: 2 words + 1 pool entry + lookup 3 + entry write 1
//              + kick-off list slot 1 + dependence count 1            =  9
//   finish t1: 1 finished word + lookup 3 + entry write 1 + list slot 1
//              + count decrement 2 + 1 ready word + pool read 1 + free 1 = 11
//   finish t2: 1 word + lookup 3 + entry write (delete) 1 + pool 2     =  7
TEST(NexusCostModel, TwoTaskChainCostsThirtyFiveCycles) {
  bench b(small_config());
  task *t1 = b.new_task(), *t2 = b.new_task();
  const nexus_stats &s = b.unit.stats();
  b.insert(t1, 1, {inout(0)});
  EXPECT_EQ(counter(s.cycles), 8u);
  b.insert(t2, 1, {inout(0)});
  EXPECT_EQ(counter(s.cycles), 17u);
  b.finish(t1);
  EXPECT_EQ(counter(s.cycles), 28u);
  b.finish(t2);
  EXPECT_EQ(counter(s.cycles), 35u);
  EXPECT_EQ(counter(s.stall_cycles), 0u);
}

// The paper's emptytask pattern (chains, 2 dependences per task): 15 cycles
// to insert and 18 to finish a task in the steady state, 33 = 2.64 us at
// 12.5 MHz (the paper measured about 3 us per task for Nexus++ alone).
TEST(NexusCostModel, EmptytaskChainMatchesTheModel) {
  bench b(small_config());
  constexpr int kTasks = 1000;
  std::vector<task *> t;
  for (int i = 0; i < kTasks; ++i)
    t.push_back(b.new_task());
  b.insert(t[0], 1, {inout(0), inout(1)});
  for (int i = 1; i < kTasks; ++i) {
    b.insert(t[i], 1, {inout(0), inout(1)});
    b.finish(t[i - 1]);
  }
  b.finish(t[kTasks - 1]);
  // First insertion: 3 words + 1 entry + 2 x (3 + 1) + 1 ready word = 13.
  // Last finish: 1 word + 2 x (3 + 1) + 2 pool = 11.
  uint64_t want = 13 + (kTasks - 1) * (15 + 18) + 11;
  EXPECT_EQ(counter(b.unit.stats().cycles), want);
  double us_per_task = static_cast<double>(want) / kTasks / 12.5;
  EXPECT_NEAR(us_per_task, 2.64, 0.01);
  using namespace nexus_cost;
  EXPECT_EQ(3 * fifo_word + pool_entry + 2 * (lookup + table_write + kol_slot) +
                count_write,
            15u);
  EXPECT_EQ(fifo_word + 2 * (lookup + table_write) +
                2 * (kol_slot + count_decrement) + fifo_word + 2 * pool_entry,
            18u);
}

// ---- OpenMP's rule, on random sibling sets, at tiny capacities
// ------------------ The reference: task j of a domain may run once every
// earlier task i of the same domain that conflicts with it on an address has
// finished (two accesses conflict unless both are `in` or both `inoutset`;
// mutexinoutset is inout, as the engine submits it). The model must make a task
// ready exactly when that holds: never earlier (checked when it is read from
// the Ready FIFO) and never later (checked after every operation).
struct ref_task {
  task *t = nullptr;
  int domain = 0;
  std::vector<weft_dep> deps;
  bool waiter = false;
  enum { unsubmitted, inserted, ready, done } state = unsubmitted;
  bool in_unit = false; // false: serialized (never fits)
};

bool conflict(const ref_task &a, const ref_task &b) {
  std::vector<nexus_param> sa, sb;
  nexus_descriptor da, db;
  nexus_format(da, a.deps.data(), static_cast<int>(a.deps.size()), sa);
  nexus_format(db, b.deps.data(), static_cast<int>(b.deps.size()), sb);
  for (uint32_t i = 0; i < da.n; ++i)
    for (uint32_t j = 0; j < db.n; ++j) {
      const nexus_param &p = da.params()[i], &q = db.params()[j];
      if (p.addr != q.addr)
        continue;
      if (!(p.acc == q.acc && nexus_concurrent(p.acc)))
        return true;
    }
  return false;
}

struct random_run {
  random_run(const nexus_config &c, uint64_t seed, bool reservations)
      : b(c, reservations), r(seed), reservations_(reservations) {}

  bench b;
  rng r;
  bool reservations_;
  std::vector<ref_task> all; // in creation order, all domains
  std::map<task *, size_t> index;
  std::vector<size_t> running; // read from the Ready FIFO
  std::string failure;

  bool may_run(size_t j) const {
    for (size_t i = 0; i < j; ++i)
      if (all[i].domain == all[j].domain && all[i].state != ref_task::done &&
          conflict(all[i], all[j]))
        return false;
    return true;
  }
  void absorb() {
    for (task *t : b.take_ready()) {
      size_t j = index.at(t);
      if (all[j].state != ref_task::inserted || !may_run(j))
        failure = "task " + std::to_string(j) + " made ready too early";
      all[j].state = ref_task::ready;
      running.push_back(j);
    }
    for (task *w : b.port.released) {
      size_t j = index.at(w);
      if (all[j].state != ref_task::inserted || !may_run(j))
        failure = "waiter " + std::to_string(j) + " released too early";
      all[j].state = ref_task::done;
    }
    b.port.released.clear();
    // Nothing that may run is left waiting in the unit.
    for (size_t j = 0; j < all.size(); ++j)
      if (all[j].state == ref_task::inserted && may_run(j))
        failure = "task " + std::to_string(j) + " not made ready in time";
  }
  // Thread-mode maestro driven by this thread: reserve, write the New FIFO,
  // let the unit step until it has nothing to do.
  refusal offer(const nexus_descriptor &d) {
    if (!reservations_) {
      refusal rf = b.unit.insert(d);
      b.port.drain();
      return rf;
    }
    refusal rf = b.unit.reserve(d);
    if (rf != refusal::none)
      return rf;
    nexus_descriptor copy = d;
    copy.owns_more = false;
    nexus_own_params(copy);
    if (!b.unit.new_fifo().try_push(copy)) {
      nexus_free_params(copy);
      b.unit.unreserve(d);
      return refusal::pool;
    }
    while (b.unit.step())
      b.port.drain();
    return refusal::none;
  }
  void finish(size_t j) {
    all[j].state = ref_task::done;
    if (!all[j].in_unit)
      return;
    if (!reservations_) {
      b.unit.finish(all[j].t->engine_data - 1);
    } else {
      ASSERT_TRUE(b.unit.finished_fifo().try_push(all[j].t->engine_data - 1));
      while (b.unit.step())
        b.port.drain();
    }
    b.port.drain();
  }
  // Finish one running task (random choice); false if none runs.
  bool progress() {
    if (running.empty())
      return false;
    size_t k = static_cast<size_t>(r.below(static_cast<int>(running.size())));
    size_t j = running[k];
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    finish(j);
    absorb();
    return true;
  }

  void run(int ndomains, int per_domain, int naddr) {
    std::vector<std::vector<ref_task>> plan(static_cast<size_t>(ndomains));
    const weft_dep_mode modes[] = {
        WEFT_IN,       WEFT_OUT,           WEFT_INOUT,
        WEFT_INOUTSET, WEFT_MUTEXINOUTSET, WEFT_IN};
    for (int d = 0; d < ndomains; ++d)
      for (int k = 0; k < per_domain; ++k) {
        ref_task x;
        x.domain = d + 1;
        x.waiter = r.below(12) == 0;
        int n = x.waiter ? 1 + r.below(3) : r.below(5);
        for (int i = 0; i < n; ++i)
          x.deps.push_back({A(r.below(naddr)), modes[r.below(6)]});
        plan[static_cast<size_t>(d)].push_back(x);
      }
    std::vector<size_t> next(static_cast<size_t>(ndomains), 0);
    std::vector<long> blocked_on(static_cast<size_t>(ndomains), -1);
    size_t left = static_cast<size_t>(ndomains * per_domain);
    int stuck = 0;
    while (left > 0 && failure.empty()) {
      int d = r.below(ndomains);
      size_t ud = static_cast<size_t>(d);
      if (blocked_on[ud] >= 0) { // a waiter of this domain waits
        if (all[static_cast<size_t>(blocked_on[ud])].state != ref_task::done) {
          if (!progress() && ++stuck > 1000)
            failure = "stuck behind a waiter";
          continue;
        }
        blocked_on[ud] = -1;
      }
      if (next[ud] == plan[ud].size())
        continue;
      ref_task &x = plan[ud][next[ud]];
      if (!x.t)
        x.t = b.new_task();
      nexus_descriptor desc = b.desc(x.t, x.domain, x.deps, x.waiter);
      if (!b.unit.fits_ever(desc)) {
        // Serialized, as the core does: after every earlier sibling.
        bool earlier_done = true;
        for (const ref_task &y : all)
          if (y.domain == x.domain && y.state != ref_task::done)
            earlier_done = false;
        if (!earlier_done) {
          if (!progress() && ++stuck > 1000)
            failure = "stuck serializing";
          continue;
        }
        index[x.t] = all.size();
        all.push_back(x);
        all.back().state = ref_task::done;
        ++next[ud];
        --left;
        continue;
      }
      refusal rf = offer(desc);
      if (rf != refusal::none) {
        if (!progress() && ++stuck > 1000)
          failure = "refused with nothing running: deadlock";
        continue;
      }
      stuck = 0;
      index[x.t] = all.size();
      all.push_back(x);
      all.back().state = ref_task::inserted;
      all.back().in_unit = true;
      ++next[ud];
      --left;
      if (x.waiter)
        blocked_on[ud] = static_cast<long>(all.size() - 1);
      absorb();
    }
    while (failure.empty() && progress()) {
    }
    if (failure.empty())
      for (size_t j = 0; j < all.size(); ++j)
        if (all[j].state != ref_task::done)
          failure = "task " + std::to_string(j) + " never finished";
  }
};

void expect_empty_unit(const nexus_task_maestro &u) {
  EXPECT_EQ(u.pool().used_entries(), 0u);
  EXPECT_EQ(u.table().used(), 0u);
  EXPECT_EQ(u.table().dummy_used(), 0u);
}

struct tiny_case {
  const char *name;
  nexus_config c;
};

std::vector<tiny_case> tiny_cases() {
  std::vector<tiny_case> v;
  nexus_config c;
  c.pool = 4;
  c.sets = 1;
  c.new_fifo = c.ready_fifo = c.finished_fifo = 1;
  v.push_back({"pool4_sets1_fifo1", c});
  c.ways = 2;
  c.kol = 1;
  c.dummy_kol = 2;
  c.params = 2;
  c.task_buffer = 1;
  v.push_back({"pool4_sets1_ways2_kol1_dummy2_params2", c});
  nexus_config d;
  d.pool = 8;
  d.sets = 3;
  d.ways = 1;
  d.kol = 1;
  d.dummy_kol = 0;
  d.new_fifo = d.ready_fifo = d.finished_fifo = 1;
  v.push_back({"pool8_sets3_ways1_nodummy", d});
  return v;
}

TEST(NexusRandomGraphs, TinyCapacitiesFollowOpenMPOrder) {
  for (const tiny_case &tc : tiny_cases())
    for (uint64_t seed = 1; seed <= 150; ++seed) {
      random_run run(tc.c, seed, false);
      run.run(3, 40, 4);
      ASSERT_TRUE(run.failure.empty())
          << tc.name << " seed " << seed << ": " << run.failure;
      expect_empty_unit(run.b.unit);
    }
}

TEST(NexusRandomGraphs, DefaultCapacitiesFollowOpenMPOrder) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    random_run run(small_config(), seed, false);
    run.run(2, 300, 6);
    ASSERT_TRUE(run.failure.empty()) << "seed " << seed << ": " << run.failure;
    expect_empty_unit(run.b.unit);
  }
}

// Thread mode's flow control, driven by one thread: reservations keep every
// accepted task insertable, and all room comes back.
TEST(NexusRandomGraphs, ReservationsNeverLeaveTheUnitStuck) {
  for (const tiny_case &tc : tiny_cases())
    for (uint64_t seed = 1; seed <= 100; ++seed) {
      random_run run(tc.c, seed, true);
      run.run(3, 30, 4);
      ASSERT_TRUE(run.failure.empty())
          << tc.name << " seed " << seed << ": " << run.failure;
      expect_empty_unit(run.b.unit);
      // All reserved room came back: a task needing the whole pool and a way
      // in every set fits again.
      nexus_descriptor d;
      std::vector<weft_dep> deps;
      for (uint32_t i = 0; i < tc.c.ways && i < tc.c.dummy_kol; ++i)
        deps.push_back(in(static_cast<int>(i)));
      task *t = run.b.new_task();
      nexus_descriptor full = run.b.desc(t, 9, deps);
      if (run.b.unit.fits_ever(full)) {
        EXPECT_EQ(run.b.unit.reserve(full), refusal::none) << tc.name;
        run.b.unit.unreserve(full);
      }
    }
}

// ---- the engine's statistics
// -------------------------------------------------
TEST(NexusEngine, StatisticsCarryTheNamedCounters) {
  nexus_engine e(small_config());
  engine_stats st;
  e.add_stats(st);
  std::set<std::string> names;
  for (const engine_counter &c : st.counters) {
    EXPECT_EQ(std::string(c.name).rfind("nexus.", 0), 0u) << c.name;
    EXPECT_TRUE(names.insert(c.name).second) << "twice: " << c.name;
  }
  for (const char *n : {"nexus.cycles",
                        "nexus.unit_ns",
                        "nexus.pcie_ns",
                        "nexus.peak.pool",
                        "nexus.peak.dummy_pool",
                        "nexus.peak.table",
                        "nexus.peak.dummy_kol",
                        "nexus.peak.new_fifo",
                        "nexus.peak.ready_fifo",
                        "nexus.peak.finished_fifo",
                        "nexus.peak.task_buffer",
                        "nexus.set_conflicts",
                        "nexus.stall.pool",
                        "nexus.stall.dummy_kol",
                        "nexus.stall.ready_fifo",
                        "nexus.stall.new_fifo",
                        "nexus.stall.finished_fifo",
                        "nexus.kol.dummy_allocs",
                        "nexus.pool.dummy_entries",
                        "nexus.table.lookups",
                        "nexus.kol.kickoffs",
                        "nexus.tasks.new",
                        "nexus.tasks.finished",
                        "nexus.tasks.ready"})
    EXPECT_TRUE(names.count(n)) << n;
  EXPECT_EQ(st.modelled_cycles, 0u);
  EXPECT_EQ(std::string(e.name()), "nexus");
  EXPECT_FALSE(e.holds_ready_tasks());
  nexus_config tc = small_config();
  tc.mode = nexus_mode::thread;
  nexus_engine et(tc); // never started: no manager thread
  EXPECT_TRUE(et.holds_ready_tasks());
}

TEST(NexusDomains, TagsAreReusedOnlyAfterTheLastReference) {
  nexus_domains ds;
  nexus_domain *a = ds.acquire();
  nexus_domain *b = ds.acquire();
  EXPECT_NE(a->tag, b->tag);
  EXPECT_NE(a->tag, 0u);
  uint32_t tag_a = a->tag;
  a->ref();   // a task of a's parent still in the unit
  a->unref(); // the parent ends
  nexus_domain *c = ds.acquire();
  EXPECT_NE(c->tag, tag_a); // a is still referenced
  a->unref();               // the task's end was processed
  nexus_domain *d = ds.acquire();
  EXPECT_EQ(d->tag, tag_a);
  EXPECT_EQ(ds.peak(), 3u);
  b->unref();
  c->unref();
  d->unref();
  EXPECT_EQ(ds.live(), 0u);
}

} // namespace
} // namespace weft
