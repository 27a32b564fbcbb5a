// Region tasks in a trace (WEFT_TRACE): every analysed argument of a region
// task is an rtask_arg record on the core task that ran it, with the
// argument's access, its region id or object address, and the scheduler
// owning it; the trace still reads and builds a task graph. Run under
// WEFT_SCHEDULERS=1x2 so that owners differ.
#include "regions/region_space.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <weft/regions.h>
#include <weft/weft.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <unistd.h>

namespace {

using namespace weft;

void touch(void **args) { ++*static_cast<long *>(args[1]); }

TEST(RegionTrace, ArgumentsAndOwners) {
  std::string path = testing::TempDir() + "weft_region_trace_" +
                     std::to_string(getpid()) + ".trace";
  setenv("WEFT_TRACE", path.c_str(), 1);
  ASSERT_EQ(weft_init(2), WEFT_OK) << weft_last_error();
  // Two regions at level 1: under 1x2 they go to the two leaves.
  weft_rid a = weft_ralloc(WEFT_ROOT_REGION, 1);
  weft_rid b = weft_ralloc(WEFT_ROOT_REGION, 1);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  auto *x = static_cast<long *>(weft_alloc(sizeof(long), a));
  auto *y = static_cast<long *>(weft_alloc(sizeof(long), b));
  *x = *y = 0;
  regions::region_space &sp = regions::region_space::get();
  uint32_t owner_a = uint32_t(sp.lookup_region(a)->owner->id);
  uint32_t owner_b = uint32_t(sp.lookup_region(b)->owner->id);
  EXPECT_NE(owner_a, owner_b);
  {
    void *args[] = {reinterpret_cast<void *>(uintptr_t(a)), x};
    int types[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_SAFE};
    ASSERT_EQ(weft_rspawn(touch, 2, args, types), WEFT_OK);
  }
  {
    void *args[] = {x, y};
    int types[] = {WEFT_ARG_IN, WEFT_ARG_INOUT};
    ASSERT_EQ(weft_rspawn(touch, 2, args, types), WEFT_OK);
  }
  void *all[] = {reinterpret_cast<void *>(uintptr_t(WEFT_ROOT_REGION))};
  int rw[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  ASSERT_EQ(weft_wait(all, rw, 1), WEFT_OK);
  EXPECT_EQ(*x, 1);
  EXPECT_EQ(*y, 1);
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");

  trace::trace_data t = trace::read(path);
  std::set<uint64_t> begun;
  for (const trace::record &r : t.records)
    if (r.type == trace::kind::task_begin)
      begun.insert(r.task);
  struct seen {
    uint8_t sub;
    uint32_t owner;
    uint64_t arg;
  };
  std::vector<seen> args;
  std::set<uint64_t> tasks;
  for (const trace::record &r : t.records)
    if (r.type == trace::kind::rtask_arg) {
      EXPECT_TRUE(begun.count(r.task)) << "rtask_arg on task " << r.task;
      args.push_back({r.sub, r.count, r.arg});
      tasks.insert(r.task);
    }
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(tasks.size(), 2u);
  auto has = [&](uint8_t sub, uint32_t owner, uint64_t arg) {
    for (const seen &s : args)
      if (s.sub == sub && s.owner == owner && s.arg == arg)
        return true;
    return false;
  };
  EXPECT_TRUE(has(WEFT_ARG_INOUT | WEFT_ARG_REGION, owner_a, a));
  EXPECT_TRUE(has(WEFT_ARG_IN, owner_a, uintptr_t(x)));
  EXPECT_TRUE(has(WEFT_ARG_INOUT, owner_b, uintptr_t(y)));
  EXPECT_NO_THROW(trace::build_graph(t));
  std::remove(path.c_str());
}

} // namespace
