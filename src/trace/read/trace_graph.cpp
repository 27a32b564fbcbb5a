#include "trace/read/trace_graph.hpp"

#include "trace/read/sibling_dependences.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace weft::trace {

namespace {

enum class life : uint8_t { created, running, ended };

// waiting[task]: 0, in a wait_begin .. wait_end, or joining its region.
constexpr uint8_t kWaiting = 1, kJoining = 2;

// A recorded overhead segment (docs/trace-format.md, Overhead kinds).
struct segment {
  uint64_t task = 0; // the task it was for (0: none)
  uint8_t kind = 0;  // overhead_kind
  uint64_t start = 0, end = 0;
};

struct thread_state {
  std::vector<uint32_t> stack; // tasks begun on the thread, innermost last
  std::vector<uint64_t> waits; // begin times of its open waits, innermost last
  uint64_t last = 0;           // time up to which the thread is accounted
  uint64_t ov_start = 0, ov_end = 0; // the current recorded overhead
  segment seg; // of the recorded segments, the one that ends last
};

struct builder {
  const trace_data &t;
  task_graph g;
  std::unordered_map<uint64_t, uint32_t> index;
  std::vector<life> state;
  std::vector<uint8_t> waiting;
  std::vector<uint64_t> pending; // work not yet closed by a timeline point
  std::vector<uint32_t> open_region;
  std::vector<uint32_t> members; // implicit tasks created per region
  std::vector<thread_state> threads;
  std::unordered_map<uint32_t, sibling_dependences> tables; // by parent
  std::vector<std::pair<uint32_t, step>> steps;             // (task, step)
  std::vector<std::pair<uint32_t, uint32_t>> edges;         // (pred, succ)
  std::vector<uint32_t> preds;
  std::vector<uint32_t> create_step; // per task: its create step in `steps`
  // Region programs (rtask_spawn, rspawn_arg, rtask_run, region_new).
  struct rarg {
    uint8_t bits;    // region_arg_bits
    uint32_t within; // the object's region, or the region's parent
    uint64_t what;   // region id or object address
  };
  struct rspawn {
    uint32_t spawner; // the spawning task
    uint64_t seq;
    std::size_t step_at; // its create step's place in `steps`
    uint32_t first_arg, nargs;
  };
  std::vector<rspawn> spawns;
  std::vector<rarg> rargs;
  std::unordered_map<uint64_t, uint32_t> spawn_of_seq, core_of_seq;
  std::unordered_map<uint32_t, uint32_t> region_parent;
  // Phase marks: where in `steps` each begin and end fell.
  struct open_phase {
    uint32_t task;
    std::size_t begin_at;
    uint64_t begin_ns;
  };
  std::map<std::string, open_phase> open_phases;
  struct closed_phase {
    std::string name;
    uint32_t task;
    std::size_t begin_at, end_at;
    uint64_t begin_ns, end_ns;
  };
  std::vector<closed_phase> closed_phases;
  // weft_wait's arguments (rwait) until its wait_begin, then the wait.
  struct waited {
    uint32_t first_arg, nargs;
  };
  std::unordered_map<uint32_t, waited> open_rwait;
  struct exact_wait {
    uint32_t task;
    std::size_t orig_at, step_at; // its step in `steps`, before and after
                                  // bind_region_tasks
    uint32_t first_arg, nargs;
  };
  std::vector<exact_wait> exact_waits;
  // Tasks whose body began inside an overhead segment of their thread: the
  // segment, reported with the body once it ends (overlap_check).
  std::unordered_map<uint32_t, segment> begun_inside;
  // The same for waits, by waiting task.
  std::unordered_map<uint32_t, segment> wait_begun_inside;

  explicit builder(const trace_data &td) : t(td) {}

  [[noreturn]] void fail(uint64_t id, const std::string &what) const {
    throw error("trace: task " + std::to_string(id) + ": " + what);
  }

  thread_state &thread(uint16_t th) {
    if (th >= threads.size())
      threads.resize(std::size_t(th) + 1);
    return threads[th];
  }

  uint32_t known(uint64_t id, const char *record) const {
    auto it = index.find(id);
    if (it == index.end())
      fail(id, std::string(record) + " without a task_create before it");
    return it->second;
  }

  // Charges the thread's time up to `now` to the innermost task it runs,
  // unless that task waits, less the recorded overhead in the interval.
  void advance(thread_state &ts, uint64_t now) {
    if (now < ts.last)
      now = ts.last;
    if (!ts.stack.empty() && !waiting[ts.stack.back()]) {
      uint64_t lo = std::max(ts.last, ts.ov_start);
      uint64_t hi = std::min(now, ts.ov_end);
      uint64_t ov = hi > lo ? hi - lo : 0;
      pending[ts.stack.back()] += now - ts.last - ov;
    }
    ts.last = now;
  }

  void add_step(uint32_t task, step_kind k, uint64_t value, uint32_t count) {
    steps.push_back({task, step{k, count, value}});
  }

  void flush(uint32_t task) {
    if (pending[task] > 0)
      add_step(task, step_kind::work, pending[task], 0);
    pending[task] = 0;
  }

