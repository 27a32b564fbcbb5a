// Random task graphs, traced and read back: every dependence a task was
// given is in the trace, and the graph `weft sim` replays orders the tasks
// as their serial meaning does, whether a task was deferred or run in place
// by the throttle (task_inline_dep, a task_create with its dependences, or
// a deferred task's records), through each API: weft_spawn,
// weft_spawn_copy, weft::spawn (the C++ API) and the OpenMP front end (a
// gcc -fopenmp program under `weft run`), at 1, 2 and 4 threads.
//
// With `repeat`, a task takes the shape of the one before it that often
// (a run of tasks alike, which version 11 records as one timed task and a
// task_inline_run of untimed ones when they run in place one after the
// other): the trace must still hold every task and every edge.
//
// The check: for the n tasks in creation order, task j is reachable from
// task i < j in the trace's graph exactly when it is in the serial
// meaning's (the transitive closure of "j accesses a word i accessed, one
// of them writing"), so a dropped edge (a later task free to run before
// its predecessor) and an invented one both fail.
#include "run_command.hpp"
#include "trace/compact.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <weft/weft.h>
#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <bitset>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace weft;

constexpr int kFill = 300; // 0-dependence children: the creator is throttled
constexpr int kTasks = 240;
constexpr int kWords = 8;

// A task's shape: 0 no dependence; 1 in y[a]; 2 out y[a]; 3 inout y[a];
// 4 in y[a] and inout y[b] (omp_random_graph.c's shapes).
struct shape {
  unsigned kind, a, b;
  int api = 0; // native: 0 weft_spawn, 1 weft_spawn_copy, 2 weft::spawn
};

std::string temp_path(const char *tag, int threads) {
  return testing::TempDir() + "weft_in_place_edges_" + tag + "_" +
         std::to_string(threads) + "_" + std::to_string(getpid()) + ".trace";
}

// The native program's words and its count of tasks that saw a word out
// of the serial order.
long g_y[kWords];
std::atomic<long> g_bad{0};

struct body_arg {
  unsigned kind, a, b;
  long wa, wb;
};

void run_body(const body_arg &x) {
  switch (x.kind) {
  case 1:
    g_bad += g_y[x.a] != x.wa;
    break;
  case 2:
  case 3:
    g_bad += g_y[x.a] != x.wa;
    g_y[x.a] = x.wa + 1;
    break;
  case 4:
    g_bad += g_y[x.a] != x.wa || g_y[x.b] != x.wb;
    g_y[x.b] = x.wb + 1;
    break;
  default:
    break;
  }
}
void body_ptr(void *p) {
  run_body(*static_cast<body_arg *>(p));
  delete static_cast<body_arg *>(p);
}
void body_copy(void *p) { run_body(*static_cast<body_arg *>(p)); }
void fill(void *) {}

int ndeps_of(unsigned kind) { return kind == 0 ? 0 : kind == 4 ? 2 : 1; }

