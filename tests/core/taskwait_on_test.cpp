// weft_taskwait_on(addr) and weft_taskwait_deps(deps): wait only for the
// earlier children that access addr / that the deps would order after.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <string>

namespace {

using wt::Span;

// Every earlier child that accesses x, in any mode, has ended when
// taskwait_on(x) returns.
TEST(TaskwaitOn, WaitsForEveryAccessorOfTheAddress) {
  const weft_dep_mode modes[] = {WEFT_IN, WEFT_OUT, WEFT_INOUT, WEFT_INOUTSET,
                                 WEFT_MUTEXINOUTSET};
  for (weft_dep_mode m : modes) {
    for (int level = 0; level < 2; ++level) {
      int x = 0, y = 0;
      std::atomic<int> done{0};
      int done_at_return = -1;
      int rc = -99;
      auto body = [&] {
        for (int i = 0; i < 3; ++i)
          (void)wt::c_spawn({{&x, m}, {&y, WEFT_IN}}, [&, i] {
            wt::sleep_ms(1 + i);
            done.fetch_add(1);
          });
        rc = weft_taskwait_on(&x);
        done_at_return = done.load();
        (void)weft_taskwait();
      };
      if (level == 0) {
        body();
      } else {
        WT_SPAWN({}, body);
        WT_TASKWAIT();
      }
      EXPECT_EQ(rc, WEFT_OK) << weft_last_error();
      EXPECT_EQ(done_at_return, 3)
          << "taskwait_on returned before a " << wt::mode_name(m)
          << " accessor ended (level " << level << ")";
    }
  }
}

// The scenario behind the "does not wait" tests: `other` is spawned with
// `other_deps` and blocks until the wait returned; `target` is spawned with
// `target_deps`; then `wait()` runs. The target must have ended when wait()
// returns; `other` must not have been waited for.
struct Outcome {
  bool conclusive = false;
  bool target_done = false;
  bool other_timed_out = false;
  bool other_done = false;
  int rc = -99;
};

Outcome run_scenario(std::initializer_list<weft_dep> other_deps,
                     std::initializer_list<weft_dep> target_deps,
                     const std::function<int()> &wait, bool other_first) {
  Outcome o;
  wt::Guard main_thread;
  wt::Gate gate;
  std::atomic<bool> target_done{false};
  main_thread.begin();
  auto spawn_other = [&] {
    return wt::c_spawn(other_deps, [&] { gate.wait(main_thread); });
  };
  auto spawn_target = [&] {
    return wt::c_spawn(target_deps, [&] {
      wt::sleep_ms(1);
      target_done.store(true);
    });
  };
  int r1 = other_first ? spawn_other() : spawn_target();
  int r2 = other_first ? spawn_target() : spawn_other();
  EXPECT_EQ(r1, WEFT_OK);
  EXPECT_EQ(r2, WEFT_OK);
  // Give another thread the chance to pick the blocking child up (this
  // thread may not run it: it releases it after the wait).
  if (weft_num_threads() > 1)
    (void)wt::spin_until([&] { return gate.started.load(); }, 2.0);
  o.rc = wait();
  o.target_done = target_done.load();
  o.other_done = gate.finished.load();
  gate.release();
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  main_thread.end();
  o.other_timed_out = gate.timed_out.load();
  o.conclusive = !gate.inconclusive.load();
  return o;
}

// Runs the scenario until one run is conclusive (alternating spawn order).
void expect_waits_only_for_target(std::initializer_list<weft_dep> other_deps,
                                  std::initializer_list<weft_dep> target_deps,
                                  const std::function<int()> &wait,
                                  const std::string &what) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    Outcome o = run_scenario(other_deps, target_deps, wait, attempt % 2 == 0);
    EXPECT_EQ(o.rc, WEFT_OK) << what << ": " << weft_last_error();
    EXPECT_TRUE(o.target_done) << what << ": returned before the target ended";
    if (o.conclusive) {
      EXPECT_FALSE(o.other_timed_out)
          << what << ": waited for a child it must not wait for";
      EXPECT_FALSE(o.other_done)
          << what << ": the blocked child had finished when it returned";
      return;
    }
  }
  GTEST_SKIP() << what
               << ": the blocking child always ran on the waiting "
                  "thread: inconclusive";
}

TEST(TaskwaitOn, DoesNotWaitForChildrenOnOtherAddresses) {
  int x = 0, y = 0;
  expect_waits_only_for_target(
      {{&y, WEFT_OUT}}, {{&x, WEFT_OUT}}, [&] { return weft_taskwait_on(&x); },
      "taskwait_on(x) with a blocked out(y) child");
}

