#include "picos_engine.hpp"

#include "../../core/error.hpp"
#include "../../core/runtime.hpp"
#include "picos_config.hpp"

#include <cstring>

namespace weft {

namespace {
constexpr uint32_t kTags = 1u << 16; // tag 0: no domain
constexpr uint32_t kTagEnded = 1u << 31;
constexpr int kTagShift = 48; // user addresses are below 2^48
// Looks by idle workers at a task waiting in another core's queue before
// one of them takes it.
constexpr uint32_t kRescueLooks = 4;

dep_domain *domain_of_tag(uint32_t tag) {
  return reinterpret_cast<dep_domain *>(static_cast<uintptr_t>(tag));
}
uint32_t tag_of_domain(dep_domain *d) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(d));
}
} // namespace

struct alignas(64) picos_engine::core_state {
  // The core's private ready queue has one consumer at a time: its own
  // worker, or a worker rescuing a task from it.
  std::atomic<bool> busy{false};
  std::atomic<int> requested{0};  // Ready Task Requests not yet fetched
  std::atomic<uint32_t> looks{0}; // others saw its queue non-empty
  // Counters (single writer: the worker that is this core).
  std::atomic<uint64_t> full{0}, serialized{0}, wait_all{0}, rescued{0};
};

picos_engine::picos_engine(const weft_picos_config &cfg, int poll_us)
    : poll_us_(poll_us), cores_(new std::atomic<core_state *>[kMaxWorkers]()),
      tag_live_(new std::atomic<uint32_t>[kTags]()) {
  weft_picos_config c = cfg;
  c.notify = on_task_queued;
  c.notify_ctx = this;
  unit_ = weft_picos_create(&c);
  if (!unit_)
    fatal("picos engine: %s", weft_last_error());
  max_deps_ = WEFT_PICOS_MAX_DEPS;
  if (c.dep_memory < static_cast<uint32_t>(max_deps_))
    max_deps_ = static_cast<int>(c.dep_memory);
  if (c.version_memory < static_cast<uint32_t>(max_deps_))
    max_deps_ = static_cast<int>(c.version_memory);
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

picos_engine::picos_engine(int)
    : picos_engine(env_config(), static_cast<int>(picos_env_uint(
                                     "WEFT_PICOS_POLL_US", 50, 1, 1000000))) {}

picos_engine::~picos_engine() {
  weft_picos_destroy(unit_);
  for (int i = 0; i < kMaxWorkers; ++i)
    delete cores_[i].load(std::memory_order_relaxed);
}

void picos_engine::start(runtime &rt) {
  rt_.store(&rt, std::memory_order_release);
}

void picos_engine::stop() { rt_.store(nullptr, std::memory_order_release); }

// The Manager put a task into `core`'s queue: wake that worker if it sleeps.
void picos_engine::on_task_queued(void *ctx, int core) {
  auto *e = static_cast<picos_engine *>(ctx);
  if (runtime *rt = e->rt_.load(std::memory_order_acquire))
    if (core < rt->nthreads())
      rt->wake(core);
}

picos_engine::core_state &picos_engine::core(int id) {
  if (core_state *s = cores_[id].load(std::memory_order_acquire))
    return *s;
  // Only the worker that is this core creates its state.
  auto *s = new core_state;
  cores_[id].store(s, std::memory_order_release);
  int n = ncores_.load(std::memory_order_relaxed);
  while (n <= id &&
         !ncores_.compare_exchange_weak(n, id + 1, std::memory_order_release))
    ;
  return *s;
}

// ---------------------------------------------------------------------------
int picos_engine::merge_deps(const weft_dep *deps, int ndeps, picos_dep *out,
                             int max) {
  int n = 0;
  for (int i = 0; i < ndeps; ++i) {
    auto a = reinterpret_cast<uintptr_t>(deps[i].addr);
    if (a >> kTagShift)
      fatal("picos engine: dependence address %p is not below 2^%d: no room "
            "for the domain tag in the address Picos receives",
            deps[i].addr, kTagShift);
    uint32_t dir = deps[i].mode == WEFT_IN    ? WEFT_PICOS_DIR_IN
                   : deps[i].mode == WEFT_OUT ? WEFT_PICOS_DIR_OUT
                                              : WEFT_PICOS_DIR_INOUT;
    int j = 0;
    while (j < n && out[j].addr != a)
      ++j;
    if (j < n) {
      out[j].dir |= dir; // in|out = inout
      continue;
    }
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
    bump(core(c).full);
    return submit_result::full;
  }
  // Before the last packet: another core may run and retire t right after.
  t->engine_data = 0;
  t->pending.store(static_cast<int32_t>(tag), std::memory_order_relaxed);
  if (tag)
    tag_live_[tag].fetch_add(1, std::memory_order_relaxed);
  send(c, reinterpret_cast<uint64_t>(t), d, nd, tag);
  return submit_result::pending;
}

wait_result picos_engine::wait_deps(worker &w, task *parent, task *waiter,
                                    const weft_dep *deps, int ndeps) {
  if (!parent->domain)
    return wait_result::none; // no child with dependences is in Picos
  int c = w.id();
  picos_dep d[WEFT_PICOS_MAX_DEPS];
  int nd = merge_deps(deps, ndeps, d, max_deps_);
  if (nd == 0)
    return wait_result::none;
  // Too many dependences, or Picos is full: waiting for every child is
  // always correct.
  if (nd > max_deps_ ||
      !weft_picos_submission_request(unit_, c, weft_picos_packets(nd))) {
    bump(core(c).wait_all);
    return wait_result::all;
  }
  uint32_t tag = tag_of_domain(parent->domain);
  waiter->engine_data = 0;
  waiter->pending.store(static_cast<int32_t>(tag), std::memory_order_relaxed);
  tag_live_[tag].fetch_add(1, std::memory_order_relaxed);
  send(c, reinterpret_cast<uint64_t>(waiter), d, nd, tag);
  return wait_result::waiter;
}

// ---------------------------------------------------------------------------
task *picos_engine::take(int c, core_state &cs) {
  uint64_t sw_id = weft_picos_fetch_sw_id(unit_, c);
  if (sw_id == WEFT_PICOS_FAIL)
    return nullptr;
  uint32_t id = weft_picos_fetch_picos_id(unit_, c);
  if (id == WEFT_PICOS_FAIL)
    fatal("picos engine: Fetch Picos ID failed after Fetch SW ID succeeded "
          "on core %d",
          c);
  auto *t = reinterpret_cast<task *>(sw_id);
  t->engine_data = id;
  cs.requested.store(cs.requested.load(std::memory_order_relaxed) - 1,
                     std::memory_order_relaxed);
  return t;
}

task *picos_engine::fetch(worker &w) {
  int c = w.id();
  core_state &cs = core(c);
  task *t = nullptr;
  if (!cs.busy.exchange(true, std::memory_order_acquire)) {
    if (cs.looks.load(std::memory_order_relaxed) != 0)
      cs.looks.store(0, std::memory_order_relaxed);
    if (cs.requested.load(std::memory_order_relaxed) == 0 &&
        weft_picos_ready_task_request(unit_, c))
      cs.requested.store(1, std::memory_order_relaxed);
    t = take(c, cs);
    cs.busy.store(false, std::memory_order_release);
  }
  if (!t && !(t = rescue(w)))
    return nullptr;
  return finish_fetch(w, t);
}

// A task fetched by w: a taskwait-depend waiter is retired at once and handed
// to the core, which releases its waiting thread.
task *picos_engine::finish_fetch(worker &w, task *t) {
  if (t->flags & TASK_WAITER) {
    weft_picos_retire_task(unit_, w.id(), t->engine_data);
    t->engine_data = 0;
    tag_done(static_cast<uint32_t>(t->pending.load(std::memory_order_relaxed)));
  }
  return t;
}

task *picos_engine::rescue(worker &w) {
  int n = ncores_.load(std::memory_order_acquire);
  for (int i = 1; i < n; ++i) {
    int c = w.id() + i < n ? w.id() + i : w.id() + i - n;
    core_state *cs = cores_[c].load(std::memory_order_acquire);
    if (!cs || weft_picos_queued(unit_, c) == 0)
      continue;
    if (cs->looks.fetch_add(1, std::memory_order_relaxed) + 1 < kRescueLooks)
      continue;
    if (cs->busy.exchange(true, std::memory_order_acquire))
      continue;
    task *t = take(c, *cs);
    cs->busy.store(false, std::memory_order_release);
    if (t) {
      cs->looks.store(0, std::memory_order_relaxed);
      bump(core(w.id()).rescued);
      return t;
    }
  }
  return nullptr;
}

bool picos_engine::has_ready(worker &w) {
  int c = w.id();
  core_state &cs = core(c);
  if (cs.busy.exchange(true, std::memory_order_acquire))
    return true; // someone is taking from it right now: look again
  bool ready = weft_picos_fetch_sw_id(unit_, c) != WEFT_PICOS_FAIL;
  cs.busy.store(false, std::memory_order_release);
  return ready;
}

int picos_engine::poll_interval_us(worker &w) {
  return core(w.id()).requested.load(std::memory_order_relaxed) > 0 ? poll_us_
                                                                    : 0;
}

void picos_engine::retire(worker &w, task *t) {
  uint32_t id = t->engine_data;
  if (id == 0)
    return; // never in Picos: serialized, undeferred or included
  weft_picos_retire_task(unit_, w.id(), id);
  t->engine_data = 0;
  tag_done(static_cast<uint32_t>(t->pending.load(std::memory_order_relaxed)));
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

void picos_engine::tag_done(uint32_t tag) {
  if (tag != 0 &&
      tag_live_[tag].fetch_sub(1, std::memory_order_acq_rel) == (kTagEnded | 1))
    free_tag(tag); // the parent has ended and this was its last child
}

void picos_engine::task_end(worker &, task *parent) {
  uint32_t tag = tag_of_domain(parent->domain);
  parent->domain = nullptr;
  if (tag_live_[tag].fetch_or(kTagEnded, std::memory_order_acq_rel) == 0)
    free_tag(tag);
}

void picos_engine::free_tag(uint32_t tag) {
  tag_live_[tag].store(0, std::memory_order_relaxed);
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
  uint64_t full = 0, serialized = 0, wait_all = 0, rescued = 0;
  int n = ncores_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (const core_state *s = cores_[i].load(std::memory_order_acquire)) {
      full += s->full.load(std::memory_order_relaxed);
      serialized += s->serialized.load(std::memory_order_relaxed);
      wait_all += s->wait_all.load(std::memory_order_relaxed);
      rescued += s->rescued.load(std::memory_order_relaxed);
    }
  out.add("picos.engine.full", full);
  out.add("picos.engine.serialized", serialized);
  out.add("picos.engine.wait_all", wait_all);
  out.add("picos.engine.rescued", rescued);
  std::lock_guard<std::mutex> lk(tag_lock_);
  out.add("picos.engine.peak_domains", peak_tags_);
}

} // namespace weft