// Spawns the fill and kTasks random tasks through the native APIs at
// `threads` threads, traced to `path`; returns their shapes.
std::vector<shape> record_native(int threads, uint64_t seed,
                                 const std::string &path, double repeat = 0) {
  std::mt19937_64 g(seed);
  std::vector<shape> shapes;
  for (long &y : g_y)
    y = 0;
  g_bad = 0;
  setenv("WEFT_ENGINE", "sw", 1);
  setenv("WEFT_THROTTLE_GRAIN", "fine", 1);
  setenv("WEFT_TRACE", path.c_str(), 1);
  EXPECT_EQ(weft_init(threads), WEFT_OK) << weft_last_error();
  for (int i = 0; i < kFill; ++i)
    EXPECT_EQ(weft_spawn(fill, nullptr, nullptr, 0), WEFT_OK);
  long writes[kWords] = {};
  for (int i = 0; i < kTasks; ++i) {
    shape s{static_cast<unsigned>(g() % 5), static_cast<unsigned>(g() % kWords),
            0, static_cast<int>(g() % 3)};
    s.b = (s.a + 1 + static_cast<unsigned>(g() % (kWords - 1))) % kWords;
    if (!shapes.empty() && double(g() % 1000) < repeat * 1000) {
      const int api = s.api;
      s = shapes.back();
      s.api = api;
    }
    shapes.push_back(s);
    body_arg x{s.kind, s.a, s.b, writes[s.a], writes[s.b]};
    weft_dep d[2];
    int nd = ndeps_of(s.kind);
    if (s.kind == 4) {
      d[0] = {&g_y[s.a], WEFT_IN};
      d[1] = {&g_y[s.b], WEFT_INOUT};
      ++writes[s.b];
    } else if (s.kind != 0) {
      d[0] = {&g_y[s.a], s.kind == 1   ? WEFT_IN
                         : s.kind == 2 ? WEFT_OUT
                                       : WEFT_INOUT};
      writes[s.a] += s.kind != 1;
    }
    if (s.api == 0) {
      EXPECT_EQ(weft_spawn(body_ptr, new body_arg(x), d, nd), WEFT_OK);
    } else if (s.api == 1) {
      EXPECT_EQ(weft_spawn_copy(body_copy, &x, sizeof x, d, nd, nullptr),
                WEFT_OK);
    } else {
      auto f = [x] { run_body(x); };
      switch (s.kind) {
      case 0:
        weft::spawn(f);
        break;
      case 1:
        weft::spawn(weft::in(g_y[s.a]), f);
        break;
      case 2:
        weft::spawn(weft::out(g_y[s.a]), f);
        break;
      case 3:
        weft::spawn(weft::inout(g_y[s.a]), f);
        break;
      default:
        weft::spawn(weft::in(g_y[s.a]), weft::inout(g_y[s.b]), f);
        break;
      }
    }
  }
  EXPECT_EQ(weft_taskwait(), WEFT_OK);
  EXPECT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");
  unsetenv("WEFT_THROTTLE_GRAIN");
  unsetenv("WEFT_ENGINE");
  EXPECT_EQ(g_bad.load(), 0) << "tasks ran out of their serial order";
  for (int k = 0; k < kWords; ++k)
    EXPECT_EQ(g_y[k], writes[k]) << "word " << k;
  return shapes;
}

// Whether task j (of the shapes, in order) must follow task i < j.
bool conflict(const shape &i, const shape &j) {
  auto acc = [](const shape &s, unsigned w, bool &writes) {
    writes = false;
    if (s.kind == 0)
      return false;
    if (s.kind == 4) {
      writes = w == s.b;
      return w == s.a || w == s.b;
    }
    writes = s.kind != 1;
    return w == s.a;
  };
  for (unsigned w = 0; w < kWords; ++w) {
    bool wi, wj;
    if (acc(i, w, wi) && acc(j, w, wj) && (wi || wj))
      return true;
  }
  return false;
}