  void require_running(uint32_t task, const char *record) const {
    if (state[task] != life::running)
      fail(g.tasks[task].id,
           std::string(record) + (state[task] == life::created
                                      ? " before its task_begin"
                                      : " after its task_end"));
  }

  // A wait is recorded by the waiting task's thread, while the task is the
  // innermost one running there (the tasks run during the wait have ended).
  void innermost(const thread_state &ts, uint32_t k, const record &r,
                 const char *what) const {
    if (g.tasks[k].worker != r.thread)
      fail(r.task, std::string(what) + " on thread " +
                       std::to_string(r.thread) + ", but it runs on thread " +
                       std::to_string(g.tasks[k].worker));
    if (ts.stack.back() != k)
      fail(r.task, std::string(what) + " while task " +
                       std::to_string(g.tasks[ts.stack.back()].id) +
                       ", begun inside it on thread " +
                       std::to_string(r.thread) + ", has not ended");
  }

  // Overhead segments lie outside task bodies and waits on their thread
  // (docs/trace-format.md, Overhead kinds): a body or a wait may hold a
  // whole segment (a spawn inside its creator's body), but none begins or
  // ends strictly inside one. Else the work the replay gets from the
  // timeline is wrong (the overlap is taken from both), so the trace is
  // refused, naming both. Segments that overlap each other count as one
  // (their union, as advance takes them), named after the one that ends
  // last.
  static bool inside(const thread_state &ts, uint64_t time) {
    return ts.ov_start < time && time < ts.ov_end;
  }

  [[noreturn]] void overlap(uint16_t th, const segment &s, uint64_t id,
                            const char *what, uint64_t from,
                            uint64_t to) const {
    const char *kind = name(overhead_kind(s.kind));
    std::string seg =
        s.task != 0
            ? "task " + std::to_string(s.task) + "'s " + kind + " segment"
            : std::string("a ") + kind + " segment of no task";
    throw error("trace: thread " + std::to_string(th) + ": " + seg + " [" +
                std::to_string(s.start) + ", " + std::to_string(s.end) +
                "] overlaps task " + std::to_string(id) + "'s " + what + " [" +
                std::to_string(from) + ", " + std::to_string(to) +
                "] (ns since the trace's start)");
  }

  // At the end (time `to`) of task k's body or wait, begun at `from` on
  // thread th: fails if it began or ends inside an overhead segment.
  void overlap_check(std::unordered_map<uint32_t, segment> &begun, uint32_t k,
                     uint16_t th, const char *what, uint64_t from,
                     uint64_t to) {
    const thread_state &ts = threads[th];
    if (!begun.empty())
      if (auto it = begun.find(k); it != begun.end())
        overlap(th, it->second, g.tasks[k].id, what, from, to);
    if (inside(ts, to))
      overlap(th, ts.seg, g.tasks[k].id, what, from, to);
  }

  // The siblings that a child of `parent` with these dependences depends
  // on, into `preds`; `self` joins the table when it is not kNone.
  void dependence_preds(uint32_t parent, const dependence *d, uint32_t n,
                        uint32_t self) {
    preds.clear();
    if (n == 0)
      return;
    if (self == kNone)
      tables[parent].conflicts(d, n, preds);
    else
      tables[parent].add(d, n, self, preds);
  }

  // The `count` dep records after records[i], appended to g.deps.
  uint32_t read_deps(std::size_t i, uint64_t id) {
    const record &r = t.records[i];
    if (i + r.count >= t.records.size())
      fail(id, "fewer dep records than its count");
    for (uint32_t k = 1; k <= r.count; ++k) {
      const record &d = t.records[i + k];
      if (d.type != kind::dep || d.task != id)
        fail(id, "expected " + std::to_string(r.count) +
                     " dep records after its " + name(r.type));
      if (d.sub < uint8_t(dep_mode::in) ||
          d.sub > uint8_t(dep_mode::mutexinoutset))
        fail(id, "dependence on " + std::to_string(d.arg) + " with mode " +
                     std::to_string(d.sub));
      g.deps.push_back({d.arg, dep_mode(d.sub)});
    }
    return r.count;
  }

