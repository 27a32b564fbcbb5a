#include "picos_engine.hpp"

#include "base/error.hpp"
#include "base/fence.hpp"
#include "core/engine_host.hpp"
#include "picos_config.hpp"
#include "picos_manager.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

namespace weft {

namespace {
constexpr uint32_t kTags = 1u << 16; // tag 0: no domain
constexpr int kTagShift = 48;        // the domain tag: bits 48..63
// User addresses are below 2^47 (x86-64 user space); bit 47 marks the
// engine's own join addresses (a taskwait's chain, see wait_deps).
constexpr int kUserBits = 47;
constexpr uint64_t kJoinBit = uint64_t(1) << kUserBits;
// The arg of the engine's join pseudo-tasks (their fn is null).
char g_join_marker;
// Looks by idle workers at a task waiting in another core's queue before
// one of them takes it.
constexpr uint32_t kRescueLooks = 4;
// Refusals in a row of one task without dependences before it runs without
// Picos.
constexpr uint32_t kBypassAfter = 16;
// How long a worker with a Ready Task Request outstanding sleeps at most.
// The Manager wakes a sleeping team member when it fills its queue; this
// bounds a wake-up that arrives as it falls asleep, and a worker between
// teams (which nothing wakes).
constexpr uint32_t kDefaultPollUs = 200;

dep_domain *domain_of_tag(uint32_t tag) {
  return reinterpret_cast<dep_domain *>(static_cast<uintptr_t>(tag));
}
uint32_t tag_of_domain(dep_domain *d) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(d));
}
} // namespace

struct alignas(64) picos_engine::core_state {
  // The core's private ready queue and held list have one consumer at a
  // time: its own worker (owner_in), or another worker taking a task from
  // it (thief_in). An asymmetric Dekker pair: the owner, on every fetch,
  // pays a compiler barrier; a thief, rarely, a process-wide fence.
  std::atomic<bool> owner_in{false};
  std::atomic<bool> thief_in{false};
  std::atomic<int> requested{0};    // Ready Task Requests not yet fetched
  std::atomic<bool> refused{false}; // the last Ready Task Request failed
  std::atomic<uint32_t> looks{0};   // others saw its queue non-empty
  // Fetched tasks this core keeps for later (see pick), oldest first.
  std::vector<task *> held;
  std::atomic<uint32_t> nheld{0}; // held.size(), for other workers
  bool held_empty() const { return nheld.load(std::memory_order_relaxed) == 0; }
  // Counters (single writer: the worker that is this core).
  std::atomic<uint64_t> full{0}, serialized{0}, wait_all{0}, rescued{0},
      stolen{0}, joins{0}, bypassed{0};
  // The task submit refused last, and how many times in a row.
  task *refused_task = nullptr;
  uint32_t refusals = 0;
};

picos_engine::picos_engine(const weft_picos_config &cfg, int poll_us,
                           int nworkers)
    : poll_us_(poll_us) {
  weft_picos_config c = cfg;
  c.notify = on_task_queued;
  c.notify_ctx = this;
  unit_ = weft_picos_create(&c);
  if (!unit_)
    fatal("picos engine: %s", weft_last_error());
  // Per-core counters for the workers the runtime starts with (teams may
  // add more: picos.peak.core_queue covers every core).
  unit_->manager.set_reported_cores(nworkers);
  // A task goes to Picos only if its dependences need at most half of the
  // dependence and version memories: a bigger one could wait for room for
  // ever behind tasks that hold a few entries (a detached task not yet
  // fulfilled). The defaults allow all 15.
  max_deps_ = WEFT_PICOS_MAX_DEPS;
  uint32_t half = std::min(c.dep_memory, c.version_memory) / 2;
  if (half < static_cast<uint32_t>(max_deps_))
    max_deps_ = half > 0 ? static_cast<int>(half) : 1;
}

namespace {
weft_picos_config env_config() {
  weft_picos_config c;
  picos_default_config(c);
  c.cores = kMaxWorkers;
  picos_config_from_env(c);
  return c;
}
} // namespace

