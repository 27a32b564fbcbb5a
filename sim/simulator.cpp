#include "simulator.hpp"

#include <algorithm>
#include <deque>
#include <queue>
#include <string>
#include <vector>

namespace weft::sim {

using trace::kNone;
using trace::step_kind;

double result::utilisation() const {
  if (makespan_ps == 0 || cores == 0)
    return 0;
  return static_cast<double>(work_ps) /
         (static_cast<double>(makespan_ps) * cores);
}

namespace {

// What a suspended task waits for.
enum class waits : uint8_t {
  none,
  children, // taskwait
  listed,   // taskwait on, or an undeferred child: wait_count of them
  group,    // taskgroup end: every descendant
  barrier,
  join,
  pool, // its next child does not fit in the unit
};

enum flag : uint8_t {
  started = 1,
  registered = 2,
  done = 4,
  waited_on = 8,  // its parent waits for it (taskwait on, undeferred)
  wait_paid = 16, // the wait step's cost is charged, its condition is next
  outside = 32,   // not in the unit: bypassed or serialized (no entries)
};

struct task_state {
  uint32_t step = 0;     // the next step of its timeline
  uint32_t preds = 0;    // predecessors not retired
  uint32_t children = 0; // children not completed
  uint32_t tree = 1;     // itself, and children whose subtrees are not done
  uint32_t wait_count = 0;
  uint32_t pending_child = kNone; // the child a pool stall holds back
  uint32_t ready_core = kNone;    // the core whose completion readied it
  uint32_t core = kNone;          // the core it runs or last ran on
  waits wait = waits::none;
  uint8_t flags = 0;
};

struct region_state {
  uint32_t arrived = 0;
  uint64_t outstanding = 0; // members' children with unfinished subtrees
  uint32_t live = 0;        // members whose subtrees are not done
  uint32_t joiner = kNone;  // the encountering task, once it waits
  std::vector<uint32_t> at_barrier;
};

enum class ev : uint8_t {
  proceed,  // a: core; its task goes on with its steps
  submit,   // a: core, b: child; the spawn cost is over
  complete, // a: core; the finish cost is over
  ready,    // a: task; the ready latency is over
  inserted, // a: task; the unit has inserted it
  retire,   // a: task; the scheduler learns of its completion
  retired,  // a: task; the unit has retired it
};

struct event {
  uint64_t time;
  uint64_t seq;
  ev kind;
  uint32_t a, b;
  bool operator>(const event &o) const {
    return time != o.time ? time > o.time : seq > o.seq;
  }
};

class simulation {
public:
  simulation(const trace::task_graph &g, const model &m, uint32_t cores,
             const progress_fn &progress)
      : g_(g), m_(m), progress_(progress), t_(g.tasks.size()),
        r_(g.regions.size()), core_task_(cores, kNone), unit_(m.has_unit()),
        capacity_(m.capacity()) {
    res_.cores = cores;
    for (uint32_t c = cores; c-- > 0;)
      idle_.push_back(c);
    for (std::size_t k = 0; k < g.tasks.size(); ++k)
      t_[k].preds = g.tasks[k].npreds;
    for (std::size_t i = 0; i < g.regions.size(); ++i)
      r_[i].live = g.regions[i].size;
    for (const trace::step &s : g.steps)
      if (s.type == step_kind::work)
        res_.work_ps += s.value * kPsPerNs;
    if (m.spawn_remote_ps() > 0)
      index_preds();
  }

  result run() {
    // Every root that is not a worker's placeholder starts at time 0 (the
    // first root when all are placeholders: a trace without tasks).
    std::vector<uint32_t> roots;
    uint32_t first_root = kNone;
    for (uint32_t k = 0; k < g_.tasks.size(); ++k) {
      if (g_.tasks[k].parent != kNone)
        continue;
      if (first_root == kNone)
        first_root = k;
      if (!g_.idle_root(k))
        roots.push_back(k);
    }
    if (roots.empty() && first_root != kNone)
      roots.push_back(first_root);
    // Tasks to complete: the roots and every task they create.
    expected_ = g_.tasks.size();
    for (uint32_t k = 0; k < g_.tasks.size(); ++k)
      if (g_.tasks[k].parent == kNone &&
          std::find(roots.begin(), roots.end(), k) == roots.end())
        --expected_;
    for (uint32_t k : roots) {
      t_[k].flags |= registered;
      queue_.push_back(k);
    }
    dispatch(0);
    uint64_t now = 0;
    do {
      while (!events_.empty() || !unit_events_.empty()) {
        event e;
        if (unit_events_.empty() ||
            (!events_.empty() && unit_events_.front() > events_.top())) {
          e = events_.top();
          events_.pop();
        } else {
          e = unit_events_.front();
          unit_events_.pop_front();
        }
        ++res_.events;
        now = e.time;
        handle(e);
        dispatch(now);
      }
      // Nothing is left to happen. A serialized child may stall at once on
      // its own child (its first step a create) without an event: then
      // serialize again.
    } while (serialize_stalled(now));
    if (completed_ != expected_)
      deadlock();
    res_.tasks = completed_;
    return res_;
  }

private:
  void push(uint64_t time, ev kind, uint32_t a, uint32_t b = 0) {
    events_.push(event{time, seq_++, kind, a, b});
  }
  // The unit's events come in time order: a queue, not the heap.
  void push_unit(uint64_t time, ev kind, uint32_t a) {
    unit_events_.push_back(event{time, seq_++, kind, a, 0});
  }

