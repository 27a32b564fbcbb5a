// Back-pressure never deadlocks and never reorders (DESIGN.md): random task
// programs run under every engine at tiny capacities (so most spawns meet a
// full engine and many go through the worker's backlog) at 1, 2 and 4
// threads, each checked against its serial meaning; and the two cases the
// backlog must get right, as directed tests:
//  (a) a later sibling whose dependences name what a backlogged task writes
//      (it must not enter the engine ahead of it: the engine would see no
//      predecessor and run it first);
//  (b) a task body that returns while the worker's backlog still holds its
//      children (they must still run, in order, and a taskgroup around the
//      task must wait for them).
//
// A program: every context (the root or a task) owns kCells cells; its
// children name them with in / out / inout and compute on them (a reader
// folds the value into its result, a writer stores a function of the old
// value and its id, so any reordering of conflicting siblings shows). The
// creating code places taskwait, taskwait depend, taskwait on and taskgroup
// at random and snapshots after each the cells the wait settles (all of
// them after a taskwait; the named ones after taskwait depend / on; after a
// taskgroup, those its tasks named), which must equal the serial ones. Results,
// snapshots and every final cell are compared with a serial run of the same
// program.
//
// Environment: WEFT_TEST_SEED (base seed), WEFT_TEST_ITERS (programs per
// configuration and thread count, overrides the default), WEFT_TEST_DEPTH
// (the tasks' nesting, 3 by default).
#include <weft/weft.h>

#include <gtest/gtest.h>

#include "gate.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

// ---- configurations ------------------------------------------------------

using env_list = std::vector<std::pair<const char *, const char *>>;

struct config {
  const char *name;
  env_list env;
  int scale;     // programs per thread count relative to the default
  int max_depth; // nesting of the programs' tasks
};

const std::vector<config> &configs() {
  static const std::vector<config> c = {
      {"sw", {{"WEFT_ENGINE", "sw"}}, 1},
      {"hwse",
       {{"WEFT_ENGINE", "sw"},
        {"WEFT_WS_ENGINE", "hwse"},
        {"WEFT_HWSE_FIFO", "32"},
        {"WEFT_HWSE_BINS", "1"}},
       1},
      {"nexus_tiny",
       {{"WEFT_ENGINE", "nexus"},
        {"WEFT_NEXUS_POOL", "4"},
        {"WEFT_NEXUS_SETS", "1"},
        {"WEFT_NEXUS_FIFO", "1"}},
       3},
      {"nexus_thread_tiny",
       {{"WEFT_ENGINE", "nexus"},
        {"WEFT_NEXUS_MODE", "thread"},
        {"WEFT_NEXUS_POOL", "4"},
        {"WEFT_NEXUS_SETS", "1"},
        {"WEFT_NEXUS_FIFO", "1"}},
       2},
      {"picos_tiny",
       {{"WEFT_ENGINE", "picos"},
        {"WEFT_PICOS_TASK_MEMORY", "4"},
        {"WEFT_PICOS_DEP_MEMORY", "8"},
        {"WEFT_PICOS_VERSION_MEMORY", "8"},
        {"WEFT_PICOS_READY_QUEUE", "1"},
        {"WEFT_PICOS_CORE_QUEUE", "1"},
        {"WEFT_PICOS_FETCH_QUEUE", "1"}},
       3},
      // Room for many tasks but few dependences: tasks without any enter
      // while those with some are refused.
      {"picos_versions",
       {{"WEFT_ENGINE", "picos"},
        {"WEFT_PICOS_TASK_MEMORY", "64"},
        {"WEFT_PICOS_DEP_MEMORY", "4"},
        {"WEFT_PICOS_VERSION_MEMORY", "4"}},
       2,
       3},
      {"nexus_rtl_small",
       {{"WEFT_ENGINE", "nexus-rtl"},
        {"WEFT_NEXUS_POOL", "64"},
        {"WEFT_NEXUS_SETS", "16"},
        {"WEFT_NEXUS_WAYS", "4"},
        {"WEFT_NEXUS_KOL", "2"},
        {"WEFT_NEXUS_DUMMY_KOL", "16"}},
       1}};
  return c;
}

