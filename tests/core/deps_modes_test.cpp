// The dependence modes, one by one (weft.h: in/out/inout, inoutset,
// mutexinoutset, exact-address identity). Tasks are spawned through the C
// API. Plain (non-atomic) data flows between tasks through the dependences, so
// that ThreadSanitizer sees whether the runtime orders them.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace {

using wt::Span;

constexpr int kRepeat = 10;

TEST(Deps, RawInAfterOut) {
  for (int it = 0; it < kRepeat; ++it) {
    int x = -1;
    int seen1 = 0, seen2 = 0;
    Span w, r1, r2;
    WT_SPAWN({{&x, WEFT_OUT}}, [&, it] {
      w.begin();
      wt::sleep_ms(it % 3 * 2);
      x = it;
      w.end();
    });
    WT_SPAWN({{&x, WEFT_IN}}, [&] {
      r1.begin();
      seen1 = x;
      r1.end();
    });
    WT_SPAWN({{&x, WEFT_IN}}, [&] {
      r2.begin();
      seen2 = x;
      r2.end();
    });
    WT_TASKWAIT();
    EXPECT_EQ(seen1, it);
    EXPECT_EQ(seen2, it);
    EXPECT_TRUE(w.before(r1)) << "writer " << w.str() << " reader " << r1.str();
    EXPECT_TRUE(w.before(r2)) << "writer " << w.str() << " reader " << r2.str();
  }
}

TEST(Deps, WarOutAfterIn) {
  for (int it = 0; it < kRepeat; ++it) {
    int x = 7;
    int seen1 = 0, seen2 = 0;
    Span r1, r2, w;
    WT_SPAWN({{&x, WEFT_IN}}, [&, it] {
      r1.begin();
      wt::sleep_ms(it % 3 * 2);
      seen1 = x;
      r1.end();
    });
    WT_SPAWN({{&x, WEFT_IN}}, [&] {
      r2.begin();
      wt::sleep_ms(1);
      seen2 = x;
      r2.end();
    });
    WT_SPAWN({{&x, WEFT_OUT}}, [&] {
      w.begin();
      x = 8;
      w.end();
    });
    WT_TASKWAIT();
    EXPECT_EQ(seen1, 7) << "a reader saw the later writer's value";
    EXPECT_EQ(seen2, 7) << "a reader saw the later writer's value";
    EXPECT_EQ(x, 8);
    EXPECT_TRUE(r1.before(w)) << "reader " << r1.str() << " writer " << w.str();
    EXPECT_TRUE(r2.before(w)) << "reader " << r2.str() << " writer " << w.str();
  }
}

TEST(Deps, WawOutAfterOut) {
  for (int it = 0; it < kRepeat; ++it) {
    int x = 0;
    Span w1, w2, w3;
    WT_SPAWN({{&x, WEFT_OUT}}, [&] {
      w1.begin();
      wt::sleep_ms(2);
      x = 1;
      w1.end();
    });
    WT_SPAWN({{&x, WEFT_OUT}}, [&] {
      w2.begin();
      x = 2;
      w2.end();
    });
    WT_SPAWN({{&x, WEFT_INOUT}}, [&] {
      w3.begin();
      x = x * 10 + 3;
      w3.end();
    });
    WT_TASKWAIT();
    EXPECT_EQ(x, 23);
    EXPECT_TRUE(w1.before(w2)) << w1.str() << " " << w2.str();
    EXPECT_TRUE(w2.before(w3)) << w2.str() << " " << w3.str();
  }
}

// Long inout chains on three addresses: every task must see exactly the
// previous one's result, in program order.
TEST(Deps, InoutChainsKeepProgramOrder) {
  struct Cell {
    long count = 0;
    std::uint64_t hash = 1;
    long out_of_order = 0;
  };
  constexpr int kTasks = 3000;
  std::array<Cell, 3> cells{};
  std::array<std::uint64_t, 3> expect{1, 1, 1};
  std::array<long, 3> per_cell{};
  for (int i = 0; i < kTasks; ++i) {
    int c = (i * 7) % 3;
    long k = per_cell[c]++;
    Cell *cell = &cells[c];
    expect[c] = expect[c] * 31 + static_cast<std::uint64_t>(i);
    WT_SPAWN({{cell, WEFT_INOUT}}, [cell, k, i] {
      if (cell->count != k)
        cell->out_of_order++;
      cell->count++;
      cell->hash = cell->hash * 31 + static_cast<std::uint64_t>(i);
    });
  }
  WT_TASKWAIT();
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(cells[c].out_of_order, 0) << "cell " << c;
    EXPECT_EQ(cells[c].count, per_cell[c]) << "cell " << c;
    EXPECT_EQ(cells[c].hash, expect[c]) << "cell " << c;
  }
}