  const trace::task_node &node(uint32_t k) const { return g_.tasks[k]; }

  // preds_[first_pred_[k] .. first_pred_[k + 1]): the tasks k depends on.
  void index_preds() {
    first_pred_.assign(g_.tasks.size() + 1, 0);
    for (std::size_t k = 0; k < g_.tasks.size(); ++k)
      first_pred_[k + 1] = first_pred_[k] + g_.tasks[k].npreds;
    preds_.resize(first_pred_.back());
    std::vector<uint32_t> fill(first_pred_.begin(), first_pred_.end() - 1);
    for (uint32_t k = 0; k < g_.tasks.size(); ++k) {
      const trace::task_node &n = node(k);
      for (uint32_t i = 0; i < n.nsuccs; ++i)
        preds_[fill[g_.succs[n.first_succ + i]]++] = k;
    }
  }

  // What core c pays to create `child`: the model's spawn cost, and its
  // remote charge if a predecessor ran or runs on another core.
  uint64_t spawn_cost(uint32_t child, uint32_t c) const {
    uint64_t cost = m_.spawn_ps(node(child).ndeps);
    if (preds_.empty())
      return cost;
    for (uint32_t i = first_pred_[child]; i < first_pred_[child + 1]; ++i) {
      const task_state &p = t_[preds_[i]];
      if ((p.flags & started) && p.core != c)
        return cost + m_.spawn_remote_ps();
    }
    return cost;
  }

  void handle(const event &e) {
    switch (e.kind) {
    case ev::proceed:
      proceed(e.a, e.time);
      break;
    case ev::submit:
      if (submit(core_task_[e.a], e.b, e.a, e.time))
        proceed(e.a, e.time);
      break;
    case ev::complete:
      complete(e.a, e.time);
      break;
    case ev::ready:
      enqueue(e.a);
      break;
    case ev::inserted:
      inserted(e.a, e.time);
      break;
    case ev::retire:
      retire(e.a, e.time);
      break;
    case ev::retired:
      retired(e.a, e.time);
      break;
    }
  }

  // Idle cores take ready tasks, oldest in the queue first.
  // A task made ready by a core's completion goes to that core if it is
  // still idle (as a runtime runs an immediate successor).
  void dispatch(uint64_t now) {
    while (!idle_.empty() && !queue_.empty()) {
      uint32_t k = queue_.front();
      queue_.pop_front();
      task_state &s = t_[k];
      auto it = idle_.end() - 1;
      if (s.ready_core != kNone)
        if (auto mine = std::find(idle_.begin(), idle_.end(), s.ready_core);
            mine != idle_.end())
          it = mine;
      uint32_t c = *it;
      idle_.erase(it);
      const bool local = c == s.ready_core;
      s.ready_core = kNone;
      s.core = c;
      core_task_[c] = k;
      if (!(s.flags & started)) {
        s.flags |= started;
        // Implicit tasks (roots, a region's members) are not scheduled.
        uint64_t cost = node(k).flags & trace::flag_implicit ? 0
                        : local ? m_.local_schedule_ps()
                                : m_.schedule_ps();
        if (cost > 0) {
          push(now + cost, ev::proceed, c);
          continue;
        }
      } else if (s.pending_child != kNone) {
        uint32_t child = s.pending_child;
        s.pending_child = kNone;
        if (!submit(k, child, c, now))
          continue;
      }
      proceed(c, now);
    }
  }

  void enqueue(uint32_t k) {
    t_[k].ready_core = releasing_core_;
    if ((node(k).flags & trace::flag_undeferred) ||
        ((t_[k].flags & flag::outside) && (t_[k].flags & waited_on)))
      queue_.push_front(k);
    else
      queue_.push_back(k);
  }

