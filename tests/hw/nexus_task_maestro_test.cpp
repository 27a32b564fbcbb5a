// hw/nexus/nexus_task_maestro.sv against the functional model
// (src/engines/nexus/nexus_task_maestro.cpp): the same operations, one at a
// time, must give the same Ready FIFO words in the same order (ids and
// waiters), and the unit must block on a task exactly when the model
// refuses it. Directed cases (chains, readers joining, Kick-Off Lists
// spilling into Dummy Kick-Off Lists, a full Task Pool, set conflicts) and
// random task graphs of 0-15 dependences, at a small size whose tables fill
// up and at Table I's sizes; cycles per operation are printed beside the
// model's.
#include "engines/nexus/nexus_task_maestro.hpp"
#include "nexus_rtl_port.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

namespace {

using namespace weft;
using rtl_word = nexus_rtl::ready_word;

struct model_port final : nexus_port {
  nexus_task_maestro *unit = nullptr;
  std::vector<rtl_word> out;
  void drain() {
    task *t;
    while (unit->ready_fifo().try_pop_exclusive(t))
      out.push_back({t->engine_data - 1, false});
  }
  uint64_t make_room() override {
    drain();
    return 1;
  }
  void waiter_released(task *w) override {
    drain(); // what it made ready before
    out.push_back({w->engine_data - 1, true});
  }
};

nexus_config config_of(const nexus_rtl::sizes &s) {
  nexus_config c;
  c.pool = s.pool;
  c.params = s.params;
  c.sets = s.sets;
  c.ways = s.ways;
  c.kol = s.kol;
  c.dummy_kol = s.dummy_kol;
  c.ready_fifo = 4096;
  return c;
}

struct spec {
  uint32_t tag;
  std::vector<nexus_param> params;
  bool waiter;
};

// Model and unit side by side.
struct pair_bench {
  explicit pair_bench(const nexus_rtl::sizes &s)
      : cfg(config_of(s)), model(cfg, port, false),
        rtl(nexus_rtl::make_port(s)) {
    port.unit = &model;
  }

  task *new_task() {
    tasks.push_back(std::make_unique<task>());
    tasks.back()->engine_data = 0;
    return tasks.back().get();
  }
  nexus_descriptor desc(task *t, const spec &sp) {
    nexus_descriptor d;
    d.t = t;
    d.tag = sp.params.empty() ? 0 : sp.tag;
    d.waiter = sp.waiter;
    d.n = static_cast<uint32_t>(sp.params.size());
    d.ndeps = d.n;
    if (d.n > kNexusInlineParams)
      d.more = const_cast<nexus_param *>(sp.params.data());
    else
      for (uint32_t i = 0; i < d.n; ++i)
        d.head[i] = sp.params[i];
    return d;
  }
  void to_rtl(const spec &sp) {
    std::vector<nexus_rtl::param> p;
    for (const nexus_param &x : sp.params)
      p.push_back({uint64_t(sp.tag) << 48 | x.addr, uint8_t(x.acc)});
    rtl->insert(p.data(), uint32_t(p.size()), sp.waiter);
  }

  // One operation on both; returns whether the model refused the task.
  bool insert(task *t, const spec &sp) {
    port.out.clear();
    uint64_t c0 = model.stats().cycles.get();
    bool refused = model.insert(desc(t, sp)) != nexus_refusal::none;
    port.drain();
    model_insert += model.stats().cycles.get() - c0;
    to_rtl(sp);
    compare(refused);
    return refused;
  }
  // Finish id; then the model retries a refused head (the unit does so
  // itself after a finish). Returns whether the head is still refused.
  bool finish(uint32_t id, task *head, const spec *head_spec) {
    port.out.clear();
    uint64_t c0 = model.stats().cycles.get();
    model.finish(id);
    model_finish += model.stats().cycles.get() - c0;
    bool refused = false;
    if (head)
      refused = model.insert(desc(head, *head_spec)) != nexus_refusal::none;
    port.drain();
    rtl->finish(id);
    compare(refused);
    return refused;
  }
  void compare(bool refused) {
    got.clear();
    rtl->run(got);
    ASSERT_FALSE(rtl->error());
    ASSERT_EQ(rtl->blocked(), refused);
    ASSERT_EQ(got, port.out) << "after " << ops << " operations";
    ++ops;
  }