picos_engine::picos_engine(int nworkers)
    : picos_engine(env_config(),
                   static_cast<int>(picos_env_uint("WEFT_PICOS_POLL_US",
                                                   kDefaultPollUs, 1, 1000000)),
                   nworkers) {}

picos_engine::~picos_engine() { weft_picos_destroy(unit_); }

void picos_engine::start(runtime &rt) {
  rt_.store(&rt, std::memory_order_release);
}

void picos_engine::stop() { rt_.store(nullptr, std::memory_order_release); }

// The Manager put a task into `core`'s queue: wake that worker if it sleeps.
void picos_engine::on_task_queued(void *ctx, int core) {
  auto *e = static_cast<picos_engine *>(ctx);
  worker *self = engine_host::current_worker();
  if (self && self->id() == core)
    return; // the calling worker is that core: awake
  if (runtime *rt = e->rt_.load(std::memory_order_acquire))
    engine_host::wake(*rt, core);
}

namespace {
#if defined(__SANITIZE_THREAD__)
constexpr std::memory_order kDekkerLoad = std::memory_order_seq_cst;
#else
constexpr std::memory_order kDekkerLoad = std::memory_order_acquire;
#endif
} // namespace

bool picos_engine::enter_own(core_state &cs) {
  cs.owner_in.store(true, kPublishOrder);
  light_fence(); // pairs with heavy_fence() in enter_other
  if (!cs.thief_in.load(kDekkerLoad))
    return true;
  cs.owner_in.store(false, std::memory_order_release);
  return false;
}

void picos_engine::leave_own(core_state &cs) {
  cs.owner_in.store(false, std::memory_order_release);
}

bool picos_engine::enter_other(core_state &cs) {
  if (cs.thief_in.exchange(true, std::memory_order_seq_cst))
    return false;
  heavy_fence();
  if (!cs.owner_in.load(kDekkerLoad))
    return true;
  cs.thief_in.store(false, std::memory_order_release);
  return false;
}

void picos_engine::leave_other(core_state &cs) {
  cs.thief_in.store(false, std::memory_order_release);
}

picos_engine::core_state &picos_engine::core(int id) { return cores_.get(id); }

// ---------------------------------------------------------------------------
int picos_engine::merge_deps(const weft_dep *deps, int ndeps, picos_dep *out,
                             int max) {
  // A 128-bit filter of the addresses seen: most lists repeat none, and a
  // list is scanned for a repeat only when its bit was already set.
  uint64_t seen[2] = {0, 0};
  int n = 0;
  for (int i = 0; i < ndeps; ++i) {
    auto a = reinterpret_cast<uintptr_t>(deps[i].addr);
    if (a >> kUserBits)
      fatal("picos engine: dependence address %p is not below 2^%d (x86-64 "
            "user space): no room for the domain tag in the address Picos "
            "receives",
            deps[i].addr, kUserBits);
    uint32_t dir = deps[i].mode == WEFT_IN    ? WEFT_PICOS_DIR_IN
                   : deps[i].mode == WEFT_OUT ? WEFT_PICOS_DIR_OUT
                                              : WEFT_PICOS_DIR_INOUT;
    uint32_t h = static_cast<uint32_t>((a * 0x9E3779B97F4A7C15ull) >> 57);
    uint64_t bit = uint64_t(1) << (h & 63);
    if (seen[h >> 6] & bit) {
      int j = 0;
      while (j < n && out[j].addr != a)
        ++j;
      if (j < n) {
        out[j].dir |= dir; // in|out = inout
        continue;
      }
    }
    seen[h >> 6] |= bit;
    if (n == max)
      return max + 1;
    out[n++] = picos_dep{a, dir};
  }
  return n;
}

void picos_engine::send(int c, uint64_t sw_id, const picos_dep *d, int nd,
                        uint32_t tag) {
  uint64_t rs1, rs2;
  weft_picos_header(sw_id, nd, &rs1, &rs2);
  weft_picos_submit_three_packets(unit_, c, rs1, rs2);
  for (int i = 0; i < nd; ++i) {
    weft_picos_dependence(d[i].addr | (uint64_t(tag) << kTagShift), d[i].dir,
                          &rs1, &rs2);
    weft_picos_submit_three_packets(unit_, c, rs1, rs2);
  }
}