// Readers between two writers: all see the first writer's value, the second
// writer starts after every reader ended.
TEST(Deps, ManyReadersBetweenWriters) {
  constexpr int kReaders = 64;
  int x = 0;
  std::atomic<int> readers_done{0};
  std::atomic<int> wrong{0};
  int readers_done_at_w2 = -1;
  WT_SPAWN({{&x, WEFT_OUT}}, [&] {
    wt::sleep_ms(2);
    x = 5;
  });
  for (int i = 0; i < kReaders; ++i)
    WT_SPAWN({{&x, WEFT_IN}}, [&, i] {
      wt::busy_work(static_cast<unsigned>(i % 8) * 2000);
      if (x != 5)
        wrong.fetch_add(1);
      readers_done.fetch_add(1);
    });
  WT_SPAWN({{&x, WEFT_OUT}}, [&] {
    readers_done_at_w2 = readers_done.load();
    x = 6;
  });
  WT_TASKWAIT();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(readers_done_at_w2, kReaders);
  EXPECT_EQ(x, 6);
}

// With more than one thread, two readers of the same location must be able
// to run at the same time: each waits (generously) for the other to start.
TEST(Deps, ConcurrentReadersOverlap) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  bool conclusive = false;
  for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
    int x = 0;
    wt::Guard spawning;
    wt::Rendezvous meet(2);
    std::atomic<int> met{0}, skipped{0};
    auto reader = [&] {
      if (spawning.on_guarded_thread()) { // run inline by the spawner
        skipped.fetch_add(1);
        meet.arrived.fetch_add(1);
        return;
      }
      if (meet.meet())
        met.fetch_add(1);
      (void)x;
    };
    WT_SPAWN({{&x, WEFT_OUT}}, [&] { x = 1; });
    spawning.begin();
    WT_SPAWN({{&x, WEFT_IN}}, reader);
    WT_SPAWN({{&x, WEFT_IN}}, reader);
    spawning.end();
    WT_TASKWAIT();
    if (skipped.load() == 0) {
      conclusive = true;
      EXPECT_EQ(met.load(), 2)
          << "two readers of one address did not run concurrently (each "
             "waited "
          << wt::wait_seconds() << " s for the other)";
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "readers always ran inline at spawn: inconclusive";
}

// inoutset: ordered after a preceding out and a preceding in, before a
// following in/out/mutexinoutset; members unordered among themselves.
TEST(Deps, InoutsetOrderedAgainstOtherModes) {
  struct Task {
    weft_dep_mode mode;
    Span span;
  };
  // Program order on one address.
  const std::vector<weft_dep_mode> modes = {WEFT_OUT,
                                            WEFT_IN,
                                            WEFT_INOUTSET,
                                            WEFT_INOUTSET,
                                            WEFT_INOUTSET,
                                            WEFT_INOUTSET,
                                            WEFT_IN,
                                            WEFT_IN,
                                            WEFT_INOUTSET,
                                            WEFT_INOUTSET,
                                            WEFT_MUTEXINOUTSET,
                                            WEFT_MUTEXINOUTSET,
                                            WEFT_INOUTSET,
                                            WEFT_INOUTSET,
                                            WEFT_INOUT,
                                            WEFT_INOUTSET,
                                            WEFT_OUT};
  for (int it = 0; it < kRepeat; ++it) {
    int x = 0;
    std::vector<std::unique_ptr<Task>> tasks;
    for (size_t i = 0; i < modes.size(); ++i) {
      tasks.push_back(std::make_unique<Task>());
      Task *t = tasks.back().get();
      t->mode = modes[i];
      WT_SPAWN({{&x, modes[i]}}, [t, i, it] {
        t->span.begin();
        wt::busy_work(
            static_cast<unsigned>((i * 13 + static_cast<size_t>(it)) % 5) *
            3000);
        t->span.end();
      });
    }
    WT_TASKWAIT();
    for (size_t a = 0; a < tasks.size(); ++a)
      for (size_t b = a + 1; b < tasks.size(); ++b) {
        wt::Rel rel = wt::relation(tasks[a]->mode, tasks[b]->mode);
        const Span &sa = tasks[a]->span, &sb = tasks[b]->span;
        ASSERT_TRUE(sa.ran() && sb.ran());
        if (rel == wt::Rel::Order) {
          EXPECT_TRUE(sa.before(sb))
              << "task " << a << " (" << wt::mode_name(tasks[a]->mode) << ") "
              << sa.str() << " must end before task " << b << " ("
              << wt::mode_name(tasks[b]->mode) << ") " << sb.str() << " starts";
        }
        if (rel == wt::Rel::Exclusive) {
          EXPECT_TRUE(sa.disjoint(sb)) << "mutexinoutset " << a << " and " << b;
        }
      }
  }
}