const config &config_named(const char *name) {
  for (const config &c : configs())
    if (std::string(c.name) == name)
      return c;
  std::abort();
}

// Starts the runtime with a configuration's variables (and WEFT_STATS=1,
// whose report the directed tests read); stops it at the end.
struct runtime_scope {
  const config &c;
  bool up = false;
  runtime_scope(const config &cfg, int threads) : c(cfg) {
    for (auto &[k, v] : c.env)
      setenv(k, v, 1);
    int rc = weft_init(threads);
    up = rc == WEFT_OK;
    if (!up)
      ADD_FAILURE() << c.name << ": " << weft_last_error();
  }
  // Stops the runtime now; returns what WEFT_STATS printed.
  std::string stop() {
    setenv("WEFT_STATS", "1", 1);
    testing::internal::CaptureStderr();
    EXPECT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    std::string out = testing::internal::GetCapturedStderr();
    unsetenv("WEFT_STATS");
    up = false;
    return out;
  }
  ~runtime_scope() {
    if (up) {
      EXPECT_EQ(weft_shutdown(), WEFT_OK) << weft_last_error();
    }
    for (auto &[k, v] : c.env)
      unsetenv(k);
  }
};

// The value of `name=` in the WEFT_STATS report (-1 if absent).
long long stat_of(const std::string &report, const std::string &name) {
  std::size_t at = report.find(" " + name + "=");
  if (at == std::string::npos)
    at = report.find("  " + name + "=");
  if (at == std::string::npos)
    return -1;
  return std::atoll(report.c_str() + report.find('=', at) + 1);
}

// ---- random numbers ------------------------------------------------------

struct rng {
  uint64_t s;
  explicit rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 77) {}
  uint64_t next() { // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % uint64_t(n)); }
  bool chance(int pct) { return below(100) < pct; }
};

uint64_t mix(uint64_t a, uint64_t b) {
  a ^= b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2);
  return a * 0xBF58476D1CE4E5B9ull;
}

// ---- programs ------------------------------------------------------------

constexpr int kCells = 3;

struct program;

struct action {
  enum kind { spawn, taskwait, taskwait_deps, taskwait_on, group } k;
  int task = -1;              // spawn
  std::vector<weft_dep> wait; // taskwait_deps (addresses filled at run time)
  std::vector<int> wait_cells;
  std::vector<action> inner; // group
  int snap = -1;             // snapshot index (every wait)
};

struct task_rec {
  program *p = nullptr;
  int id = 0;
  int parent = -1; // -1: the root
  std::vector<std::pair<int, weft_dep_mode>> deps;
  std::vector<action> body;
  unsigned work = 0;
  bool sleeps = false;         // holds its engine entry a while
  uint64_t cells[kCells] = {}; // its children's cells
  uint64_t result = 0;
  std::atomic<int> runs{0};
};

struct program {
  std::vector<std::unique_ptr<task_rec>> tasks;
  std::vector<action> root;
  uint64_t root_cells[kCells] = {};
  std::vector<std::vector<uint64_t>> snaps;
  int nsnaps = 0;
  std::vector<std::string> wait_kinds; // per snapshot
  bool serial = false;
  std::atomic<int> errors{0};
  std::string first_error;

  uint64_t *cells_of(int parent) {
    return parent < 0 ? root_cells
                      : tasks[static_cast<std::size_t>(parent)]->cells;
  }
};

// Whether a task these actions create (not their descendants) names cell.
bool names_cell(const program &p, const std::vector<action> &acts, int cell) {
  for (const action &a : acts) {
    if (a.k == action::group && names_cell(p, a.inner, cell))
      return true;
    if (a.k == action::spawn)
      for (auto &d : p.tasks[static_cast<std::size_t>(a.task)]->deps)
        if (d.first == cell)
          return true;
  }
  return false;
}

