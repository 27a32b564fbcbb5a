#include "worker.hpp"

#include "base/backoff.hpp"
#include "base/check.hpp"
#include "base/error.hpp"
#include "base/fence.hpp"
#include "core/in_place.hpp"
#include "core/trace_points.hpp"
#include "runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace weft {

void (*task_data_end)(void *data) = nullptr;
std::atomic<bool> tied_scheduling{false};

worker::worker(runtime &rt, int id)
    : rt_(rt), id_(id), current_(nullptr),
      rng_(0x9e3779b97f4a7c15ull * (id + 1)), pool_(static_cast<uint16_t>(id)),
      side_pool_(static_cast<uint16_t>(id)) {}

worker::~worker() {
  for (team *t : team_cache)
    delete t;
}

worker::membership worker::enter_team(team *t, int i) {
  membership m{team_,      slot_, slot_index_, current_,
               task_data_, mark_, barrier_};
  team_slot &s = t->slot(i);
  s.reset_implicit(id_);
  if (s.w != this) // the master set it before the members started; others
    s.w = this;    // read it to wake us

  team_ = t;
  slot_ = &s;
  slot_index_ = i;
  current_ = &s.implicit;
  task_data_ = nullptr;
  mark_ = s.deque.next_index();
  barrier_ = nullptr;
  trace_point::implicit_begin(*this, &s.implicit, t);
  return m;
}

void worker::leave_team(const membership &m) {
  trace_point::implicit_end(*this, &slot_->implicit);
  flush_finished_children();
  if (slot_->implicit.domain)
    rt_.engine().task_end(*this, &slot_->implicit);
  team_ = m.t;
  slot_ = m.slot;
  slot_index_ = m.index;
  current_ = m.current;
  task_data_ = m.data;
  mark_ = m.mark;
  barrier_ = m.barrier;
}

void worker::assign(team *t, int i) {
  job_team_ = t;
  job_slot_ = i;
  job_seq_.fetch_add(1, std::memory_order_seq_cst);
  if (job_sleeping_.load(std::memory_order_seq_cst))
    futex_wake(job_seq_, 1);
}

void worker::thread_main() {
  uint32_t seen = 0;
  for (;;) {
    // Between regions: spin (the next region usually follows at once),
    // yield, then sleep until assign().
    backoff idle(g_between_teams_backoff);
    uint32_t now;
    while ((now = job_seq_.load(std::memory_order_acquire)) == seen) {
      if (!idle.pause()) {
        pool_.flush_remote(rt_.pools());
        side_pool_.flush_remote(rt_.side_pools());
        dependency_engine &eng = rt_.engine();
        if (eng.holds_ready_tasks())
          drain_engine();
        int poll_us = eng.poll_interval_us(*this);
        job_sleeping_.store(true, std::memory_order_seq_cst);
        if (job_seq_.load(std::memory_order_seq_cst) == seen) {
          // An engine may queue tasks for this worker between teams (Picos:
          // a Ready Task Request still outstanding): look again in a while.
          if (poll_us)
            futex_wait_for(job_seq_, seen, poll_us);
          else
            futex_wait(job_seq_, seen);
        }
        job_sleeping_.store(false, std::memory_order_relaxed);
      }
    }
    seen = now;
    team *t = job_team_;
    if (!t)
      return;
    int i = job_slot_;
    membership m = enter_team(t, i);
    t->body(*this, i, t->arg);
    if (t->end_barrier)
      t->barrier(*this);
    leave_team(m);
    // The master may reuse or free the team after this.
    t->inside.fetch_sub(1, std::memory_order_release);
  }
}

task *worker::alloc_task(weft_task_fn fn, void *arg) {
  task *t;
  worksharing_engine *bins = rt_.descriptor_bins();
  if (bins && (t = static_cast<task *>(bins->alloc_descriptor()))) {
    init_task(t, fn, arg);
    t->flags = TASK_BIN;
    return t;
  }
  t = static_cast<task *>(pool_.alloc());
  init_task(t, fn, arg);
  return t;
}

