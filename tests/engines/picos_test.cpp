// The Picos model on its instruction interface (include/weft/picos.h): each
// instruction's semantics and failure values, the Manager's zero padder and
// arbiters, Picos' dependence decisions and back-pressure; then the `picos`
// engine under the runtime (more than 15 dependences, nested domains, tiny
// capacities).
#include "engines/picos/picos_engine.hpp"
#include "engines/picos/picos_manager.hpp"

#include <weft/picos.h>
#include <weft/weft.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using weft::picos_manager;

struct dep {
  uint64_t addr;
  uint32_t dir;
};
constexpr uint32_t IN = WEFT_PICOS_DIR_IN;
constexpr uint32_t OUT = WEFT_PICOS_DIR_OUT;
constexpr uint32_t INOUT = WEFT_PICOS_DIR_INOUT;

weft_picos_config config(int cores = 4) {
  weft_picos_config c;
  weft_picos_config_default(&c);
  c.cores = cores;
  return c;
}

// One Picos for a test.
struct unit {
  weft_picos *p;
  explicit unit(const weft_picos_config &c) : p(weft_picos_create(&c)) {
    if (!p)
      ADD_FAILURE() << weft_last_error();
  }
  unit() : unit(config()) {}
  ~unit() { weft_picos_destroy(p); }
  picos_manager &m() { return p->manager; }

  uint64_t counter(const std::string &name) const {
    int n = weft_picos_counters(p, nullptr, nullptr, 0);
    std::vector<const char *> names(static_cast<size_t>(n));
    std::vector<uint64_t> values(static_cast<size_t>(n));
    weft_picos_counters(p, names.data(), values.data(), n);
    for (int i = 0; i < n; ++i)
      if (name == names[static_cast<size_t>(i)])
        return values[static_cast<size_t>(i)];
    ADD_FAILURE() << "no counter " << name;
    return 0;
  }
};

// Submission Request + Submit Three Packets, as Phentos does; false if the
// request failed.
bool submit(weft_picos *p, int core, uint64_t sw_id,
            const std::vector<dep> &deps) {
  int n = static_cast<int>(deps.size());
  if (!weft_picos_submission_request(p, core, weft_picos_packets(n)))
    return false;
  uint64_t rs1, rs2;
  weft_picos_header(sw_id, n, &rs1, &rs2);
  EXPECT_TRUE(weft_picos_submit_three_packets(p, core, rs1, rs2));
  for (const dep &d : deps) {
    weft_picos_dependence(d.addr, d.dir, &rs1, &rs2);
    EXPECT_TRUE(weft_picos_submit_three_packets(p, core, rs1, rs2));
  }
  return true;
}

// A fetched task.
struct fetched {
  uint64_t sw_id;
  uint32_t picos_id;
};

// Every task that is ready now, fetched on `core` (which keeps one Ready
// Task Request outstanding across calls, as the engine does).
struct fetcher {
  weft_picos *p;
  int core;
  bool outstanding = false;
  std::vector<fetched> all() {
    std::vector<fetched> got;
    for (;;) {
      if (!outstanding)
        outstanding = weft_picos_ready_task_request(p, core);
      uint64_t sw = weft_picos_fetch_sw_id(p, core);
      if (sw == WEFT_PICOS_FAIL)
        return got;
      uint32_t id = weft_picos_fetch_picos_id(p, core);
      EXPECT_NE(id, WEFT_PICOS_FAIL);
      outstanding = false;
      got.push_back({sw, id});
    }
  }
};

std::vector<uint64_t> sw_ids(const std::vector<fetched> &v) {
  std::vector<uint64_t> r;
  for (const fetched &f : v)
    r.push_back(f.sw_id);
  std::sort(r.begin(), r.end());
  return r;
}

uint32_t id_of(const std::vector<fetched> &v, uint64_t sw) {
  for (const fetched &f : v)
    if (f.sw_id == sw)
      return f.picos_id;
  ADD_FAILURE() << "task " << sw << " was not fetched";
  return 0;
}

// ---------------------------------------------------------------------------
TEST(PicosConfig, BadConfigIsRefusedNamingTheField) {
  weft_picos_config c = config();
  c.task_memory = 0;
  EXPECT_EQ(weft_picos_create(&c), nullptr);
  EXPECT_NE(std::strstr(weft_last_error(), "task_memory is 0"), nullptr)
      << weft_last_error();
  c = config();
  c.cores = 0;
  EXPECT_EQ(weft_picos_create(&c), nullptr);
  EXPECT_NE(std::strstr(weft_last_error(), "cores is 0"), nullptr);
  c = config();
  c.clock_mhz = -1;
  EXPECT_EQ(weft_picos_create(&c), nullptr);
  EXPECT_NE(std::strstr(weft_last_error(), "clock_mhz"), nullptr);
  c = config();
  c.task_memory = 0x10000; // a Picos ID has 16 bits of index
  EXPECT_EQ(weft_picos_create(&c), nullptr);
}

TEST(PicosConfig, BadEnvironmentValueIsFatalNamingIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        setenv("WEFT_PICOS_TASK_MEMORY", "12x", 1);
        weft::picos_engine e(1);
      },
      "WEFT_PICOS_TASK_MEMORY=12x");
  EXPECT_DEATH(
      {
        setenv("WEFT_PICOS_CORE_QUEUE", "0", 1);
        weft::picos_engine e(1);
      },
      "WEFT_PICOS_CORE_QUEUE=0");
  EXPECT_DEATH(
      {
        setenv("WEFT_PICOS_CLOCK_MHZ", "fast", 1);
        weft::picos_engine e(1);
      },
      "WEFT_PICOS_CLOCK_MHZ=fast");
  EXPECT_DEATH(
      {
        setenv("WEFT_PICOS_POLL_US", "-3", 1);
        weft::picos_engine e(1);
      },
      "WEFT_PICOS_POLL_US=-3");
  // A misspelt name is not silently ignored.
  EXPECT_DEATH(
      {
        setenv("WEFT_PICOS_TASKS", "4", 1);
        weft::picos_engine e(1);
      },
      "WEFT_PICOS_TASKS=4: unknown variable");
}