submit_result picos_engine::submit(worker &w, task *parent, task *t,
                                   const weft_dep *deps, int ndeps) {
  int c = w.id();
  picos_dep d[WEFT_PICOS_MAX_DEPS];
  int nd = 0;
  uint32_t tag = 0;
  if (ndeps > 0) {
    nd = merge_deps(deps, ndeps, d, max_deps_);
    if (nd > max_deps_ || (tag = tag_of(parent)) == 0) {
      bump(core(c).serialized);
      return submit_result::serialize;
    }
  }
  if (!weft_picos_submission_request(unit_, c, weft_picos_packets(nd))) {
    core_state &cs = core(c);
    bump(cs.full);
    // A task without dependences that Picos keeps refusing runs without
    // it: nothing can be ordered against it, and the room may never come
    // (a task memory full of detached tasks that this thread fulfils once
    // it has created this one; the core's serialization would wait for
    // them).
    if (nd == 0) {
      if (cs.refused_task != t) {
        cs.refused_task = t;
        cs.refusals = 0;
      }
      if (++cs.refusals >= kBypassAfter) {
        cs.refused_task = nullptr;
        bump(cs.bypassed);
        return submit_result::ready;
      }
    }
    return submit_result::full;
  }
  // Before the last packet: another core may run and retire t right after.
  t->engine_data = 0;
  if (t->priority > 0)
    prio_tasks_.fetch_add(1, std::memory_order_relaxed);
  send(c, reinterpret_cast<uint64_t>(t), d, nd, tag);
  return submit_result::pending;
}

// Submission Request for a waiter (nd dependences), making progress while
// Picos is full; false if it stays full with nothing else to run.
bool picos_engine::request_for_wait(worker &w, int nd) {
  backoff idle(kFullBackoff);
  while (
      !weft_picos_submission_request(unit_, w.id(), weft_picos_packets(nd))) {
    if (w.help_once())
      idle.reset();
    else if (!idle.pause())
      return false;
  }
  return true;
}

// taskwait depend: the waiter goes to Picos as a task with those
// dependences. More than Picos takes: a chain of join pseudo-tasks, each
// with the next (max - 1) dependences and inout on a join address of this
// wait, orders the waiter (the last ones, and in on the join address) after
// all of them; waiting for each part in turn is waiting for all (no sibling
// is created meanwhile).
wait_result picos_engine::wait_deps(worker &w, task *parent, task *waiter,
                                    const weft_dep *deps, int ndeps) {
  if (!parent->domain)
    return wait_result::none; // no child with dependences is in Picos
  int c = w.id();
  std::vector<picos_dep> d(static_cast<std::size_t>(ndeps));
  int nd = merge_deps(deps, ndeps, d.data(), ndeps);
  if (nd == 0)
    return wait_result::none;
  uint32_t tag = tag_of_domain(parent->domain);
  int first = 0;
  if (nd > max_deps_) {
    if (max_deps_ < 2) {
      bump(core(c).wait_all); // no room for a join address
      return wait_result::all;
    }
    uint64_t join =
        kJoinBit | (reinterpret_cast<uintptr_t>(waiter) & (kJoinBit - 1));
    int part = max_deps_ - 1;
    for (; nd - first > part; first += part) {
      if (!request_for_wait(w, part + 1)) {
        bump(core(c).wait_all);
        return wait_result::all; // the parts sent retire as they come
      }
      auto *j = new task{};
      j->arg = &g_join_marker;
      picos_dep *q = d.data() + first;
      picos_dep saved = q[part];
      q[part] = picos_dep{join, WEFT_PICOS_DIR_INOUT};
      send(c, reinterpret_cast<uint64_t>(j), q, part + 1, tag);
      q[part] = saved;
      bump(core(c).joins);
    }
    if (static_cast<std::size_t>(nd) == d.size())
      d.push_back(picos_dep{join, WEFT_PICOS_DIR_IN});
    else
      d[static_cast<std::size_t>(nd)] = picos_dep{join, WEFT_PICOS_DIR_IN};
    ++nd;
  }
  // Picos full with nothing to run (every entry held by tasks that wait):
  // waiting for every child is the only answer left.
  if (!request_for_wait(w, nd - first)) {
    bump(core(c).wait_all);
    return wait_result::all;
  }
  waiter->engine_data = 0;
  send(c, reinterpret_cast<uint64_t>(waiter), d.data() + first, nd - first,
       tag);
  return wait_result::waiter;
}