void worker::init_task(task *t, weft_task_fn fn, void *arg) {
  // Explicit stores, not a constructor: the descriptor is recycled memory and
  // every field the task path reads is set here.
  t->fn = fn;
  t->arg = arg;
  // Atomic: a thief may still read it in the descriptor's previous life.
  std::atomic_ref<task *>(t->parent).store(nullptr, std::memory_order_relaxed);
  std::atomic_ref<taskgroup_state *>(t->group).store(nullptr,
                                                     std::memory_order_relaxed);
  new (&t->children) std::atomic<uint64_t>(kChildBias);
  new (&t->pending) std::atomic<int32_t>(0);
  new (&t->refs) std::atomic<int32_t>(1);
  new (&t->succ_state) std::atomic<uint32_t>(0);
  t->flags = 0;
  t->owner = static_cast<uint16_t>(id_);
  t->succ_more = nullptr;
  t->created = 0;
  t->domain = nullptr;
  t->cur_group = nullptr;
  new (&t->exc) std::atomic<std::exception_ptr *>(nullptr);
  t->mutexes = nullptr;
  t->priority = 0;
  t->engine_data = 0;
}

void worker::free_task(task *t) {
  rt_.engine().task_free(*this, t);
  if (t->flags & TASK_PAYLOAD_POOL)
    side_pool_.release(t->arg, t->owner, rt_.side_pools());
  else if (t->flags & TASK_PAYLOAD_HEAP)
    std::free(t->arg);
  if (std::exception_ptr *e = t->exc.load(std::memory_order_acquire)) {
    // A child threw after this task ended and nobody can wait for it now.
    try {
      std::rethrow_exception(*e);
    } catch (const std::exception &x) {
      std::fprintf(stderr,
                   "weft: an exception thrown by a task was never waited "
                   "for: %s\n",
                   x.what());
    } catch (...) {
      std::fprintf(stderr, "weft: an exception thrown by a task was never "
                           "waited for\n");
    }
    delete e;
  }
  if (t->flags & TASK_BIN)
    rt_.descriptor_bins()->free_descriptor(t);
  else
    pool_.release(t, t->owner, rt_.pools());
}

void worker::push_ready(task *t) {
  if (t->priority > 0) {
    team_->push_priority(t);
  } else {
    WEFT_CHECK(slot_->w == this && tl_worker == this,
               "worker %d pushes on the deque of slot %d, which it does not "
               "own",
               id_, slot_index_);
    slot_->deque.push(t);
  }
  // Pairs with the sleeper's heavy_fence between announcing itself in
  // num_sleeping and its last look at the deques.
  light_fence();
  if (team_->num_sleeping().load(std::memory_order_seq_cst) > 0)
    team_->wake_one();
}

void worker::make_ready(task *t) {
  if (t->flags & TASK_WAITER) {
    rt_.release_waiter(t);
    return;
  }
  if (in_retire_ && !immediate_ && t->priority <= 0) {
    immediate_ = t;
    return;
  }
  push_ready(t);
}

void worker::record_exception(task *t, std::exception_ptr e) {
  std::atomic<std::exception_ptr *> &slot =
      t->group ? t->group->exc : t->parent->exc;
  auto *p = new std::exception_ptr(std::move(e));
  std::exception_ptr *expected = nullptr;
  if (!slot.compare_exchange_strong(expected, p, std::memory_order_acq_rel))
    delete p; // the first exception wins, as for OpenMP's cancellation
}

__attribute__((noinline)) void worker::record_current_exception(task *t) {
  record_exception(t, std::current_exception());
}

void worker::execute(task *t) {
  trace_point::run_token k;
  if (t->flags & TASK_COMPLETE_ONLY) {
    // A detached task whose event was fulfilled elsewhere.
    k = trace_point::completion_begin(t);
    complete(t);
  } else {
    // Finished-children counts kept back (count_finished_child) may only
    // be for t's parent or the task suspended under t here: each of them
    // waits for t too, so t blocking (on a lock, say) cannot hold back a
    // wait that t's end would not hold back anyway.
    if (__builtin_expect(unflushed_parent_ != nullptr &&
                             unflushed_parent_ != t->parent &&
                             unflushed_parent_ != current_,
                         0))
      flush_finished_children();
    k = trace_point::task_begin(*this, t);
    run_body(t);
    trace_point::task_end(*this, k);
    finish(t);
  }
  trace_point::task_finished(*this, k);
}

void worker::end_task_data() {
  void *d = task_data_;
  task_data_ = nullptr;
  if (!task_data_end)
    fatal("worker: a task ended with front-end data but no front end "
          "registered task_data_end");
  task_data_end(d);
}