TEST(PicosEncoding, ThreePacketOperandsFollowFigure3) {
  uint64_t rs1, rs2;
  weft_picos_header(0x1122334455667788ull, 7, &rs1, &rs2);
  // P1 = rs1[63:32] (SW ID high), P2 = rs1[31:0] (low), P3 = #deps.
  EXPECT_EQ(rs1 >> 32, 0x11223344u);
  EXPECT_EQ(uint32_t(rs1), 0x55667788u);
  EXPECT_EQ(uint32_t(rs2), 7u);
  weft_picos_dependence(0xaabbccdd00112233ull, INOUT, &rs1, &rs2);
  // Address low, address high, directionality.
  EXPECT_EQ(rs1 >> 32, 0x00112233u);
  EXPECT_EQ(uint32_t(rs1), 0xaabbccddu);
  EXPECT_EQ(uint32_t(rs2), INOUT);
  EXPECT_EQ(weft_picos_packets(0), 3u);
  EXPECT_EQ(weft_picos_packets(15), 48u);
}

// ---------------------------------------------------------------------------
TEST(PicosInstructions, OneTaskThroughEveryInstruction) {
  unit u;
  weft_picos *p = u.p;
  ASSERT_TRUE(weft_picos_submission_request(p, 1, 6));
  ASSERT_TRUE(weft_picos_submit_packet(p, 1, 0));      // SW ID high
  ASSERT_TRUE(weft_picos_submit_packet(p, 1, 0x1234)); // SW ID low
  ASSERT_TRUE(weft_picos_submit_packet(p, 1, 1));      // one dependence
  ASSERT_TRUE(weft_picos_submit_packet(p, 1, 0xbeef)); // address low
  ASSERT_TRUE(weft_picos_submit_packet(p, 1, 0));      // address high
  ASSERT_TRUE(weft_picos_submit_packet(p, 1, INOUT));  // directionality
  EXPECT_EQ(u.counter("picos.tasks"), 1u);
  // Nothing requested: the task waits in the global ready queue.
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 2), uint64_t(WEFT_PICOS_FAIL));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 2));
  EXPECT_EQ(weft_picos_queued(p, 2), 1u);
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 2), 0x1234u);
  uint32_t id = weft_picos_fetch_picos_id(p, 2);
  EXPECT_NE(id, uint32_t(WEFT_PICOS_FAIL));
  EXPECT_EQ(weft_picos_queued(p, 2), 0u);
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 2), uint64_t(WEFT_PICOS_FAIL));
  weft_picos_retire_task(p, 3, id); // any core may retire it
  EXPECT_EQ(u.counter("picos.retire_task"), 1u);
  EXPECT_EQ(u.counter("picos.submit_packet"), 6u);
}

TEST(PicosInstructions, FetchSwIdDoesNotPop) {
  unit u;
  ASSERT_TRUE(submit(u.p, 0, 77, {}));
  ASSERT_TRUE(weft_picos_ready_task_request(u.p, 0));
  EXPECT_EQ(weft_picos_fetch_sw_id(u.p, 0), 77u);
  EXPECT_EQ(weft_picos_fetch_sw_id(u.p, 0), 77u);
  EXPECT_EQ(weft_picos_queued(u.p, 0), 1u);
  EXPECT_NE(weft_picos_fetch_picos_id(u.p, 0), uint32_t(WEFT_PICOS_FAIL));
  EXPECT_EQ(weft_picos_queued(u.p, 0), 0u);
}

TEST(PicosInstructions, FetchPicosIdWithoutFetchSwIdFailsAndChangesNothing) {
  unit u;
  weft_picos *p = u.p;
  ASSERT_TRUE(submit(p, 0, 5, {}));
  ASSERT_TRUE(submit(p, 0, 6, {}));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 0));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 0));
  ASSERT_EQ(weft_picos_queued(p, 0), 2u);
  EXPECT_EQ(weft_picos_fetch_picos_id(p, 0), uint32_t(WEFT_PICOS_FAIL));
  EXPECT_EQ(weft_picos_queued(p, 0), 2u);
  EXPECT_EQ(u.counter("picos.fetch_picos_id.fail"), 1u);
  // The front task is still task 5, fetched whole.
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 0), 5u);
  uint32_t a = weft_picos_fetch_picos_id(p, 0);
  EXPECT_NE(a, uint32_t(WEFT_PICOS_FAIL));
  // The success of Fetch SW ID is used up by the pop.
  EXPECT_EQ(weft_picos_fetch_picos_id(p, 0), uint32_t(WEFT_PICOS_FAIL));
  EXPECT_EQ(weft_picos_queued(p, 0), 1u);
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 0), 6u);
  uint32_t b = weft_picos_fetch_picos_id(p, 0);
  EXPECT_NE(b, uint32_t(WEFT_PICOS_FAIL));
  EXPECT_NE(a, b);
  // An empty queue fails even after a Fetch SW ID succeeded... on nothing.
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 0), uint64_t(WEFT_PICOS_FAIL));
  EXPECT_EQ(weft_picos_fetch_picos_id(p, 0), uint32_t(WEFT_PICOS_FAIL));
  weft_picos_retire_task(p, 0, a);
  weft_picos_retire_task(p, 0, b);
}

TEST(PicosInstructions, SubmitPacketsFailOutsideAnAnnouncedSequence) {
  unit u;
  weft_picos *p = u.p;
  // No Submission Request yet.
  EXPECT_FALSE(weft_picos_submit_packet(p, 0, 1));
  EXPECT_FALSE(weft_picos_submit_three_packets(p, 0, 1, 1));
  ASSERT_TRUE(weft_picos_submission_request(p, 0, 3));
  ASSERT_TRUE(weft_picos_submit_packet(p, 0, 0));
  ASSERT_TRUE(weft_picos_submit_packet(p, 0, 9));
  // Two announced packets left? No: one. Three do not fit.
  EXPECT_FALSE(weft_picos_submit_three_packets(p, 0, 0, 0));
  ASSERT_TRUE(weft_picos_submit_packet(p, 0, 0));
  // The sequence is complete: nothing more is accepted.
  EXPECT_FALSE(weft_picos_submit_packet(p, 0, 0));
  EXPECT_EQ(u.counter("picos.submit_packet.fail"), 2u);
  EXPECT_EQ(u.counter("picos.submit_three_packets.fail"), 2u);
  EXPECT_EQ(u.counter("picos.packets.submitted"), 3u);
  EXPECT_EQ(u.counter("picos.tasks"), 1u);
}

