// The recorder (WEFT_TRACE): a known graph run through the native API under
// each engine, its trace read back and checked record by record and through
// trace_graph; a bad WEFT_TRACE path.
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <weft/weft.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace weft;

long g_x, g_y, g_z, g_w;

void leaf(void *) {
  volatile long s = 0;
  for (int i = 0; i < 1000; ++i)
    s = s + i;
}

// Spawns two children and waits for them.
void nested(void *) {
  weft_spawn(leaf, nullptr, nullptr, 0);
  weft_spawn(leaf, nullptr, nullptr, 0);
  weft_taskwait();
}

// The graph: A (out x); B (in x, out y) and C (in x, out z); D (in y, in z);
// E (inout w) with two children and a taskwait; a taskwait on(y); F (in w);
// then a taskwait.
void run_graph() {
  weft_dep a[] = {{&g_x, WEFT_OUT}};
  weft_dep b[] = {{&g_x, WEFT_IN}, {&g_y, WEFT_OUT}};
  weft_dep c[] = {{&g_x, WEFT_IN}, {&g_z, WEFT_OUT}};
  weft_dep d[] = {{&g_y, WEFT_IN}, {&g_z, WEFT_IN}};
  weft_dep e[] = {{&g_w, WEFT_INOUT}};
  weft_dep f[] = {{&g_w, WEFT_IN}};
  ASSERT_EQ(weft_spawn(leaf, nullptr, a, 1), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, b, 2), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, c, 2), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, d, 2), WEFT_OK);
  ASSERT_EQ(weft_spawn(nested, nullptr, e, 1), WEFT_OK);
  ASSERT_EQ(weft_taskwait_on(&g_y), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, f, 1), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
}

std::string temp_path(const char *tag) {
  return testing::TempDir() + "weft_recorder_" + tag + "_" +
         std::to_string(getpid()) + ".trace";
}

trace::trace_data record_graph(const char *engine, const std::string &path) {
  setenv("WEFT_ENGINE", engine, 1);
  setenv("WEFT_TRACE", path.c_str(), 1);
  EXPECT_EQ(weft_init(2), WEFT_OK) << weft_last_error();
  run_graph();
  EXPECT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  unsetenv("WEFT_ENGINE");
  return trace::read(path);
}

class recorder : public testing::TestWithParam<const char *> {};

