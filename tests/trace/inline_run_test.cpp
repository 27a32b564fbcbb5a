// Version 11's task_inline_run: tasks run in place one after the other, each
// like the timed task_inline or task_inline_dep before them, recorded
// without a clock read. Through a thread_log whose chunks go to the test
// (recorder.hpp), decoded (compact::decode) and expanded (thread_decoder):
// every task comes back with its id, parent, flags and dependence, and the
// times inline_run_begin gives; what breaks a run (another dependence,
// parent or flags, a long body, kInlineRunMax tasks, the end of an id
// block, a body that records something) is recorded as it happened.
#include "trace/compact.hpp"
#include "trace/read/trace_reader.hpp"
#include "trace/record/recorder.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace weft::trace {
namespace {

struct sink_data {
  std::vector<record> raw;
};

void to_vector(void *ctx, uint16_t thread, std::size_t records,
               const uint8_t *data, std::size_t bytes) {
  auto &s = *static_cast<sink_data *>(ctx);
  std::vector<record> out;
  std::size_t at = 0;
  EXPECT_EQ(compact::decode(data, bytes, static_cast<uint32_t>(records), thread,
                            out, nullptr, &at),
            "");
  s.raw.insert(s.raw.end(), out.begin(), out.end());
}

// A log of thread 0 with ids from 1 (an id block of `block`), untimed tasks
// after a timed one under 100 ticks.
struct fixture {
  sink_data sink;
  thread_log *l;
  explicit fixture(uint32_t block = 100000) {
    l = thread_log::make(0, 4096, to_vector, &sink);
    l->next_id = l->id_first = 1;
    l->id_end = 1 + block;
    l->run_max_body = 100;
  }
  ~fixture() { thread_log::destroy(l); }
  // Everything recorded, as the readers return it (ns = ticks).
  std::vector<record> events() {
    l->settle(1);
    l->write_packed();
    file_header h{};
    h.version = kVersion;
    h.ns_per_tick = 1;
    thread_decoder d(h, 0);
    std::vector<record> out;
    for (const record &r : sink.raw) {
      std::string why = d.add(r, out);
      EXPECT_EQ(why, "");
    }
    EXPECT_EQ(d.end_chunk(), "");
    return out;
  }
  std::size_t count(kind k) const {
    std::size_t n = 0;
    for (const record &r : sink.raw)
      n += r.type == k;
    return n;
  }
};

long g_word;
const weft_dep kDep{&g_word, WEFT_INOUT};
const uint64_t kAddr = reinterpret_cast<uint64_t>(&g_word);
constexpr uint32_t kParent = 7;

// One task run in place, as the hooks of trace_point take it, at chosen
// times: timed (begun at `at`, ended at `end`) unless it continues a run.
uint32_t in_place(thread_log &l, bool dep, uint64_t at, uint64_t end,
                  uint32_t parent = kParent, uint8_t flags = 0) {
  const uint64_t key = run_key(parent, flags, dep ? WEFT_INOUT : 0);
  uint32_t id = 0;
  if (inline_continued(l, key, dep ? kAddr : 0, id)) {
    inline_end_now(l, id); // no clock read
    return id;
  }
  id = dep ? inline_begun_dep(l, parent, kDep, flags, at)
           : inline_begun(l, parent, flags, at);
  l.r_key = key;
  inline_ended(l, id, end);
  return id;
}

struct task_events {
  uint64_t id, parent, create, begin, end;
  uint8_t flags;
  int deps = 0;
  uint64_t addr = 0;
  uint8_t mode = 0;
};

std::vector<task_events> tasks_of(const std::vector<record> &ev) {
  std::vector<task_events> t;
  for (const record &r : ev) {
    if (r.type == kind::task_create) {
      t.push_back(task_events{r.task, r.arg, r.time, 0, 0, r.sub});
    } else if (r.type == kind::dep) {
      EXPECT_FALSE(t.empty());
      ++t.back().deps;
      t.back().addr = r.arg;
      t.back().mode = r.sub;
    } else if (r.type == kind::task_begin || r.type == kind::task_end) {
      bool found = false;
      for (task_events &x : t)
        if (x.id == r.task) {
          (r.type == kind::task_begin ? x.begin : x.end) = r.time;
          found = true;
        }
      EXPECT_TRUE(found) << r.task;
    }
  }
  return t;
}

TEST(inline_run, RoundTripsAChainWithItsSplit) {
  for (bool dep : {true, false}) {
    fixture f;
    // A timed task from 1000 to 1010, then 9 untimed ones; the next record
    // (a wait) at 1300.
    for (int i = 0; i < 10; ++i)
      in_place(*f.l, dep, 1000, 1010);
    wait_begin_at(*f.l, wait_kind::taskwait, kParent, nullptr, 0, 1300);
    EXPECT_EQ(f.count(kind::task_inline_run), 0u) << "not yet written";
    std::vector<task_events> t = tasks_of(f.events());
    EXPECT_EQ(f.count(dep ? kind::task_inline_dep : kind::task_inline), 1u);
    EXPECT_EQ(f.count(kind::task_inline_run), 1u);
    ASSERT_EQ(t.size(), 10u);
    // 9 bodies of 10 ticks and 10 gaps share 1010..1300: gaps of 20.
    for (uint64_t j = 0; j < 10; ++j) {
      EXPECT_EQ(t[j].id, j + 1);
      EXPECT_EQ(t[j].parent, kParent);
      EXPECT_EQ(t[j].deps, dep ? 1 : 0);
      if (dep) {
        EXPECT_EQ(t[j].addr, kAddr);
        EXPECT_EQ(t[j].mode, uint8_t(WEFT_INOUT));
      }
      const uint64_t begin = j == 0 ? 1000 : 1010 + j * 20 + (j - 1) * 10;
      EXPECT_EQ(t[j].create, begin) << j;
      EXPECT_EQ(t[j].begin, begin) << j;
      EXPECT_EQ(t[j].end, begin + 10) << j;
    }
    EXPECT_EQ(inline_run_begin(1010, 10, 290, 9, 8) + 10, 1280u);
  }
}

TEST(inline_run, BodiesNoLongerThanTheRunAllows) {
  // The timed task's body (90) is longer than the untimed ones can have
  // been: 3 tasks in 30 ticks get 10 each and no gaps.
  fixture f;
  for (int i = 0; i < 4; ++i)
    in_place(*f.l, true, 1000, 1090);
  f.l->settle(1120);
  std::vector<task_events> t = tasks_of(f.events());
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[1].begin, 1090u);
  EXPECT_EQ(t[3].end, 1120u);
}