TEST(PicosInstructions, SubmissionRequestFailsWhileTheCoresSequenceWaits) {
  unit u;
  weft_picos *p = u.p;
  ASSERT_TRUE(weft_picos_submission_request(p, 0, 3));
  // Its packets are not all sent: the core's buffer is taken.
  EXPECT_FALSE(weft_picos_submission_request(p, 0, 3));
  EXPECT_EQ(u.counter("picos.stall.submission_buffer"), 1u);
  // Another core is not held back from requesting.
  EXPECT_TRUE(weft_picos_submission_request(p, 1, 3));
  uint64_t rs1, rs2;
  weft_picos_header(1, 0, &rs1, &rs2);
  ASSERT_TRUE(weft_picos_submit_three_packets(p, 0, rs1, rs2));
  weft_picos_header(2, 0, &rs1, &rs2);
  ASSERT_TRUE(weft_picos_submit_three_packets(p, 1, rs1, rs2));
  EXPECT_TRUE(weft_picos_submission_request(p, 0, 3));
}

TEST(PicosInstructions, ReadyTaskRequestFailsWhenQueuesAreFull) {
  weft_picos_config c = config();
  c.fetch_queue = 2;
  c.core_queue = 1;
  unit u(c);
  weft_picos *p = u.p;
  ASSERT_TRUE(weft_picos_ready_task_request(p, 0));
  // Core 0's private queue (1) is promised to its unanswered request.
  EXPECT_FALSE(weft_picos_ready_task_request(p, 0));
  EXPECT_EQ(u.counter("picos.stall.core_queue"), 1u);
  ASSERT_TRUE(weft_picos_ready_task_request(p, 1));
  // The routing queue holds two requests.
  EXPECT_FALSE(weft_picos_ready_task_request(p, 2));
  EXPECT_EQ(u.counter("picos.stall.fetch_queue"), 1u);
  EXPECT_EQ(u.counter("picos.ready_task_request.fail"), 2u);
  // Answering a request frees its routing slot.
  ASSERT_TRUE(submit(p, 3, 10, {}));
  EXPECT_EQ(weft_picos_queued(p, 0), 1u);
  EXPECT_TRUE(weft_picos_ready_task_request(p, 2));
  // Core 0's queue is full until it pops.
  EXPECT_FALSE(weft_picos_ready_task_request(p, 0));
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 0), 10u);
  EXPECT_NE(weft_picos_fetch_picos_id(p, 0), uint32_t(WEFT_PICOS_FAIL));
  // Now the routing queue is full again (cores 1 and 2).
  EXPECT_FALSE(weft_picos_ready_task_request(p, 0));
  ASSERT_TRUE(submit(p, 3, 11, {}));
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 1), 11u);
  EXPECT_TRUE(weft_picos_ready_task_request(p, 0));
}

// ---------------------------------------------------------------------------
TEST(PicosManager, ZeroPadderCompletesEveryDescriptorTo48Packets) {
  unit u;
  std::vector<uint32_t> seen;
  u.m().on_picos_packet = [&](uint32_t pk) { seen.push_back(pk); };
  uint64_t zeros = 0;
  for (int d = 0; d <= 15; ++d) {
    std::vector<dep> deps;
    for (int k = 0; k < d; ++k)
      deps.push_back({0x1000u + 16u * static_cast<uint64_t>(100 * d + k), IN});
    ASSERT_TRUE(submit(u.p, 0, 100 + static_cast<uint64_t>(d), deps));
    zeros += static_cast<uint64_t>(45 - 3 * d);
  }
  ASSERT_EQ(seen.size(), 16u * 48u);
  for (int d = 0; d <= 15; ++d) {
    const uint32_t *q = seen.data() + 48 * d;
    EXPECT_EQ(q[1], 100u + static_cast<uint32_t>(d));
    EXPECT_EQ(q[2], static_cast<uint32_t>(d));
    for (int k = 3 + 3 * d; k < 48; ++k)
      EXPECT_EQ(q[k], 0u) << "descriptor " << d << " packet " << k;
  }
  EXPECT_EQ(u.counter("picos.packets.to_picos"), 16u * 48u);
  EXPECT_EQ(u.counter("picos.packets.zero_padded"), zeros);
  EXPECT_EQ(u.counter("picos.packets.submitted"), 16u * 48u - zeros);
}

// Cores submit concurrently (with pauses between packets); the packet
// stream Picos receives is whole descriptors, one after another.
TEST(PicosManager, ConcurrentSubmissionsNeverInterleave) {
  constexpr int kCores = 4;
  constexpr int kTasks = 400;
  weft_picos_config c = config(kCores);
  c.task_memory = 16; // also exercises full task memory
  unit u(c);
  std::vector<uint32_t> stream;
  u.m().on_picos_packet = [&](uint32_t pk) { stream.push_back(pk); };
  std::atomic<int> retired{0};
  auto run = [&](int core) {
    std::mt19937 rng(static_cast<unsigned>(core));
    bool outstanding = false;
    auto progress = [&] {
      if (!outstanding)
        outstanding = weft_picos_ready_task_request(u.p, core);
      if (weft_picos_fetch_sw_id(u.p, core) != WEFT_PICOS_FAIL) {
        uint32_t id = weft_picos_fetch_picos_id(u.p, core);
        outstanding = false;
        weft_picos_retire_task(u.p, core, id);
        retired.fetch_add(1);
      }
    };
    for (int i = 0; i < kTasks; ++i) {
      uint64_t sw = (uint64_t(core + 1) << 32) | uint64_t(i + 1);
      int n = static_cast<int>(rng() % 16);
      while (!weft_picos_submission_request(u.p, core, weft_picos_packets(n)))
        progress();
      uint64_t rs1, rs2;
      weft_picos_header(sw, n, &rs1, &rs2);
      ASSERT_TRUE(weft_picos_submit_three_packets(u.p, core, rs1, rs2));
      for (int k = 0; k < n; ++k) {
        for (int spin = static_cast<int>(rng() % 64); spin > 0; --spin)
          std::atomic_signal_fence(std::memory_order_seq_cst); // a pause
        // Addresses carry the SW ID: a mixed-up descriptor shows.
        weft_picos_dependence((sw << 4) | uint64_t(k), OUT, &rs1, &rs2);
        if (k % 2) { // both instructions
          ASSERT_TRUE(weft_picos_submit_packet(u.p, core, uint32_t(rs1 >> 32)));
          ASSERT_TRUE(weft_picos_submit_packet(u.p, core, uint32_t(rs1)));
          ASSERT_TRUE(weft_picos_submit_packet(u.p, core, uint32_t(rs2)));
        } else {
          ASSERT_TRUE(weft_picos_submit_three_packets(u.p, core, rs1, rs2));
        }
      }
    }
    while (retired.load() < kCores * kTasks)
      progress();
  };
  std::vector<std::thread> th;
  for (int i = 0; i < kCores; ++i)
    th.emplace_back(run, i);
  for (auto &t : th)
    t.join();
  ASSERT_EQ(stream.size(), size_t(kCores * kTasks * 48));
  std::map<uint64_t, int> seen;
  for (size_t b = 0; b < stream.size(); b += 48) {
    const uint32_t *q = stream.data() + b;
    uint64_t sw = (uint64_t(q[0]) << 32) | q[1];
    ASSERT_EQ(++seen[sw], 1) << "task " << sw << " twice";
    uint32_t n = q[2];
    ASSERT_LE(n, 15u);
    for (uint32_t k = 0; k < n; ++k) {
      uint64_t addr = (uint64_t(q[4 + 3 * k]) << 32) | q[3 + 3 * k];
      ASSERT_EQ(addr, (sw << 4) | k) << "descriptor at packet " << b;
      ASSERT_EQ(q[5 + 3 * k], OUT);
    }
    for (uint32_t k = 3 + 3 * n; k < 48; ++k)
      ASSERT_EQ(q[k], 0u);
  }
  EXPECT_EQ(seen.size(), size_t(kCores * kTasks));
  EXPECT_LE(u.counter("picos.peak.task_memory"), 16u);
}