void gen(program &p, rng &r, int max_depth, int parent, int depth, int &budget,
         std::vector<action> &out, bool in_group) {
  int n = 1 + r.below(depth == 0 ? 40 : 12);
  for (int i = 0; i < n && budget > 0; ++i) {
    action a{};
    int x = r.below(100);
    if (x < 6) {
      a.k = action::taskwait;
    } else if (x < 12) {
      a.k = action::taskwait_deps;
      int m = 1 + r.below(2);
      for (int j = 0; j < m; ++j) {
        a.wait_cells.push_back((j + r.below(kCells)) % kCells);
        a.wait.push_back({nullptr, r.chance(50) ? WEFT_IN : WEFT_INOUT});
      }
      if (m == 2 && a.wait_cells[0] == a.wait_cells[1])
        a.wait_cells[1] = (a.wait_cells[1] + 1) % kCells;
    } else if (x < 15) {
      a.k = action::taskwait_on;
      a.wait_cells.push_back(r.below(kCells));
    } else if (x < 19 && !in_group) {
      a.k = action::group;
      gen(p, r, max_depth, parent, depth, budget, a.inner, true);
      for (int cell = 0; cell < kCells; ++cell)
        if (names_cell(p, a.inner, cell))
          a.wait_cells.push_back(cell);
    } else {
      a.k = action::spawn;
      auto t = std::make_unique<task_rec>();
      t->p = &p;
      t->id = static_cast<int>(p.tasks.size());
      t->parent = parent;
      int nd = r.below(kCells + 1);
      int first = r.below(kCells);
      for (int j = 0; j < nd; ++j) {
        int m = r.below(3);
        t->deps.push_back({(first + j) % kCells, m == 0   ? WEFT_IN
                                                 : m == 1 ? WEFT_OUT
                                                          : WEFT_INOUT});
      }
      t->work = r.chance(10) ? 2000 + r.below(8000) : r.below(300);
      t->sleeps = r.chance(3);
      a.task = t->id;
      p.tasks.push_back(std::move(t));
      --budget;
      if (depth < max_depth && budget > 0 && r.chance(depth == 0 ? 25 : 15)) {
        std::vector<action> body;
        gen(p, r, max_depth, a.task, depth + 1, budget, body, false);
        p.tasks[static_cast<std::size_t>(a.task)]->body = std::move(body);
      }
    }
    if (a.k != action::spawn) {
      static const char *const names[] = {"spawn", "taskwait", "taskwait_deps",
                                          "taskwait_on", "taskgroup"};
      p.wait_kinds.push_back(names[a.k] + std::string(" in task ") +
                             std::to_string(parent));
      a.snap = p.nsnaps++;
    }
    out.push_back(std::move(a));
  }
}

std::unique_ptr<program> generate(uint64_t seed, int tasks, int max_depth) {
  auto p = std::make_unique<program>();
  rng r(seed);
  int budget = tasks;
  while (budget > 0)
    gen(*p, r, max_depth, -1, 0, budget, p->root, false);
  p->snaps.assign(static_cast<std::size_t>(p->nsnaps), {});
  return p;
}

void run_actions(program &p, int self, std::vector<action> &acts);

void spin(unsigned n) {
  volatile unsigned sink = 0;
  for (unsigned i = 0; i < n; ++i)
    sink = sink + i;
}

void body(void *arg) {
  auto *t = static_cast<task_rec *>(arg);
  program &p = *t->p;
  if (t->runs.fetch_add(1) != 0 && !p.serial)
    if (p.errors.fetch_add(1) == 0)
      p.first_error = "task " + std::to_string(t->id) + " ran twice";
  uint64_t *c = p.cells_of(t->parent);
  uint64_t acc = uint64_t(t->id) + 1;
  for (auto &[cell, mode] : t->deps) {
    uint64_t &v = c[cell];
    if (mode == WEFT_IN)
      acc = mix(acc, v);
    else if (mode == WEFT_OUT)
      v = mix(uint64_t(t->id), 1);
    else
      v = mix(v, uint64_t(t->id));
  }
  spin(t->work);
  if (t->sleeps && !p.serial)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  t->result = acc;
  run_actions(p, t->id, t->body);
}

void snapshot(program &p, int self, const action &a) {
  uint64_t *c = p.cells_of(self);
  p.snaps[static_cast<std::size_t>(a.snap)].assign(c, c + kCells);
}