TEST(inline_run, WhatBreaksARun) {
  fixture f(40);
  uint32_t a = in_place(*f.l, true, 1000, 1010);
  uint32_t b = in_place(*f.l, true, 0, 0); // untimed
  EXPECT_EQ(b, a + 1);
  // Another parent, flags or dependence, or no dependence: timed.
  uint32_t c = in_place(*f.l, true, 2000, 2010, kParent + 1);
  uint32_t d = in_place(*f.l, true, 3000, 3010, kParent + 1, flag_final);
  // No dependence, and a long body: the next one like it is timed too.
  uint32_t e = in_place(*f.l, false, 5000, 5100, kParent + 1, flag_final);
  uint32_t g = in_place(*f.l, false, 6000, 6010, kParent + 1, flag_final);
  std::vector<task_events> t = tasks_of(f.events());
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(f.count(kind::task_inline_run), 1u);
  const uint32_t ids[] = {a, b, c, d, e, g};
  const uint64_t begins[] = {1000, 0, 2000, 3000, 5000, 6000};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(t[i].id, ids[i]);
    if (i != 1) {
      EXPECT_EQ(t[i].begin, begins[i]) << i;
      EXPECT_EQ(t[i].end, begins[i] + (i == 4 ? 100 : 10)) << i;
    }
  }
  EXPECT_EQ(t[3].flags, flag_final);
  EXPECT_EQ(t[4].deps, 0);
}