__attribute__((always_inline)) inline void worker::run_body(task *t) {
  task_frame<> frame(*this, t);
  if (!(t->group && t->group->cancelled.load(std::memory_order_relaxed))) {
    try {
      if (t->flags & TASK_ARGS)
        reinterpret_cast<weft_args_fn>(reinterpret_cast<void *>(t->fn))(
            static_cast<void **>(t->arg));
      else
        t->fn(t->arg);
    } catch (...) {
      record_exception(t, std::current_exception());
    }
  }
  // Children of t still in the backlog go to the engine (or run here)
  // before t ends: engines take no child of a task after its end
  // (dependency_engine::task_end).
  if (__builtin_expect(!backlog_.empty(), 0))
    rt_.drain_own_backlog(*this);
  if (__builtin_expect(task_data_ != nullptr, 0))
    end_task_data();
}

// The body is core/in_place.hpp's, whose common case the front ends
// inline (run_in_place); here with the trace points, beyond kInlineDepth
// levels and with front-end data (none while the task runs: put back at
// its end).
void worker::run_inline(weft_task_fn fn, void *arg, uint16_t flags,
                        const weft_dep *deps, int ndeps) {
  const uint32_t depth = inline_depth_;
  if (depth >= kInlineDepth) {
    run_inline_on_stack(fn, arg, flags, deps, ndeps);
    return;
  }
  task *t = inline_tasks_[depth];
  if (!t)
    t = new_inline_task(depth);
  if (void *data = task_data_) {
    task_data_ = nullptr;
    run_in_place_at<in_place_trace::test>(depth, t, fn, arg, flags, deps,
                                          ndeps);
    task_data_ = data;
    return;
  }
  run_in_place_at<in_place_trace::test>(depth, t, fn, arg, flags, deps, ndeps);
}

task *worker::new_inline_task(uint32_t d) {
  task *t = static_cast<task *>(pool_.alloc());
  init_task(t, nullptr, nullptr);
  t->succ_inline[0] = t->succ_inline[1] = nullptr;
  t->home = nullptr;
  new (&t->detach_parts) std::atomic<int32_t>(0);
  t->trace_id = 0;
  inline_tasks_[d] = t;
  return t;
}

__attribute__((noinline)) void worker::wait_inline_children(task &t) {
  auto done = [&t] {
    return finished_children(t.children.load(std::memory_order_acquire)) ==
           t.created;
  };
  if (!done()) {
    t.children.fetch_or(kChildWaiting | (uint64_t(id_) << kChildWaiterShift),
                        std::memory_order_seq_cst);
    wait_until(done);
  }
}

__attribute__((noinline)) void worker::end_inline(task &t) {
  if (t.cur_group)
    fatal("a task returned with an open taskgroup");
  if (t.created != 0) {
    // Children point at this descriptor: they must finish first.
    wait_inline_children(t);
    // Every count has been added (done): nobody touches the word again.
    t.children.store(kChildBias, std::memory_order_relaxed);
    t.created = 0;
    // The next task at this depth is judged afresh by the throttle (as
    // after a taskwait).
    if (throttled_ == &t)
      throttled_ = nullptr;
  }
  if (t.domain) {
    rt_.engine().task_end(*this, &t);
    t.domain = nullptr; // engines clear it; a reused descriptor must be
  }
  if (std::exception_ptr *e = t.exc.exchange(nullptr)) {
    record_exception(&t, *e);
    delete e;
  }
}

__attribute__((noinline)) void
worker::run_inline_on_stack(weft_task_fn fn, void *arg, uint16_t flags,
                            const weft_dep *deps, int ndeps) {
  task *parent = current_;
  alignas(64) task t;
  init_task(&t, fn, arg);
  t.parent = parent;
  t.group = parent->cur_group ? parent->cur_group : parent->group;
  t.flags = static_cast<uint16_t>(flags | TASK_INLINE);
  bool traced = trace_point::inline_begin(*this, t, parent, flags, deps, ndeps);
  run_inline_task(t);
  trace_point::inline_end(*this, t, traced);
}

__attribute__((always_inline)) inline void worker::run_inline_task(task &t) {
  {
    task_frame<> frame(*this, &t);
    try {
      t.fn(t.arg);
    } catch (...) {
      record_exception(&t, std::current_exception());
    }
    if (__builtin_expect(task_data_ != nullptr, 0))
      end_task_data();
    if (t.cur_group)
      fatal("a task returned with an open taskgroup");
    if (t.created != 0) // children point at this stack frame
      wait_inline_children(t);
    if (t.domain)
      rt_.engine().task_end(*this, &t);
  }
  if (std::exception_ptr *e = t.exc.exchange(nullptr)) {
    record_exception(&t, *e);
    delete e;
  }
}