// The trace's graph against the shapes: each task's dependences, and
// reachability as the serial meaning's. `omp`: the front end records out
// and inout alike and in any order. Returns the tasks with one dependence
// that began at their creation (run in place), by API.
std::vector<int> check_graph(const trace::task_graph &g,
                             const std::vector<shape> &shapes, uint64_t y,
                             bool omp) {
  std::vector<uint32_t> kids; // the explicit children of implicit tasks
  for (uint32_t k = 0; k < g.tasks.size(); ++k) {
    const trace::task_node &n = g.tasks[k];
    if (n.parent != trace::kNone && !(n.flags & trace::flag_implicit) &&
        (g.tasks[n.parent].flags & trace::flag_implicit))
      kids.push_back(k);
  }
  std::vector<int> in_place(3, 0);
  EXPECT_EQ(kids.size(), std::size_t(kFill) + shapes.size());
  if (kids.size() != std::size_t(kFill) + shapes.size())
    return in_place;
  const std::size_t n = shapes.size();
  std::vector<uint32_t> node(n);
  std::vector<int> index(g.tasks.size(), -1);
  for (std::size_t i = 0; i < n; ++i) {
    node[i] = kids[kFill + i];
    index[node[i]] = static_cast<int>(i);
    const trace::task_node &t = g.tasks[node[i]];
    const shape &s = shapes[i];
    EXPECT_EQ(t.ndeps, static_cast<uint32_t>(ndeps_of(s.kind)))
        << "task " << i << " (shape " << s.kind << ", api " << s.api << ")";
    if (t.ndeps != static_cast<uint32_t>(ndeps_of(s.kind)))
      return in_place;
    if (t.ndeps == 1 && t.begin_ns == t.create_ns)
      ++in_place[static_cast<std::size_t>(s.api)];
    auto mode_ok = [&](const trace::dependence &d, trace::dep_mode want) {
      if (omp &&
          (want == trace::dep_mode::out || want == trace::dep_mode::inout))
        return d.mode == trace::dep_mode::out ||
               d.mode == trace::dep_mode::inout;
      return d.mode == want;
    };
    for (uint32_t k = 0; k < t.ndeps; ++k) {
      const trace::dependence &d = g.deps[t.first_dep + k];
      unsigned w = static_cast<unsigned>((d.address - y) / sizeof(long));
      if (s.kind == 4) {
        EXPECT_TRUE((w == s.a && mode_ok(d, trace::dep_mode::in)) ||
                    (w == s.b && mode_ok(d, trace::dep_mode::inout)))
            << "task " << i << " dep " << k;
      } else {
        trace::dep_mode want = s.kind == 1   ? trace::dep_mode::in
                               : s.kind == 2 ? trace::dep_mode::out
                                             : trace::dep_mode::inout;
        EXPECT_EQ(w, s.a) << "task " << i;
        EXPECT_TRUE(mode_ok(d, want)) << "task " << i << " mode";
      }
    }
  }
  // Reachability, from the last task back.
  std::vector<std::bitset<kTasks>> want(n), got(n);
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = i + 1; j < n; ++j)
      if (conflict(shapes[i], shapes[j]))
        want[i] |= want[j], want[i].set(j);
    const trace::task_node &t = g.tasks[node[i]];
    for (uint32_t e = 0; e < t.nsuccs; ++e) {
      int j = index[g.succs[t.first_succ + e]];
      EXPECT_GT(j, static_cast<int>(i)) << "an edge to an earlier task";
      if (j > static_cast<int>(i))
        got[i] |= got[static_cast<std::size_t>(j)],
            got[i].set(static_cast<std::size_t>(j));
    }
  }
  int missing = 0, extra = 0;
  for (std::size_t i = 0; i < n; ++i) {
    missing += static_cast<int>((want[i] & ~got[i]).count());
    extra += static_cast<int>((got[i] & ~want[i]).count());
  }
  EXPECT_EQ(missing, 0) << "orders of the serial meaning the trace lost";
  EXPECT_EQ(extra, 0) << "orders the trace invented";
  return in_place;
}

// The task_inline_run records of the trace at path (its compact chunks).
std::size_t inline_runs(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr) << path;
  if (!f)
    return 0;
  trace::file_header h{};
  std::size_t n = 0;
  if (std::fread(&h, sizeof h, 1, f) == 1) {
    trace::chunk_header c{};
    std::vector<uint8_t> bytes;
    std::vector<trace::record> raw;
    while (std::fread(&c, sizeof c, 1, f) == 1) {
      bytes.resize(c.bytes);
      if (std::fread(bytes.data(), 1, c.bytes, f) != c.bytes)
        break;
      raw.clear();
      std::size_t at = 0;
      EXPECT_EQ(trace::compact::decode(bytes.data(), c.bytes, c.records,
                                       c.thread, raw, nullptr, &at),
                "");
      for (const trace::record &r : raw)
        n += r.type == trace::kind::task_inline_run;
    }
  }
  std::fclose(f);
  return n;
}