TEST_P(recorder, KnownGraphIsRecordedExactly) {
  std::string path = temp_path(GetParam());
  trace::trace_data t = record_graph(GetParam(), path);
  EXPECT_STREQ(t.header.engine, GetParam());
  EXPECT_EQ(t.header.threads, 2u);

  // Every id that appears has exactly one task_create, before all else.
  std::map<uint64_t, const trace::record *> created, begun, ended;
  std::map<uint64_t, std::vector<trace::record>> deps;
  std::vector<trace::record> waits;
  for (std::size_t i = 0; i < t.records.size(); ++i) {
    const trace::record &r = t.records[i];
    switch (r.type) {
    case trace::kind::task_create:
      EXPECT_TRUE(created.emplace(r.task, &r).second)
          << "created twice: " << r.task;
      for (uint32_t k = 1; k <= r.count; ++k)
        deps[r.task].push_back(t.records[i + k]);
      break;
    case trace::kind::task_begin:
      ASSERT_TRUE(created.count(r.task)) << "begin before create: " << r.task;
      EXPECT_TRUE(begun.emplace(r.task, &r).second);
      break;
    case trace::kind::task_end:
      ASSERT_TRUE(begun.count(r.task)) << "end before begin: " << r.task;
      EXPECT_TRUE(ended.emplace(r.task, &r).second);
      EXPECT_EQ(r.thread, begun[r.task]->thread);
      break;
    case trace::kind::wait_begin:
      waits.push_back(r);
      break;
    case trace::kind::overhead:
    case trace::kind::wait_end:
      if (r.task) {
        EXPECT_TRUE(created.count(r.task)) << "record of unknown task";
      }
      break;
    default:
      break;
    }
  }
  EXPECT_EQ(created.size(), begun.size());
  EXPECT_EQ(created.size(), ended.size());

  // Two roots (one per worker) and the graph's 8 tasks.
  std::vector<uint64_t> roots, explicit_ids;
  for (const auto &[id, r] : created) {
    if (r->arg == 0) {
      EXPECT_EQ(r->sub, trace::flag_implicit);
      roots.push_back(id);
    }
  }
  ASSERT_EQ(roots.size(), 2u);
  ASSERT_EQ(created.size(), 2u + 8u);

  // The root thread's children, in creation order: A B C D E F.
  const trace::record *root0 = nullptr;
  for (uint64_t id : roots)
    if (created[id]->thread == 0)
      root0 = created[id];
  ASSERT_NE(root0, nullptr);
  std::vector<uint64_t> kids;
  for (const trace::record &r : t.records)
    if (r.type == trace::kind::task_create && r.arg == root0->task)
      kids.push_back(r.task);
  ASSERT_EQ(kids.size(), 6u);
  uint64_t A = kids[0], B = kids[1], C = kids[2], D = kids[3], E = kids[4],
           F = kids[5];
  auto dep_is = [&](uint64_t id, std::size_t k, void *addr, trace::dep_mode m) {
    ASSERT_GT(deps[id].size(), k);
    EXPECT_EQ(deps[id][k].arg, reinterpret_cast<uint64_t>(addr));
    EXPECT_EQ(deps[id][k].sub, static_cast<uint8_t>(m));
    EXPECT_EQ(deps[id][k].task, id);
  };
  EXPECT_EQ(deps[A].size(), 1u);
  dep_is(A, 0, &g_x, trace::dep_mode::out);
  dep_is(B, 0, &g_x, trace::dep_mode::in);
  dep_is(B, 1, &g_y, trace::dep_mode::out);
  dep_is(C, 1, &g_z, trace::dep_mode::out);
  dep_is(D, 0, &g_y, trace::dep_mode::in);
  dep_is(D, 1, &g_z, trace::dep_mode::in);
  dep_is(E, 0, &g_w, trace::dep_mode::inout);
  dep_is(F, 0, &g_w, trace::dep_mode::in);

  // Times: create <= begin <= end; successors begin after predecessors end.
  for (const auto &[id, r] : created) {
    EXPECT_LE(r->time, begun[id]->time) << id;
    EXPECT_LE(begun[id]->time, ended[id]->time) << id;
  }
  auto after = [&](uint64_t pred, uint64_t succ) {
    EXPECT_GE(begun[succ]->time, ended[pred]->time)
        << succ << " began before " << pred << " ended";
  };
  after(A, B);
  after(A, C);
  after(B, D);
  after(C, D);
  after(E, F);

  // E's two children, and E's taskwait.
  std::vector<uint64_t> grandkids;
  for (const auto &[id, r] : created)
    if (r->arg == E)
      grandkids.push_back(id);
  EXPECT_EQ(grandkids.size(), 2u);
  for (uint64_t g : grandkids)
    EXPECT_LE(ended[g]->time, ended[E]->time);

  // The waits: E's taskwait, the root's taskwait on(y) with its dep record
  // (after B, whose out y it waits for) and the root's taskwait.
  int e_taskwait = 0, root_on = 0, root_taskwait = 0;
  for (const trace::record &w : waits) {
    auto k = static_cast<trace::wait_kind>(w.sub);
    if (w.task == E && k == trace::wait_kind::taskwait)
      ++e_taskwait;
    if (w.task == root0->task && k == trace::wait_kind::taskwait)
      ++root_taskwait;
    if (w.task == root0->task && k == trace::wait_kind::taskwait_on) {
      ++root_on;
      EXPECT_EQ(w.count, 1u);
    }
  }
  EXPECT_EQ(e_taskwait, 1);
  EXPECT_EQ(root_on, 1);
  EXPECT_GE(root_taskwait, 1);

  // Overhead segments: one spawn per explicit task; no finish segment (not
  // timed apart since version 7: it opens the thread's next schedule
  // segment).
  std::map<uint8_t, int> ov;
  bool counters = false;
  for (const trace::record &r : t.records) {
    if (r.type == trace::kind::overhead)
      ++ov[r.sub];
    counters |= r.type == trace::kind::counter;
  }
  EXPECT_EQ(ov[uint8_t(trace::overhead_kind::spawn)], 8);
  EXPECT_EQ(ov[uint8_t(trace::overhead_kind::finish)], 0);
  EXPECT_GE(ov[uint8_t(trace::overhead_kind::schedule)], 1);
  EXPECT_TRUE(counters);

  // The graph builder accepts it and finds the diamond's edges.
  trace::task_graph g = trace::build_graph(t);
  auto edge = [&](uint64_t from, uint64_t to) {
    const trace::task_node &n = g.tasks[g.index_of(from)];
    for (uint32_t i = 0; i < n.nsuccs; ++i)
      if (g.tasks[g.succs[n.first_succ + i]].id == to)
        return true;
    return false;
  };
  EXPECT_TRUE(edge(A, B));
  EXPECT_TRUE(edge(A, C));
  EXPECT_TRUE(edge(B, D));
  EXPECT_TRUE(edge(C, D));
  EXPECT_TRUE(edge(E, F));
  EXPECT_FALSE(edge(B, C));
  std::remove(path.c_str());
}

