#include "trace/read/trace_graph.hpp"

#include "trace/read/sibling_dependences.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace weft::trace {

namespace {

enum class life : uint8_t { created, running, ended };

// waiting[task]: 0, in a wait_begin .. wait_end, or joining its region.
constexpr uint8_t kWaiting = 1, kJoining = 2;

struct thread_state {
  std::vector<uint32_t> stack; // tasks begun on the thread, innermost last
  uint64_t last = 0;           // time up to which the thread is accounted
  uint64_t ov_start = 0, ov_end = 0; // the current recorded overhead
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
    advance(thread(r.thread), r.time);
    flush(k);
    waiting[k] = kWaiting;
    std::size_t first = g.deps.size();
    read_deps(i, r.task);
    switch (wait_kind(r.sub)) {
    case wait_kind::taskwait:
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
    advance(thread(r.thread), r.time);
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
    if (r.time < ts.ov_end) {
      ts.ov_end = std::max(ts.ov_end, r.time + r.arg);
    } else {
      ts.ov_start = r.time;
      ts.ov_end = r.time + r.arg;
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
      case kind::counter:
      case kind::rtask_arg: // an annotation: no step of the graph
        break;
      case kind::task_spawn:
      case kind::task_run:
      case kind::task_done:
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
