// The randomized property test: thousands of random task graphs, checked
// against the sequential program's order.
//
// A graph is generated up front from a seed (so that a failure reproduces):
// tasks with 0..6 dependences on addresses from a small pool (conflicts are
// frequent), random modes, random nesting (a task's body spawns children with
// their own dependences on the same pool: they only interact with their
// siblings), and taskwait / taskwait_on / taskwait_deps / taskgroup placed at
// random in the creating code. Every task takes a sequence number when it
// starts and when it ends (wt::now_seq) and does a little random busy work.
// Spawns go through all four spawn entry points (weft_spawn, weft_spawn_copy,
// weft_spawn_args, weft::spawn), some with priorities.
//
// Data flows through the dependences as well: each task reads/writes its
// parent's "shadow" slot of every address it names (plain memory for
// in/out/inout/mutexinoutset, an atomic for inoutset), so ThreadSanitizer sees
// every ordering the runtime must provide.
//
// Checks, for every set of siblings (a created before b):
//  * a conflicting pair (RAW/WAR/WAW, inoutset against the other modes, in
//    against mutexinoutset, ... wt::relation) ran a-then-b: end(a) < start(b);
//  * two mutexinoutset tasks on a common address did not overlap;
//  * a taskwait returned after every earlier child ended, taskwait_on(p)
//    after the earlier children that name p, taskwait_deps(d) after the
//    earlier children d conflicts with, taskgroup_end after every task
//    created in the group and all their descendants;
//  * every task ran exactly once, after it was spawned, on a valid thread.
//
// Environment: WEFT_TEST_SEED (base seed: graph i uses seed+i),
// WEFT_TEST_ITERS (number of graphs, overrides the default count),
// WEFT_TEST_SCALE (multiplies the default count). A failure prints the seed,
// the graph, the offending pair and the command that reproduces it.
#include "test_util.hpp"

#include <weft/weft.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

// ---- deterministic random numbers (independent of the standard library) --

struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed)
      : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  std::uint64_t next() { // splitmix64
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) {
    return n <= 1 ? 0
                  : static_cast<int>(next() % static_cast<std::uint64_t>(n));
  }
  int range(int lo, int hi) { return lo + below(hi - lo + 1); } // inclusive
  bool chance(int percent) { return below(100) < percent; }
};

// ---- the graph
// ---------------------------------------------------------------

constexpr int kMaxPool = 32;
constexpr int kMaxDeps = 6;

struct Dep {
  int addr;
  weft_dep_mode mode;
};

enum class Api { Spawn, SpawnCopy, SpawnArgs, Cxx };
const char *api_name(Api a) {
  switch (a) {
  case Api::Spawn:
    return "spawn";
  case Api::SpawnCopy:
    return "spawn_copy";
  case Api::SpawnArgs:
    return "spawn_args";
  case Api::Cxx:
    return "weft::spawn";
  }
  return "?";
}

struct Action {
  enum Kind { Spawn, Taskwait, TaskwaitOn, TaskwaitDeps, Group } kind;
  int task = -1;             // Spawn
  int addr = -1;             // TaskwaitOn
  std::vector<Dep> deps;     // TaskwaitDeps
  std::vector<Action> group; // Group: the actions inside the taskgroup
  // Recorded by the context that runs the action.
  std::int64_t before = 0, after = 0;
  int rc = 0, rc2 = 0;
};

struct Graph;

struct Shadow { // what a context's children touch, per address
  long plain[kMaxPool] = {};
  std::atomic<long> set[kMaxPool] = {};
};

struct Task {
  Graph *g = nullptr;
  int id = 0;
  int parent = -1; // -1: the root (the test's main thread)
  int depth = 0;
  std::vector<Dep> deps;
  Api api = Api::Spawn;
  int priority = -1; // -1: none given
  unsigned work = 0;
  bool sleeps = false;
  std::vector<Action> body;       // the children it creates, its waits
  std::unique_ptr<Shadow> shadow; // for its children
  // Recorded.
  std::atomic<std::int64_t> start{0}, end{0};
  std::atomic<int> runs{0};
  std::atomic<int> tid{-100};
  std::int64_t sub_end = 0; // max end over the task and its descendants
};

