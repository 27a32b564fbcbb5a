// A C++ exception thrown by a task reaches the waiter: weft::taskwait() and
// weft::taskgroup() rethrow it, the C calls return WEFT_ETASK. The other
// tasks still run (DESIGN.md: nothing is cancelled silently).
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

namespace {

using wt::Span;

TEST(Exceptions, TaskwaitRethrows) {
  weft::spawn([] { throw std::runtime_error("boom 1"); });
  try {
    weft::taskwait();
    FAIL() << "weft::taskwait() did not rethrow";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "boom 1");
  }
  // The exception was consumed: the next wait is clean.
  EXPECT_NO_THROW(weft::taskwait());
}

TEST(Exceptions, CTaskwaitReturnsETask) {
  weft::spawn([] { throw std::runtime_error("boom 2"); });
  ASSERT_EQ(weft_taskwait(), WEFT_ETASK);
  std::exception_ptr e = weft::detail::take_exception();
  ASSERT_TRUE(e) << "no exception stored behind WEFT_ETASK";
  try {
    std::rethrow_exception(e);
  } catch (const std::runtime_error &r) {
    EXPECT_STREQ(r.what(), "boom 2");
  }
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
}

TEST(Exceptions, NonStandardExceptionType) {
  weft::spawn([] { throw 42; });
  try {
    weft::taskwait();
    FAIL() << "no rethrow";
  } catch (int v) {
    EXPECT_EQ(v, 42);
  }
}

TEST(Exceptions, OtherTasksStillComplete) {
  std::atomic<int> ran{0};
  for (int i = 0; i < 200; ++i)
    weft::spawn([&, i] {
      ran.fetch_add(1);
      if (i == 77)
        throw std::runtime_error("task 77");
    });
  EXPECT_THROW(weft::taskwait(), std::runtime_error);
  EXPECT_EQ(ran.load(), 200);
}

// The successors of a task that threw still run, after it.
TEST(Exceptions, SuccessorsOfAThrowingTaskRun) {
  int x = 0;
  Span thrower, reader;
  bool reader_ran = false;
  weft::spawn(weft::out(x), [&] {
    thrower.begin();
    wt::sleep_ms(1);
    thrower.end();
    throw std::runtime_error("writer failed");
  });
  weft::spawn(weft::in(x), [&] {
    reader.begin();
    reader_ran = true;
    reader.end();
  });
  EXPECT_THROW(weft::taskwait(), std::runtime_error);
  EXPECT_TRUE(reader_ran) << "the successor of a throwing task never ran";
  EXPECT_TRUE(thrower.before(reader));
}

TEST(Exceptions, TaskgroupRethrows) {
  std::atomic<int> ran{0};
  try {
    weft::taskgroup([&] {
      for (int i = 0; i < 20; ++i)
        weft::spawn([&, i] {
          weft::spawn([&] { ran.fetch_add(1); });
          ran.fetch_add(1);
          if (i == 5)
            throw std::logic_error("in group");
        });
    });
    FAIL() << "weft::taskgroup did not rethrow";
  } catch (const std::logic_error &e) {
    EXPECT_STREQ(e.what(), "in group");
  }
  EXPECT_EQ(ran.load(), 40);
}

TEST(Exceptions, CTaskgroupEndReturnsETask) {
  ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
  weft::spawn([] { throw std::runtime_error("group C"); });
  ASSERT_EQ(weft_taskgroup_end(), WEFT_ETASK);
  std::exception_ptr e = weft::detail::take_exception();
  ASSERT_TRUE(e);
  EXPECT_THROW(std::rethrow_exception(e), std::runtime_error);
}

// The taskgroup body itself throws: the group's tasks are still waited for
// and the body's exception comes out.
TEST(Exceptions, TaskgroupBodyThrows) {
  std::atomic<int> ran{0};
  try {
    weft::taskgroup([&] {
      weft::spawn([&] {
        wt::sleep_ms(2);
        ran.fetch_add(1);
      });
      throw std::out_of_range("body");
    });
    FAIL() << "no exception";
  } catch (const std::out_of_range &e) {
    EXPECT_STREQ(e.what(), "body");
  }
  EXPECT_EQ(ran.load(), 1) << "the group's task was not waited for";
}

// A grandchild's exception travels up through its parent's taskwait.
TEST(Exceptions, PropagatesThroughNestedTaskwaits) {
  std::atomic<bool> after_wait{false};
  weft::spawn([&] {
    weft::spawn([] {
      weft::spawn([] { throw std::runtime_error("deep"); });
      weft::taskwait(); // rethrows "deep" out of this task
    });
    weft::taskwait(); // and again out of this one
    after_wait = true;
  });
  try {
    weft::taskwait();
    FAIL() << "no rethrow";
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "deep");
  }
  EXPECT_FALSE(after_wait.load());
}

TEST(Exceptions, ParentCatchesChildException) {
  std::atomic<int> caught{0};
  for (int i = 0; i < 10; ++i)
    weft::spawn([&] {
      weft::spawn([] { throw std::runtime_error("child"); });
      try {
        weft::taskwait();
      } catch (const std::runtime_error &) {
        caught.fetch_add(1);
      }
    });
  EXPECT_NO_THROW(weft::taskwait());
  EXPECT_EQ(caught.load(), 10);
}

TEST(Exceptions, SeveralThrowersOneRethrowNoHang) {
  std::atomic<int> ran{0};
  for (int i = 0; i < 10; ++i)
    weft::spawn([&, i] {
      ran.fetch_add(1);
      throw std::runtime_error("t" + std::to_string(i));
    });
  try {
    weft::taskwait();
    FAIL() << "no rethrow";
  } catch (const std::runtime_error &e) {
    EXPECT_EQ(e.what()[0], 't');
  }
  EXPECT_EQ(ran.load(), 10);
  // Whatever is done with the others, the runtime stays usable.
  try {
    weft::taskwait();
  } catch (const std::runtime_error &) {
  }
  std::atomic<int> after{0};
  for (int i = 0; i < 100; ++i)
    weft::spawn([&] { after.fetch_add(1); });
  try {
    weft::taskwait();
  } catch (const std::runtime_error &) {
  }
  EXPECT_EQ(after.load(), 100);
}

TEST(Exceptions, ThrowingTaskInDependenceChain) {
  long x = 0;
  std::atomic<int> ran{0};
  for (int i = 0; i < 50; ++i)
    weft::spawn(weft::inout(x), [&, i] {
      x += 1;
      ran.fetch_add(1);
      if (i == 25)
        throw std::runtime_error("chain");
    });
  EXPECT_THROW(weft::taskwait(), std::runtime_error);
  EXPECT_EQ(ran.load(), 50);
  EXPECT_EQ(x, 50);
}

} // namespace
