// Random region programs traced (WEFT_TRACE): the programs of
// region_random_test.cpp (random nesting, objects, in/out/inout on regions
// and objects, nested spawns, weft_wait, frees), each checked against its
// serial run as there, then the trace's task graph (trace::build_graph)
// checked against the recorded run and against the conflicts found from
// the spawn records by brute force: every edge goes from a region task
// that ended (rtask_done) to one that began after it, and every pair of
// conflicting region tasks (arguments overlapping in the region tree, one
// writing, neither an ancestor of the other) is ordered by a path of edges
// and creations (a task's region children are created by it in the
// graph).
#include "region_random_test.cpp"

#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <cstdlib>
#include <set>
#include <unistd.h>

namespace {

namespace tr = weft::trace;

struct spawn_rec {
  uint64_t spawner;                                            // task id
  std::vector<std::pair<std::vector<std::string>, bool>> args; // path, write
};

TEST(RegionRandomTrace, GraphOrdersConflicts) {
  std::string path = testing::TempDir() + "weft_region_random_" +
                     std::to_string(getpid()) + ".trace";
  setenv("WEFT_TRACE", path.c_str(), 1);
  ASSERT_EQ(weft_init(0), WEFT_OK) << weft_last_error();
  g_cfg = {4, 3};
  const int programs = int(wt::scaled(8, 2));
  for (int i = 0; i < programs; ++i) {
    uint64_t seed = mix(uint64_t(i) + 77);
    outcome want = run(seed, true);
    outcome got = run(seed, false);
    ASSERT_EQ(g_failures.load(), 0)
        << "seed " << seed << ": " << g_first_failure;
    ASSERT_EQ(got.tree, want.tree) << "seed " << seed;
    ASSERT_EQ(got.results, want.results) << "seed " << seed;
  }
  ASSERT_EQ(weft_shutdown(), WEFT_OK);
  unsetenv("WEFT_TRACE");

  tr::trace_data t = tr::read(path);
  tr::task_graph g = tr::build_graph(t);

  // The spawn records, by brute force: each argument as its path up the
  // region tree, from itself to the root.
  std::map<uint32_t, uint32_t> parent_of;
  std::map<uint64_t, spawn_rec> spawns; // by spawn number
  std::map<uint64_t, uint64_t> core_of; // spawn number -> core task id
  // core task id -> its region task's end (rtask_done; the core task's own
  // task_end comes after the release, which may start successors first)
  std::map<uint64_t, uint64_t> done;
  auto chain = [&](uint32_t r, std::vector<std::string> &p) {
    for (;;) {
      p.push_back("r" + std::to_string(r));
      if (r == 0)
        return;
      auto it = parent_of.find(r);
      ASSERT_NE(it, parent_of.end()) << "region " << r;
      r = it->second;
    }
  };
  for (std::size_t i = 0; i < t.records.size(); ++i) {
    const tr::record &r = t.records[i];
    if (r.type == tr::kind::region_new)
      parent_of[uint32_t(r.arg)] = r.count;
    if (r.type == tr::kind::rtask_run)
      core_of[r.arg] = r.task;
    if (r.type == tr::kind::rtask_done)
      done[r.task] = r.time;
    if (r.type != tr::kind::rtask_spawn)
      continue;
    spawn_rec s{r.task, {}};
    for (uint32_t a = 1; a <= r.count; ++a) {
      const tr::record &d = t.records[i + a];
      ASSERT_EQ(d.type, tr::kind::rspawn_arg);
      std::vector<std::string> p;
      if (d.sub & WEFT_ARG_REGION) {
        chain(uint32_t(d.arg), p);
      } else {
        p.push_back("o" + std::to_string(d.arg) + "/" +
                    std::to_string(d.count));
        chain(d.count, p);
      }
      s.args.emplace_back(std::move(p), (d.sub & WEFT_ARG_OUT) != 0);
    }
    spawns.emplace(r.arg, std::move(s));
  }
  ASSERT_EQ(core_of.size(), spawns.size());
  std::map<uint64_t, uint64_t> seq_of_core;
  for (auto &[seq, core] : core_of)
    seq_of_core[core] = seq;
  auto ancestor = [&](uint64_t a, uint64_t s) { // spawn numbers
    for (auto it = seq_of_core.find(spawns.at(s).spawner);
         it != seq_of_core.end();
         it = seq_of_core.find(spawns.at(it->second).spawner))
      if (it->second == a)
        return true;
    return false;
  };
  auto in = [](const std::string &x, const std::vector<std::string> &p) {
    return std::find(p.begin(), p.end(), x) != p.end();
  };
  auto conflict = [&](const spawn_rec &a, const spawn_rec &b) {
    for (auto &[pa, wa] : a.args)
      for (auto &[pb, wb] : b.args)
        if ((wa || wb) && (in(pa.front(), pb) || in(pb.front(), pa)))
          return true;
    return false;
  };

  // Every edge agrees with the run.
  std::size_t edges = 0;
  for (const tr::task_node &n : g.tasks)
    for (uint32_t s = 0; s < n.nsuccs; ++s, ++edges) {
      const tr::task_node &m = g.tasks[g.succs[n.first_succ + s]];
      auto end = done.find(n.id);
      ASSERT_NE(end, done.end()) << "task " << n.id << ": no rtask_done";
      ASSERT_LE(end->second, m.begin_ns)
          << "task " << m.id << " began " << end->second - m.begin_ns
          << " ns before its predecessor " << n.id << " ended";
    }
  // What each task reaches through edges and the tasks it creates (a task
  // created by X begins after X began).
  std::vector<std::vector<uint32_t>> kids(g.tasks.size());
  for (uint32_t k = 0; k < g.tasks.size(); ++k)
    if (g.tasks[k].parent != tr::kNone)
      kids[g.tasks[k].parent].push_back(k);
  std::vector<std::vector<bool>> reach(g.tasks.size());
  auto reachable = [&](uint32_t from) -> const std::vector<bool> & {
    std::vector<bool> &r = reach[from];
    if (r.empty()) {
      r.assign(g.tasks.size(), false);
      std::vector<uint32_t> stack{from};
      while (!stack.empty()) {
        const tr::task_node &n = g.tasks[stack.back()];
        std::vector<uint32_t> next(kids[stack.back()]);
        for (uint32_t s = 0; s < n.nsuccs; ++s)
          next.push_back(g.succs[n.first_succ + s]);
        stack.pop_back();
        for (uint32_t m : next)
          if (!r[m]) {
            r[m] = true;
            stack.push_back(m);
          }
      }
    }
    return r;
  };
  std::size_t pairs = 0;
  for (auto i = spawns.begin(); i != spawns.end(); ++i)
    for (auto j = std::next(i); j != spawns.end(); ++j) {
      if (!conflict(i->second, j->second) || ancestor(i->first, j->first) ||
          ancestor(j->first, i->first))
        continue;
      ++pairs;
      uint32_t a = g.index_of(core_of[i->first]);
      uint32_t b = g.index_of(core_of[j->first]);
      ASSERT_TRUE(reachable(a)[b] || reachable(b)[a])
          << "region tasks " << i->first << " and " << j->first
          << " conflict but no path of edges and creations orders them";
    }
  std::printf("%d programs at %d threads: %zu region tasks, %zu conflicting "
              "pairs, %zu edges\n",
              programs, weft_num_threads(), spawns.size(), pairs, edges);
  EXPECT_GT(pairs, spawns.size() / 2);
}

} // namespace
