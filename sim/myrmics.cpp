// The Myrmics model's replay (myrmics.hpp).
#include "myrmics.hpp"

#include "base/tree_shape.hpp"

#include <algorithm>
#include <deque>
#include <queue>
#include <random>

namespace weft::sim {

std::vector<uint32_t> myrmics_config::parse_schedulers(const std::string &s) {
  // Fan-outs in [1, 1024], at most 65536 leaves (base/tree_shape.hpp, the
  // runtime's parser of WEFT_SCHEDULERS with wider limits).
  static constexpr tree_shape_limits kLimits{1024, 0, 0, 65536};
  std::vector<uint32_t> fan;
  std::string why;
  if (!parse_tree_shape("--param schedulers", s.c_str(), kLimits, fan, why))
    throw error(why);
  return fan;
}

uint32_t myrmics_config::schedulers() const {
  uint32_t n = 1, level = 1;
  for (uint32_t f : fanout)
    n += (level *= f);
  return n;
}

uint32_t myrmics_config::leaves() const {
  uint32_t n = 1;
  for (uint32_t f : fanout)
    n *= f;
  return n;
}

myrmics_config myrmics_config::from(params &p) {
  const char *who = "myrmics";
  myrmics_config c;
  c.fanout = parse_schedulers(p.get_string(who, "schedulers", "flat"));
  c.spawn_cycles = p.get_uint(who, "spawn_cycles", c.spawn_cycles, 0, 1u << 30);
  c.arg_cycles = p.get_uint(who, "arg_cycles", c.arg_cycles, 0, 1u << 30);
  c.exec_cycles = p.get_uint(who, "exec_cycles", c.exec_cycles, 0, 1u << 30);
  c.msg_min = p.get_uint(who, "msg_min", c.msg_min, 0, 1u << 30);
  c.msg_max = p.get_uint(who, "msg_max", c.msg_max, 0, 1u << 30);
  if (c.msg_max < c.msg_min)
    throw error("--param msg_max=" + std::to_string(c.msg_max) +
                ": below msg_min=" + std::to_string(c.msg_min));
  c.done_cycles = p.get_uint(who, "done_cycles", c.done_cycles, 0, 1u << 30);
  c.score_cycles = p.get_uint(who, "score_cycles", c.score_cycles, 0, 1u << 20);
  c.mhz = p.get_double(who, "mhz", c.mhz, 1e-3, 1e6);
  c.seed = p.get_uint(who, "seed", c.seed, 0, UINT64_MAX);
  return c;
}

namespace {

using trace::kNone;
using trace::step_kind;

enum class ev : uint8_t {
  proceed,    // a: worker
  spawn_in,   // a: child task; the spawn reached its handling scheduler
  spawn_done, // a: child task; its analysis is over
  ack,        // a: worker; the spawn is acknowledged
  decide_in,  // a: task, b: scheduler; a dispatch reached the scheduler
  decided,    // a: task, b: scheduler
  deliver,    // a: task, b: worker
  done_in,    // a: task; its completion reached its scheduler
  done,       // a: task; its completion is processed
  resume,     // a: task; its wait is over (at its worker)
};

struct event {
  uint64_t time, seq;
  ev kind;
  uint32_t a, b;
  bool operator>(const event &o) const {
    return time != o.time ? time > o.time : seq > o.seq;
  }
};

struct task_st {
  uint32_t step = 0;
  uint32_t children = 0; // not completed
  uint32_t preds = 0;
  uint32_t handler = 0;  // its responsible scheduler
  uint32_t home = kNone; // the scheduler its children go to
  uint32_t worker = kNone;
  uint32_t depth = 0;
  bool analysed = false, waiting = false, started = false;
};

struct sched_st {
  uint32_t parent = kNone, level = 0;
  std::vector<uint32_t> children; // schedulers, or (leaf) workers
  bool leaf = false;
  uint32_t rr = 0;
  uint64_t load = 0, free_at = 0, busy = 0;
};

struct worker_st {
  uint32_t leaf = 0;
  uint32_t current = kNone;
  std::deque<uint32_t> queue;
  uint64_t load = 0;
};

class replay {
public:
  replay(const trace::task_graph &g, const myrmics_config &c, uint32_t workers)
      : g_(g), c_(c), t_(g.tasks.size()), w_(workers), rng_(c.seed) {
    uint32_t leaves = c.leaves();
    if (workers < leaves)
      throw error("myrmics: " + std::to_string(workers) + " workers for " +
                  std::to_string(leaves) + " leaf schedulers (each needs one)");
    // Breadth-first: scheduler 0 is the top, then each level in turn.
    s_.push_back({});
    std::vector<uint32_t> level = {0};
    for (uint32_t f : c.fanout) {
      std::vector<uint32_t> next;
      for (uint32_t p : level)
        for (uint32_t i = 0; i < f; ++i) {
          sched_st s;
          s.parent = p;
          s.level = s_[p].level + 1;
          s_[p].children.push_back(uint32_t(s_.size()));
          next.push_back(uint32_t(s_.size()));
          s_.push_back(s);
        }
      level = next;
    }
    for (uint32_t i = 0; i < leaves; ++i) {
      sched_st &l = s_[level[i]];
      l.leaf = true;
      uint32_t from = uint32_t(uint64_t(workers) * i / leaves),
               to = uint32_t(uint64_t(workers) * (i + 1) / leaves);
      for (uint32_t w = from; w < to; ++w) {
        l.children.push_back(w);
        w_[w].leaf = level[i];
      }
    }
    uint64_t mean = (c.msg_min + c.msg_max) / 2;
    analysis_ = c.spawn_cycles > 2 * mean ? c.spawn_cycles - 2 * mean : 0;
    for (std::size_t k = 0; k < g.tasks.size(); ++k)
      t_[k].preds = g.tasks[k].npreds;
  }