// The Guided Arbiter forwards sequences in request order: a core that
// requested first holds back one that finished its packets first.
TEST(PicosManager, GuidedArbiterForwardsInRequestOrder) {
  unit u;
  u.m().set_manual(true);
  std::vector<uint64_t> order;
  int pos = 0;
  uint64_t hi = 0;
  u.m().on_picos_packet = [&](uint32_t pk) {
    if (pos == 0)
      hi = pk;
    if (pos == 1)
      order.push_back((hi << 32) | pk);
    pos = (pos + 1) % 48;
  };
  weft_picos *p = u.p;
  ASSERT_TRUE(weft_picos_submission_request(p, 2, 6));
  ASSERT_TRUE(weft_picos_submission_request(p, 0, 3));
  uint64_t rs1, rs2;
  weft_picos_header(0xa0, 0, &rs1, &rs2);
  ASSERT_TRUE(weft_picos_submit_three_packets(p, 0, rs1, rs2));
  u.m().advance();
  EXPECT_TRUE(order.empty()); // core 2 has not sent its packets
  weft_picos_header(0xb2, 1, &rs1, &rs2);
  ASSERT_TRUE(weft_picos_submit_three_packets(p, 2, rs1, rs2));
  u.m().advance();
  EXPECT_TRUE(order.empty()); // still one dependence to come
  weft_picos_dependence(64, IN, &rs1, &rs2);
  ASSERT_TRUE(weft_picos_submit_three_packets(p, 2, rs1, rs2));
  u.m().advance();
  EXPECT_EQ(order, (std::vector<uint64_t>{0xb2, 0xa0}));
}

TEST(PicosManager, ReadyTasksGoToRequestsInChronologicalOrder) {
  weft_picos_config c = config();
  c.core_queue = 4;
  unit u(c);
  weft_picos *p = u.p;
  // Core 1 (A) requests, then core 3 (B): A gets the first ready task.
  ASSERT_TRUE(weft_picos_ready_task_request(p, 1));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 3));
  ASSERT_TRUE(submit(p, 0, 11, {}));
  EXPECT_EQ(weft_picos_queued(p, 1), 1u);
  EXPECT_EQ(weft_picos_queued(p, 3), 0u);
  ASSERT_TRUE(submit(p, 0, 12, {}));
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 1), 11u);
  EXPECT_EQ(weft_picos_fetch_sw_id(p, 3), 12u);
  // Ready tasks waiting: the next requests take them in ready order, the
  // earlier request the earlier task.
  ASSERT_TRUE(submit(p, 0, 13, {}));
  ASSERT_TRUE(submit(p, 0, 14, {}));
  ASSERT_TRUE(submit(p, 0, 15, {}));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 3));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 1));
  ASSERT_TRUE(weft_picos_ready_task_request(p, 3));
  EXPECT_EQ(weft_picos_queued(p, 3), 3u);
  EXPECT_EQ(weft_picos_queued(p, 1), 2u);
  std::vector<uint64_t> got3, got1;
  for (int core : {3, 1})
    while (uint64_t sw = weft_picos_fetch_sw_id(p, core)) {
      (core == 3 ? got3 : got1).push_back(sw);
      weft_picos_retire_task(p, core, weft_picos_fetch_picos_id(p, core));
    }
  EXPECT_EQ(got3, (std::vector<uint64_t>{12, 13, 15}));
  EXPECT_EQ(got1, (std::vector<uint64_t>{11, 14}));
}