// inoutset members really may run at the same time.
TEST(Deps, InoutsetMembersOverlap) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  // The hardware models know in/out/inout only and submit an inoutset
  // member as inout (docs/engines.md): members then run one after another,
  // which OpenMP allows; the ordering checks above still apply to them.
  if (std::strcmp(wt::engine_name(), "nexus") == 0 ||
      std::strcmp(wt::engine_name(), "picos") == 0)
    GTEST_SKIP() << wt::engine_name() << " serializes inoutset members";
  bool conclusive = false;
  for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
    int x = 0;
    std::atomic<int> sum{0};
    int seen = -1;
    wt::Guard spawning;
    wt::Rendezvous meet(2);
    std::atomic<int> met{0}, skipped{0};
    auto member = [&] {
      if (spawning.on_guarded_thread()) {
        skipped.fetch_add(1);
        meet.arrived.fetch_add(1);
      } else if (meet.meet()) {
        met.fetch_add(1);
      }
      sum.fetch_add(1);
    };
    WT_SPAWN({{&x, WEFT_OUT}}, [&] { x = 1; });
    spawning.begin();
    WT_SPAWN({{&x, WEFT_INOUTSET}}, member);
    WT_SPAWN({{&x, WEFT_INOUTSET}}, member);
    spawning.end();
    WT_SPAWN({{&x, WEFT_IN}}, [&] { seen = sum.load(); });
    WT_TASKWAIT();
    EXPECT_EQ(seen, 2) << "the reader after the set ran before a member ended";
    if (skipped.load() == 0) {
      conclusive = true;
      EXPECT_EQ(met.load(), 2) << "two inoutset members did not run "
                                  "concurrently";
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "members always ran inline at spawn: inconclusive";
}

// mutexinoutset: never two members at once; after the preceding out, before
// the following in.
TEST(Deps, MutexinoutsetMutualExclusion) {
  constexpr int kMembers = 24;
  for (int it = 0; it < 3; ++it) {
    int x = 0;
    long counter = 0; // plain: the members' exclusion must order the writes
    std::atomic<int> active{0}, overlaps{0}, before_writer{0};
    std::atomic<bool> writer_done{false};
    long seen = -1;
    std::vector<std::unique_ptr<Span>> spans;
    WT_SPAWN({{&x, WEFT_OUT}}, [&] {
      wt::sleep_ms(2);
      writer_done.store(true);
    });
    for (int i = 0; i < kMembers; ++i) {
      spans.push_back(std::make_unique<Span>());
      Span *sp = spans.back().get();
      WT_SPAWN({{&x, WEFT_MUTEXINOUTSET}}, [&, sp, i] {
        sp->begin();
        if (!writer_done.load())
          before_writer.fetch_add(1);
        if (active.fetch_add(1) != 0)
          overlaps.fetch_add(1);
        wt::busy_work(static_cast<unsigned>(i % 4) * 5000);
        counter++;
        active.fetch_sub(1);
        sp->end();
      });
    }
    WT_SPAWN({{&x, WEFT_IN}}, [&] { seen = counter; });
    WT_TASKWAIT();
    EXPECT_EQ(overlaps.load(), 0) << "two mutexinoutset members ran at once";
    EXPECT_EQ(before_writer.load(), 0) << "a member ran before the writer";
    EXPECT_EQ(seen, kMembers) << "the reader ran before a member ended";
    for (int a = 0; a < kMembers; ++a)
      for (int b = a + 1; b < kMembers; ++b)
        EXPECT_TRUE(spans[a]->disjoint(*spans[b]))
            << "members " << a << " " << spans[a]->str() << " and " << b << " "
            << spans[b]->str() << " overlap";
  }
}

