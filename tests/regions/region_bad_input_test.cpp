// Bad input to the region API: each call fails with a clear message naming
// the call and the value, and nothing is corrupted (the same objects and
// regions work afterwards).
#include <weft/regions.h>
#include <weft/weft.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

void *rid_arg(weft_rid r) { return reinterpret_cast<void *>(uintptr_t(r)); }

std::string hex(const void *p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}

void nop(void **) {}

void expect_error(int rc, int code, const char *call,
                  const std::string &value) {
  EXPECT_EQ(rc, code);
  std::string m = weft_last_error();
  EXPECT_NE(m.find(call), std::string::npos) << m;
  EXPECT_NE(m.find(value), std::string::npos) << m;
}

int wait_region(weft_rid r) {
  void *a[] = {rid_arg(r)};
  int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  return weft_wait(a, t, 1);
}

TEST(RegionBadInput, ObjectNotFromWeftAlloc) {
  void *p = std::malloc(64);
  void *a[] = {p};
  int t[] = {WEFT_ARG_INOUT};
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn", hex(p));
  int local = 0;
  a[0] = &local;
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn",
               hex(&local));
  expect_error(weft_free(p), WEFT_EINVAL, "weft_free", hex(p));
  std::free(p);
}

TEST(RegionBadInput, InteriorPointerAndFreedObject) {
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  ASSERT_NE(r, 0u) << weft_last_error();
  char *o = static_cast<char *>(weft_alloc(64, r));
  ASSERT_NE(o, nullptr);
  void *a[] = {o + 8};
  int t[] = {WEFT_ARG_IN};
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn",
               hex(o + 8));
  ASSERT_EQ(weft_free(o), WEFT_OK);
  a[0] = o;
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn", hex(o));
  expect_error(weft_free(o), WEFT_EINVAL, "weft_free", hex(o));
  ASSERT_EQ(weft_rfree(r), WEFT_OK);
}

TEST(RegionBadInput, FreedAndNeverAllocatedRegions) {
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  ASSERT_NE(r, 0u);
  ASSERT_EQ(weft_rfree(r), WEFT_OK);
  void *a[] = {rid_arg(r)};
  int t[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION};
  std::string id = "region " + std::to_string(r);
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn", id);
  EXPECT_NE(std::string(weft_last_error()).find("freed"), std::string::npos);
  expect_error(weft_rfree(r), WEFT_EINVAL, "weft_rfree", id);
  EXPECT_EQ(weft_alloc(8, r), nullptr);
  EXPECT_NE(std::string(weft_last_error()).find("weft_alloc"),
            std::string::npos);
  EXPECT_EQ(weft_ralloc(r, 0), 0u);
  EXPECT_NE(std::string(weft_last_error()).find(id), std::string::npos);

  weft_rid never = 4000000000u;
  a[0] = rid_arg(never);
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn",
               "region 4000000000");
  EXPECT_NE(std::string(weft_last_error()).find("never allocated"),
            std::string::npos);
  expect_error(weft_rfree(WEFT_ROOT_REGION), WEFT_EINVAL, "weft_rfree",
               "region 0");
  expect_error(weft_ralloc(WEFT_ROOT_REGION, -2) == 0 ? WEFT_EINVAL : 0,
               WEFT_EINVAL, "weft_ralloc", "-2");
}

TEST(RegionBadInput, BadTypesAndArrays) {
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  void *a[] = {rid_arg(r)};
  int t[] = {WEFT_ARG_REGION};
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn",
               "types[0]");
  t[0] = 0x100 | WEFT_ARG_IN;
  expect_error(weft_rspawn(nop, 1, a, t), WEFT_EINVAL, "weft_rspawn", "0x100");
  expect_error(weft_rspawn(nop, -1, a, t), WEFT_EINVAL, "weft_rspawn", "-1");
  expect_error(weft_rspawn(nullptr, 0, nullptr, nullptr), WEFT_EINVAL,
               "weft_rspawn", "fn");
  void *o = weft_alloc(16, r);
  void *b[] = {rid_arg(r), o};
  int bt[] = {WEFT_ARG_INOUT | WEFT_ARG_REGION, WEFT_ARG_IN};
  expect_error(weft_rspawn(nop, 2, b, bt), WEFT_EINVAL, "weft_rspawn",
               "region " + std::to_string(r));
  EXPECT_NE(std::string(weft_last_error()).find("inside"), std::string::npos);
  void *c[] = {o, o};
  int ct[] = {WEFT_ARG_IN, WEFT_ARG_IN};
  expect_error(weft_rspawn(nop, 2, c, ct), WEFT_EINVAL, "weft_rspawn", hex(o));
  ASSERT_EQ(weft_rfree(r), WEFT_OK);
}

// A child claiming more than its parent holds: write access under a
// read-only argument, and anything outside the parent's arguments.
struct claim_result {
  int more_rc = 0, outside_rc = 0;
  std::string more_msg, outside_msg;
};
claim_result g_claim;
weft_rid g_other;