  void on_create(std::size_t i) {
    const record &r = t.records[i];
    if (r.task == 0)
      fail(0, "task_create of task id 0");
    if (index.count(r.task))
      fail(r.task, "created twice");
    uint32_t self = static_cast<uint32_t>(g.tasks.size());
    task_node n;
    n.id = r.task;
    n.creator_thread = r.thread;
    n.flags = r.sub;
    n.create_ns = r.time;
    n.first_dep = static_cast<uint32_t>(g.deps.size());
    if (r.arg != 0) {
      auto it = index.find(r.arg);
      if (it == index.end())
        fail(r.task, "its parent " + std::to_string(r.arg) +
                         " has no task_create before it");
      n.parent = it->second;
      if (state[n.parent] != life::running)
        fail(r.task, "created by task " + std::to_string(r.arg) +
                         ", which is not running");
    }
    index.emplace(r.task, self);
    g.tasks.push_back(n);
    create_step.push_back(kNone);
    state.push_back(life::created);
    waiting.push_back(0);
    pending.push_back(0);
    open_region.push_back(kNone);
    n.ndeps = read_deps(i, r.task);
    g.tasks[self].ndeps = n.ndeps;
    if (n.parent == kNone) {
      if (n.ndeps)
        fail(r.task, "a root task (parent 0) with dependences");
      return;
    }
    thread_state &ts = thread(r.thread);
    advance(ts, r.time);
    flush(n.parent);
    create_step[self] = static_cast<uint32_t>(steps.size());
    add_step(n.parent, step_kind::create, self, 0);
    if (n.flags & flag_implicit) {
      uint32_t reg = open_region[n.parent];
      if (reg == kNone)
        fail(r.task, "implicit task created by task " + std::to_string(r.arg) +
                         " outside a region_begin .. region_end");
      g.tasks[self].region = reg;
      // Once the team is created, the encountering task joins it: the time
      // until region_end is a wait, not work.
      if (++members[reg] == g.regions[reg].size) {
        add_step(n.parent, step_kind::join, reg, 0);
        waiting[n.parent] = kJoining;
      }
    }
    dependence_preds(n.parent, g.deps.data() + n.first_dep, n.ndeps, self);
    for (uint32_t p : preds)
      edges.emplace_back(p, self);
  }

  void on_begin(const record &r) {
    uint32_t k = known(r.task, "task_begin");
    if (state[k] != life::created)
      fail(r.task, "begins twice");
    thread_state &ts = thread(r.thread);
    advance(ts, r.time);
    if (inside(ts, r.time))
      begun_inside.emplace(k, ts.seg);
    ts.stack.push_back(k);
    state[k] = life::running;
    g.tasks[k].worker = r.thread;
    g.tasks[k].begin_ns = r.time;
  }

  void on_end(const record &r) {
    uint32_t k = known(r.task, "task_end");
    if (state[k] == life::created)
      fail(r.task, "task_end without a task_begin");
    if (state[k] == life::ended)
      fail(r.task, "ends twice");
    if (g.tasks[k].worker != r.thread)
      fail(r.task, "began on thread " + std::to_string(g.tasks[k].worker) +
                       " and ended on thread " + std::to_string(r.thread));
    thread_state &ts = thread(r.thread);
    if (ts.stack.back() != k)
      fail(r.task, "ends while task " +
                       std::to_string(g.tasks[ts.stack.back()].id) +
                       ", begun inside it on thread " +
                       std::to_string(r.thread) + ", has not ended");
    if (waiting[k])
      fail(r.task, "ends inside a wait");
    if (open_region[k] != kNone)
      fail(r.task, "ends inside a parallel region");
    overlap_check(begun_inside, k, r.thread, "body", g.tasks[k].begin_ns,
                  r.time);
    advance(ts, r.time);
    flush(k);
    ts.stack.pop_back();
    state[k] = life::ended;
    g.tasks[k].end_ns = r.time;
    tables.erase(k);
  }

  void on_wait_begin(std::size_t i) {
    const record &r = t.records[i];
    uint32_t k = known(r.task, "wait_begin");
    require_running(k, "wait_begin");
    if (waiting[k])
      fail(r.task, waiting[k] == kJoining
                       ? "wait_begin while joining its region"
                       : "wait_begin inside a wait");
    thread_state &ts = thread(r.thread);
    innermost(ts, k, r, "wait_begin");
    advance(ts, r.time);
    flush(k);
    waiting[k] = kWaiting;
    ts.waits.push_back(r.time);
    if (inside(ts, r.time))
      wait_begun_inside.emplace(k, ts.seg);
    std::size_t first = g.deps.size();
    read_deps(i, r.task);
    switch (wait_kind(r.sub)) {
    case wait_kind::taskwait:
      if (auto it = open_rwait.find(k); it != open_rwait.end()) {
        exact_waits.push_back({k, steps.size(), steps.size(),
                               it->second.first_arg, it->second.nargs});
        open_rwait.erase(it);
      }
      add_step(k, step_kind::taskwait, 0, 0);
      break;
    case wait_kind::taskwait_on: {
      dependence_preds(k, g.deps.data() + first, r.count, kNone);
      add_step(k, step_kind::taskwait_on, g.waits.size(),
               static_cast<uint32_t>(preds.size()));
      g.waits.insert(g.waits.end(), preds.begin(), preds.end());
      break;
    }
    case wait_kind::taskgroup:
      add_step(k, step_kind::taskgroup, 0, 0);
      break;
    case wait_kind::barrier:
      add_step(k, step_kind::barrier, g.tasks[k].region, 0);
      break;
    default:
      fail(r.task, "wait_begin of unknown wait kind " + std::to_string(r.sub));
    }
    g.deps.resize(first); // a wait's dependences are not the task's
  }

  void on_wait_end(const record &r) {
    uint32_t k = known(r.task, "wait_end");
    if (waiting[k] != kWaiting)
      fail(r.task, "wait_end without a wait_begin");
    thread_state &ts = thread(r.thread);
    innermost(ts, k, r, "wait_end");
    overlap_check(wait_begun_inside, k, r.thread, "wait", ts.waits.back(),
                  r.time);
    wait_begun_inside.erase(k);
    ts.waits.pop_back();
    advance(ts, r.time);
    waiting[k] = 0;
  }