void fail(program &p, const std::string &what) {
  if (p.errors.fetch_add(1) == 0)
    p.first_error = what;
}

void run_actions(program &p, int self, std::vector<action> &acts) {
  uint64_t *c = p.cells_of(self);
  for (action &a : acts) {
    switch (a.k) {
    case action::spawn: {
      task_rec *t = p.tasks[static_cast<std::size_t>(a.task)].get();
      if (p.serial) {
        body(t);
        break;
      }
      weft_dep d[kCells];
      for (std::size_t j = 0; j < t->deps.size(); ++j)
        d[j] = {&c[t->deps[j].first], t->deps[j].second};
      if (weft_spawn(body, t, d, static_cast<int>(t->deps.size())) != WEFT_OK)
        fail(p, std::string("weft_spawn: ") + weft_last_error());
      break;
    }
    case action::taskwait:
      if (!p.serial && weft_taskwait() != WEFT_OK)
        fail(p, std::string("weft_taskwait: ") + weft_last_error());
      snapshot(p, self, a);
      break;
    case action::taskwait_deps:
      for (std::size_t j = 0; j < a.wait.size(); ++j)
        a.wait[j].addr = &c[a.wait_cells[j]];
      if (!p.serial &&
          weft_taskwait_deps(a.wait.data(), static_cast<int>(a.wait.size())) !=
              WEFT_OK)
        fail(p, std::string("weft_taskwait_deps: ") + weft_last_error());
      // Only the named cells are settled.
      p.snaps[static_cast<std::size_t>(a.snap)].clear();
      for (int cell : a.wait_cells)
        p.snaps[static_cast<std::size_t>(a.snap)].push_back(c[cell]);
      break;
    case action::taskwait_on:
      if (!p.serial && weft_taskwait_on(&c[a.wait_cells[0]]) != WEFT_OK)
        fail(p, std::string("weft_taskwait_on: ") + weft_last_error());
      p.snaps[static_cast<std::size_t>(a.snap)] = {c[a.wait_cells[0]]};
      break;
    case action::group:
      if (!p.serial && weft_taskgroup_begin() != WEFT_OK)
        fail(p, std::string("weft_taskgroup_begin: ") + weft_last_error());
      run_actions(p, self, a.inner);
      if (!p.serial && weft_taskgroup_end() != WEFT_OK)
        fail(p, std::string("weft_taskgroup_end: ") + weft_last_error());
      // Settled: the cells the group's tasks named (every earlier writer
      // of one is ordered before them); an earlier task outside the group
      // may still write the others.
      p.snaps[static_cast<std::size_t>(a.snap)].clear();
      for (int cell : a.wait_cells)
        p.snaps[static_cast<std::size_t>(a.snap)].push_back(c[cell]);
      break;
    }
  }
}

// What a run left: every result, snapshot and cell.
struct outcome {
  std::vector<uint64_t> results, cells;
  std::vector<std::vector<uint64_t>> snaps;
};

outcome outcome_of(program &p) {
  outcome o;
  for (auto &t : p.tasks) {
    o.results.push_back(t->result);
    o.cells.insert(o.cells.end(), t->cells, t->cells + kCells);
  }
  o.cells.insert(o.cells.end(), p.root_cells, p.root_cells + kCells);
  o.snaps = p.snaps;
  return o;
}

// Runs program `seed` in parallel (under a taskgroup: its end waits for
// every descendant) and serially; "" when they agree.
std::string check(uint64_t seed, int tasks, int max_depth) {
  auto par = generate(seed, tasks, max_depth);
  if (weft_taskgroup_begin() != WEFT_OK)
    return std::string("weft_taskgroup_begin: ") + weft_last_error();
  run_actions(*par, -1, par->root);
  if (weft_taskgroup_end() != WEFT_OK)
    return std::string("weft_taskgroup_end: ") + weft_last_error();
  if (par->errors.load() != 0)
    return par->first_error;
  auto ser = generate(seed, tasks, max_depth);
  ser->serial = true;
  run_actions(*ser, -1, ser->root);
  outcome a = outcome_of(*par), b = outcome_of(*ser);
  for (std::size_t i = 0; i < par->tasks.size(); ++i)
    if (par->tasks[i]->runs.load() != 1)
      return "task " + std::to_string(i) + " ran " +
             std::to_string(par->tasks[i]->runs.load()) + " times";
  for (std::size_t i = 0; i < a.results.size(); ++i)
    if (a.results[i] != b.results[i])
      return "task " + std::to_string(i) +
             " read other values than in the serial run";
  for (std::size_t i = 0; i < a.snaps.size(); ++i)
    if (a.snaps[i] != b.snaps[i])
      return "wait " + std::to_string(i) + " (" + par->wait_kinds[i] +
             ") saw other cells than in the serial run";
  if (a.cells != b.cells)
    return "the final cells differ from the serial run";
  return "";
}