// Dependences on different addresses do not order tasks: the second task
// releases the first.
TEST(Deps, DifferentAddressesDoNotOrder) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  bool conclusive = false;
  for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
    int x = 0, y = 0;
    wt::Guard main_thread;
    wt::Gate gate;
    main_thread.begin();
    WT_SPAWN({{&x, WEFT_OUT}}, [&] { gate.wait(main_thread); });
    WT_SPAWN({{&y, WEFT_OUT}}, [&] { gate.release(); });
    main_thread.end(); // from here a blocked task may occupy this thread:
    WT_TASKWAIT();     // another thread runs the task that releases it
    if (!gate.inconclusive.load()) {
      conclusive = true;
      EXPECT_FALSE(gate.timed_out.load())
          << "out(y) waited for an earlier out(x)";
    }
  }
  if (!conclusive)
    GTEST_SKIP() << "the blocking task always ran on the main thread";
}

// Exact-address identity: addresses that overlap in memory but differ do not
// conflict (a byte inside an int, neighbouring bytes, an array and its second
// element).
TEST(Deps, OverlappingButDifferentAddressesDoNotConflict) {
  if (weft_num_threads() < 2)
    GTEST_SKIP() << "needs at least 2 threads";
  alignas(16) static char buf[64];
  struct Pair {
    const void *a, *b;
  };
  const Pair pairs[] = {{&buf[0], &buf[1]},
                        {&buf[8], &buf[12]},
                        {buf, &buf[4]},
                        {&buf[33], &buf[32]}};
  for (const Pair &p : pairs) {
    bool conclusive = false;
    for (int attempt = 0; attempt < 10 && !conclusive; ++attempt) {
      wt::Guard main_thread;
      wt::Gate gate;
      main_thread.begin();
      WT_SPAWN({{p.a, WEFT_OUT}}, [&] { gate.wait(main_thread); });
      WT_SPAWN({{p.b, WEFT_INOUT}}, [&] { gate.release(); });
      main_thread.end();
      WT_TASKWAIT();
      if (!gate.inconclusive.load()) {
        conclusive = true;
        EXPECT_FALSE(gate.timed_out.load())
            << "out(" << p.a << ") and inout(" << p.b
            << ") were ordered: addresses must match exactly";
      }
    }
  }
}

// The same address reached through pointers of different types is the same
// location.
TEST(Deps, SameAddressDifferentTypesConflicts) {
  for (int it = 0; it < kRepeat; ++it) {
    std::int64_t v = 0;
    std::int64_t seen = -1;
    Span w, r;
    const void *as_int = &v;
    const void *as_char = reinterpret_cast<const char *>(&v);
    WT_SPAWN({{as_int, WEFT_OUT}}, [&] {
      w.begin();
      wt::sleep_ms(1);
      v = 99;
      w.end();
    });
    WT_SPAWN({{as_char, WEFT_IN}}, [&] {
      r.begin();
      seen = v;
      r.end();
    });
    WT_TASKWAIT();
    EXPECT_EQ(seen, 99);
    EXPECT_TRUE(w.before(r));
  }
}

// Tasks with several dependences wait for all their predecessors.
TEST(Deps, SeveralDependencesAllHonoured) {
  for (int it = 0; it < kRepeat; ++it) {
    int a = 0, b = 0, c = 0, d = 0;
    int result = 0;
    WT_SPAWN({{&a, WEFT_OUT}}, [&] {
      wt::sleep_ms(2);
      a = 1;
    });
    WT_SPAWN({{&b, WEFT_OUT}}, [&] {
      wt::sleep_ms(1);
      b = 2;
    });
    WT_SPAWN({{&c, WEFT_OUT}}, [&] { c = 3; });
    WT_SPAWN({{&a, WEFT_IN}, {&b, WEFT_IN}, {&c, WEFT_IN}, {&d, WEFT_OUT}},
             [&] { d = a * 100 + b * 10 + c; });
    WT_SPAWN({{&d, WEFT_IN}}, [&] { result = d; });
    WT_TASKWAIT();
    EXPECT_EQ(result, 123);
  }
}

TEST(Deps, TasksWithoutDependencesRun) {
  std::atomic<int> n{0};
  for (int i = 0; i < 1000; ++i)
    WT_SPAWN({}, [&] { n.fetch_add(1); });
  ASSERT_EQ(
      weft_spawn(
          [](void *p) { static_cast<std::atomic<int> *>(p)->fetch_add(1); }, &n,
          nullptr, 0),
      WEFT_OK)
      << weft_last_error();
  WT_TASKWAIT();
  EXPECT_EQ(n.load(), 1001);
}

} // namespace