// One retirement packet per core per round, starting after the core served
// last; a second Retire Task from a core blocks until its first is taken.
TEST(PicosManager, RoundRobinRetirement) {
  unit u;
  weft_picos *p = u.p;
  fetcher f{p, 0};
  for (uint64_t sw = 1; sw <= 8; ++sw)
    ASSERT_TRUE(submit(p, 0, sw, {}));
  std::vector<fetched> ready = f.all();
  ASSERT_EQ(ready.size(), 8u);
  u.m().set_manual(true);
  std::vector<int> served;
  u.m().on_retirement = [&](int core, uint32_t) { served.push_back(core); };
  weft_picos_retire_task(p, 1, ready[0].picos_id);
  u.m().advance();
  EXPECT_EQ(served, (std::vector<int>{1}));
  served.clear();
  weft_picos_retire_task(p, 0, ready[1].picos_id);
  weft_picos_retire_task(p, 3, ready[2].picos_id);
  weft_picos_retire_task(p, 2, ready[3].picos_id);
  u.m().advance();
  EXPECT_EQ(served, (std::vector<int>{2, 3, 0})); // after core 1
  served.clear();
  // Core 2 retires twice: the second waits for the arbiter.
  weft_picos_retire_task(p, 2, ready[4].picos_id);
  std::atomic<bool> done{false};
  std::thread second([&] {
    weft_picos_retire_task(p, 2, ready[5].picos_id);
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done.load()); // blocked behind its first packet
  weft_picos_retire_task(p, 1, ready[6].picos_id);
  // Serve until the blocked one has been taken too.
  while (!done.load()) {
    u.m().advance();
    std::this_thread::yield();
  }
  second.join();
  u.m().advance();
  EXPECT_EQ(served, (std::vector<int>{1, 2, 2}));
  EXPECT_GE(u.counter("picos.stall.retirement"), 1u);
  EXPECT_EQ(u.counter("picos.peak.retirements"), 3u);
  weft_picos_retire_task(p, 0, ready[7].picos_id);
  u.m().advance();
}

// ---------------------------------------------------------------------------
struct dep_test : ::testing::Test {
  weft_picos_config c = [] {
    weft_picos_config x = config(2);
    x.core_queue = 64;
    return x;
  }();
  unit u{c};
  fetcher f{u.p, 0};
  std::map<uint64_t, uint32_t> ids; // fetched, not retired

  void add(uint64_t sw, std::vector<dep> deps) {
    ASSERT_TRUE(submit(u.p, 1, sw, deps));
  }
  std::vector<uint64_t> ready() {
    std::vector<fetched> got = f.all();
    for (const fetched &x : got)
      ids[x.sw_id] = x.picos_id;
    return sw_ids(got);
  }
  void retire(uint64_t sw) {
    ASSERT_TRUE(ids.count(sw)) << sw << " never fetched";
    weft_picos_retire_task(u.p, 0, ids[sw]);
    ids.erase(sw);
  }
  using v = std::vector<uint64_t>;
};

TEST_F(dep_test, ReadAfterWrite) {
  add(1, {{0x100, OUT}});
  add(2, {{0x100, IN}});
  EXPECT_EQ(ready(), v{1});
  EXPECT_EQ(ready(), v{});
  retire(1);
  EXPECT_EQ(ready(), v{2});
  retire(2);
  EXPECT_EQ(u.counter("picos.edges"), 1u);
}

TEST_F(dep_test, WriteAfterRead) {
  add(1, {{0x100, IN}});
  add(2, {{0x100, OUT}});
  EXPECT_EQ(ready(), v{1});
  retire(1);
  EXPECT_EQ(ready(), v{2});
  retire(2);
}

TEST_F(dep_test, WriteAfterWrite) {
  add(1, {{0x100, INOUT}});
  add(2, {{0x100, OUT}});
  add(3, {{0x100, INOUT}});
  EXPECT_EQ(ready(), v{1});
  retire(1);
  EXPECT_EQ(ready(), v{2});
  retire(2);
  EXPECT_EQ(ready(), v{3});
  retire(3);
}

TEST_F(dep_test, ConsecutiveReadersRunConcurrently) {
  add(1, {{0x100, OUT}});
  add(2, {{0x100, IN}});
  add(3, {{0x100, IN}});
  add(4, {{0x100, IN}});
  add(5, {{0x100, OUT}});
  add(6, {{0x100, IN}});
  EXPECT_EQ(ready(), v{1});
  retire(1);
  EXPECT_EQ(ready(), (v{2, 3, 4}));
  retire(3);
  retire(2);
  EXPECT_EQ(ready(), v{});
  retire(4);
  EXPECT_EQ(ready(), v{5});
  retire(5);
  EXPECT_EQ(ready(), v{6});
  retire(6);
  // Readers that start a fresh address are ready at once.
  add(7, {{0x200, IN}});
  add(8, {{0x200, IN}});
  EXPECT_EQ(ready(), (v{7, 8}));
}

TEST_F(dep_test, EveryDependenceMustBeSatisfied) {
  add(1, {{0x100, OUT}});
  add(2, {{0x200, OUT}});
  add(3, {{0x100, IN}, {0x200, IN}, {0x300, OUT}});
  add(4, {{0x400, OUT}});
  EXPECT_EQ(ready(), (v{1, 2, 4}));
  retire(2);
  EXPECT_EQ(ready(), v{});
  retire(1);
  EXPECT_EQ(ready(), v{3});
}

TEST_F(dep_test, AddressesAreForgottenWhenTheirTasksRetire) {
  for (uint64_t sw = 1; sw <= 3; ++sw)
    add(sw, {{0x100 * sw, OUT}, {0x1000 * sw, IN}});
  EXPECT_EQ(ready(), (v{1, 2, 3}));
  for (uint64_t sw = 1; sw <= 3; ++sw)
    retire(sw);
  EXPECT_EQ(u.counter("picos.peak.dep_memory"), 6u);
  EXPECT_EQ(u.counter("picos.peak.version_memory"), 6u);
  // All free again: a task needing all of them is admitted.
  weft_picos_config small = config(2);
  small.dep_memory = 2;
  small.version_memory = 2;
  unit s(small);
  fetcher g{s.p, 0};
  ASSERT_TRUE(submit(s.p, 1, 1, {{1, OUT}, {2, OUT}}));
  EXPECT_FALSE(submit(s.p, 1, 2, {{3, OUT}}));
  EXPECT_EQ(s.counter("picos.stall.dep_memory"), 1u);
  std::vector<fetched> r = g.all();
  ASSERT_EQ(r.size(), 1u);
  weft_picos_retire_task(s.p, 0, r[0].picos_id);
  EXPECT_TRUE(submit(s.p, 1, 2, {{1, OUT}, {3, OUT}}));
}

// Random programs against a reference: a task is ready iff no earlier
// unretired task conflicts with it (a writer conflicts with every access to
// its address, a reader with writers).
TEST_F(dep_test, RandomProgramsMatchTheReference) {
  std::mt19937 rng(42);
  for (int round = 0; round < 20; ++round) {
    struct t {
      std::vector<dep> deps;
      bool retired = false, seen = false;
    };
    std::vector<t> tasks;
    uint64_t base = 1000 * static_cast<uint64_t>(round + 1);
    for (int i = 0; i < 60; ++i) {
      t x;
      int n = static_cast<int>(rng() % 4);
      for (int k = 0; k < n; ++k) {
        uint64_t a = 8 * (rng() % 5);
        bool dup = false;
        for (const dep &d : x.deps)
          dup |= d.addr == a;
        if (!dup)
          x.deps.push_back({a, rng() % 3 ? IN : INOUT});
      }
      tasks.push_back(x);
      add(base + static_cast<uint64_t>(i), x.deps);
    }
    auto conflicts = [](const std::vector<dep> &a, const std::vector<dep> &b) {
      for (const dep &x : a)
        for (const dep &y : b)
          if (x.addr == y.addr && (x.dir != IN || y.dir != IN))
            return true;
      return false;
    };
    size_t done = 0;
    while (done < tasks.size()) {
      v expect;
      for (size_t i = 0; i < tasks.size(); ++i) {
        if (tasks[i].retired || tasks[i].seen)
          continue;
        bool ok = true;
        for (size_t j = 0; j < i && ok; ++j)
          ok = tasks[j].retired || !conflicts(tasks[j].deps, tasks[i].deps);
        if (ok)
          expect.push_back(base + i);
      }
      v got = ready();
      ASSERT_EQ(got, expect) << "round " << round;
      for (uint64_t sw : got)
        tasks[sw - base].seen = true;
      // Retire one running task at random.
      std::vector<size_t> running;
      for (size_t i = 0; i < tasks.size(); ++i)
        if (tasks[i].seen && !tasks[i].retired)
          running.push_back(i);
      ASSERT_FALSE(running.empty());
      size_t k = running[rng() % running.size()];
      retire(base + k);
      tasks[k].retired = true;
      ++done;
    }
  }
}

// ---------------------------------------------------------------------------
TEST(PicosBackPressure, FullTaskMemoryFailsUntilARetirement) {
  weft_picos_config c = config();
  c.task_memory = 2;
  unit u(c);
  weft_picos *p = u.p;
  fetcher f{p, 0};
  ASSERT_TRUE(submit(p, 1, 1, {}));
  ASSERT_TRUE(submit(p, 1, 2, {}));
  EXPECT_FALSE(weft_picos_submission_request(p, 1, 3));
  EXPECT_FALSE(weft_picos_submission_request(p, 2, 3));
  EXPECT_EQ(u.counter("picos.stall.task_memory"), 2u);
  std::vector<fetched> r = f.all();
  ASSERT_EQ(r.size(), 2u);
  // Fetched (running) tasks still hold their entries.
  EXPECT_FALSE(weft_picos_submission_request(p, 1, 3));
  weft_picos_retire_task(p, 0, r[0].picos_id);
  EXPECT_TRUE(submit(p, 1, 3, {}));
  EXPECT_FALSE(weft_picos_submission_request(p, 1, 3));
  EXPECT_EQ(u.counter("picos.peak.task_memory"), 2u);
}

TEST(PicosBackPressure, ARequestIsAdmittedOnlyWithRoomForAllItsDependences) {
  weft_picos_config c = config();
  c.dep_memory = 4;
  unit u(c);
  fetcher f{u.p, 0};
  ASSERT_TRUE(submit(u.p, 1, 1, {{1, OUT}, {2, OUT}, {3, OUT}}));
  EXPECT_FALSE(weft_picos_submission_request(u.p, 1, weft_picos_packets(2)));
  // Never: more dependences than the memory holds.
  EXPECT_FALSE(weft_picos_submission_request(u.p, 2, weft_picos_packets(5)));
  // One new address fits.
  ASSERT_TRUE(submit(u.p, 1, 2, {{9, IN}}));
  std::vector<fetched> r = f.all();
  ASSERT_EQ(r.size(), 2u);
  weft_picos_retire_task(u.p, 0, id_of(r, 1));
  EXPECT_TRUE(submit(u.p, 1, 3, {{1, IN}, {2, IN}}));
}

// ---------------------------------------------------------------------------
TEST(PicosCycles, ModelledCyclesFollowTheCostModel) {
  unit u;
  fetcher f{u.p, 0};
  constexpr int kTasks = 10;
  for (int i = 0; i < kTasks; ++i) {
    ASSERT_TRUE(submit(u.p, 1, 1 + static_cast<uint64_t>(i),
                       {{64 + 64 * static_cast<uint64_t>(i), INOUT}}));
    std::vector<fetched> r = f.all();
    ASSERT_EQ(r.size(), 1u);
    weft_picos_retire_task(u.p, 0, r[0].picos_id);
  }
  uint64_t instructions = 0;
  for (const char *n :
       {"picos.submission_request", "picos.submit_packet",
        "picos.submit_three_packets", "picos.ready_task_request",
        "picos.fetch_sw_id", "picos.fetch_picos_id", "picos.retire_task"})
    instructions += u.counter(n);
  // Per task: request, 2 x three packets, a ready request (left outstanding
  // for the next task), 2 fetches + the failed Fetch SW ID that ends f.all(),
  // retire; the first task adds one ready request.
  EXPECT_EQ(instructions, uint64_t(kTasks) * 8 + 1);
  EXPECT_EQ(u.counter("picos.fetch_sw_id.fail"), uint64_t(kTasks));
  uint64_t useful = instructions - kTasks;
  EXPECT_EQ(u.counter("picos.cycles.instructions"), 2 * useful);
  EXPECT_EQ(u.counter("picos.cycles.failed_instructions"), 2u * kTasks);
  EXPECT_EQ(u.counter("picos.cycles.picos"), uint64_t(kTasks) * (48 + 8 + 1));
  EXPECT_EQ(u.counter("picos.cycles"), 2 * useful + uint64_t(kTasks) * 57);
  // 80 MHz: 12.5 ns a cycle.
  EXPECT_EQ(u.counter("picos.modelled_ns"),
            (2 * useful + uint64_t(kTasks) * 57) * 25 / 2);
}

// ---------------------------------------------------------------------------
TEST(PicosProtocol, ViolationsAbortNamingTheInstruction) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        unit u;
        weft_picos_submission_request(u.p, 0, 4);
      },
      "Submission Request by core 0 announces 4 packets");
  EXPECT_DEATH(
      {
        unit u;
        weft_picos_submission_request(u.p, 0, 51);
      },
      "announces 51 packets");
  EXPECT_DEATH(
      {
        unit u;
        weft_picos_ready_task_request(u.p, 4);
      },
      "Ready Task Request by core 4");
  EXPECT_DEATH(
      {
        unit u;
        weft_picos_retire_task(u.p, 0, 0x10005);
      },
      "Retire Task of Picos ID 0x10005");
  EXPECT_DEATH(
      {
        unit u;
        (void)(submit(u.p, 0, 5, {{8, IN}, {8, OUT}}));
      },
      "names address 0x8 twice");
  EXPECT_DEATH(
      {
        unit u;
        (void)(submit(u.p, 0, 5, {{8, 4}}));
      },
      "directionality 4");
  EXPECT_DEATH(
      {
        unit u;
        (void)(submit(u.p, 0, 0, {}));
      },
      "SW ID 0");
  EXPECT_DEATH(
      {
        unit u;
        weft_picos_submission_request(u.p, 0, 6);
        weft_picos_submit_three_packets(u.p, 0, 7, 0); // says 0 deps
        weft_picos_submit_three_packets(u.p, 0, 0, 0);
      },
      "says 0 dependences, its Submission Request announced 1");
}