// The front task of core c's queue (as its consumer), issued by core
// `me`; join pseudo-tasks are retired on the spot and skipped.
task *picos_engine::take(int me, int c, core_state &cs) {
  for (;;) {
    uint64_t sw_id = weft_picos_fetch_sw_id(unit_, c);
    if (sw_id == WEFT_PICOS_FAIL)
      return nullptr;
    uint32_t id = weft_picos_fetch_picos_id(unit_, c);
    if (id == WEFT_PICOS_FAIL)
      fatal("picos engine: Fetch Picos ID failed after Fetch SW ID "
            "succeeded on core %d",
            c);
    cs.requested.store(cs.requested.load(std::memory_order_relaxed) - 1,
                       std::memory_order_relaxed);
    auto *t = reinterpret_cast<task *>(sw_id);
    if (t->arg == &g_join_marker && !t->fn) {
      weft_picos_retire_task(unit_, me, id);
      delete t;
      continue;
    }
    t->engine_data = id;
    return t;
  }
}

// A Ready Task Request for core c (as its consumer).
void picos_engine::request(int c, core_state &cs) {
  bool ok = weft_picos_ready_task_request(unit_, c);
  if (ok)
    cs.requested.store(1, std::memory_order_relaxed);
  if (cs.refused.load(std::memory_order_relaxed) == ok)
    cs.refused.store(!ok, std::memory_order_relaxed);
}

void picos_engine::hold(core_state &cs, task *t) {
  cs.held.push_back(t);
  cs.nheld.store(static_cast<uint32_t>(cs.held.size()),
                 std::memory_order_relaxed);
}

task *picos_engine::unhold(core_state &cs, std::size_t i) {
  task *t = cs.held[i];
  cs.held.erase(cs.held.begin() + static_cast<std::ptrdiff_t>(i));
  cs.nheld.store(static_cast<uint32_t>(cs.held.size()),
                 std::memory_order_relaxed);
  return t;
}

// As c's consumer. Inside a task (a taskwait, or a spawn making room), its own
// children come first, newest first: Picos hands out ready tasks oldest
// first, which on one thread would run unrelated tasks on top of every
// waiting one and nest task bodies without bound.
task *picos_engine::pick(worker &w, int c, core_state &cs, bool &held_more) {
  task *cur = w.current();
  bool anything = !cur || (cur->flags & TASK_ROOT);
  team *mine = w.current_team();
  if (prio_tasks_.load(std::memory_order_relaxed) > 0) {
    // Tasks with a priority are in Picos or held: of the ready ones the
    // highest runs first (weft.h), so take every ready task, then choose.
    for (;;) {
      if (cs.requested.load(std::memory_order_relaxed) == 0 && mine)
        request(c, cs);
      task *t = take(c, c, cs);
      if (!t)
        break;
      if ((t->flags & TASK_WAITER) || engine_host::home_team(t) != mine)
        return t;
      hold(cs, t);
      held_more = true;
    }
    std::size_t best = cs.held.size();
    for (std::size_t i = cs.held.size(); i-- > 0;)
      if (cs.held[i]->priority > 0 &&
          (best == cs.held.size() ||
           cs.held[i]->priority > cs.held[best]->priority))
        best = i;
    if (best < cs.held.size())
      return unhold(cs, best);
  }
  for (std::size_t i = cs.held.size(); i-- > 0;)
    if (anything || cs.held[i]->parent == cur)
      return unhold(cs, i);
  for (;;) {
    // A worker between teams only hands back what its queue holds: it asks
    // for no more work that it would have to route elsewhere.
    if (cs.requested.load(std::memory_order_relaxed) == 0 && mine)
      request(c, cs);
    task *t = take(c, c, cs);
    if (!t)
      break;
    if (anything || t->parent == cur || (t->flags & TASK_WAITER) ||
        engine_host::home_team(t) != mine)
      return t; // (the core routes another team's task home)
    hold(cs, t);
    held_more = true;
  }
  // No child of cur is ready: help with the newest task held.
  return cs.held.empty() ? nullptr : unhold(cs, cs.held.size() - 1);
}