struct Graph {
  std::uint64_t seed = 0;
  int pool = 1;
  int stride = 1;
  std::vector<char> storage; // the addresses named by the dependences
  std::vector<std::unique_ptr<Task>> tasks;
  std::vector<Action> root;
  Shadow root_shadow;
  int threads = 0;
  std::atomic<int> errors{0};
  std::string first_error; // written once (guarded by errors)

  const void *addr(int a) const {
    return &storage[static_cast<size_t>(a * stride)];
  }
  Shadow &shadow_of(int parent) {
    return parent < 0 ? root_shadow
                      : *tasks[static_cast<size_t>(parent)]->shadow;
  }
  void error(const std::string &what) {
    if (errors.fetch_add(1) == 0)
      first_error = what;
  }
};

struct GenParams {
  int min_tasks, max_tasks;
  int min_pool, max_pool;
  int max_depth;
  bool allow_sleep;
};

weft_dep_mode random_mode(Rng &r) {
  int x = r.below(100);
  if (x < 30)
    return WEFT_IN;
  if (x < 45)
    return WEFT_OUT;
  if (x < 60)
    return WEFT_INOUT;
  if (x < 80)
    return WEFT_INOUTSET;
  return WEFT_MUTEXINOUTSET;
}

std::vector<Dep> random_deps(Rng &r, int pool, int max_n, bool wait_modes) {
  int n = std::min(r.range(0, max_n), pool);
  std::vector<int> addrs(static_cast<size_t>(pool));
  for (int i = 0; i < pool; ++i)
    addrs[static_cast<size_t>(i)] = i;
  std::vector<Dep> out;
  for (int i = 0; i < n; ++i) { // distinct addresses
    int k = i + r.below(pool - i);
    std::swap(addrs[static_cast<size_t>(i)], addrs[static_cast<size_t>(k)]);
    weft_dep_mode m = random_mode(r);
    if (wait_modes) // taskwait depend: in, out, inout
      m = (m == WEFT_INOUTSET || m == WEFT_MUTEXINOUTSET) ? WEFT_INOUT : m;
    out.push_back({addrs[static_cast<size_t>(i)], m});
  }
  return out;
}

unsigned random_work(Rng &r) {
  int x = r.below(100);
  if (x < 60)
    return static_cast<unsigned>(r.below(200));
  if (x < 90)
    return static_cast<unsigned>(r.range(200, 3000));
  return static_cast<unsigned>(r.range(3000, 20000));
}

// Generate the actions of one context (parent) with `budget` tasks to create
// (children and their descendants). group_depth: taskgroups nest up to 2.
std::vector<Action> gen_actions(Graph &g, Rng &r, const GenParams &p,
                                int parent, int depth, int &budget,
                                int group_depth) {
  std::vector<Action> acts;
  while (budget > 0) {
    int x = r.below(100);
    Action a;
    if (x < 5) {
      a.kind = Action::Taskwait;
    } else if (x < 10) {
      a.kind = Action::TaskwaitOn;
      a.addr = r.below(g.pool);
    } else if (x < 14) {
      a.kind = Action::TaskwaitDeps;
      a.deps = random_deps(r, g.pool, 2, true);
    } else if (x < 18 && group_depth < 2) {
      a.kind = Action::Group;
      int sub = r.range(1, std::min(budget, 25));
      budget -= sub;
      a.group = gen_actions(g, r, p, parent, depth, sub, group_depth + 1);
      budget += sub; // what the group did not use
    } else {
      a.kind = Action::Spawn;
      auto t = std::make_unique<Task>();
      t->g = &g;
      t->id = static_cast<int>(g.tasks.size());
      t->parent = parent;
      t->depth = depth;
      t->deps = random_deps(r, g.pool, kMaxDeps, false);
      int api = r.below(100);
      t->api = api < 30   ? Api::Spawn
               : api < 50 ? Api::SpawnCopy
               : api < 70 ? Api::SpawnArgs
                          : Api::Cxx;
      if ((t->api == Api::SpawnCopy || t->api == Api::Cxx) && r.chance(40))
        t->priority = r.range(0, 10);
      t->work = random_work(r);
      t->sleeps = p.allow_sleep && r.chance(1);
      a.task = t->id;
      g.tasks.push_back(std::move(t));
      --budget;
      int nest_chance = depth == 0 ? 20 : depth == 1 ? 15 : depth == 2 ? 10 : 5;
      if (depth < p.max_depth && budget > 0 && r.chance(nest_chance)) {
        int sub = r.range(1, std::min(budget, 40));
        budget -= sub;
        Task *tp = g.tasks[static_cast<size_t>(a.task)].get();
        tp->shadow = std::make_unique<Shadow>();
        std::vector<Action> body =
            gen_actions(g, r, p, a.task, depth + 1, sub, 0);
        // `tasks` may have grown: look the task up again.
        g.tasks[static_cast<size_t>(a.task)]->body = std::move(body);
        budget += sub;
      }
    }
    acts.push_back(std::move(a));
    if (r.chance(3))
      break; // end this context early sometimes
  }
  return acts;
}