void retire_twice() {
  unit u;
  fetcher f{u.p, 0};
  submit(u.p, 0, 5, {});
  std::vector<fetched> r = f.all();
  weft_picos_retire_task(u.p, 0, r[0].picos_id);
  weft_picos_retire_task(u.p, 0, r[0].picos_id);
}

TEST(PicosProtocol, RetiringTwiceIsCaught) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(retire_twice(), "did not hand out");
}

// ---------------------------------------------------------------------------
TEST(PicosEngine, MergeDependences) {
  using e = weft::picos_engine;
  int a, b, c;
  e::picos_dep out[WEFT_PICOS_MAX_DEPS];
  weft_dep d1[] = {{&a, WEFT_IN}, {&b, WEFT_OUT}, {&a, WEFT_IN},
                   {&c, WEFT_IN}, {&c, WEFT_OUT}, {&b, WEFT_INOUTSET}};
  ASSERT_EQ(e::merge_deps(d1, 6, out, 15), 3);
  EXPECT_EQ(out[0].addr, reinterpret_cast<uint64_t>(&a));
  EXPECT_EQ(out[0].dir, IN);
  EXPECT_EQ(out[1].dir, INOUT); // out + inoutset (as inout)
  EXPECT_EQ(out[2].dir, INOUT); // in + out
  weft_dep d2[] = {{&a, WEFT_MUTEXINOUTSET}};
  ASSERT_EQ(e::merge_deps(d2, 1, out, 15), 1);
  EXPECT_EQ(out[0].dir, INOUT);
  // 20 dependences on 20 addresses: more than 15.
  long many[20];
  weft_dep d3[40];
  for (int i = 0; i < 40; ++i)
    d3[i] = weft_dep{&many[i % 20], WEFT_INOUT};
  EXPECT_EQ(e::merge_deps(d3, 40, out, 15), 16);
  // ... but 15 distinct among 40 fit.
  for (int i = 0; i < 40; ++i)
    d3[i] = weft_dep{&many[i % 15], WEFT_IN};
  EXPECT_EQ(e::merge_deps(d3, 40, out, 15), 15);
}