task *picos_engine::fetch(worker &w) {
  int c = w.id();
  core_state &cs = core(c);
  task *t = nullptr;
  bool held_more = false;
  if (enter_own(cs)) {
    if (cs.looks.load(std::memory_order_relaxed) != 0)
      cs.looks.store(0, std::memory_order_relaxed);
    t = pick(w, c, cs, held_more);
    leave_own(cs);
  }
  if (held_more && !cs.held_empty())
    if (team *mine = w.current_team();
        mine && mine->num_sleeping().load(std::memory_order_seq_cst) > 0)
      mine->wake_one(); // another member may run what we hold
  if (!t && !(t = rescue(w)))
    return nullptr;
  return finish_fetch(w, t);
}

// A task fetched by w: a taskwait-depend waiter is retired at once and handed
// to the core, which releases its waiting thread.
task *picos_engine::finish_fetch(worker &w, task *t) {
  if (t->priority > 0)
    prio_tasks_.fetch_sub(1, std::memory_order_relaxed);
  if (t->flags & TASK_WAITER) {
    weft_picos_retire_task(unit_, w.id(), t->engine_data);
    t->engine_data = 0;
  }
  return t;
}

// w found nothing of its own: the oldest task another core holds (as work
// stealing takes the oldest), or a task that has waited in another core's
// private queue while others looked kRescueLooks times and that core did not
// fetch (it may be blocked, or out of its team).
task *picos_engine::rescue(worker &w) {
  int n = cores_.bound();
  for (int i = 1; i < n; ++i) {
    int c = w.id() + i < n ? w.id() + i : w.id() + i - n;
    core_state *cs = cores_.find(c);
    if (!cs)
      continue;
    bool held = !cs->held_empty();
    bool stale =
        weft_picos_queued(unit_, c) != 0 &&
        cs->looks.fetch_add(1, std::memory_order_relaxed) + 1 >= kRescueLooks;
    if (!held && !stale)
      continue;
    if (!enter_other(*cs))
      continue;
    task *t = nullptr;
    if (!cs->held.empty())
      t = unhold(*cs, 0);
    else if (stale)
      t = take(w.id(), c, *cs);
    leave_other(*cs);
    if (t) {
      if (stale && !held)
        cs->looks.store(0, std::memory_order_relaxed);
      bump(held ? core(w.id()).stolen : core(w.id()).rescued);
      return t;
    }
  }
  return nullptr;
}

bool picos_engine::has_ready(worker &w) {
  int c = w.id();
  core_state &cs = core(c);
  if (!cs.held_empty())
    return true;
  if (!enter_own(cs))
    return true; // someone is taking from it right now: look again
  bool ready = weft_picos_fetch_sw_id(unit_, c) != WEFT_PICOS_FAIL;
  leave_own(cs);
  if (ready)
    return true;
  // Tasks other cores hold are this worker's to take too, and so is a task
  // waiting in another core's queue (that core may be blocked: see rescue).
  int n = cores_.bound();
  for (int i = 0; i < n; ++i)
    if (core_state *o = cores_.find(i))
      if (!o->held_empty() || (i != c && weft_picos_queued(unit_, i) != 0))
        return true;
  return false;
}

// A task may land in this core's queue at any time while it has a request
// outstanding; without one (the routing queue was full) a task may land in
// the queue of a core that does not fetch, which only others can rescue.
int picos_engine::poll_interval_us(worker &w) {
  core_state &cs = core(w.id());
  return cs.requested.load(std::memory_order_relaxed) > 0 ||
                 cs.refused.load(std::memory_order_relaxed)
             ? poll_us_
             : 0;
}