  void suspend(uint32_t c, uint32_t k, waits w) {
    t_[k].wait = w;
    core_task_[c] = kNone;
    idle_.push_back(c);
  }

  void resume(uint32_t k) {
    t_[k].wait = waits::none;
    queue_.push_front(k);
  }

  // Runs core c's task from its next step until it needs time or waits.
  void proceed(uint32_t c, uint64_t now) {
    uint32_t k = core_task_[c];
    const trace::task_node &n = node(k);
    task_state &s = t_[k];
    while (s.step < n.nsteps) {
      const trace::step &st = g_.steps[n.first_step + s.step];
      if (st.type == step_kind::work) {
        ++s.step;
        push(now + st.value * kPsPerNs, ev::proceed, c);
        return;
      }
      if (st.type == step_kind::create) {
        ++s.step;
        uint32_t child = static_cast<uint32_t>(st.value);
        uint64_t cost = spawn_cost(child, c);
        if (cost > 0) {
          push(now + cost, ev::submit, c, child);
          return;
        }
        if (!submit(k, child, c, now))
          return;
        continue;
      }
      // A wait: its cost on the core first, then its condition.
      uint64_t cost = m_.wait_ps();
      if (cost > 0 && !(s.flags & wait_paid)) {
        s.flags |= wait_paid;
        push(now + cost, ev::proceed, c);
        return;
      }
      s.flags &= ~wait_paid;
      ++s.step;
      if (!wait_over(c, k, st))
        return;
    }
    uint64_t cost = n.flags & trace::flag_implicit ? 0 : m_.finish_ps(n.ndeps);
    if (cost > 0)
      push(now + cost, ev::complete, c);
    else
      complete(c, now);
  }

  // True if task k on core c may go on past wait step st; else suspends it.
  bool wait_over(uint32_t c, uint32_t k, const trace::step &st) {
    task_state &s = t_[k];
    switch (st.type) {
    case step_kind::taskwait:
      if (s.children == 0)
        return true;
      suspend(c, k, waits::children);
      return false;
    case step_kind::taskwait_on: {
      uint32_t left = 0;
      for (uint32_t i = 0; i < st.count; ++i) {
        uint32_t child = g_.waits[st.value + i];
        if (!(t_[child].flags & done)) {
          t_[child].flags |= waited_on;
          ++left;
        }
      }
      if (left == 0)
        return true;
      s.wait_count = left;
      suspend(c, k, waits::listed);
      return false;
    }
    case step_kind::barrier:
      if (st.value != kNone) {
        region_state &r = r_[st.value];
        ++r.arrived;
        r.at_barrier.push_back(k);
        suspend(c, k, waits::barrier);
        release_barrier(static_cast<uint32_t>(st.value));
        return false;
      }
      [[fallthrough]]; // a barrier outside a region: a team of one
    case step_kind::taskgroup:
      if (s.tree == 1)
        return true;
      suspend(c, k, waits::group);
      return false;
    case step_kind::join:
      if (r_[st.value].live == 0)
        return true;
      r_[st.value].joiner = k;
      suspend(c, k, waits::join);
      return false;
    default:
      break;
    }
    throw error("simulator: step " + std::string(trace::name(st.type)) +
                " is not a wait (task " + std::to_string(node(k).id) + ")");
  }

  void release_barrier(uint32_t reg) {
    region_state &r = r_[reg];
    if (r.arrived != g_.regions[reg].size || r.outstanding != 0)
      return;
    r.arrived = 0;
    for (uint32_t k : r.at_barrier)
      resume(k);
    r.at_barrier.clear();
  }