// A payload larger than the task's inline bytes takes a block of the side
// pool, never of the task pool: ready_deque::steal_if's check reads a stale
// task's parent and group words (atomically; its answer counts for nothing
// when the take fails), and a task-pool block written plainly as a payload
// would race with that read (ThreadSanitizer saw it in
// gomp_abi.in_place_tasks.t4 when payloads came from the task pool).
void *worker::alloc_payload(task *t, std::size_t size, std::size_t align) {
  if (size <= kTaskInlinePayload && align <= 64)
    return t->payload; // line 2 is 64-byte aligned
  void *mem;
  if (size <= kBlockSize && align <= 64) {
    mem = side_pool_.alloc();
    t->flags |= TASK_PAYLOAD_POOL;
  } else {
    std::size_t a = align < 16 ? 16 : align;
    mem = std::aligned_alloc(a, (size + a - 1) & ~(a - 1));
    if (!mem)
      fatal("out of memory for a task argument of %zu bytes", size);
    t->flags |= TASK_PAYLOAD_HEAP;
  }
  return mem;
}

void worker::finish(task *t) {
  if (t->cur_group)
    fatal("a task returned with an open taskgroup (weft_taskgroup_begin "
          "without weft_taskgroup_end)");
  dependency_engine &eng = rt_.engine();
  if (t->domain)
    eng.task_end(*this, t);
  // An exception of a child this task never waited for goes to our waiter.
  if (t->exc.load(std::memory_order_relaxed))
    if (std::exception_ptr *e = t->exc.exchange(nullptr)) {
      record_exception(t, *e);
      delete e;
    }
  if ((t->flags & TASK_DETACH) &&
      t->detach_parts.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return; // the event completes it (runtime::fulfill)
  complete(t);
}

void worker::complete(task *t) {
  dependency_engine &eng = rt_.engine();
  in_retire_ = true;
  eng.retire(*this, t);
  in_retire_ = false;

  worker_counters::bump(c_.finished);
  if (taskgroup_state *g = t->group) {
    uint64_t v = g->count.fetch_sub(1, std::memory_order_seq_cst) - 1;
    if ((v & kChildWaiting) && (v & kChildCountMask) == 0)
      rt_.wake(static_cast<int>((v & kChildWaiterMask) >> kChildWaiterShift));
  }
  count_finished_child(t->parent);
  if (t->flags & TASK_DETACH) // completed (whoever waits holds a reference)
    t->detach_parts.store(-1, std::memory_order_release);
  // Last of what the team's barrier waits for: once the barrier counts this
  // task, the region may end and free its taskgroups.
  slot_->finished.store(slot_->finished.load(std::memory_order_relaxed) + 1,
                        std::memory_order_release);

  // Our own execution reference: with children still running, the last of
  // them releases it (see flush_finished_children).
  if (t->created == 0) {
    release_ref(t);
  } else {
    uint64_t add = kChildEnded - t->created;
    if (t->children.fetch_add(add, std::memory_order_seq_cst) + add ==
        kChildAllDone)
      release_ref(t);
  }
}

void worker::count_finished_child(task *p) {
  if (p != unflushed_parent_) {
    flush_finished_children();
    unflushed_parent_ = p;
  }
  // Kept back at most kFlushFinishedEvery at a time: the creator's throttle
  // reads the parent's count (runtime::unfinished_children) to leave its
  // throttled state below half the window, and a thief that never idles
  // would otherwise hide every task it finished until its deque ran dry.
  if (++unflushed_ >= kFlushFinishedEvery)
    flush_finished_children();
}

void worker::flush_finished_children() {
  task *p = unflushed_parent_;
  uint64_t n = unflushed_;
  if (n == 0)
    return;
  unflushed_ = 0;
  unflushed_parent_ = nullptr;
  uint64_t v = p->children.fetch_add(n, std::memory_order_seq_cst) + n;
  if (v & kChildWaiting)
    rt_.wake(static_cast<int>((v & kChildWaiterMask) >> kChildWaiterShift));
  if (v == kChildAllDone)
    release_ref(p); // the parent has ended and these were its last children
}

void worker::run_chain(task *t) {
  execute(t);
  while (task *n = immediate_) {
    immediate_ = nullptr;
    worker_counters::bump(c_.immediate);
    trace_point::scheduled(*this, n); // taking it is scheduling
    execute(n);
  }
}

task *worker::steal(task *limit) {
  int n = team_->size();
  if (n == 1)
    return nullptr;
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  int start = static_cast<int>(rng_ % static_cast<uint64_t>(n));
  for (int i = 0; i < n; ++i) {
    int v = start + i < n ? start + i : start + i - n;
    if (v == slot_index_)
      continue;
    ready_deque &victim = team_->slot(v).deque;
    if (!victim.maybe_nonempty())
      continue;
    task *t = limit ? victim.steal_if([this, limit](task *x) {
      return may_steal(x, limit);
    })
                    : victim.steal();
    if (t) {
      worker_counters::bump(c_.steals);
      return t;
    }
  }
  return nullptr;
}

task *worker::find_work() {
  uint64_t from = trace_point::search_begin(*this);
  task *t = find_any();
  trace_point::search_end(*this, t, from);
  // Nothing queued inside the team: start a job from outside it. It has
  // ended on return (the caller looks at its condition again after this
  // empty answer, as after any).
  if (!t && inbox_maybe_nonempty())
    run_external();
  return t;
}

namespace {
void run_inbox_job(void *arg) {
  auto *j = static_cast<inbox_job *>(arg);
  try {
    j->run(j);
  } catch (...) {
    fatal("worker: inbox job %p threw an exception (jobs from outside a "
          "team have nobody to report to)",
          arg);
  }
}
} // namespace

inbox *worker::native_inbox() const {
  team &native = rt_.initial_team();
  return team_ != &native ? &native.external() : nullptr;
}

bool worker::inbox_maybe_nonempty() const {
  if (team_->external().maybe_nonempty())
    return true;
  inbox *n = native_inbox();
  return n && n->maybe_nonempty();
}

bool worker::run_external() {
  if (!may_serve())
    return false;
  inbox_job *j = team_->external().take();
  if (!j)
    if (inbox *n = native_inbox())
      j = n->take();
  return j && run_job(j);
}

bool worker::run_job(inbox_job *j) {
  if (!may_serve())
    return false;
  // A task of its own on this stack: in no taskgroup (no cancellation
  // skips it) and not counted as a child of the task that was waiting here.
  task *parent = current_;
  alignas(64) task t;
  init_task(&t, run_inbox_job, j);
  t.parent = parent;
  t.flags = TASK_INLINE;
  bool traced = trace_point::inline_begin(*this, t, parent, 0);
  ++served_;
  run_inline_task(t);
  --served_;
  trace_point::inline_end(*this, t, traced);
  return true;
}

bool worker::may_start(task *x, task *limit) const {
  // current_ is limit or an untied task started above it (a descendant).
  task *cur = current_;
  if ((x->flags & TASK_COMPLETE_ONLY) || x->parent == limit || x->parent == cur)
    return true;
  // x is unfinished, so its group is open and each group up the chain has
  // an unfinished member (its opener's task or an inner group's opener).
  for (taskgroup_state *g = x->group; g; g = g->up)
    if (g->opener == limit || g->opener == cur)
      return true;
  return false;
}

bool worker::may_steal(task *x, task *limit) const {
  task *cur = current_;
  task *p = std::atomic_ref<task *>(x->parent).load(std::memory_order_relaxed);
  if (p == limit || p == cur)
    return true;
  // x's group is only compared, never followed: x may be run and its group
  // ended by now (the answer then counts for nothing: the take fails).
  taskgroup_state *g = std::atomic_ref<taskgroup_state *>(x->group).load(
      std::memory_order_relaxed);
  if (!g)
    return false;
  for (taskgroup_state *o = limit->cur_group; o; o = o->outer)
    if (o == g)
      return true;
  if (cur != limit)
    for (taskgroup_state *o = cur->cur_group; o; o = o->outer)
      if (o == g)
        return true;
  return false;
}

task *worker::pop_priority_allowed(task *limit) {
  // Every task of the heap may be one this worker must refuse; the one it
  // may start can be anywhere. Refused ones never leave the heap (a member
  // that may start them must see them before it sleeps).
  bool refused;
  task *t = team_->pop_priority_if([&](task *x) { return may_start(x, limit); },
                                   &refused);
  if (refused)
    pass_wake();
  return t;
}

void worker::pass_wake() {
  // The wake that announced a task may have gone to this worker, which may
  // not start it, while the member that may sleeps: pass it on (each
  // member that refuses it does, so the one that may start it is reached).
  light_fence();
  if (team_->num_sleeping().load(std::memory_order_seq_cst) > 0)
    team_->wake_one();
}

void worker::put_aside(task *t) {
  team_->push_priority(t);
  light_fence();
  if (team_->num_sleeping().load(std::memory_order_seq_cst) > 0)
    team_->wake_one();
}

__attribute__((always_inline)) inline task *worker::find_any() {
  task *limit = tied_limit();
  if (task *t = immediate_) {
    immediate_ = nullptr;
    // A successor of a task that ran here while limit waited: a descendant
    // of limit, unless a detached task's completion released it.
    if (!limit || may_start(t, limit)) {
      worker_counters::bump(c_.immediate); // as run_chain counts it
      return t;
    }
    put_aside(t);
  }
  if (team_->has_priority_tasks()) {
    task *t = limit ? pop_priority_allowed(limit) : team_->pop_priority();
    if (t)
      return t;
  }
  WEFT_CHECK(slot_->w == this && tl_worker == this,
             "worker %d pops from the deque of slot %d, which it does not own",
             id_, slot_index_);
  ready_deque &own = slot_->deque;
  const int64_t next = own.next_index();
  if (task *t = own.pop()) {
    if (!limit || next > mark_ || may_start(t, limit))
      return t;
    // Back where it was (what lies below is older still), unless it was
    // the last one: the deque then restarts one index higher, where the
    // task would count as pushed since mark_.
    if (own.next_index() == next - 1) {
      own.push(t);
      pass_wake();
    } else {
      put_aside(t);
    }
  }
  if (slot_->mail.maybe_nonempty())
    if (task *t = accept_mail(slot_->mail.take(), limit))
      return t;
  dependency_engine &eng = rt_.engine();
  if (eng.holds_ready_tasks())
    while (task *t = eng.fetch(*this)) {
      // The engine's queue serves every team: run only our team's tasks.
      if (!(t->flags & TASK_WAITER) && runtime::home_slot(t)->owner == team_ &&
          (!limit || may_start(t, limit)))
        return t;
      rt_.engine_ready(t);
    }
  task *t = steal(limit);
  if (t || team_->size() == 1)
    return t;
  return take_foreign_mail(limit);
}

task *worker::accept_mail(task *t, task *limit) {
  if (!t || !limit || may_start(t, limit))
    return t;
  put_aside(t);
  return nullptr;
}

task *worker::take_foreign_mail(task *limit) {
  const int n = team_->size();
  uint64_t now = 0;
  for (int i = 1; i < n; ++i) {
    int v = slot_index_ + i < n ? slot_index_ + i : slot_index_ + i - n;
    mailbox &m = team_->slot(v).mail;
    if (!m.maybe_nonempty())
      continue;
    if (now == 0)
      now = mail_clock_ns();
    if (task *t =
            accept_mail(m.take_if_stamped_by(now - kMailPatienceNs), limit))
      return t;
  }
  return nullptr;
}

void worker::drain_engine() {
  while (task *t = rt_.engine().fetch(*this))
    rt_.engine_ready(t);
}

bool worker::work_visible() {
  if (team_->has_priority_tasks())
    return true;
  if (inbox_maybe_nonempty()) {
    if (may_serve())
      return true;
    // A job this worker may not start (kMaxServedUnderTied jobs on its
    // stack above a tied task): the wake that announced it may have come
    // here while a worker that may start it sleeps. Pass it on.
    light_fence();
    team &native = rt_.initial_team();
    if (native.num_sleeping().load(std::memory_order_seq_cst) > 0)
      native.wake_all(this);
    if (team_ != &native &&
        team_->num_sleeping().load(std::memory_order_seq_cst) > 0)
      team_->wake_all(this);
  }
  if (rt_.engine().holds_ready_tasks() && rt_.engine().has_ready(*this))
    return true;
  // Letters of other members too: a letter whose owner stays busy is ours
  // once it has waited past its patience.
  for (int i = 0; i < team_->size(); ++i)
    if (team_->slot(i).deque.maybe_nonempty() ||
        team_->slot(i).mail.maybe_nonempty())
      return true;
  return false;
}

bool worker::help_once() {
  if (rt_.drain_backlog_if_any(*this))
    return true;
  if (task *t = find_work()) {
    run_chain(t);
    // Back to the current task's own code, which may block: counts for
    // other parents go now (see execute).
    if (unflushed_parent_ != current_)
      flush_finished_children();
    return true;
  }
  return false;
}

} // namespace weft
