#include "core/team.hpp"

#include "base/check.hpp"
#include "core/runtime.hpp"
#include "core/trace_points.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace weft {

void team_slot::reset_implicit(int worker_id) {
  std::memset(static_cast<void *>(&implicit), 0, sizeof(implicit));
  new (&implicit) task{};
  implicit.flags = TASK_ROOT;
  implicit.owner = static_cast<uint16_t>(worker_id);
  implicit.refs.store(1, std::memory_order_relaxed);
  implicit.children.store(kChildBias, std::memory_order_relaxed);
}

team::team(runtime &rt, int size) : rt_(rt), size_(size) {
  slots_.reserve(size);
  for (int i = 0; i < size; ++i) {
    slots_.push_back(new team_slot);
    slots_.back()->reset_implicit(0);
    slots_.back()->owner = this;
  }
}

team::~team() {
  if (user_free)
    user_free(user);
  for (team_slot *s : slots_)
    delete s;
}

bool team::tasks_done() const {
  // Finished counts first, then spawned ones. Every task counted finished
  // was counted spawned earlier, so equal sums mean every counted task
  // finished; a task spawned after its creator's count was read has a
  // creator that was still running then, and so was counted unfinished
  // (implicit tasks, the roots of all creation, stopped spawning before
  // the barrier began).
  uint64_t fin = 0, spawned = 0;
  for (const team_slot *s : slots_)
    fin += s->finished.load(std::memory_order_acquire);
  for (const team_slot *s : slots_)
    spawned += s->spawned.load(std::memory_order_acquire);
  return fin == spawned;
}

void team::barrier(worker &w) { wait_barrier(w, bar_, nullptr); }

bool team::barrier(worker &w, const std::atomic<bool> &cancelled) {
  return wait_barrier(w, cbar_, &cancelled);
}

bool team::wait_barrier(worker &w, std::atomic<uint64_t> &word,
                        const std::atomic<bool> *cancelled) {
  trace_point::wait_token k = trace_point::wait_begin(
      w, trace::wait_kind::barrier, w.current(), nullptr, 0);
  task *outer_barrier = w.enter_barrier();
  auto is_cancelled = [cancelled] {
    return cancelled && cancelled->load(std::memory_order_acquire);
  };
  if (size_ == 1) {
    if (!tasks_done()) {
      wait_scope ws(w.wait_state(), wait_kind::barrier, w.current());
      w.wait_until([&] { return tasks_done() || is_cancelled(); });
    }
  } else {
    uint64_t v = word.fetch_add(1, std::memory_order_acq_rel) + 1;
    const uint64_t gen = v >> 32;
    auto released = [&] {
      uint64_t x = word.load(std::memory_order_acquire);
      if ((x >> 32) != gen)
        return true;
      if (is_cancelled())
        return true;
      if ((x & 0xffffffffu) != static_cast<uint64_t>(size_) || !tasks_done())
        return false;
      // Everybody is here and no task is left: whoever flips the generation
      // wakes the others.
      if (word.compare_exchange_strong(x, (gen + 1) << 32,
                                       std::memory_order_acq_rel))
        wake_all(&w);
      return true;
    };
    if (!released()) {
      wait_scope ws(w.wait_state(), wait_kind::barrier, w.current());
      w.wait_until(released);
    }
  }
  w.leave_barrier(outer_barrier);
  const bool c = is_cancelled();
  trace_point::wait_end(w, k);
  return c;
}

void team::mail(int member, task *t) {
  team_slot &s = *slots_[member];
  s.mail.put(t, mail_clock_ns());
  // Pairs with the sleeper's heavy_fence between announcing itself (its
  // sleeping flag, num_sleeping) and its last look (work_visible counts
  // every mailbox), as push_ready.
  light_fence();
  if (worker *w = s.w)
    if (rt_.try_wake(*w))
      return;
  if (num_sleeping_.load(std::memory_order_seq_cst) > 0)
    wake_one();
}

void team::wake_one() {
  unsigned start = wake_cursor_.fetch_add(1, std::memory_order_relaxed);
  for (int i = 0; i < size_; ++i)
    if (worker *m = slots_[(start + i) % size_]->w)
      if (rt_.try_wake(*m))
        return;
}

void team::wake_all(const worker *except) {
  for (team_slot *s : slots_)
    if (s->w && s->w != except)
      rt_.try_wake(*s->w);
}