TEST(PicosEngine, AddressesAboveTheTagBitsAreRefused) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  weft::picos_engine::picos_dep out[WEFT_PICOS_MAX_DEPS];
  weft_dep d{reinterpret_cast<const void *>(uintptr_t(1) << 50), WEFT_IN};
  EXPECT_DEATH(weft::picos_engine::merge_deps(&d, 1, out, 15),
               "not below 2\\^47");
}

// ---------------------------------------------------------------------------
// The engine under the runtime (WEFT_ENGINE=picos).

// Starts the runtime with the picos engine and the given WEFT_PICOS_*
// settings; stops it at the end of the test.
struct runtime_scope {
  std::vector<std::string> vars;
  runtime_scope(
      int threads,
      std::initializer_list<std::pair<const char *, const char *>> env = {}) {
    setenv("WEFT_ENGINE", "picos", 1);
    for (auto &[k, v] : env) {
      setenv(k, v, 1);
      vars.push_back(k);
    }
    int rc = weft_init(threads);
    if (rc != WEFT_OK)
      ADD_FAILURE() << weft_last_error();
  }
  ~runtime_scope() {
    EXPECT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    for (const std::string &k : vars)
      unsetenv(k.c_str());
    unsetenv("WEFT_ENGINE");
  }
};

uint64_t engine_counter(const char *name) {
  int n = weft_engine_counters(nullptr, 0);
  std::vector<weft_counter> c(static_cast<size_t>(n));
  weft_engine_counters(c.data(), n);
  for (const weft_counter &x : c)
    if (std::strcmp(x.name, name) == 0)
      return x.value;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

// Tasks touching 20 addresses (more than Picos takes) among tasks touching
// one: each access must follow the one before it on the same address.
struct ordered {
  static constexpr int kAddrs = 20;
  static constexpr int kTasks = 120;
  long cell[kAddrs];
  std::atomic<int> last[kAddrs];
  std::vector<std::vector<int>> addrs; // per task
  std::vector<std::vector<int>> prev;  // per task, per address
  std::atomic<int> errors{0};
  struct arg {
    ordered *o;
    int i;
  };
  std::vector<arg> args;

  static void body(void *p) {
    auto *a = static_cast<arg *>(p);
    ordered &o = *a->o;
    for (size_t k = 0; k < o.addrs[a->i].size(); ++k) {
      int x = o.addrs[a->i][k];
      if (o.last[x].load(std::memory_order_relaxed) != o.prev[a->i][k])
        o.errors.fetch_add(1);
      o.last[x].store(a->i, std::memory_order_relaxed);
    }
  }
  void run(int every) {
    // Every task's accesses first: tasks read them while later ones spawn.
    std::vector<int> seen(kAddrs, -1);
    std::vector<std::vector<weft_dep>> deps(kTasks);
    for (int x = 0; x < kAddrs; ++x)
      last[x] = -1;
    args.resize(kTasks);
    for (int i = 0; i < kTasks; ++i) {
      std::vector<int> a;
      if (i % every == 0)
        for (int x = 0; x < kAddrs; ++x)
          a.push_back(x);
      else
        a.push_back(i % kAddrs);
      std::vector<int> pv;
      for (int x : a) {
        pv.push_back(seen[x]);
        seen[x] = i;
        deps[i].push_back(weft_dep{&cell[x], WEFT_INOUT});
      }
      addrs.push_back(a);
      prev.push_back(pv);
      args[i] = arg{this, i};
    }
    for (int i = 0; i < kTasks; ++i)
      ASSERT_EQ(weft_spawn(body, &args[i], deps[i].data(),
                           static_cast<int>(deps[i].size())),
                WEFT_OK);
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
  }
};

TEST(PicosRuntime, TasksWithMoreThan15DependencesAreSerialized) {
  for (int threads : {1, 2, 4}) {
    runtime_scope rt(threads);
    weft_stats before;
    ASSERT_EQ(weft_stats_get(&before), WEFT_OK);
    ordered o;
    o.run(7);
    EXPECT_EQ(o.errors.load(), 0) << threads << " threads";
    weft_stats after;
    ASSERT_EQ(weft_stats_get(&after), WEFT_OK);
    EXPECT_STREQ(after.engine, "picos");
    // Tasks 0, 7, 14, ... name 20 addresses: the core ran them itself.
    EXPECT_EQ(after.tasks_serialized - before.tasks_serialized,
              uint64_t((ordered::kTasks + 6) / 7));
    EXPECT_EQ(engine_counter("picos.engine.serialized"),
              uint64_t((ordered::kTasks + 6) / 7));
  }
}

// A taskwait on 20 addresses waits for exactly their writers: not for an
// unrelated child that is still blocked (waiting for every child instead
// would never return).
struct waited {
  std::atomic<bool> started{false};
  std::atomic<bool> release{false};
  std::atomic<bool> timed_out{false};
  long cell[20];
  std::atomic<int> done{0};
};

void blocker(void *p) {
  auto *w = static_cast<waited *>(p);
  w->started = true;
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!w->release.load()) {
    if (std::chrono::steady_clock::now() > until) {
      w->timed_out = true;
      return;
    }
    std::this_thread::yield();
  }
}