  nexus_config cfg;
  model_port port;
  nexus_task_maestro model;
  std::unique_ptr<nexus_rtl::port> rtl;
  std::vector<std::unique_ptr<task>> tasks;
  std::vector<rtl_word> got;
  uint64_t ops = 0, model_insert = 0, model_finish = 0;
};

std::vector<uint32_t> ids(const std::vector<rtl_word> &w) {
  std::vector<uint32_t> r;
  for (const rtl_word &x : w)
    r.push_back(x.id);
  return r;
}

constexpr auto in = nexus_access::in, out = nexus_access::out,
               ios = nexus_access::inoutset;

TEST(NexusTaskMaestro, ChainReadersAndWaiter) {
  pair_bench b(nexus_rtl::kSmall);
  task *w1 = b.new_task(), *r1 = b.new_task(), *r2 = b.new_task(),
       *w2 = b.new_task(), *wt = b.new_task();
  const uint64_t a = 0x1000;
  ASSERT_FALSE(b.insert(w1, {1, {{a, out}}, false}));
  EXPECT_EQ(ids(b.got), std::vector<uint32_t>{0});
  ASSERT_FALSE(b.insert(r1, {1, {{a, in}}, false}));
  ASSERT_FALSE(b.insert(r2, {1, {{a, in}}, false}));
  ASSERT_FALSE(b.insert(w2, {1, {{a, out}}, false}));
  ASSERT_FALSE(b.insert(wt, {1, {{a, in}}, true}));
  EXPECT_TRUE(b.got.empty());
  b.finish(0, nullptr, nullptr); // both readers, at once
  EXPECT_EQ(ids(b.got), (std::vector<uint32_t>{1, 2}));
  b.finish(1, nullptr, nullptr);
  EXPECT_TRUE(b.got.empty());
  b.finish(2, nullptr, nullptr);
  EXPECT_EQ(ids(b.got), std::vector<uint32_t>{3});
  b.finish(3, nullptr, nullptr); // the waiter: released, already finished
  ASSERT_EQ(b.got.size(), 1u);
  EXPECT_TRUE(b.got[0].waiter);
  EXPECT_EQ(b.rtl->stats().inserts, 5u);
  EXPECT_EQ(b.rtl->stats().finishes, 5u);
}

TEST(NexusTaskMaestro, DummyKickOffListsAndDummyEntries) {
  // KOL = 2 in the small unit: 10 writers behind one take 4 Dummy Kick-Off
  // Lists; a task of 15 parameters takes a dummy Task Pool entry.
  pair_bench b(nexus_rtl::kSmall);
  std::vector<task *> ts;
  for (int i = 0; i < 11; ++i) {
    ts.push_back(b.new_task());
    ASSERT_FALSE(b.insert(ts.back(), {2, {{0x2000, out}}, false}));
  }
  spec wide{2, {}, false};
  for (uint64_t k = 0; k < 15; ++k)
    wide.params.push_back({0x10000 + 8 * k, k == 0 ? in : ios});
  wide.params[1].addr = 0x2000; // behind the writers
  ASSERT_FALSE(b.insert(b.new_task(), wide));
  EXPECT_EQ(b.model.stats().dummy_kol_allocs.get(), 5u);
  for (uint32_t i = 0; i < 11; ++i) {
    b.finish(i, nullptr, nullptr);
    ASSERT_EQ(b.got.size(), 1u);
    EXPECT_EQ(b.got[0].id, i + 1);
    if (HasFatalFailure())
      return;
  }
}

TEST(NexusTaskMaestro, FullPoolBlocksUntilAFinish) {
  pair_bench b(nexus_rtl::kSmall);
  // 64 readers of one address hold it together and fill the pool.
  for (int i = 0; i < 64; ++i)
    ASSERT_FALSE(b.insert(b.new_task(), {1, {{0x3000, in}}, false}));
  task *late = b.new_task();
  spec sp{1, {{0x3000, in}}, false};
  EXPECT_TRUE(b.insert(late, sp)); // blocked: no Task Pool entry
  EXPECT_FALSE(b.finish(5, late, &sp));
  EXPECT_EQ(ids(b.got), std::vector<uint32_t>{5}); // the freed entry
}

TEST(NexusTaskMaestro, SetConflictBlocks) {
  // Five keys of one set with four ways: the fifth task waits for a way.
  pair_bench b(nexus_rtl::kSmall);
  std::vector<uint64_t> keys;
  for (uint64_t a = 8; keys.size() < 5; a += 8) {
    uint64_t x = (a >> 3) ^ 1;
    x ^= x >> 32;
    x ^= x >> 16;
    if ((x & 15) == 7)
      keys.push_back(a);
  }
  for (int i = 0; i < 4; ++i)
    ASSERT_FALSE(b.insert(b.new_task(), {1, {{keys[i], out}}, false}));
  spec sp{1, {{keys[4], in}}, false};
  task *t = b.new_task();
  EXPECT_TRUE(b.insert(t, sp));
  EXPECT_EQ(b.model.stats().set_conflicts.get(), 1u);
  EXPECT_FALSE(b.finish(2, t, &sp));
  EXPECT_EQ(ids(b.got), std::vector<uint32_t>{2}); // the entry freed, reused
}

// The paper's emptytask pattern: a chain of tasks, each reading its
// predecessor's address and writing its own (2 dependences). Every task but
// the first waits in one Kick-Off List; each finish kicks off the next.
// The RTL's cycles per operation are fixed by its FSM (docs/engines.md,
// "nexus-rtl"): 7 per insertion and 13 per finish with a kick-off.
TEST(NexusTaskMaestro, EmptytaskChainCycles) {
  pair_bench b(nexus_rtl::kTableI);
  constexpr uint32_t kTasks = 500;
  for (uint32_t i = 0; i < kTasks; ++i) {
    spec sp{1, {{0x100000 + 8 * uint64_t(i), out}}, false};
    if (i > 0)
      sp.params.push_back({0x100000 + 8 * uint64_t(i - 1), in});
    ASSERT_FALSE(b.insert(b.new_task(), sp));
  }
  const nexus_rtl::counters after_insert = b.rtl->stats();
  for (uint32_t i = 0; i < kTasks; ++i) {
    b.finish(i, nullptr, nullptr);
    if (i + 1 < kTasks) {
      ASSERT_EQ(ids(b.got), std::vector<uint32_t>{i + 1});
    }
  }
  const nexus_rtl::counters k = b.rtl->stats();
  const double ins = double(after_insert.insert_cycles) / kTasks,
               fin = double(k.finish_cycles) / kTasks;
  std::printf("emptytask chain: RTL %.2f cycles per insert (model %.2f), "
              "%.2f per finish (model %.2f), %.2f per task (model %.2f)\n",
              ins, double(b.model_insert) / kTasks, fin,
              double(b.model_finish) / kTasks, ins + fin,
              double(b.model_insert + b.model_finish) / kTasks);
  EXPECT_EQ(after_insert.blocked_cycles, 0u);
  // Insert (the lookups pipelined with the parameter words, each parameter
  // placed by the table's direct write port as its answer arrives, the
  // pool entry taken meanwhile): header 1 + pool check 1 + lookups n + 2
  // (one per cycle, 2 cycles of latency) + header / count write 1 (+ Ready
  // FIFO word 1 if ready): n + 5, i.e. 7 for the first task (1 parameter,
  // ready) and for the others (2 parameters, waiting).
  EXPECT_EQ(after_insert.insert_cycles, kTasks * 7u);
  // Finish (the entry's parameters read and looked up one per cycle, an
  // entry that kicks nobody off written back as its answer arrives, then
  // the kept entries with waiters, each 1 + kick-off 2 per task + its
  // write-back 1): header 2 + lookups n + 3 + end 1 + release 1 (+ 4 per
  // entry with one waiter): 12 for the first (1 parameter, a kick-off), 13
  // for the middle ones, 9 for the last (nobody to kick off).
  EXPECT_EQ(k.finish_cycles, 12u + (kTasks - 2) * 13u + 9u);
}

// Cycles per operation against the number of dependences, printed as the
// table of docs/hardware.md and asserted: a task with n new keys (written,
// so it is ready at once) costs n + 6 to insert (n > 8: + 1 for the dummy
// Task Pool entry's header write; its allocation overlaps the lookups;
// n = 0: 5), and its finish with
// nobody waiting n + 7, each entry written back as its lookup answers (n >
// 8: + 7 for the dummy entry: its header read, the lookups' latency, its
// end and its release; n = 0: 4). Then a writer with k readers waiting on
// its one key: its finish kicks them all off, 2 cycles each, plus the
// entry's kept state read 1 and its write-back 1.
TEST(NexusTaskMaestro, CyclesByDependences) {
  pair_bench b(nexus_rtl::kTableI);
  std::printf("n  insert  finish   (RTL cycles; model insert, finish)\n");
  uint64_t addr = 0x400000;
  for (uint32_t n = 0; n <= 15; ++n) {
    spec sp{1, {}, false};
    for (uint32_t i = 0; i < n; ++i, addr += 8)
      sp.params.push_back({addr, out});
    const nexus_rtl::counters k0 = b.rtl->stats();
    const uint64_t m0 = b.model_insert, f0 = b.model_finish;
    ASSERT_FALSE(b.insert(b.new_task(), sp));
    ASSERT_EQ(b.got.size(), 1u);
    const uint32_t id = b.got[0].id;
    const nexus_rtl::counters k1 = b.rtl->stats();
    b.finish(id, nullptr, nullptr);
    const nexus_rtl::counters k2 = b.rtl->stats();
    const uint64_t ins = k1.insert_cycles - k0.insert_cycles,
                   fin = k2.finish_cycles - k1.finish_cycles;
    std::printf("%2u  %6lu  %6lu   (%lu, %lu)\n", n, (unsigned long)ins,
                (unsigned long)fin, (unsigned long)(b.model_insert - m0),
                (unsigned long)(b.model_finish - f0));
    const uint64_t dummy = n > 8 ? 1 : 0;
    EXPECT_EQ(ins, n == 0 ? 5u : n + 6u + dummy) << "n " << n;
    EXPECT_EQ(fin, n == 0 ? 4u : n + 7u + 7u * dummy) << "n " << n;
  }
  std::printf("k readers kicked off by one finish: RTL cycles (model)\n");
  for (uint32_t k = 0; k <= 15; ++k, addr += 8) {
    ASSERT_FALSE(b.insert(b.new_task(), {1, {{addr, out}}, false}));
    const uint32_t writer = b.got.at(0).id;
    std::vector<uint32_t> readers;
    for (uint32_t r = 0; r < k; ++r) {
      ASSERT_FALSE(b.insert(b.new_task(), {1, {{addr, in}}, false}));
      ASSERT_TRUE(b.got.empty());
    }
    const nexus_rtl::counters k1 = b.rtl->stats();
    const uint64_t f0 = b.model_finish;
    b.finish(writer, nullptr, nullptr);
    ASSERT_EQ(b.got.size(), k);
    const uint64_t fin = b.rtl->stats().finish_cycles - k1.finish_cycles;
    std::printf("%2u  %6lu  (%lu)\n", k, (unsigned long)fin,
                (unsigned long)(b.model_finish - f0));
    // k = 0: 8 (1 parameter, deleted as its lookup answers); else the
    // entry is kept and goes through the kick-off: 10 + 2 per reader.
    EXPECT_EQ(fin, k == 0 ? 8u : 10u + 2u * k) << "k " << k;
    for (const rtl_word &w : std::vector<rtl_word>(b.got))
      b.finish(w.id, nullptr, nullptr);
  }
}

// Random task graphs: 0-15 dependences over a few addresses (some crowding
// one set), two domain tags, waiters, finishes of random running tasks.
void random_stream(const nexus_rtl::sizes &s, uint64_t seed, int steps,
                   int naddr, bool print) {
  pair_bench b(s);
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> addrs;
  for (int i = 0; i < naddr; ++i)
    addrs.push_back((rng() % (uint64_t(1) << 40)) & ~uint64_t(7));
  for (uint64_t a = 8; addrs.size() < size_t(naddr) * 3 / 2; a += 8) {
    uint64_t x = (a >> 3) ^ 1;
    x ^= x >> 32;
    x ^= x >> 16;
    if ((x & (s.sets - 1)) == 3)
      addrs.push_back(a);
  }
  std::vector<uint32_t> running;
  task *head = nullptr;
  spec head_spec;
  uint64_t inserted = 0, params = 0, refusals = 0;
  for (int step = 0; step < steps; ++step) {
    for (const rtl_word &w : b.got)
      if (!w.waiter)
        running.push_back(w.id);
    b.got.clear();
    if (head || (!running.empty() && rng() % 5 < 2)) {
      if (running.empty()) {
        ADD_FAILURE() << "a refused task and nothing running";
        return;
      }
      size_t k = rng() % running.size();
      uint32_t id = running[k];
      running.erase(running.begin() + std::ptrdiff_t(k));
      bool still = b.finish(id, head, &head_spec);
      if (head && !still) {
        ++inserted;
        params += head_spec.params.size();
        head = nullptr;
      }
    } else {
      spec sp;
      sp.tag = 1 + uint32_t(rng() % 2);
      uint32_t n = uint32_t(rng() % 16);
      std::vector<uint64_t> pick = addrs;
      std::shuffle(pick.begin(), pick.end(), rng);
      for (uint32_t i = 0; i < n && i < pick.size(); ++i)
        sp.params.push_back(
            {pick[i], static_cast<nexus_access>(1 + rng() % 3)});
      sp.waiter = !sp.params.empty() && rng() % 10 == 0;
      task *t = b.new_task();
      nexus_descriptor d = b.desc(t, sp);
      if (!b.model.fits_ever(d))
        continue;
      if (b.insert(t, sp)) {
        ++refusals;
        head = t;
        head_spec = sp;
      } else {
        ++inserted;
        params += sp.params.size();
      }
    }
    if (::testing::Test::HasFailure())
      return;
  }
  const nexus_rtl::counters k = b.rtl->stats();
  EXPECT_GT(k.inserts, 0u);
  if (print)
    std::printf("seed %lu: %lu tasks (%lu parameters, %lu refusals, %lu dummy "
                "KOLs, %lu dummy entries): RTL %.1f cycles per insert "
                "(model %.1f), %.1f per finish (model %.1f)\n",
                (unsigned long)seed, (unsigned long)inserted,
                (unsigned long)params, (unsigned long)refusals,
                (unsigned long)b.model.stats().dummy_kol_allocs.get(),
                (unsigned long)b.model.stats().dummy_entries.get(),
                double(k.insert_cycles) / double(k.inserts),
                double(b.model_insert) / double(k.inserts),
                double(k.finish_cycles) / double(k.finishes ? k.finishes : 1),
                double(b.model_finish) / double(k.finishes ? k.finishes : 1));
}

TEST(NexusTaskMaestro, RandomSmallUnit) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    random_stream(nexus_rtl::kSmall, seed, 4000, 12, true);
    if (HasFailure())
      return;
  }
}

TEST(NexusTaskMaestro, RandomTableI) {
  random_stream(nexus_rtl::kTableI, 99, 6000, 64, true);
}

} // namespace