TEST(inline_run, AtMostTheLongestRunAndNotAcrossIdBlocks) {
  {
    fixture f;
    for (uint32_t i = 0; i < 2 * (kInlineRunMax + 1); ++i)
      in_place(*f.l, true, 1000 + 100 * i, 1005 + 100 * i);
    std::vector<task_events> t = tasks_of(f.events());
    ASSERT_EQ(t.size(), 2 * (kInlineRunMax + 1));
    EXPECT_EQ(f.count(kind::task_inline_run), 2u);
    EXPECT_EQ(f.count(kind::task_inline_dep), 2u);
    EXPECT_EQ(t[kInlineRunMax + 1].begin, 1000 + 100 * (kInlineRunMax + 1));
  }
  {
    fixture f(5); // ids 1-5, then a block from 1 again (fresh_id asks
                  // g_rec: not in a test), so stop at 5
    for (int i = 0; i < 5; ++i)
      in_place(*f.l, true, 1000, 1005);
    EXPECT_EQ(f.l->next_id, 6u);
    uint32_t none = 0;
    EXPECT_FALSE(
        inline_continued(*f.l, run_key(kParent, 0, WEFT_INOUT), kAddr, none))
        << "a run past the id block's end";
    std::vector<task_events> t = tasks_of(f.events());
    EXPECT_EQ(t.size(), 5u);
  }
}

TEST(inline_run, AnUntimedTaskThatRecordsStartsAtItsFirstRecord) {
  fixture f;
  in_place(*f.l, true, 1000, 1010);
  in_place(*f.l, true, 0, 0);
  // The third runs in place untimed, and its body spawns a child at 1500.
  uint32_t open = 0;
  ASSERT_TRUE(
      inline_continued(*f.l, run_key(kParent, 0, WEFT_INOUT), kAddr, open));
  uint32_t child = created(*f.l, open, nullptr, 0, 0, 1500);
  spawned(*f.l, child, 1500, 1520);
  inline_end_now(*f.l, open); // its end: a task_end, read from the clock
  // That parent's tasks are all timed from now on.
  constexpr uint64_t kLate = 9000000000000000000ull; // after the clock
  uint32_t next = in_place(*f.l, true, kLate, kLate + 5);
  uint32_t after = 0;
  EXPECT_FALSE(
      inline_continued(*f.l, run_key(kParent, 0, WEFT_INOUT), kAddr, after));
  std::vector<task_events> t = tasks_of(f.events());
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[1].end <= 1500, true);
  EXPECT_EQ(t[2].id, open);
  EXPECT_EQ(t[2].begin, 1500u);
  EXPECT_GE(t[2].end, 1520u);
  EXPECT_EQ(t[3].id, child);
  EXPECT_EQ(t[3].parent, open);
  EXPECT_EQ(t[4].id, next);
  EXPECT_EQ(t[4].begin, kLate);
}

TEST(inline_run, ReaderRefusesAStrayOrDamagedRun) {
  file_header h{};
  h.version = kVersion;
  h.ns_per_tick = 1;
  const record timed{kind::task_inline_dep,
                     static_cast<uint8_t>(kInlineEnded | 3 << 4),
                     0,
                     static_cast<uint32_t>(kAddr >> 32),
                     1000,
                     5 | kAddr << 32,
                     kParent | uint64_t(10) << 32};
  auto check = [&](std::vector<record> rs, const char *want) {
    thread_decoder d(h, 0);
    std::vector<record> out;
    std::string why;
    for (const record &r : rs)
      if (why.empty())
        why = d.add(r, out);
    EXPECT_NE(why.find(want), std::string::npos) << why;
  };
  const record run{kind::task_inline_run, 0, 0, 3, 1010, 6, 100};
  check({run}, "not right after");
  check({timed, record{kind::task_begin, 0, 0, 0, 1010, 9, 0}, run},
        "not right after");
  record bad = run;
  bad.count = 0;
  check({timed, bad}, "of 0 tasks");
  bad = run;
  bad.count = kInlineRunMax + 1;
  check({timed, bad}, "tasks (1-");
  bad = run;
  bad.task = 7;
  check({timed, bad}, "does not follow");
  bad = run;
  bad.time = 1011;
  check({timed, bad}, "not its timed task's end");
  // A version 10 file has no kind 29.
  h.version = 10;
  check({timed, run}, "unknown record kind 29");
}

} // namespace
} // namespace weft::trace