void writer(void *p) {
  auto *w = static_cast<waited *>(p);
  std::this_thread::sleep_for(std::chrono::microseconds(200));
  w->done.fetch_add(1);
}

TEST(PicosRuntime, TaskwaitOnMoreThan15DependencesWaitsOnlyForThose) {
  for (int threads : {2, 4}) {
    runtime_scope rt(threads);
    waited w;
    ASSERT_EQ(weft_spawn(blocker, &w, nullptr, 0), WEFT_OK);
    // Another worker runs it (this thread runs no task meanwhile; a task
    // left in this core's queue is taken by the others).
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!w.started.load() && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    ASSERT_TRUE(w.started.load());
    weft_dep d[20];
    for (int i = 0; i < 20; ++i) {
      d[i] = weft_dep{&w.cell[i], WEFT_OUT};
      ASSERT_EQ(weft_spawn(writer, &w, &d[i], 1), WEFT_OK);
    }
    for (int i = 0; i < 20; ++i)
      d[i].mode = WEFT_IN;
    ASSERT_EQ(weft_taskwait_deps(d, 20), WEFT_OK);
    EXPECT_EQ(w.done.load(), 20);
    EXPECT_FALSE(w.timed_out.load()) << "the taskwait waited for the blocker";
    w.release = true;
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
    // 20 = a join pseudo-task with 14 + the waiter with 6 and the join.
    EXPECT_EQ(engine_counter("picos.engine.joins"), 1u);
    EXPECT_EQ(engine_counter("picos.engine.wait_all"), 0u);
  }
}

void fib_task(void *p);
struct fib_arg {
  int n;
  long *out;
};
void fib_task(void *p) {
  auto *a = static_cast<fib_arg *>(p);
  if (a->n < 2) {
    *a->out = a->n;
    return;
  }
  long x = 0, y = 0;
  fib_arg l{a->n - 1, &x}, r{a->n - 2, &y};
  weft_dep dl{&x, WEFT_OUT}, dr{&y, WEFT_OUT};
  weft_spawn(fib_task, &l, &dl, 1);
  weft_spawn(fib_task, &r, &dr, 1);
  weft_dep both[2] = {{&x, WEFT_IN}, {&y, WEFT_IN}};
  weft_taskwait_deps(both, 2);
  *a->out = x + y;
}

// Nested tasks with dependences (each parent its own domain tag) under tiny
// capacities: back-pressure and the core's fallback keep everything moving.
TEST(PicosRuntime, NestedTasksUnderTinyCapacities) {
  for (int threads : {1, 2, 4}) {
    runtime_scope rt(threads, {{"WEFT_PICOS_TASK_MEMORY", "3"},
                               {"WEFT_PICOS_DEP_MEMORY", "4"},
                               {"WEFT_PICOS_VERSION_MEMORY", "4"},
                               {"WEFT_PICOS_READY_QUEUE", "1"},
                               {"WEFT_PICOS_CORE_QUEUE", "1"},
                               {"WEFT_PICOS_FETCH_QUEUE", "1"}});
    long r = 0;
    fib_arg a{15, &r};
    weft_dep d{&r, WEFT_OUT};
    ASSERT_EQ(weft_spawn(fib_task, &a, &d, 1), WEFT_OK);
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
    EXPECT_EQ(r, 610) << threads << " threads";
    EXPECT_LE(engine_counter("picos.peak.task_memory"), 3u);
    EXPECT_GT(engine_counter("picos.stall.task_memory"), 0u);
  }
}

TEST(PicosRuntime, StatisticsNameTheModel) {
  runtime_scope rt(2);
  long cell = 0;
  weft_dep d{&cell, WEFT_INOUT};
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(weft_spawn([](void *) {}, nullptr, &d, 1), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  weft_stats s;
  ASSERT_EQ(weft_stats_get(&s), WEFT_OK);
  EXPECT_EQ(engine_counter("picos.tasks"), 100u);
  EXPECT_EQ(engine_counter("picos.packets.to_picos"), 4800u);
  EXPECT_EQ(engine_counter("picos.packets.submitted"), 600u);
  EXPECT_EQ(engine_counter("picos.retire_task"), 100u);
  EXPECT_EQ(s.deps_submitted, 100u);
  // A chain: each task follows the one before, unless that one had already
  // retired when it was submitted (then Picos has forgotten the address).
  EXPECT_LE(s.edges, 99u);
  EXPECT_EQ(s.edges, engine_counter("picos.edges"));
  // Per task at least: Picos' 48 + 8 + 1 cycles and 7 instructions
  // (request, 2 x three packets, ready request, 2 fetches, retire).
  EXPECT_GE(s.modelled_cycles, 100u * (57u + 14u));
  EXPECT_GE(engine_counter("picos.cycles"), s.modelled_cycles);
}

} // namespace