  // Task k, on core c, hands its new child to the scheduler. False if k
  // suspended (the child does not fit, or is undeferred).
  //
  // Nested programs stay live as under the engines (docs/engines.md): a
  // unit can be full of parents waiting for children that do not fit. A
  // child without dependences that does not fit bypasses the unit (ready
  // at once, holding no entries); a child with dependences stalls its
  // creator until a retirement makes room, and is serialized when nothing
  // else could (serialize_stalled).
  bool submit(uint32_t k, uint32_t child, uint32_t c, uint64_t now) {
    const trace::task_node &cn = node(child);
    bool outside = t_[child].flags & flag::outside;
    bool waited = (cn.flags & trace::flag_undeferred) || serializing_ == child;
    if (capacity_ > 0 && !outside) {
      uint32_t e = m_.entries(cn.ndeps);
      if (e > capacity_)
        throw error("simulator: task " + std::to_string(cn.id) + " needs " +
                    std::to_string(e) + " entries, the unit has " +
                    std::to_string(capacity_));
      if (used_ + e > capacity_) {
        if (cn.ndeps != 0) {
          t_[k].pending_child = child;
          stalled_.push_back(k);
          suspend(c, k, waits::pool);
          return false;
        }
        outside = true;
        t_[child].flags |= flag::outside;
        ++res_.bypassed;
      } else {
        used_ += e;
      }
    }
    task_state &s = t_[k];
    ++s.children;
    ++s.tree;
    if (node(k).region != kNone)
      ++r_[node(k).region].outstanding;
    if (waited) {
      serializing_ = kNone;
      t_[child].flags |= waited_on;
    }
    if (outside) {
      t_[child].flags |= registered;
      if (t_[child].preds == 0)
        enqueue(child);
    } else if (unit_) {
      uint64_t start = std::max(now, unit_free_);
      unit_free_ = start + m_.insert_ps(cn.ndeps, t_[child].preds);
      push_unit(unit_free_, ev::inserted, child);
    } else {
      inserted(child, now);
    }
    if (waited) {
      s.wait_count = 1;
      suspend(c, k, waits::listed);
      return false;
    }
    return true;
  }

  void inserted(uint32_t k, uint64_t now) {
    t_[k].flags |= registered;
    if (t_[k].preds == 0)
      make_ready(k, now);
  }

  void make_ready(uint32_t k, uint64_t now) {
    uint64_t lat = m_.ready_latency_ps(node(k).ndeps);
    if (lat > 0)
      push(now + lat, ev::ready, k);
    else
      enqueue(k);
  }

  void complete(uint32_t c, uint64_t now) {
    uint32_t k = core_task_[c];
    core_task_[c] = kNone;
    idle_.push_back(c);
    task_state &s = t_[k];
    s.flags |= done;
    res_.makespan_ps = std::max(res_.makespan_ps, now);
    if (++completed_ % 65536 == 0 && progress_)
      progress_(completed_);
    uint32_t p = node(k).parent;
    if (p != kNone) {
      task_state &ps = t_[p];
      --ps.children;
      if (ps.wait == waits::children && ps.children == 0)
        resume(p);
      if ((s.flags & waited_on) && ps.wait == waits::listed &&
          --ps.wait_count == 0)
        resume(p);
    }
    if (--s.tree == 0)
      subtree_done(k);
    uint64_t lat = m_.finish_latency_ps();
    if (lat > 0) {
      push(now + lat, ev::retire, k);
    } else {
      // Successors readied now, by this completion, may start here.
      releasing_core_ = c;
      retire(k, now);
      releasing_core_ = kNone;
    }
  }

  // k and all its descendants have completed.
  void subtree_done(uint32_t k) {
    for (;;) {
      const trace::task_node &n = node(k);
      if (n.region != kNone && (n.flags & trace::flag_implicit)) {
        region_state &r = r_[n.region];
        if (--r.live == 0 && r.joiner != kNone &&
            t_[r.joiner].wait == waits::join) {
          resume(r.joiner);
          r.joiner = kNone;
        }
      }
      uint32_t p = n.parent;
      if (p == kNone)
        return;
      task_state &ps = t_[p];
      --ps.tree;
      if (node(p).region != kNone) {
        --r_[node(p).region].outstanding;
        release_barrier(node(p).region);
      }
      if (ps.wait == waits::group && ps.tree == 1)
        resume(p);
      if (ps.tree != 0)
        return;
      k = p;
    }
  }

  // The scheduler learns that k completed.
  void retire(uint32_t k, uint64_t now) {
    if (!unit_ || (t_[k].flags & flag::outside)) {
      retired(k, now);
      return;
    }
    const trace::task_node &n = node(k);
    uint32_t kicked = 0, readied = 0;
    for (uint32_t i = 0; i < n.nsuccs; ++i) {
      const task_state &ss = t_[g_.succs[n.first_succ + i]];
      if (ss.flags & registered) {
        ++kicked;
        readied += ss.preds == 1;
      }
    }
    uint64_t start = std::max(now, unit_free_);
    unit_free_ = start + m_.retire_ps(n.ndeps, kicked, readied);
    push_unit(unit_free_, ev::retired, k);
  }