  myrmics_result run() {
    uint32_t roots = 0;
    for (uint32_t k = 0; k < g_.tasks.size(); ++k) {
      if (g_.tasks[k].parent != kNone || g_.idle_root(k))
        continue;
      if (roots++ > 0)
        throw error("myrmics: the trace has more than one root task with "
                    "work (the model runs one main task)");
      task_st &r = t_[k];
      r.started = r.analysed = true;
      r.handler = r.home = 0;
      r.worker = 0;
      w_[0].current = k;
      ++expected_;
      push(0, ev::proceed, 0);
    }
    for (uint32_t k = 0; k < g_.tasks.size(); ++k)
      if (g_.tasks[k].parent != kNone)
        ++expected_;
    while (!events_.empty()) {
      event e = events_.top();
      events_.pop();
      handle(e);
    }
    if (completed_ != expected_)
      throw error("myrmics: deadlock, " +
                  std::to_string(expected_ - completed_) +
                  " tasks never completed");
    myrmics_result r;
    r.makespan_cycles = makespan_;
    r.messages = messages_;
    for (const sched_st &s : s_)
      r.scheduler_busy =
          std::max(r.scheduler_busy,
                   makespan_ ? double(s.busy) / double(makespan_) : 0.0);
    r.base.cores = uint32_t(w_.size());
    r.base.makespan_ps = ps(makespan_);
    r.base.work_ps = ps(work_);
    r.base.tasks = completed_;
    r.base.events = events_seen_;
    return r;
  }

private:
  uint64_t ps(uint64_t cycles) const { return cycles_ps(cycles, c_.mhz); }
  void push(uint64_t time, ev kind, uint32_t a, uint32_t b = 0) {
    events_.push(event{time, seq_++, kind, a, b});
  }
  // One message's transit; `hops` messages in a row.
  uint64_t msgs(uint32_t hops) {
    std::uniform_int_distribution<uint64_t> d(c_.msg_min, c_.msg_max);
    uint64_t t = 0;
    for (uint32_t i = 0; i < hops; ++i)
      t += d(rng_);
    messages_ += hops;
    return t;
  }
  // Messages from worker w up to scheduler s (an ancestor of w's leaf).
  uint32_t hops_up(uint32_t w, uint32_t s) const {
    return 1 + s_[w_[w].leaf].level - s_[s].level;
  }
  // Serves a request of `cost` at scheduler s arriving at `now`; its end.
  uint64_t serve(uint32_t s, uint64_t now, uint64_t cost) {
    sched_st &x = s_[s];
    uint64_t start = std::max(now, x.free_at);
    x.free_at = start + cost;
    x.busy += cost;
    return x.free_at;
  }
  uint64_t cycles_of_ns(uint64_t ns) const {
    return uint64_t(double(ns) * c_.mhz / 1000.0 + 0.5);
  }

  void handle(const event &e) {
    ++events_seen_;
    uint64_t now = e.time;
    makespan_ = std::max(makespan_, now);
    switch (e.kind) {
    case ev::proceed:
      proceed(e.a, now);
      break;
    case ev::spawn_in: {
      uint32_t args = std::max<uint32_t>(1, g_.tasks[e.a].ndeps);
      push(serve(t_[e.a].handler, now,
                 analysis_ + uint64_t(args - 1) * c_.arg_cycles),
           ev::spawn_done, e.a);
    } break;
    case ev::spawn_done: {
      task_st &k = t_[e.a];
      k.analysed = true;
      uint32_t parent_worker = t_[g_.tasks[e.a].parent].worker;
      push(now + msgs(hops_up(parent_worker, k.handler)), ev::ack,
           parent_worker);
      if (k.preds == 0)
        decide(e.a, k.handler, now);
      break;
    }
    case ev::ack:
      proceed(e.a, now);
      break;
    case ev::decide_in:
      decide(e.a, e.b, now);
      break;
    case ev::decided: {
      sched_st &s = s_[e.b];
      uint32_t best = kNone;
      uint64_t best_load = UINT64_MAX;
      for (uint32_t ch : s.children) {
        uint64_t l = s.leaf ? w_[ch].load : s_[ch].load;
        if (l < best_load)
          best = ch, best_load = l;
      }
      if (s.leaf) {
        for (uint32_t x = e.b; x != kNone; x = s_[x].parent)
          ++s_[x].load;
        ++w_[best].load;
        push(now + msgs(1), ev::deliver, e.a, best);
      } else {
        push(now + msgs(1), ev::decide_in, e.a, best);
      }
      break;
    }
    case ev::deliver: {
      worker_st &w = w_[e.b];
      t_[e.a].worker = e.b;
      w.queue.push_back(e.a);
      if (w.current == kNone)
        start_next(e.b, now);
      break;
    }
    case ev::done_in:
      push(serve(t_[e.a].handler, now, c_.done_cycles), ev::done, e.a);
      break;
    case ev::done:
      retired(e.a, now);
      break;
    case ev::resume: {
      task_st &k = t_[e.a];
      k.waiting = false;
      worker_st &w = w_[k.worker];
      w.queue.push_front(e.a);
      if (w.current == kNone)
        start_next(k.worker, now);
      break;
    }
    }
  }