  void on_region_begin(const record &r) {
    uint32_t k = known(r.task, "region_begin");
    require_running(k, "region_begin");
    if (open_region[k] != kNone)
      fail(r.task, "region_begin inside its region");
    open_region[k] = static_cast<uint32_t>(g.regions.size());
    g.regions.push_back({k, r.count});
    members.push_back(0);
  }

  void on_region_end(const record &r) {
    uint32_t k = known(r.task, "region_end");
    uint32_t reg = open_region[k];
    if (reg == kNone)
      fail(r.task, "region_end without a region_begin");
    if (members[reg] != g.regions[reg].size)
      fail(r.task, "region of team size " +
                       std::to_string(g.regions[reg].size) + " created " +
                       std::to_string(members[reg]) + " implicit tasks");
    advance(thread(r.thread), r.time);
    flush(k);
    if (g.regions[reg].size == 0)
      add_step(k, step_kind::join, reg, 0);
    waiting[k] = 0;
    open_region[k] = kNone;
  }

  void on_overhead(const record &r) {
    thread_state &ts = thread(r.thread);
    advance(ts, r.time);
    if (r.time + r.arg >= ts.seg.end)
      ts.seg = segment{r.task, r.sub, r.time, r.time + r.arg};
    if (r.time < ts.ov_end) {
      ts.ov_end = std::max(ts.ov_end, r.time + r.arg);
    } else {
      ts.ov_start = r.time;
      ts.ov_end = r.time + r.arg;
    }
  }

  void on_region_new(const record &r) {
    if (r.arg == 0 || r.arg > UINT32_MAX)
      fail(r.task, "region_new of region id " + std::to_string(r.arg));
    auto [it, fresh] = region_parent.emplace(uint32_t(r.arg), r.count);
    if (!fresh && it->second != r.count)
      fail(r.task, "region_new of region " + std::to_string(r.arg) +
                       " in region " + std::to_string(r.count) +
                       ", already made in region " +
                       std::to_string(it->second));
  }

  // A region task's spawn: a create step of the spawner whose child is
  // bound to the core task whose rtask_run names it (bind_region_tasks).
  uint32_t on_rtask_spawn(std::size_t i) {
    const record &r = t.records[i];
    uint32_t k = known(r.task, "rtask_spawn");
    require_running(k, "rtask_spawn");
    if (r.arg == 0 || !spawn_of_seq.emplace(r.arg, spawns.size()).second)
      fail(r.task, "rtask_spawn of region task number " +
                       std::to_string(r.arg) +
                       (r.arg == 0 ? "" : ", spawned before"));
    rspawn sp{k, r.arg, 0, static_cast<uint32_t>(rargs.size()), r.count};
    read_rargs(i, "rtask_spawn");
    advance(thread(r.thread), r.time);
    flush(k);
    sp.step_at = steps.size();
    add_step(k, step_kind::create, kNone, 0); // bound later
    spawns.push_back(sp);
    return r.count;
  }

  // The `count` rspawn_arg records after records[i] (an rtask_spawn or an
  // rwait), appended to rargs.
  void read_rargs(std::size_t i, const char *what) {
    const record &r = t.records[i];
    if (i + r.count >= t.records.size())
      fail(r.task, std::string("fewer rspawn_arg records than its ") + what +
                       "'s count");
    for (uint32_t a = 1; a <= r.count; ++a) {
      const record &d = t.records[i + a];
      if (d.type != kind::rspawn_arg || d.task != r.task)
        fail(r.task, "expected " + std::to_string(r.count) +
                         " rspawn_arg records after its " + what);
      if ((d.sub & (region_arg_in | region_arg_out)) == 0 ||
          (d.sub & ~(region_arg_in | region_arg_out | region_arg_region)))
        fail(r.task, "region task argument " + std::to_string(d.arg) +
                         " with access bits " + std::to_string(d.sub));
      if ((d.sub & region_arg_region) && d.arg > UINT32_MAX)
        fail(r.task,
             "region task argument of region id " + std::to_string(d.arg));
      rargs.push_back({d.sub, d.count, d.arg});
    }
  }

  // weft_wait's arguments: its wait_begin waits for the children whose
  // arguments overlap them (resolve_exact_waits).
  uint32_t on_rwait(std::size_t i) {
    const record &r = t.records[i];
    uint32_t k = known(r.task, "rwait");
    require_running(k, "rwait");
    waited w{static_cast<uint32_t>(rargs.size()), r.count};
    read_rargs(i, "rwait");
    if (!open_rwait.emplace(k, w).second)
      fail(r.task, "two rwait records without a wait_begin between them");
    return r.count;
  }

  void on_rtask_run(const record &r) {
    uint32_t k = known(r.task, "rtask_run");
    require_running(k, "rtask_run");
    if (!core_of_seq.emplace(r.arg, k).second)
      fail(r.task, "runs region task number " + std::to_string(r.arg) +
                       ", which already ran");
  }