void claiming_parent(void **a) {
  void *obj = a[1];
  void *ca[] = {obj};
  int ct[] = {WEFT_ARG_INOUT};
  g_claim.more_rc = weft_rspawn(nop, 1, ca, ct);
  g_claim.more_msg = weft_last_error();
  void *oa[] = {rid_arg(g_other)};
  int ot[] = {WEFT_ARG_IN | WEFT_ARG_REGION};
  g_claim.outside_rc = weft_rspawn(nop, 1, oa, ot);
  g_claim.outside_msg = weft_last_error();
}

TEST(RegionBadInput, ChildClaimsMoreThanParentHolds) {
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  g_other = weft_ralloc(WEFT_ROOT_REGION, 0);
  void *obj = weft_alloc(32, r);
  void *a[] = {rid_arg(r), obj};
  int t[] = {WEFT_ARG_IN | WEFT_ARG_REGION, WEFT_ARG_SAFE};
  ASSERT_EQ(weft_rspawn(claiming_parent, 2, a, t), WEFT_OK);
  ASSERT_EQ(wait_region(r), WEFT_OK);
  EXPECT_EQ(g_claim.more_rc, WEFT_EINVAL);
  EXPECT_NE(g_claim.more_msg.find("weft_rspawn"), std::string::npos);
  EXPECT_NE(g_claim.more_msg.find(hex(obj)), std::string::npos)
      << g_claim.more_msg;
  EXPECT_NE(g_claim.more_msg.find("read-only"), std::string::npos);
  EXPECT_EQ(g_claim.outside_rc, WEFT_EINVAL);
  EXPECT_NE(g_claim.outside_msg.find("region " + std::to_string(g_other)),
            std::string::npos)
      << g_claim.outside_msg;
  ASSERT_EQ(weft_rfree(r), WEFT_OK);
  ASSERT_EQ(weft_rfree(g_other), WEFT_OK);
}

std::atomic<bool> g_release{false};
std::atomic<bool> g_started{false};
void blocker(void **) {
  g_started = true;
  while (!g_release.load())
    std::this_thread::yield();
}

// Freeing a region (or an object) with live tasks on it is refused and
// frees nothing; after the tasks end it succeeds.
TEST(RegionBadInput, FreeWithLiveTasks) {
  weft_rid r = weft_ralloc(WEFT_ROOT_REGION, 0);
  weft_rid sub = weft_ralloc(r, 1);
  auto *obj = static_cast<long *>(weft_alloc(sizeof(long), sub));
  *obj = 7;
  g_release = false;
  g_started = false;
  void *a[] = {obj};
  int t[] = {WEFT_ARG_INOUT};
  ASSERT_EQ(weft_rspawn(blocker, 1, a, t), WEFT_OK);
  // A second task queued behind the first.
  ASSERT_EQ(weft_rspawn(nop, 1, a, t), WEFT_OK);
  // With one thread the blocker is still queued here; with more it may be
  // running: either way the region is live.
  std::string id = "region " + std::to_string(r);
  expect_error(weft_rfree(r), WEFT_ESTATE, "weft_rfree", id);
  expect_error(weft_rfree(sub), WEFT_ESTATE, "weft_rfree",
               "region " + std::to_string(sub));
  expect_error(weft_free(obj), WEFT_ESTATE, "weft_free", hex(obj));
  g_release = true;
  ASSERT_EQ(wait_region(r), WEFT_OK);
  EXPECT_TRUE(g_started.load());
  EXPECT_EQ(*obj, 7); // not freed, not reused
  ASSERT_EQ(weft_free(obj), WEFT_OK);
  ASSERT_EQ(weft_rfree(r), WEFT_OK); // sub too
  void *b[] = {rid_arg(sub)};
  int bt[] = {WEFT_ARG_IN | WEFT_ARG_REGION};
  expect_error(weft_rspawn(nop, 1, b, bt), WEFT_EINVAL, "weft_rspawn", "freed");
}

int g_plain_rc = 0;
std::string g_plain_msg;
void plain_task(void *) {
  void *a[] = {rid_arg(WEFT_ROOT_REGION)};
  int t[] = {WEFT_ARG_IN | WEFT_ARG_REGION};
  g_plain_rc = weft_rspawn(nop, 1, a, t);
  g_plain_msg = weft_last_error();
}

TEST(RegionBadInput, RegionCallFromPlainTask) {
  ASSERT_EQ(weft_spawn(plain_task, nullptr, nullptr, 0), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  EXPECT_EQ(g_plain_rc, WEFT_ESTATE);
  EXPECT_NE(g_plain_msg.find("weft_rspawn"), std::string::npos);
  EXPECT_NE(g_plain_msg.find("weft_spawn"), std::string::npos);
}

} // namespace