  // A dispatch decision for task k at scheduler s.
  void decide(uint32_t k, uint32_t s, uint64_t now) {
    uint64_t cost = c_.score_cycles * s_[s].children.size();
    push(serve(s, now, cost), ev::decided, k, s);
  }

  void start_next(uint32_t w, uint64_t now) {
    worker_st &x = w_[w];
    if (x.queue.empty())
      return;
    uint32_t k = x.queue.front();
    x.queue.pop_front();
    x.current = k;
    if (!t_[k].started) {
      t_[k].started = true;
      push(now + c_.exec_cycles, ev::proceed, w);
    } else {
      proceed(w, now);
    }
  }

  void proceed(uint32_t w, uint64_t now) {
    uint32_t k = w_[w].current;
    const trace::task_node &n = g_.tasks[k];
    task_st &s = t_[k];
    while (s.step < n.nsteps) {
      const trace::step &st = g_.steps[n.first_step + s.step++];
      switch (st.type) {
      case step_kind::work: {
        uint64_t cyc = cycles_of_ns(st.value);
        work_ += cyc;
        push(now + cyc, ev::proceed, w);
        return;
      }
      case step_kind::create:
        spawn(k, uint32_t(st.value), w, now);
        return; // blocked until the ack
      case step_kind::taskwait:
      case step_kind::taskwait_on:
        if (s.children == 0)
          continue;
        s.waiting = true;
        w_[w].current = kNone;
        start_next(w, now);
        return;
      default:
        throw error(std::string("myrmics: step ") + trace::name(st.type) +
                    " of task " + std::to_string(n.id) +
                    " is not modelled (work, create, taskwait only)");
      }
    }
    // The task ended.
    w_[w].current = kNone;
    if (n.parent == kNone) {
      ++completed_;
      makespan_ = std::max(makespan_, now);
    } else {
      push(now + msgs(hops_up(w, s.handler)), ev::done_in, k);
    }
    start_next(w, now);
  }

  void spawn(uint32_t parent, uint32_t child, uint32_t w, uint64_t now) {
    task_st &p = t_[parent];
    task_st &c = t_[child];
    ++p.children;
    c.depth = p.depth + 1;
    if (p.home == kNone) {
      // Its children's data was placed below its scheduler: the next child
      // scheduler in turn, or its own at the leaves.
      sched_st &h = s_[p.handler];
      p.home = h.leaf ? p.handler : h.children[h.rr++ % h.children.size()];
    }
    c.handler = c.depth == 1 ? 0 : p.home;
    // Up from the worker's leaf to the parent's scheduler, then down to the
    // child's if it was delegated.
    uint32_t hops = hops_up(w, p.handler) + (c.handler != p.handler ? 1 : 0);
    push(now + msgs(hops), ev::spawn_in, child);
  }

  void retired(uint32_t k, uint64_t now) {
    ++completed_;
    task_st &s = t_[k];
    for (uint32_t x = w_[s.worker].leaf; x != kNone; x = s_[x].parent)
      --s_[x].load;
    --w_[s.worker].load;
    const trace::task_node &n = g_.tasks[k];
    for (uint32_t i = 0; i < n.nsuccs; ++i) {
      uint32_t sk = g_.succs[n.first_succ + i];
      if (--t_[sk].preds == 0 && t_[sk].analysed)
        decide(sk, t_[sk].handler, now);
    }
    task_st &p = t_[n.parent];
    if (--p.children == 0 && p.waiting)
      push(now + msgs(hops_up(p.worker, s.handler)), ev::resume, n.parent);
  }

  const trace::task_graph &g_;
  const myrmics_config &c_;
  std::vector<task_st> t_;
  std::vector<sched_st> s_;
  std::vector<worker_st> w_;
  std::mt19937_64 rng_;
  std::priority_queue<event, std::vector<event>, std::greater<event>> events_;
  uint64_t seq_ = 0, analysis_ = 0, makespan_ = 0, work_ = 0, messages_ = 0;
  uint64_t completed_ = 0, expected_ = 0, events_seen_ = 0;
};

} // namespace

myrmics_result simulate_myrmics(const trace::task_graph &g,
                                const myrmics_config &c, uint32_t workers) {
  if (workers == 0)
    throw error("myrmics: 0 workers");
  return replay(g, c, workers).run();
}

} // namespace weft::sim