  void on_phase(const record &r) {
    uint32_t k = known(r.task, "phase");
    require_running(k, "phase");
    std::string n = unpack_phase_name(r.arg, r.count);
    if (!valid_phase_name(n.c_str()))
      fail(r.task, "phase mark with a bad name '" + n + "'");
    advance(thread(r.thread), r.time);
    flush(k);
    if (r.sub == uint8_t(phase_edge::begin)) {
      for (const closed_phase &c : closed_phases)
        if (c.name == n)
          fail(r.task, "begins phase '" + n + "', which already ended");
      if (!open_phases.emplace(n, open_phase{k, steps.size(), r.time}).second)
        fail(r.task, "begins phase '" + n + "', which is already open");
    } else if (r.sub == uint8_t(phase_edge::end)) {
      auto it = open_phases.find(n);
      if (it == open_phases.end())
        fail(r.task, "ends phase '" + n + "', which is not open");
      if (it->second.task != k)
        fail(r.task, "ends phase '" + n + "', begun by task " +
                         std::to_string(g.tasks[it->second.task].id));
      closed_phases.push_back({n, k, it->second.begin_at, steps.size(),
                               it->second.begin_ns, r.time});
      open_phases.erase(it);
    } else {
      fail(r.task,
           "phase mark of '" + n + "' with edge " + std::to_string(r.sub));
    }
  }

  // Each region task's core task is created by its spawner where the spawn
  // was recorded (the runtime launched it elsewhere, once it was ready).
  void bind_region_tasks(std::vector<uint32_t> &core_of) {
    std::vector<bool> drop(steps.size(), false);
    core_of.resize(spawns.size());
    for (std::size_t s = 0; s < spawns.size(); ++s) {
      const rspawn &sp = spawns[s];
      auto it = core_of_seq.find(sp.seq);
      if (it == core_of_seq.end())
        fail(g.tasks[sp.spawner].id, "spawned region task number " +
                                         std::to_string(sp.seq) +
                                         ", which never ran (no rtask_run)");
      uint32_t core = it->second;
      if (create_step[core] == kNone)
        fail(g.tasks[core].id, "runs a region task but has no parent");
      drop[create_step[core]] = true;
      steps[sp.step_at].second.value = core;
      g.tasks[core].parent = sp.spawner;
      core_of[s] = core;
    }
    for (const auto &[seq, core] : core_of_seq)
      if (!spawn_of_seq.count(seq))
        fail(g.tasks[core].id, "runs region task number " +
                                   std::to_string(seq) +
                                   ", which has no rtask_spawn");
    std::size_t out = 0;
    std::vector<std::size_t> moved(steps.size() + 1);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      moved[i] = out;
      if (!drop[i])
        steps[out++] = steps[i];
    }
    moved[steps.size()] = out;
    steps.resize(out);
    for (closed_phase &c : closed_phases) {
      c.begin_at = moved[c.begin_at];
      c.end_at = moved[c.end_at];
    }
    for (exact_wait &e : exact_waits)
      e.step_at = moved[e.orig_at];
  }

  // The phases, their step positions counted in their task's timeline.
  void place_phases() {
    for (const closed_phase &c : closed_phases) {
      uint32_t before_begin = 0, before_end = 0;
      for (std::size_t i = 0; i < c.end_at; ++i)
        if (steps[i].first == c.task) {
          before_begin += i < c.begin_at;
          ++before_end;
        }
      g.phases.push_back(
          {c.name, c.task, before_begin, before_end, c.begin_ns, c.end_ns});
    }
  }

  // A node of the region tree: a region, or an object in its region.
  struct rnode {
    uint32_t parent = kNone;
    std::vector<uint32_t> children;
    std::vector<uint32_t> writers; // the last writer, with its ancestors
    std::vector<uint32_t> readers; // readers since
  };
  std::vector<rnode> rtree;
  std::unordered_map<uint32_t, uint32_t> region_node;
  std::map<std::pair<uint64_t, uint32_t>, uint32_t> object_node;

  uint32_t new_rnode(uint32_t parent) {
    uint32_t n = static_cast<uint32_t>(rtree.size());
    rtree.push_back({});
    rtree[n].parent = parent;
    if (parent != kNone)
      rtree[parent].children.push_back(n);
    return n;
  }

  uint32_t region_rnode(uint32_t id, uint64_t task) {
    if (auto it = region_node.find(id); it != region_node.end())
      return it->second;
    auto p = region_parent.find(id);
    if (p == region_parent.end())
      fail(task, "a region task argument in region " + std::to_string(id) +
                     ", which has no region_new");
    uint32_t up = region_rnode(p->second, task);
    uint32_t n = new_rnode(up);
    region_node.emplace(id, n);
    return n;
  }