  void retired(uint32_t k, uint64_t now) {
    const trace::task_node &n = node(k);
    for (uint32_t i = 0; i < n.nsuccs; ++i) {
      uint32_t sk = g_.succs[n.first_succ + i];
      task_state &ss = t_[sk];
      if (--ss.preds == 0 && (ss.flags & registered))
        make_ready(sk, now);
    }
    if (capacity_ == 0 || n.parent == kNone || (t_[k].flags & flag::outside))
      return;
    used_ -= m_.entries(n.ndeps);
    // Stalled creators retry in the order they stalled, while room is left.
    uint32_t room = capacity_ - used_;
    while (!stalled_.empty()) {
      uint32_t s = stalled_.front();
      uint32_t e = m_.entries(node(t_[s].pending_child).ndeps);
      if (e > room)
        break;
      room -= e;
      stalled_.pop_front();
      resume(s);
    }
  }

  // Nothing is left to happen, yet creators wait for room that only tasks
  // waiting on them could free: the oldest stalled creator whose earlier
  // children have all completed runs its child in place, outside the unit,
  // as the core serializes a task the engine keeps refusing.
  // False if no stalled creator qualifies.
  bool serialize_stalled(uint64_t now) {
    for (auto it = stalled_.begin(); it != stalled_.end(); ++it) {
      uint32_t k = *it;
      if (t_[k].children != 0)
        continue;
      stalled_.erase(it);
      uint32_t child = t_[k].pending_child;
      t_[child].flags |= flag::outside;
      serializing_ = child;
      ++res_.serialized;
      resume(k);
      dispatch(now);
      return true;
    }
    return false;
  }

  static const char *wait_name(waits w) {
    switch (w) {
    case waits::none:
      return "nothing";
    case waits::children:
      return "its children (taskwait)";
    case waits::listed:
      return "listed children (taskwait on, undeferred child)";
    case waits::group:
      return "its descendants (taskgroup)";
    case waits::barrier:
      return "a barrier";
    case waits::join:
      return "its region's team (join)";
    case waits::pool:
      return "room in the unit";
    }
    return "?";
  }

  // Names the first few suspended tasks: what each waits for, and where.
  [[noreturn]] void deadlock() const {
    std::string msg = "simulator: deadlock, " +
                      std::to_string(expected_ - completed_) +
                      " tasks never completed";
    uint32_t shown = 0, blocked = 0;
    for (uint32_t k = 0; k < g_.tasks.size(); ++k) {
      const task_state &s = t_[k];
      if (!(s.flags & started) || (s.flags & done))
        continue;
      ++blocked;
      if (shown++ < 4)
        msg += "; task " + std::to_string(node(k).id) + " waits for " +
               wait_name(s.wait) + " at step " + std::to_string(s.step) + " (" +
               std::to_string(s.children) + " children left)";
    }
    if (blocked > shown)
      msg += "; and " + std::to_string(blocked - shown) + " more started";
    throw error(msg);
  }

  const trace::task_graph &g_;
  const model &m_;
  const progress_fn &progress_;
  std::vector<task_state> t_;
  std::vector<region_state> r_;
  std::vector<uint32_t> core_task_;
  std::vector<uint32_t> idle_;
  std::vector<uint32_t> first_pred_, preds_; // index_preds
  std::deque<uint32_t> queue_;
  std::deque<uint32_t> stalled_;
  std::priority_queue<event, std::vector<event>, std::greater<event>> events_;
  std::deque<event> unit_events_;
  uint64_t seq_ = 0;
  bool unit_;
  uint64_t unit_free_ = 0;
  uint32_t capacity_;
  uint32_t used_ = 0;
  uint32_t serializing_ = kNone;    // the stalled child serialize_stalled frees
  uint32_t releasing_core_ = kNone; // the core whose completion is retiring
  uint64_t completed_ = 0, expected_ = 0;
  result res_;
};

} // namespace

result simulate(const trace::task_graph &g, const model &m, uint32_t cores,
                const progress_fn &progress) {
  if (cores == 0)
    throw error("simulator: 0 cores");
  return simulation(g, m, cores, progress).run();
}

void trim_serial_ends(trace::task_graph &g) {
  for (const trace::task_node &t : g.tasks) {
    if (t.parent != trace::kNone || t.nsteps == 0)
      continue;
    trace::step *first = &g.steps[t.first_step];
    trace::step *last = first + t.nsteps;
    trace::step *a = first, *b = last;
    while (a < last && a->type == trace::step_kind::work)
      ++a;
    if (a == last)
      continue; // only work: nothing to trim it around
    while (b[-1].type == trace::step_kind::work)
      --b;
    for (trace::step *s = first; s < a; ++s)
      s->value = 0;
    for (trace::step *s = b; s < last; ++s)
      s->value = 0;
  }
}

} // namespace weft::sim