void picos_engine::retire(worker &w, task *t) {
  uint32_t id = t->engine_data;
  if (id == 0)
    return; // never in Picos: serialized, undeferred or included
  weft_picos_retire_task(unit_, w.id(), id);
  t->engine_data = 0;
}

// ---------------------------------------------------------------------------
uint32_t picos_engine::tag_of(task *parent) {
  if (parent->domain)
    return tag_of_domain(parent->domain);
  uint32_t tag = 0;
  {
    std::lock_guard<std::mutex> lk(tag_lock_);
    if (!free_tags_.empty()) {
      tag = free_tags_.back();
      free_tags_.pop_back();
    } else if (next_tag_ < kTags) {
      tag = next_tag_++;
    } else {
      return 0; // every tag is taken: the caller serializes
    }
    if (++tags_in_use_ > peak_tags_)
      peak_tags_ = tags_in_use_;
  }
  parent->domain = domain_of_tag(tag);
  return tag;
}

// A tag goes back when no child can carry it any more. Children of a task
// that returned may still run: its tag is recycled with its descriptor
// (task_free: every child has retired by then). Implicit and included tasks
// are never freed, and their children have all finished when they end.
void picos_engine::task_end(worker &, task *parent) {
  if (parent->flags & (TASK_ROOT | TASK_INLINE)) {
    free_tag(tag_of_domain(parent->domain));
    parent->domain = nullptr;
  }
}

void picos_engine::task_free(worker &, task *t) {
  if (t->domain) {
    free_tag(tag_of_domain(t->domain));
    t->domain = nullptr;
  }
}

void picos_engine::free_tag(uint32_t tag) {
  std::lock_guard<std::mutex> lk(tag_lock_);
  free_tags_.push_back(tag);
  --tags_in_use_;
}

// ---------------------------------------------------------------------------
void picos_engine::add_stats(engine_stats &out) const {
  int total = weft_picos_counters(unit_, nullptr, nullptr, 0);
  std::vector<const char *> names(static_cast<std::size_t>(total));
  std::vector<uint64_t> values(static_cast<std::size_t>(total));
  weft_picos_counters(unit_, names.data(), values.data(), total);
  uint64_t tasks = 0;
  for (int i = 0; i < total; ++i) {
    const char *n = names[static_cast<std::size_t>(i)];
    uint64_t v = values[static_cast<std::size_t>(i)];
    out.add(n, v);
    if (!std::strcmp(n, "picos.tasks"))
      tasks = v;
    else if (!std::strcmp(n, "picos.deps"))
      out.deps_submitted += v;
    else if (!std::strcmp(n, "picos.edges"))
      out.edges += v;
    else if (!std::strcmp(n, "picos.cycles"))
      out.modelled_cycles += v;
    else if (!std::strcmp(n, "picos.peak.dep_memory") &&
             v > out.peak_map_entries)
      out.peak_map_entries = v;
  }
  out.add("picos.cycles_per_task", tasks ? out.modelled_cycles / tasks : 0);
  uint64_t full = 0, serialized = 0, wait_all = 0, rescued = 0, stolen = 0,
           joins = 0, bypassed = 0;
  int n = cores_.bound();
  for (int i = 0; i < n; ++i)
    if (const core_state *s = cores_.find(i)) {
      full += s->full.load(std::memory_order_relaxed);
      serialized += s->serialized.load(std::memory_order_relaxed);
      wait_all += s->wait_all.load(std::memory_order_relaxed);
      rescued += s->rescued.load(std::memory_order_relaxed);
      stolen += s->stolen.load(std::memory_order_relaxed);
      joins += s->joins.load(std::memory_order_relaxed);
      bypassed += s->bypassed.load(std::memory_order_relaxed);
    }
  out.add("picos.engine.full", full);
  out.add("picos.engine.serialized", serialized);
  out.add("picos.engine.wait_all", wait_all);
  out.add("picos.engine.rescued", rescued);
  out.add("picos.engine.stolen", stolen);
  out.add("picos.engine.joins", joins);
  out.add("picos.engine.bypassed", bypassed);
  std::lock_guard<std::mutex> lk(tag_lock_);
  out.add("picos.engine.peak_domains", peak_tags_);
}

} // namespace weft