void native(int threads, double repeat = 0) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    std::string path = temp_path("native", threads);
    std::vector<shape> shapes =
        record_native(threads, seed * 7919, path, repeat);
    trace::task_graph g = trace::build_graph(trace::read(path));
    const std::size_t runs = inline_runs(path);
    std::remove(path.c_str());
    if (repeat > 0 && threads == 1) {
      EXPECT_GE(runs, std::size_t(1)) << "no task_inline_run, seed " << seed;
    }
    std::vector<int> in_place =
        check_graph(g, shapes, reinterpret_cast<uint64_t>(&g_y[0]), false);
    if (threads == 1) { // the path this test is about, through each API
      for (int a = 0; a < 3; ++a) {
        EXPECT_GE(in_place[static_cast<std::size_t>(a)], 1)
            << "no task with one dependence ran in place through API " << a
            << ", seed " << seed;
      }
    }
    if (::testing::Test::HasFailure())
      FAIL() << "seed " << seed;
  }
}

// repeat: per mille, as omp_random_graph takes it.
void openmp(int threads, int repeat = 0) {
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    std::string path = temp_path("omp", threads);
    trace_test::command_result r = trace_test::run_command(
        "WEFT_ENGINE=sw WEFT_THROTTLE_GRAIN=fine " + std::string(WEFT_CLI) +
        " run --trace " + path + " --threads " + std::to_string(threads) +
        " -- " + OMP_RANDOM_GRAPH + " " + std::to_string(threads) + " " +
        std::to_string(seed) + " " + std::to_string(kFill) + " " +
        std::to_string(kTasks) + " " + std::to_string(repeat));
    ASSERT_EQ(r.status, 0) << r.output;
    std::istringstream out(r.output);
    std::string word;
    uint64_t y = 0;
    std::vector<shape> shapes;
    while (out >> word) {
      if (word == "y") {
        out >> word;
        y = std::stoull(word, nullptr, 16);
      } else if (word == "t") {
        shape s{};
        out >> s.kind >> s.a >> s.b;
        shapes.push_back(s);
      }
    }
    ASSERT_EQ(shapes.size(), std::size_t(kTasks)) << r.output;
    trace::task_graph g = trace::build_graph(trace::read(path));
    const std::size_t runs = inline_runs(path);
    std::remove(path.c_str());
    if (repeat > 0 && threads == 1) {
      EXPECT_GE(runs, std::size_t(1)) << "no task_inline_run, seed " << seed;
    }
    std::vector<int> in_place = check_graph(g, shapes, y, true);
    if (threads == 1) {
      EXPECT_GE(in_place[0], 1) << "no task with one dependence ran in place";
    }
    if (::testing::Test::HasFailure())
      FAIL() << "seed " << seed;
  }
}

TEST(in_place_edges, NativeOneThread) { native(1); }
TEST(in_place_edges, NativeTwoThreads) { native(2); }
TEST(in_place_edges, NativeRunsOneThread) { native(1, 0.8); }
TEST(in_place_edges, NativeRunsTwoThreads) { native(2, 0.8); }
TEST(in_place_edges, NativeFourThreads) { native(4); }
TEST(in_place_edges, OpenMPOneThread) { openmp(1); }
TEST(in_place_edges, OpenMPTwoThreads) { openmp(2); }
// GOMP_task's tasks with dependences, traced in depend_task's own frame
// (worker::run_in_place_traced_here): runs of tasks alike, broken by the
// others (timed), every task and edge still in the trace.
TEST(in_place_edges, OpenMPRunsOneThread) { openmp(1, 800); }
TEST(in_place_edges, OpenMPRunsTwoThreads) { openmp(2, 800); }
TEST(in_place_edges, OpenMPFourThreads) { openmp(4); }

} // namespace
