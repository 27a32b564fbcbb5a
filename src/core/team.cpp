#include "team.hpp"

#include "runtime.hpp"
#include "trace/recorder.hpp"

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
  if (__builtin_expect(trace::on(), 0)) {
    uint32_t id = w.current()->trace_id;
    trace::wait_begin(*w.trace_log(), trace::wait_kind::barrier, id, nullptr,
                      0);
    bool c = wait_barrier_untraced(w, word, cancelled);
    w.trace_log()->put(trace::kind::wait_end,
                       static_cast<uint8_t>(trace::wait_kind::barrier), 0,
                       trace::ticks(), id, 0);
    return c;
  }
  return wait_barrier_untraced(w, word, cancelled);
}

bool team::wait_barrier_untraced(worker &w, std::atomic<uint64_t> &word,
                                 const std::atomic<bool> *cancelled) {
  auto is_cancelled = [cancelled] {
    return cancelled && cancelled->load(std::memory_order_acquire);
  };
  if (size_ == 1) {
    if (!tasks_done()) {
      wait_scope ws(w.wait_state(), wait_kind::barrier, w.current());
      w.wait_until([&] { return tasks_done() || is_cancelled(); });
    }
    return is_cancelled();
  }
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
  return is_cancelled();
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
  if (prio_heap_.empty())
    return nullptr;
  std::pop_heap(prio_heap_.begin(), prio_heap_.end(), prio_less);
  task *t = prio_heap_.back();
  prio_heap_.pop_back();
  prio_count_.fetch_sub(1, std::memory_order_relaxed);
  return t;
}

} // namespace weft