  // Dependence edges between region tasks with the regions' semantics
  // (docs/regions.md): an argument on a region covers everything inside
  // it; two tasks conflict when their arguments overlap in the tree and
  // one writes; the serial order (a task's children right after it, in
  // spawn order, before its later siblings) gives the direction. A task
  // and its ancestors are not ordered (they hold the arguments together).
  void region_edges(const std::vector<uint32_t> &core_of) {
    const std::size_t n = spawns.size();
    if (n == 0)
      return;
    std::vector<uint32_t> up(n, kNone);
    std::unordered_map<uint32_t, uint32_t> spawn_of_core;
    for (std::size_t s = 0; s < n; ++s)
      spawn_of_core.emplace(core_of[s], static_cast<uint32_t>(s));
    std::vector<std::vector<uint32_t>> kids(n);
    std::vector<uint32_t> roots;
    for (std::size_t s = 0; s < n; ++s) {
      auto it = spawn_of_core.find(spawns[s].spawner);
      if (it == spawn_of_core.end()) {
        roots.push_back(static_cast<uint32_t>(s));
      } else {
        up[s] = it->second;
        kids[it->second].push_back(static_cast<uint32_t>(s));
      }
    }
    std::vector<uint32_t> order, stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
      uint32_t s = stack.back();
      stack.pop_back();
      order.push_back(s);
      stack.insert(stack.end(), kids[s].rbegin(), kids[s].rend());
    }
    auto ancestor = [&](uint32_t a, uint32_t s) {
      for (uint32_t x = up[s]; x != kNone; x = up[x])
        if (x == a)
          return true;
      return false;
    };
    region_node.emplace(0, new_rnode(kNone));
    std::vector<uint32_t> found, walk;
    std::vector<std::pair<uint32_t, bool>> nodes;
    for (uint32_t s : order) {
      const rspawn &sp = spawns[s];
      const uint64_t id = g.tasks[sp.spawner].id;
      found.clear();
      nodes.clear();
      for (uint32_t a = 0; a < sp.nargs; ++a) {
        const rarg &ra = rargs[sp.first_arg + a];
        uint32_t node;
        if (ra.bits & region_arg_region) {
          node = region_rnode(uint32_t(ra.what), id);
        } else {
          auto key = std::make_pair(ra.what, ra.within);
          auto it = object_node.find(key);
          if (it == object_node.end())
            it =
                object_node.emplace(key, new_rnode(region_rnode(ra.within, id)))
                    .first;
          node = it->second;
        }
        bool write = (ra.bits & region_arg_out) != 0;
        nodes.emplace_back(node, write);
        auto take = [&](const rnode &m) {
          found.insert(found.end(), m.writers.begin(), m.writers.end());
          if (write)
            found.insert(found.end(), m.readers.begin(), m.readers.end());
        };
        for (uint32_t m = node; m != kNone; m = rtree[m].parent)
          take(rtree[m]);
        walk.assign(rtree[node].children.begin(), rtree[node].children.end());
        while (!walk.empty()) {
          uint32_t m = walk.back();
          walk.pop_back();
          take(rtree[m]);
          walk.insert(walk.end(), rtree[m].children.begin(),
                      rtree[m].children.end());
        }
      }
      std::sort(found.begin(), found.end());
      found.erase(std::unique(found.begin(), found.end()), found.end());
      for (uint32_t p : found)
        if (p != s && !ancestor(p, s))
          edges.emplace_back(core_of[p], core_of[s]);
      for (auto [node, write] : nodes) {
        rnode &m = rtree[node];
        if (write) {
          std::vector<uint32_t> keep{s};
          for (uint32_t x : m.writers)
            if (ancestor(x, s))
              keep.push_back(x);
          for (uint32_t x : m.readers)
            if (ancestor(x, s))
              keep.push_back(x);
          m.writers = std::move(keep);
          m.readers.clear();
        } else {
          m.readers.push_back(s);
        }
      }
    }
  }

  // The node of a region task argument in the region tree.
  uint32_t arg_rnode(const rarg &ra, uint64_t task) {
    if (ra.bits & region_arg_region)
      return region_rnode(uint32_t(ra.what), task);
    auto key = std::make_pair(ra.what, ra.within);
    auto it = object_node.find(key);
    if (it == object_node.end())
      it = object_node.emplace(key, new_rnode(region_rnode(ra.within, task)))
               .first;
    return it->second;
  }

  bool at_or_below(uint32_t n, uint32_t above) const {
    for (uint32_t m = n; m != kNone; m = rtree[m].parent)
      if (m == above)
        return true;
    return false;
  }

  // Each weft_wait (an rwait, then its taskwait) becomes a taskwait_on of
  // the region children spawned before it whose arguments overlap the
  // waited ones, one of the two writing (sys_wait: the arguments come back
  // with the requested access).
  void resolve_exact_waits(const std::vector<uint32_t> &core_of) {
    if (exact_waits.empty())
      return;
    if (region_node.empty())
      region_node.emplace(0, new_rnode(kNone));
    std::unordered_map<uint32_t, std::vector<uint32_t>> by_spawner;
    for (std::size_t s = 0; s < spawns.size(); ++s)
      by_spawner[spawns[s].spawner].push_back(static_cast<uint32_t>(s));
    for (const exact_wait &e : exact_waits) {
      const uint64_t id = g.tasks[e.task].id;
      std::vector<std::pair<uint32_t, bool>> want;
      for (uint32_t a = 0; a < e.nargs; ++a) {
        const rarg &ra = rargs[e.first_arg + a];
        want.emplace_back(arg_rnode(ra, id), (ra.bits & region_arg_out) != 0);
      }
      std::size_t first = g.waits.size();
      for (uint32_t s : by_spawner[e.task]) {
        const rspawn &sp = spawns[s];
        if (sp.step_at >= e.orig_at)
          break; // spawned after the wait
        bool hit = false;
        for (uint32_t a = 0; a < sp.nargs && !hit; ++a) {
          const rarg &ra = rargs[sp.first_arg + a];
          uint32_t n = arg_rnode(ra, id);
          bool w = (ra.bits & region_arg_out) != 0;
          for (auto [m, mw] : want)
            if ((w || mw) && (at_or_below(n, m) || at_or_below(m, n)))
              hit = true;
        }
        if (hit)
          g.waits.push_back(core_of[s]);
      }
      steps[e.step_at].second =
          step{step_kind::taskwait_on,
               static_cast<uint32_t>(g.waits.size() - first), first};
    }
  }

  // Steps and edges into per-task ranges (a counting sort keeps the order).
  template <class Pair, class T, class Get>
  void bucket(const std::vector<Pair> &in, std::vector<T> &out, Get get,
              uint32_t task_node::*first, uint32_t task_node::*count) {
    for (const Pair &p : in)
      ++(g.tasks[p.first].*count);
    uint32_t at = 0;
    for (task_node &n : g.tasks) {
      n.*first = at;
      at += n.*count;
      n.*count = 0;
    }
    out.resize(in.size());
    for (const Pair &p : in) {
      task_node &n = g.tasks[p.first];
      out[n.*first + (n.*count)++] = get(p);
    }
  }

  task_graph build() {
    const std::vector<record> &rs = t.records;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const record &r = rs[i];
      switch (r.type) {
      case kind::task_create:
        on_create(i);
        i += r.count;
        break;
      case kind::task_begin:
        on_begin(r);
        break;
      case kind::task_end:
        on_end(r);
        break;
      case kind::wait_begin:
        on_wait_begin(i);
        i += r.count;
        break;
      case kind::wait_end:
        on_wait_end(r);
        break;
      case kind::overhead:
        on_overhead(r);
        break;
      case kind::region_begin:
        on_region_begin(r);
        break;
      case kind::region_end:
        on_region_end(r);
        break;
      case kind::dep:
        fail(r.task, "dep record without a task_create or wait_begin");
      case kind::region_new:
        on_region_new(r);
        break;
      case kind::rtask_spawn:
        i += on_rtask_spawn(i);
        break;
      case kind::rwait:
        i += on_rwait(i);
        break;
      case kind::rspawn_arg:
        fail(r.task, "rspawn_arg record without an rtask_spawn");
      case kind::rtask_run:
        on_rtask_run(r);
        break;
      case kind::rtask_done:
        require_running(known(r.task, "rtask_done"), "rtask_done");
        break;
      case kind::phase:
        on_phase(r);
        break;
      case kind::counter:
      case kind::rplace:    // a scheduler's decision: not a step
      case kind::rtask_arg: // an annotation: no step of the graph
        break;
      case kind::task_spawn:
      case kind::task_run:
      case kind::task_done:
      case kind::task_spawn_dep:
      case kind::deps:
      case kind::task_exec:
      case kind::task_inline:
      case kind::task_inline_dep:
      case kind::task_exec2:
      case kind::task_inline_run:
        fail(r.task, std::string("a ") + name(r.type) +
                         " record: only files hold merged kinds, "
                         "trace::read expands them");
      }
    }
    for (std::size_t k = 0; k < g.tasks.size(); ++k) {
      if (state[k] == life::created)
        fail(g.tasks[k].id, "created but never began");
      if (state[k] == life::running)
        fail(g.tasks[k].id, "began on thread " +
                                std::to_string(g.tasks[k].worker) +
                                " but never ended");
    }
    if (!open_rwait.empty())
      fail(g.tasks[open_rwait.begin()->first].id,
           "an rwait record without a taskwait wait_begin after it");
    if (!open_phases.empty())
      fail(g.tasks[open_phases.begin()->second.task].id,
           "phase '" + open_phases.begin()->first + "' never ended");
    std::vector<uint32_t> core_of;
    bind_region_tasks(core_of);
    place_phases();
    region_edges(core_of);
    resolve_exact_waits(core_of);
    bucket(
        steps, g.steps, [](const auto &p) { return p.second; },
        &task_node::first_step, &task_node::nsteps);
    for (const auto &e : edges)
      ++g.tasks[e.second].npreds;
    bucket(
        edges, g.succs, [](const auto &p) { return p.second; },
        &task_node::first_succ, &task_node::nsuccs);
    return std::move(g);
  }
};

} // namespace