TEST(TaskwaitOn, AddressWithNoAccessorsReturns) {
  int x = 0, y = 0, z = 0;
  expect_waits_only_for_target(
      {{&y, WEFT_OUT}}, {{&z, WEFT_IN}},
      [&] {
        int rc = weft_taskwait_on(&x);
        // nothing accesses x: also wait for the
        // target so that the scenario's check holds
        if (rc == WEFT_OK)
          rc = weft_taskwait_on(&z);
        return rc;
      },
      "taskwait_on(unused address)");
}

TEST(TaskwaitOn, ExactAddressOnly) {
  alignas(8) char buf[8] = {};
  expect_waits_only_for_target(
      {{&buf[1], WEFT_OUT}}, {{&buf[0], WEFT_OUT}},
      [&] { return weft_taskwait_on(&buf[0]); },
      "taskwait_on(&buf[0]) with a blocked "
      "out(&buf[1]) child");
}

TEST(TaskwaitOn, CxxApi) {
  int x = 0, y = 0;
  expect_waits_only_for_target(
      {{&y, WEFT_INOUT}}, {{&x, WEFT_IN}},
      [&] {
        try {
          weft::taskwait_on(x);
        } catch (...) {
          return -1;
        }
        return 0;
      },
      "weft::taskwait_on(x)");
}

// Inside a task, the wait applies to that task's children only.
TEST(TaskwaitOn, InsideATask) {
  int x = 0;
  int seen = -1;
  int rc = -99;
  WT_SPAWN({}, [&] {
    int local = 0;
    (void)wt::c_spawn({{&x, WEFT_OUT}}, [&] {
      wt::sleep_ms(2);
      local = 42;
    });
    rc = weft_taskwait_on(&x);
    seen = local;
    (void)weft_taskwait();
  });
  WT_TASKWAIT();
  EXPECT_EQ(rc, WEFT_OK);
  EXPECT_EQ(seen, 42);
}

// taskwait_deps(in x) waits for writers of x but not for readers of x.
TEST(TaskwaitDeps, InWaitsForWritersNotReaders) {
  int x = 0, z = 0;
  const weft_dep dz[] = {{&x, WEFT_IN}, {&z, WEFT_IN}};
  expect_waits_only_for_target(
      {{&x, WEFT_IN}}, {{&z, WEFT_OUT}},
      [&] { return weft_taskwait_deps(dz, 2); },
      "taskwait_deps(in x, in z) with a blocked "
      "in(x) child and an out(z) child");
  const weft_dep d[] = {{&x, WEFT_IN}};
  // And an earlier writer of x is waited for.
  for (int it = 0; it < 5; ++it) {
    Span w;
    int seen = -1;
    WT_SPAWN({{&x, WEFT_OUT}}, [&] {
      w.begin();
      wt::sleep_ms(2);
      x = it;
      w.end();
    });
    ASSERT_EQ(weft_taskwait_deps(d, 1), WEFT_OK) << weft_last_error();
    seen = x;
    EXPECT_TRUE(w.ran()) << "taskwait_deps(in x) returned before out(x) ended";
    EXPECT_EQ(seen, it);
  }
}

TEST(TaskwaitDeps, OutWaitsForReadersAndWriters) {
  for (weft_dep_mode m :
       {WEFT_IN, WEFT_OUT, WEFT_INOUTSET, WEFT_MUTEXINOUTSET}) {
    int x = 0, y = 0;
    std::atomic<int> done{0};
    for (int i = 0; i < 3; ++i)
      WT_SPAWN({{&x, m}}, [&] {
        wt::sleep_ms(1);
        done.fetch_add(1);
      });
    const weft_dep d[] = {{&y, WEFT_IN}, {&x, WEFT_OUT}};
    ASSERT_EQ(weft_taskwait_deps(d, 2), WEFT_OK) << weft_last_error();
    EXPECT_EQ(done.load(), 3) << "taskwait_deps(out x) did not wait for a "
                              << wt::mode_name(m) << " child";
    WT_TASKWAIT();
  }
}

TEST(TaskwaitDeps, DoesNotWaitForOtherAddresses) {
  int x = 0, y = 0;
  const weft_dep d[] = {{&x, WEFT_INOUT}};
  expect_waits_only_for_target(
      {{&y, WEFT_OUT}}, {{&x, WEFT_IN}},
      [&] { return weft_taskwait_deps(d, 1); },
      "taskwait_deps(inout x) with a blocked out(y) "
      "child");
}

TEST(TaskwaitDeps, ZeroDepsReturns) {
  EXPECT_EQ(weft_taskwait_deps(nullptr, 0), WEFT_OK) << weft_last_error();
}

} // namespace