// Many short tasks on two threads: in the merged trace every task begins
// after its creation and after the predecessors its dependences name ended
// (the order of events across threads holds).
TEST_P(recorder, ManyTasksKeepTheOrderAcrossThreads) {
  std::string path = temp_path(GetParam()) + ".many";
  setenv("WEFT_ENGINE", GetParam(), 1);
  setenv("WEFT_TRACE", path.c_str(), 1);
  ASSERT_EQ(weft_init(2), WEFT_OK) << weft_last_error();
  static long cells[64];
  for (int i = 0; i < 20000; ++i) {
    weft_dep d[] = {{&cells[i % 64], WEFT_INOUT},
                    {&cells[(i * 7 + 1) % 64], WEFT_IN}};
    ASSERT_EQ(weft_spawn(i % 50 == 0 ? nested : leaf, nullptr, d,
                         cells + i % 64 == cells + (i * 7 + 1) % 64 ? 1 : 2),
              WEFT_OK);
  }
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  unsetenv("WEFT_ENGINE");
  trace::task_graph g = trace::build_graph(trace::read(path));
  ASSERT_EQ(g.tasks.size(), 2u + 20000u + 2u * 400u);
  std::size_t edges = 0;
  for (const trace::task_node &n : g.tasks) {
    EXPECT_LE(n.create_ns, n.begin_ns) << n.id;
    for (uint32_t i = 0; i < n.nsuccs; ++i, ++edges) {
      const trace::task_node &s = g.tasks[g.succs[n.first_succ + i]];
      EXPECT_LE(n.end_ns, s.begin_ns) << n.id << " -> " << s.id;
    }
  }
  EXPECT_GT(edges, 20000u);
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(engines, recorder,
                         testing::Values("sw", "nexus", "picos"));

// A task with more dependences than a worker's buffer holds (32768 records,
// three dependences each) is written with all its deps records in one chunk.
TEST(recorder_sizes, DependenceListLargerThanABuffer) {
  std::string path = temp_path("huge");
  setenv("WEFT_TRACE", path.c_str(), 1);
  ASSERT_EQ(weft_init(1), WEFT_OK) << weft_last_error();
  const int n = 100000;
  std::vector<long> cells(n);
  std::vector<weft_dep> deps(n);
  for (int i = 0; i < n; ++i)
    deps[i] = {&cells[i], WEFT_IN};
  ASSERT_EQ(weft_spawn(leaf, nullptr, nullptr, 0), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, deps.data(), n), WEFT_OK);
  ASSERT_EQ(weft_spawn(leaf, nullptr, deps.data(), 1), WEFT_OK);
  ASSERT_EQ(weft_taskwait(), WEFT_OK);
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  trace::trace_data t = trace::read(path);
  std::size_t big = 0;
  for (std::size_t i = 0; i < t.records.size(); ++i)
    if (t.records[i].type == trace::kind::task_create &&
        t.records[i].count == static_cast<uint32_t>(n)) {
      ++big;
      EXPECT_EQ(t.records[i + n].arg,
                reinterpret_cast<uint64_t>(&cells[n - 1]));
    }
  EXPECT_EQ(big, 1u);
  EXPECT_EQ(trace::build_graph(t).tasks.size(), 1u + 3u);
  std::remove(path.c_str());
}

TEST(recorder_errors, BadPathNamesTheVariableAndThePath) {
  setenv("WEFT_TRACE", "/nonexistent-dir/x.trace", 1);
  EXPECT_EQ(weft_init(2), WEFT_EINVAL);
  std::string msg = weft_last_error();
  unsetenv("WEFT_TRACE");
  EXPECT_NE(msg.find("WEFT_TRACE"), std::string::npos) << msg;
  EXPECT_NE(msg.find("/nonexistent-dir/x.trace"), std::string::npos) << msg;
  // The runtime did not start: it starts now without a trace.
  EXPECT_EQ(weft_init(2), WEFT_OK);
  EXPECT_EQ(weft_shutdown(), WEFT_OK);
}

} // namespace