std::unique_ptr<Graph> generate(std::uint64_t seed, const GenParams &p) {
  auto g = std::make_unique<Graph>();
  Rng r(seed);
  g->seed = seed;
  g->pool = r.range(p.min_pool, p.max_pool);
  const int strides[] = {1, 1, 4, 8, 64};
  g->stride = strides[r.below(5)];
  g->storage.assign(static_cast<size_t>(kMaxPool * 64), 0);
  int budget = r.chance(50) ? r.range(p.min_tasks,
                                      std::max(p.min_tasks, p.max_tasks / 6))
                            : r.range(p.min_tasks, p.max_tasks);
  while (budget > 0) { // the root context uses the whole budget
    std::vector<Action> more = gen_actions(*g, r, p, -1, 0, budget, 0);
    for (auto &a : more)
      g->root.push_back(std::move(a));
  }
  if (r.chance(30)) {
    Action a;
    a.kind = Action::Taskwait;
    g->root.push_back(std::move(a));
  }
  return g;
}

// ---- running it -----------------------------------------------------------

void run_actions(Graph &g, std::vector<Action> &acts);

void task_body(Task *t) {
  Graph &g = *t->g;
  t->runs.fetch_add(1);
  t->tid.store(weft_thread_id());
  t->start.store(wt::now_seq(), std::memory_order_relaxed);
  Shadow &sh = g.shadow_of(t->parent);
  for (const Dep &d : t->deps) {
    long &v = sh.plain[d.addr];
    switch (d.mode) {
    case WEFT_IN:
      if (v == -12345) // a plain read: ordered against the writers
        g.error("impossible shadow value");
      break;
    case WEFT_OUT:
      v = t->id;
      break;
    case WEFT_INOUT:
    case WEFT_MUTEXINOUTSET:
      v = v + 1;
      break;
    case WEFT_INOUTSET:
      sh.set[d.addr].fetch_add(1, std::memory_order_relaxed);
      break;
    default:
      break;
    }
  }
  wt::busy_work(t->work);
  if (t->sleeps)
    wt::sleep_ms(1);
  run_actions(g, t->body);
  t->end.store(wt::now_seq(), std::memory_order_relaxed);
}

void c_trampoline(void *p) { task_body(static_cast<Task *>(p)); }
void copy_trampoline(void *p) {
  Task *t;
  std::memcpy(&t, p, sizeof t);
  task_body(t);
}
void args_trampoline(void **args) { task_body(static_cast<Task *>(args[0])); }

template <size_t... I>
void cxx_spawn_n(std::index_sequence<I...>, const weft::dep *d, int prio,
                 Task *t) {
  (void)d;
  if (prio >= 0)
    weft::spawn(d[I]..., weft::priority{prio}, [t] { task_body(t); });
  else
    weft::spawn(d[I]..., [t] { task_body(t); });
}