uint64_t base_seed() {
  const char *s = std::getenv("WEFT_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261127;
}

int programs(int scale) {
  if (const char *s = std::getenv("WEFT_TEST_ITERS"))
    return std::atoi(s);
#if defined(__SANITIZE_THREAD__)
  return scale;
#else
  return 10 * scale;
#endif
}

void random_programs(const config &cfg) {
  for (int threads : {1, 2, 4}) {
    runtime_scope rt(cfg, threads);
    ASSERT_TRUE(rt.up);
    int n = programs(cfg.scale);
    int depth = cfg.max_depth;
    if (const char *d = std::getenv("WEFT_TEST_DEPTH"))
      depth = depth == 0 ? 0 : std::atoi(d);
    for (int i = 0; i < n; ++i) {
      uint64_t seed = base_seed() + uint64_t(i);
      int tasks = 40 + static_cast<int>(seed % 7) * 20;
      std::string err = check(seed, tasks, depth);
      ASSERT_EQ(err, "") << cfg.name << " t" << threads
                         << ": WEFT_TEST_SEED=" << seed
                         << " WEFT_TEST_ITERS=1 reproduces it";
    }
  }
}

TEST(BackpressureRandom, Sw) { random_programs(config_named("sw")); }
TEST(BackpressureRandom, Hwse) { random_programs(config_named("hwse")); }
TEST(BackpressureRandom, NexusTiny) {
  random_programs(config_named("nexus_tiny"));
}
TEST(BackpressureRandom, NexusThreadTiny) {
  random_programs(config_named("nexus_thread_tiny"));
}
TEST(BackpressureRandom, PicosTiny) {
  random_programs(config_named("picos_tiny"));
}
TEST(BackpressureRandom, PicosVersions) {
  random_programs(config_named("picos_versions"));
}
TEST(BackpressureRandom, NexusRtlSmall) {
  random_programs(config_named("nexus_rtl_small"));
}

// ---- directed tests ------------------------------------------------------

using weft_test::gate;
using weft_test::hold;
using weft_test::kPatience;

// Spawns hold(g) on x and waits until another worker runs it.
bool spawn_gate(gate &g, const weft_dep *deps, int ndeps) {
  if (weft_spawn(hold, &g, deps, ndeps) != WEFT_OK)
    return false;
  auto until = std::chrono::steady_clock::now() + kPatience;
  while (!g.started.load() && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  return g.started.load();
}

// x = x * 3 + i, in creation order.
struct link {
  uint64_t *x;
  uint64_t i;
};
void step(void *p) {
  auto *l = static_cast<link *>(p);
  *l->x = *l->x * 3 + l->i;
}
uint64_t chain_value(uint64_t x, int n) {
  for (int i = 0; i < n; ++i)
    x = x * 3 + uint64_t(i);
  return x;
}

struct reader {
  uint64_t *x;
  uint64_t seen = 0;
};
void read_x(void *p) {
  auto *r = static_cast<reader *>(p);
  r->seen = *r->x;
}

constexpr int kLinks = 24; // longer than any tiny engine holds

// (a) The gate holds x; a chain on x fills the engine and the rest goes to
// the backlog; then a reader of x, a writer of x and y, and a reader of y.
// Each must see the value of the serial order.
TEST(BackpressureDirected, SiblingOfABackloggedTaskKeepsProgramOrder) {
  for (const char *name : {"nexus_tiny", "picos_tiny"})
    for (int threads : {2, 4}) {
      SCOPED_TRACE(std::string(name) + " t" + std::to_string(threads));
      runtime_scope rt(config_named(name), threads);
      ASSERT_TRUE(rt.up);
      uint64_t x = 1, y = 5;
      weft_dep dx{&x, WEFT_INOUT};
      gate g;
      ASSERT_TRUE(spawn_gate(g, &dx, 1)) << "no other worker took the gate";
      std::vector<link> links(kLinks);
      for (int i = 0; i < kLinks; ++i) {
        links[static_cast<std::size_t>(i)] = {&x, uint64_t(i)};
        ASSERT_EQ(weft_spawn(step, &links[static_cast<std::size_t>(i)], &dx, 1),
                  WEFT_OK);
      }
      reader rx{&x};
      weft_dep in_x{&x, WEFT_IN};
      ASSERT_EQ(weft_spawn(read_x, &rx, &in_x, 1), WEFT_OK);
      link ly{&y, 7};
      weft_dep xy[2] = {{&x, WEFT_IN}, {&y, WEFT_INOUT}};
      ASSERT_EQ(weft_spawn(step, &ly, xy, 2), WEFT_OK);
      reader ry{&y};
      weft_dep in_y{&y, WEFT_IN};
      ASSERT_EQ(weft_spawn(read_x, &ry, &in_y, 1), WEFT_OK);
      g.release = true;
      ASSERT_EQ(weft_taskwait(), WEFT_OK) << weft_last_error();
      EXPECT_FALSE(g.timed_out.load()) << "the creator did not go on";
      EXPECT_EQ(x, chain_value(1, kLinks));
      EXPECT_EQ(rx.seen, chain_value(1, kLinks));
      EXPECT_EQ(y, 5u * 3 + 7);
      EXPECT_EQ(ry.seen, 5u * 3 + 7);
      std::string report = rt.stop();
      EXPECT_GT(stat_of(report, "backlogged"), 0)
          << "the chain did not go through the backlog: " << report;
    }
}

// The other side of (a): a sibling that names nothing a backlogged task
// names is not held behind it. With room for tasks but not for more
// dependences (picos_versions), the gate holds x and the chain on x goes to
// the backlog; a later task without dependences enters the engine and a
// free worker runs it while the gate still holds (the creator only spins).
void set_flag(void *p) { static_cast<std::atomic<bool> *>(p)->store(true); }

TEST(BackpressureDirected, UnrelatedSiblingIsNotHeldBehindTheBacklog) {
  for (int threads : {3, 4}) {
    SCOPED_TRACE("picos_versions t" + std::to_string(threads));
    runtime_scope rt(config_named("picos_versions"), threads);
    ASSERT_TRUE(rt.up);
    uint64_t x = 1;
    weft_dep dx{&x, WEFT_INOUT};
    gate g;
    ASSERT_TRUE(spawn_gate(g, &dx, 1)) << "no other worker took the gate";
    std::vector<link> links(kLinks);
    for (int i = 0; i < kLinks; ++i) {
      links[static_cast<std::size_t>(i)] = {&x, uint64_t(i)};
      ASSERT_EQ(weft_spawn(step, &links[static_cast<std::size_t>(i)], &dx, 1),
                WEFT_OK);
    }
    std::atomic<bool> flag{false};
    ASSERT_EQ(weft_spawn(set_flag, &flag, nullptr, 0), WEFT_OK);
    auto until = std::chrono::steady_clock::now() + kPatience;
    while (!flag.load() && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    EXPECT_TRUE(flag.load()) << "the task waited behind the backlog";
    EXPECT_EQ(x, 1u) << "the chain ran before the gate was released";
    g.release = true;
    ASSERT_EQ(weft_taskwait(), WEFT_OK) << weft_last_error();
    EXPECT_EQ(x, chain_value(1, kLinks));
    std::string report = rt.stop();
    EXPECT_GT(stat_of(report, "backlogged"), 0)
        << "the chain did not go through the backlog: " << report;
  }
}

// (b) A task creates a gate on x and a chain on x longer than the engine
// holds, then returns; only then does a thread outside the runtime release
// the gate. The chain (in the backlog when the body returned) runs in
// order, and the taskgroup around the task waits for all of it.
struct parent_arg {
  gate g;
  uint64_t x = 2;
  std::vector<link> links;
  std::atomic<bool> body_returned{false};
  std::atomic<bool> gate_ok{true};
};

void parent_body(void *p) {
  auto *a = static_cast<parent_arg *>(p);
  weft_dep dx{&a->x, WEFT_INOUT};
  if (!spawn_gate(a->g, &dx, 1))
    a->gate_ok = false;
  for (auto &l : a->links)
    weft_spawn(step, &l, &dx, 1);
  a->body_returned = true;
}

TEST(BackpressureDirected, BodyReturnsWithChildrenInTheBacklog) {
  for (const char *name : {"nexus_tiny", "picos_tiny"})
    for (int threads : {2, 4}) {
      SCOPED_TRACE(std::string(name) + " t" + std::to_string(threads));
      runtime_scope rt(config_named(name), threads);
      ASSERT_TRUE(rt.up);
      parent_arg a;
      a.links.resize(kLinks);
      for (int i = 0; i < kLinks; ++i)
        a.links[static_cast<std::size_t>(i)] = {&a.x, uint64_t(i)};
      std::thread releaser([&a] {
        auto until = std::chrono::steady_clock::now() + kPatience;
        while (!a.body_returned.load() &&
               std::chrono::steady_clock::now() < until)
          std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        a.g.release = true;
      });
      ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
      ASSERT_EQ(weft_spawn(parent_body, &a, nullptr, 0), WEFT_OK);
      ASSERT_EQ(weft_taskgroup_end(), WEFT_OK) << weft_last_error();
      releaser.join();
      EXPECT_TRUE(a.gate_ok.load()) << "no other worker took the gate";
      EXPECT_TRUE(a.body_returned.load());
      EXPECT_FALSE(a.g.timed_out.load()) << "the task's body never returned";
      EXPECT_EQ(a.x, chain_value(2, kLinks));
      std::string report = rt.stop();
      EXPECT_GT(stat_of(report, "backlogged"), 0)
          << "the chain did not go through the backlog: " << report;
    }
}

// Deep nesting: every level's first child recurses and the later ones form
// a chain on the level's cell behind it, so every level of a worker's stack
// can hold backlogged children while the engine is full of the levels
// above (more such parents than the drain once looked past).
struct level {
  int depth;
  uint64_t cell = 1;
  std::atomic<int> *errors;
};

void nest(void *p);

void nest(void *p) {
  auto *lv = static_cast<level *>(p);
  if (lv->depth == 0)
    return;
  constexpr int kChain = 5;
  level child{lv->depth - 1, 1, lv->errors};
  link links[kChain];
  weft_dep d{&lv->cell, WEFT_INOUT};
  if (weft_spawn(nest, &child, &d, 1) != WEFT_OK)
    lv->errors->fetch_add(1);
  for (int i = 0; i < kChain; ++i) {
    links[i] = {&lv->cell, uint64_t(i)};
    if (weft_spawn(step, &links[i], &d, 1) != WEFT_OK)
      lv->errors->fetch_add(1);
  }
  if (weft_taskwait() != WEFT_OK || lv->cell != chain_value(1, kChain))
    lv->errors->fetch_add(1);
}

TEST(BackpressureDirected, DeepNestingWithBackloggedChildrenAtEveryLevel) {
  for (const char *name : {"nexus_tiny", "picos_tiny", "picos_versions"})
    for (int threads : {2, 4}) {
      SCOPED_TRACE(std::string(name) + " t" + std::to_string(threads));
      runtime_scope rt(config_named(name), threads);
      ASSERT_TRUE(rt.up);
      std::atomic<int> errors{0};
#if defined(__SANITIZE_THREAD__)
      constexpr int kReps = 1;
#else
      constexpr int kReps = 8;
#endif
      for (int rep = 0; rep < kReps; ++rep) {
        level top{14, 1, &errors};
        nest(&top);
      }
      EXPECT_EQ(errors.load(), 0);
    }
}

} // namespace