namespace {
bool prio_less(const task *a, const task *b) {
  return a->priority < b->priority;
}
} // namespace

void team::push_priority(task *t) {
  std::lock_guard<std::mutex> lk(prio_lock_);
  prio_heap_.push_back(t);
  std::push_heap(prio_heap_.begin(), prio_heap_.end(), prio_less);
  prio_count_.fetch_add(1, std::memory_order_release);
}

task *team::pop_priority() {
  std::lock_guard<std::mutex> lk(prio_lock_);
  return prio_heap_.empty() ? nullptr : take_priority_at(0);
}

task *team::take_priority_at(size_t i) {
  WEFT_CHECK(i < prio_heap_.size(), "priority heap index %zu of %zu", i,
             prio_heap_.size());
  task *t = prio_heap_[i];
  if (i == 0) {
    std::pop_heap(prio_heap_.begin(), prio_heap_.end(), prio_less);
    prio_heap_.pop_back();
  } else {
    prio_heap_[i] = prio_heap_.back();
    prio_heap_.pop_back();
    std::make_heap(prio_heap_.begin(), prio_heap_.end(), prio_less);
  }
  prio_count_.fetch_sub(1, std::memory_order_relaxed);
  return t;
}

// ---- how the runtime forms and runs teams ---------------------------------
namespace {
// Members still leaving a team the master is about to reuse.
inline constexpr backoff_policy kLeavingBackoff{1000, backoff_policy::kForever};
} // namespace

team *runtime::begin_team(worker &master, int n) {
  std::vector<team *> &cache = master.team_cache;
  size_t depth = static_cast<size_t>(master.master_depth);
  if (cache.size() <= depth)
    cache.resize(depth + 1, nullptr);
  team *old = cache[depth];
  if (old) {
    wait_members_left(old);
    if (old->size() == n)
      return old;
  }
  auto *t = new team(*this, n);
  t->slot(0).w = &master;
  int reused = 0;
  if (old) {
    reused = std::min(old->size(), n) - 1;
    for (int i = 1; i <= reused; ++i)
      t->slot(i).w = old->slot(i).w;
  }
  {
    std::lock_guard<std::mutex> lk(workers_lock_);
    if (old)
      for (int i = reused + 1; i < old->size(); ++i)
        idle_.push_back(old->slot(i).w);
    for (int i = reused + 1; i < n && !idle_.empty(); ++i) {
      t->slot(i).w = idle_.back();
      idle_.pop_back();
      reused = i;
    }
  }
  for (int i = reused + 1; i < n; ++i)
    t->slot(i).w = new_worker(true);
  delete old;
  cache[depth] = t;
  return t;
}

void runtime::run_team(worker &master, team *t) {
  worker::membership m = start_team(master, t);
  t->body(master, 0, t->arg);
  finish_team(master, t, m);
}

worker::membership runtime::start_team(worker &master, team *t) {
  int n = t->size();
  t->reset_for_region();
  trace_point::region_begin(master, t, n);
  t->inside.store(n - 1, std::memory_order_relaxed);
  for (int i = 1; i < n; ++i)
    t->slot(i).w->assign(t, i);
  ++master.master_depth;
  return master.enter_team(t, 0);
}

void runtime::finish_team(worker &master, team *t,
                          const worker::membership &m) {
  t->barrier(master);
  master.leave_team(m);
  --master.master_depth;
  trace_point::region_end(master);
  // Members may still be on their way out of the team; the master does not
  // wait for them here but before it reuses the team or its workers (as
  // libgomp's dock), so that their exit overlaps its serial code.
}

void runtime::wait_teams_left() {
  for (int i = 0; i < nthreads(); ++i)
    for (team *t : workers_[i]->team_cache)
      if (t)
        wait_members_left(t);
}

void runtime::wait_members_left(team *t) {
  backoff b(kLeavingBackoff);
  while (t->inside.load(std::memory_order_acquire) != 0 ||
         t->routing.load(std::memory_order_acquire) != 0)
    b.pause();
}

// Whoever clears a sleeper's flag wakes it (core/idle.hpp).
bool runtime::try_wake(worker &w) {
  if (!w.sleeping_.load(std::memory_order_seq_cst) ||
      !w.sleeping_.exchange(false, std::memory_order_acq_rel))
    return false;
  w.sleep_word_.fetch_add(1, std::memory_order_release);
  futex_wake(w.sleep_word_, 1);
  return true;
}

} // namespace weft