int spawn_task(Graph &g, Task *t) {
  weft_dep deps[kMaxDeps];
  int n = static_cast<int>(t->deps.size());
  for (int i = 0; i < n; ++i)
    deps[i] = {g.addr(t->deps[static_cast<size_t>(i)].addr),
               t->deps[static_cast<size_t>(i)].mode};
  switch (t->api) {
  case Api::Spawn:
    return weft_spawn(c_trampoline, t, n ? deps : nullptr, n);
  case Api::SpawnCopy: {
    weft_task_attr attr{t->priority};
    return weft_spawn_copy(copy_trampoline, &t, sizeof t, n ? deps : nullptr, n,
                           t->priority >= 0 ? &attr : nullptr);
  }
  case Api::SpawnArgs: {
    void *args[kMaxDeps + 1];
    weft_dep_mode types[kMaxDeps + 1];
    args[0] = t;
    types[0] = WEFT_VALUE;
    for (int i = 0; i < n; ++i) {
      args[i + 1] = const_cast<void *>(deps[i].addr);
      types[i + 1] = deps[i].mode;
    }
    return weft_spawn_args(args_trampoline, n + 1, args, types);
  }
  case Api::Cxx: {
    weft::dep d[kMaxDeps];
    for (int i = 0; i < n; ++i)
      d[i] = {deps[i].addr, deps[i].mode};
    try {
      switch (n) {
      case 0:
        cxx_spawn_n(std::make_index_sequence<0>{}, d, t->priority, t);
        break;
      case 1:
        cxx_spawn_n(std::make_index_sequence<1>{}, d, t->priority, t);
        break;
      case 2:
        cxx_spawn_n(std::make_index_sequence<2>{}, d, t->priority, t);
        break;
      case 3:
        cxx_spawn_n(std::make_index_sequence<3>{}, d, t->priority, t);
        break;
      case 4:
        cxx_spawn_n(std::make_index_sequence<4>{}, d, t->priority, t);
        break;
      case 5:
        cxx_spawn_n(std::make_index_sequence<5>{}, d, t->priority, t);
        break;
      case 6:
        cxx_spawn_n(std::make_index_sequence<6>{}, d, t->priority, t);
        break;
      default:
        return -100;
      }
    } catch (const std::exception &) {
      return WEFT_EINVAL;
    }
    return WEFT_OK;
  }
  }
  return -100;
}

void run_actions(Graph &g, std::vector<Action> &acts) {
  for (Action &a : acts) {
    a.before = wt::now_seq();
    switch (a.kind) {
    case Action::Spawn:
      a.rc = spawn_task(g, g.tasks[static_cast<size_t>(a.task)].get());
      break;
    case Action::Taskwait:
      a.rc = weft_taskwait();
      break;
    case Action::TaskwaitOn:
      a.rc = weft_taskwait_on(g.addr(a.addr));
      break;
    case Action::TaskwaitDeps: {
      weft_dep d[kMaxDeps];
      int n = static_cast<int>(a.deps.size());
      for (int i = 0; i < n; ++i)
        d[i] = {g.addr(a.deps[static_cast<size_t>(i)].addr),
                a.deps[static_cast<size_t>(i)].mode};
      a.rc = weft_taskwait_deps(n ? d : nullptr, n);
      break;
    }
    case Action::Group:
      a.rc2 = weft_taskgroup_begin();
      run_actions(g, a.group);
      a.rc = weft_taskgroup_end();
      break;
    }
    a.after = wt::now_seq();
    if (a.rc != WEFT_OK || a.rc2 != WEFT_OK)
      g.error(std::string("a weft call failed: rc=") + std::to_string(a.rc) +
              "/" + std::to_string(a.rc2) + " " + weft_last_error());
  }
}

// ---- printing -------------------------------------------------------------

std::string deps_str(const std::vector<Dep> &deps) {
  std::string s = "[";
  for (size_t i = 0; i < deps.size(); ++i) {
    if (i)
      s += " ";
    s += "a" + std::to_string(deps[i].addr) + ":" + wt::mode_name(deps[i].mode);
  }
  return s + "]";
}

std::string task_str(const Task &t) {
  std::ostringstream o;
  o << "T" << t.id << " parent="
    << (t.parent < 0 ? std::string("root") : "T" + std::to_string(t.parent))
    << " " << api_name(t.api);
  if (t.priority >= 0)
    o << " prio=" << t.priority;
  o << " deps=" << deps_str(t.deps) << " ran=[" << t.start.load() << ","
    << t.end.load() << "] runs=" << t.runs.load() << " thread=" << t.tid.load();
  return o.str();
}