uint32_t task_graph::index_of(uint64_t id) const {
  // Tasks are in creation order, ids are unique but not necessarily sorted.
  for (std::size_t k = 0; k < tasks.size(); ++k)
    if (tasks[k].id == id)
      return static_cast<uint32_t>(k);
  return kNone;
}

bool task_graph::idle_root(uint32_t task) const {
  const task_node &n = tasks[task];
  if (n.parent != kNone)
    return false;
  for (uint32_t s = 0; s < n.nsteps; ++s)
    if (steps[n.first_step + s].type != step_kind::work)
      return false;
  return true;
}

task_graph build_graph(const trace_data &t) { return builder(t).build(); }

task_graph select_phase(const task_graph &g, const std::string &name) {
  const phase_info *p = nullptr;
  std::string names;
  for (const phase_info &x : g.phases) {
    names += (names.empty() ? "'" : ", '") + x.name + "'";
    if (x.name == name)
      p = &x;
  }
  if (!p)
    throw error("trace: no phase '" + name + "' in the trace (" +
                (names.empty() ? std::string("it marks no phase: "
                                             "weft_trace_phase_begin/_end")
                               : "its phases: " + names) +
                ")");
  const uint32_t n = static_cast<uint32_t>(g.tasks.size());
  const uint32_t m = p->task;
  // Kept: the phase's task and what it created in the phase, with their
  // descendants (a task is created after its parent: one pass in order).
  std::vector<uint32_t> to(n, kNone);
  std::vector<bool> kept(n, false);
  kept[m] = true;
  const task_node &mt = g.tasks[m];
  for (uint32_t s = p->begin_step; s < p->end_step; ++s) {
    const step &st = g.steps[mt.first_step + s];
    if (st.type == step_kind::create)
      kept[st.value] = true;
  }
  for (uint32_t k = 0; k < n; ++k) {
    if (!kept[k])
      continue;
    const task_node &t = g.tasks[k];
    if (k == m)
      continue;
    for (uint32_t s = 0; s < t.nsteps; ++s) {
      const step &st = g.steps[t.first_step + s];
      if (st.type == step_kind::create)
        kept[st.value] = true;
    }
  }
  task_graph out;
  for (uint32_t k = 0; k < n; ++k)
    if (kept[k]) {
      to[k] = static_cast<uint32_t>(out.tasks.size());
      out.tasks.push_back(g.tasks[k]);
    }
  std::vector<uint32_t> region_to(g.regions.size(), kNone);
  for (std::size_t r = 0; r < g.regions.size(); ++r)
    if (kept[g.regions[r].encountering]) {
      region_to[r] = static_cast<uint32_t>(out.regions.size());
      out.regions.push_back({to[g.regions[r].encountering], g.regions[r].size});
    }
  std::vector<uint32_t> preds(out.tasks.size(), 0);
  for (uint32_t k = 0; k < n; ++k) {
    if (!kept[k])
      continue;
    const task_node &t = g.tasks[k];
    task_node &o = out.tasks[to[k]];
    o.parent = k == m || t.parent == kNone ? kNone : to[t.parent];
    if (t.region != kNone)
      o.region = region_to[t.region];
    o.first_dep = static_cast<uint32_t>(out.deps.size());
    out.deps.insert(out.deps.end(), g.deps.begin() + t.first_dep,
                    g.deps.begin() + t.first_dep + t.ndeps);
    uint32_t from = k == m ? p->begin_step : 0;
    uint32_t until = k == m ? p->end_step : t.nsteps;
    o.first_step = static_cast<uint32_t>(out.steps.size());
    for (uint32_t s = from; s < until; ++s) {
      step st = g.steps[t.first_step + s];
      switch (st.type) {
      case step_kind::create:
        st.value = to[st.value];
        break;
      case step_kind::taskwait_on: {
        uint64_t at = out.waits.size();
        for (uint32_t w = 0; w < st.count; ++w)
          if (uint32_t c = g.waits[st.value + w]; kept[c])
            out.waits.push_back(to[c]);
        st.count = static_cast<uint32_t>(out.waits.size() - at);
        st.value = at;
        break;
      }
      case step_kind::barrier:
      case step_kind::join:
        st.value = region_to[st.value];
        break;
      default:
        break;
      }
      out.steps.push_back(st);
    }
    o.nsteps = static_cast<uint32_t>(out.steps.size()) - o.first_step;
    o.first_succ = static_cast<uint32_t>(out.succs.size());
    for (uint32_t s = 0; s < t.nsuccs; ++s)
      if (uint32_t c = g.succs[t.first_succ + s]; kept[c]) {
        out.succs.push_back(to[c]);
        ++preds[to[c]];
      }
    o.nsuccs = static_cast<uint32_t>(out.succs.size()) - o.first_succ;
  }
  for (std::size_t k = 0; k < out.tasks.size(); ++k)
    out.tasks[k].npreds = preds[k];
  return out;
}

const char *name(step_kind k) {
  switch (k) {
  case step_kind::work:
    return "work";
  case step_kind::create:
    return "create";
  case step_kind::taskwait:
    return "taskwait";
  case step_kind::taskwait_on:
    return "taskwait_on";
  case step_kind::taskgroup:
    return "taskgroup";
  case step_kind::barrier:
    return "barrier";
  case step_kind::join:
    return "join";
  }
  return "unknown";
}

} // namespace weft::trace