void dump_actions(std::ostringstream &o, const Graph &g,
                  const std::vector<Action> &acts, int indent) {
  std::string pad(static_cast<size_t>(indent), ' ');
  for (const Action &a : acts) {
    switch (a.kind) {
    case Action::Spawn:
      o << pad << "spawn " << task_str(*g.tasks[static_cast<size_t>(a.task)])
        << " @" << a.before << "\n";
      if (!g.tasks[static_cast<size_t>(a.task)]->body.empty()) {
        o << pad << "  body of T" << a.task << ":\n";
        dump_actions(o, g, g.tasks[static_cast<size_t>(a.task)]->body,
                     indent + 4);
      }
      break;
    case Action::Taskwait:
      o << pad << "taskwait returned @" << a.after << "\n";
      break;
    case Action::TaskwaitOn:
      o << pad << "taskwait_on a" << a.addr << " returned @" << a.after << "\n";
      break;
    case Action::TaskwaitDeps:
      o << pad << "taskwait_deps " << deps_str(a.deps) << " returned @"
        << a.after << "\n";
      break;
    case Action::Group:
      o << pad << "taskgroup begin @" << a.before << "\n";
      dump_actions(o, g, a.group, indent + 2);
      o << pad << "taskgroup end returned @" << a.after << "\n";
      break;
    }
  }
}

std::string repro(const Graph &g) {
  const ::testing::TestInfo *ti =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::ostringstream o;
  o << "reproduce: WEFT_NUM_THREADS=" << g.threads
    << " WEFT_ENGINE=" << wt::engine_name() << " WEFT_TEST_SEED=" << g.seed
    << " WEFT_TEST_ITERS=1 <build>/bin/weft_random_graph_test"
    << " --gtest_filter=" << ti->test_suite_name() << "." << ti->name();
  return o.str();
}

// ---- checking -------------------------------------------------------------

struct Checker {
  Graph &g;
  std::vector<std::string> problems;
  explicit Checker(Graph &gr) : g(gr) {}

  Task &T(int id) { return *g.tasks[static_cast<size_t>(id)]; }
  void fail(const std::string &s) {
    if (problems.size() < 10)
      problems.push_back(s);
  }

  std::int64_t compute_sub_end(int id) {
    Task &t = T(id);
    std::int64_t m = t.end.load();
    std::vector<int> kids;
    collect_spawns(t.body, kids);
    for (int k : kids)
      m = std::max(m, compute_sub_end(k));
    t.sub_end = m;
    return m;
  }
  static void collect_spawns(const std::vector<Action> &acts,
                             std::vector<int> &out) {
    for (const Action &a : acts) {
      if (a.kind == Action::Spawn)
        out.push_back(a.task);
      else if (a.kind == Action::Group)
        collect_spawns(a.group, out);
    }
  }

  // Walk one context's actions in program order; `earlier` holds the
  // children spawned so far.
  void walk(const std::vector<Action> &acts, std::vector<int> &earlier,
            const std::string &ctx) {
    for (const Action &a : acts) {
      switch (a.kind) {
      case Action::Spawn: {
        Task &t = T(a.task);
        if (t.start.load() <= a.before)
          fail(ctx + ": " + task_str(t) + " started before its spawn call @" +
               std::to_string(a.before));
        earlier.push_back(a.task);
        break;
      }
      case Action::Taskwait:
        for (int c : earlier)
          if (T(c).end.load() >= a.after)
            fail(ctx + ": taskwait returned @" + std::to_string(a.after) +
                 " before child " + task_str(T(c)) + " ended");
        break;
      case Action::TaskwaitOn:
        for (int c : earlier)
          for (const Dep &d : T(c).deps)
            if (d.addr == a.addr && T(c).end.load() >= a.after)
              fail(ctx + ": taskwait_on a" + std::to_string(a.addr) +
                   " returned @" + std::to_string(a.after) + " before child " +
                   task_str(T(c)) + " ended");
        break;
      case Action::TaskwaitDeps:
        for (int c : earlier)
          for (const Dep &d : T(c).deps)
            for (const Dep &w : a.deps)
              if (d.addr == w.addr &&
                  wt::relation(d.mode, w.mode) != wt::Rel::None &&
                  T(c).end.load() >= a.after)
                fail(ctx + ": taskwait_deps " + deps_str(a.deps) +
                     " returned @" + std::to_string(a.after) +
                     " before child " + task_str(T(c)) + " ended");
        break;
      case Action::Group: {
        size_t first = earlier.size();
        walk(a.group, earlier, ctx);
        for (size_t i = first; i < earlier.size(); ++i) {
          Task &c = T(earlier[i]);
          if (c.sub_end >= a.after)
            fail(ctx + ": taskgroup_end returned @" + std::to_string(a.after) +
                 " before " + task_str(c) +
                 " or one of its descendants ended (last end @" +
                 std::to_string(c.sub_end) + ")");
        }
        break;
      }
      }
    }
  }

  // Pairwise dependence checks among one context's children.
  void check_siblings(const std::vector<int> &kids, const std::string &ctx) {
    // Per address: (child, mode) in program order.
    std::vector<std::vector<std::pair<int, weft_dep_mode>>> per(
        static_cast<size_t>(g.pool));
    for (int c : kids)
      for (const Dep &d : T(c).deps)
        per[static_cast<size_t>(d.addr)].push_back({c, d.mode});
    for (int addr = 0; addr < g.pool; ++addr) {
      const auto &list = per[static_cast<size_t>(addr)];
      for (size_t i = 0; i < list.size(); ++i) {
        Task &a = T(list[i].first);
        const std::int64_t a_start = a.start.load(), a_end = a.end.load();
        for (size_t j = i + 1; j < list.size(); ++j) {
          Task &b = T(list[j].first);
          wt::Rel rel = wt::relation(list[i].second, list[j].second);
          if (rel == wt::Rel::None)
            continue;
          const std::int64_t b_start = b.start.load(), b_end = b.end.load();
          bool ok = rel == wt::Rel::Order
                        ? a_end < b_start
                        : (a_end < b_start || b_end < a_start);
          if (!ok) {
            std::ostringstream o;
            o << ctx << ": on a" << addr << " " << wt::mode_name(list[i].second)
              << " then " << wt::mode_name(list[j].second)
              << (rel == wt::Rel::Order
                      ? ": must run in program order, but the later one "
                        "started "
                        "before the earlier one ended"
                      : ": mutually exclusive, but they overlapped")
              << "\n      earlier: " << task_str(a)
              << "\n      later:   " << task_str(b);
            fail(o.str());
          }
        }
      }
    }
  }

  void check_context(int parent, const std::vector<Action> &acts) {
    std::string ctx =
        parent < 0 ? "root" : "children of T" + std::to_string(parent);
    std::vector<int> earlier;
    walk(acts, earlier, ctx);
    check_siblings(earlier, ctx);
  }

  void run(std::int64_t outer_group_end) {
    for (auto &tp : g.tasks) {
      Task &t = *tp;
      if (t.runs.load() != 1)
        fail(task_str(t) + ": ran " + std::to_string(t.runs.load()) + " times");
      else if (!(t.start.load() > 0 && t.start.load() < t.end.load()))
        fail(task_str(t) + ": bad start/end");
      if (t.runs.load() == 1 && (t.tid.load() < 0 || t.tid.load() >= g.threads))
        fail(task_str(t) + ": ran on thread id " +
             std::to_string(t.tid.load()));
      if (t.end.load() >= outer_group_end)
        fail(task_str(t) +
             ": ended after the enclosing taskgroup_end returned @" +
             std::to_string(outer_group_end));
    }
    if (!problems.empty())
      return; // the order checks below assume every task ran once
    std::vector<int> top;
    collect_spawns(g.root, top);
    for (int c : top)
      compute_sub_end(c);
    check_context(-1, g.root);
    for (auto &tp : g.tasks)
      if (!tp->body.empty())
        check_context(tp->id, tp->body);
  }
};

// Runs graph `seed`; returns "" or a failure report.
std::string run_graph(std::uint64_t seed, const GenParams &p,
                      std::uint64_t base, long iter, size_t *tasks_out) {
  std::unique_ptr<Graph> g = generate(seed, p);
  g->threads = weft_num_threads();
  *tasks_out = g->tasks.size();
  int rc_begin = weft_taskgroup_begin();
  run_actions(*g, g->root);
  int rc_end = weft_taskgroup_end();
  std::int64_t outer_end = wt::now_seq();
  Checker ck(*g);
  if (rc_begin != WEFT_OK || rc_end != WEFT_OK)
    ck.fail("outer taskgroup: rc " + std::to_string(rc_begin) + "/" +
            std::to_string(rc_end) + " " + weft_last_error());
  if (g->errors.load())
    ck.fail(g->first_error);
  ck.run(outer_end);
  if (ck.problems.empty())
    return "";
  std::ostringstream o;
  o << "graph seed " << seed << " (iteration " << iter << ", base seed " << base
    << "): " << g->tasks.size() << " tasks, pool of " << g->pool
    << " addresses " << g->stride << " bytes apart, " << g->threads
    << " threads, engine " << wt::engine_name() << "\n";
  for (const std::string &s : ck.problems)
    o << "  VIOLATION " << s << "\n";
  o << repro(*g) << "\n";
  if (g->tasks.size() <= 400) {
    o << "the graph (times are sequence numbers):\n";
    dump_actions(o, *g, g->root, 2);
  } else {
    o << "(graph of " << g->tasks.size()
      << " tasks not printed; rerun with the command above)\n";
  }
  return o.str();
}

void run_many(std::uint64_t default_base, long default_iters, long min_iters,
              const GenParams &p) {
  const std::uint64_t base = static_cast<std::uint64_t>(
      wt::env_long("WEFT_TEST_SEED", static_cast<long>(default_base)));
  long iters = wt::env_long("WEFT_TEST_ITERS", 0);
  if (iters <= 0)
    iters = wt::scaled(default_iters, min_iters);
  size_t total_tasks = 0;
  for (long i = 0; i < iters; ++i) {
    size_t n = 0;
    std::string report =
        run_graph(base + static_cast<std::uint64_t>(i), p, base, i, &n);
    total_tasks += n;
    ASSERT_TRUE(report.empty()) << report;
  }
  std::printf("[weft-test] %ld graphs, %zu tasks, base seed %" PRIu64
              ", %d threads\n",
              iters, total_tasks, base, weft_num_threads());
}

// Up to 200 tasks, pools of 1..8 addresses, nesting up to 4 levels.
TEST(RandomGraphs, Small) {
  run_many(1000, 10000, 20, GenParams{1, 200, 1, 8, 3, true});
}

// Tiny pools: almost every pair conflicts.
TEST(RandomGraphs, DenseConflicts) {
  run_many(5000000, 20000, 50, GenParams{2, 60, 1, 2, 2, false});
}

// A few graphs with thousands of tasks.
TEST(RandomGraphs, Large) {
  run_many(9000000, 40, 3, GenParams{1000, 8000, 4, 24, 3, false});
}

// The checker itself: a graph whose recorded times are tampered with must be
// reported (guards against a checker that never fails).
TEST(RandomGraphs, CheckerDetectsViolations) {
  GenParams p{40, 40, 1, 2, 0, false};
  int detected = 0, tried = 0;
  for (std::uint64_t seed = 1; seed < 60 && tried < 10; ++seed) {
    std::unique_ptr<Graph> g = generate(seed, p);
    g->threads = weft_num_threads();
    ASSERT_EQ(weft_taskgroup_begin(), WEFT_OK);
    run_actions(*g, g->root);
    ASSERT_EQ(weft_taskgroup_end(), WEFT_OK);
    std::int64_t outer_end = wt::now_seq();
    {
      Checker ok(*g);
      ok.run(outer_end);
      ASSERT_TRUE(ok.problems.empty()) << ok.problems[0];
    }
    // Find a conflicting ordered pair of root children and swap their times.
    std::vector<int> kids;
    Checker::collect_spawns(g->root, kids);
    bool found = false;
    for (size_t i = 0; i < kids.size() && !found; ++i)
      for (size_t j = i + 1; j < kids.size() && !found; ++j) {
        Task &a = *g->tasks[static_cast<size_t>(kids[i])];
        Task &b = *g->tasks[static_cast<size_t>(kids[j])];
        for (const Dep &da : a.deps)
          for (const Dep &db : b.deps)
            if (!found && da.addr == db.addr &&
                wt::relation(da.mode, db.mode) == wt::Rel::Order) {
              // Make b start before a ended.
              b.start.store(a.end.load() - 1);
              if (b.start.load() >= b.end.load())
                b.end.store(b.start.load() + 1);
              found = true;
            }
      }
    if (!found)
      continue;
    ++tried;
    Checker bad(*g);
    bad.run(outer_end + 1000000);
    if (!bad.problems.empty())
      ++detected;
  }
  ASSERT_GT(tried, 0);
  EXPECT_EQ(detected, tried)
      << "the checker missed injected ordering violations";
}

} // namespace
