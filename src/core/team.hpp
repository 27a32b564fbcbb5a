// A team: the workers that run one parallel region (OpenMP) or, for the
// native API, all of the runtime's workers. Each member occupies a slot with
// its own ready deque and implicit task; workers look for work only in their
// team's slots, so a task always runs on a member of its creator's team, and
// a worker inside a nested team never runs the outer team's tasks.
#pragma once

#include "inbox.hpp"
#include "mailbox.hpp"
#include "ready_deque.hpp"
#include "task.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace weft {

class runtime;
class worker;

struct alignas(64) team_slot {
  ready_deque deque;
  task implicit; // the member's implicit task (TASK_ROOT, never freed)
  // Tasks spawned / finished by the slot's occupant (single writer each),
  // summed by the barrier to know that every task of the team finished.
  alignas(64) std::atomic<uint64_t> spawned{0};
  std::atomic<uint64_t> finished{0};
  worker *w = nullptr; // the occupant
  class team *owner = nullptr;
  // Ready tasks sent to the occupant (team::mail), on lines of their own.
  alignas(64) mailbox mail;

  void reset_implicit(int worker_id);
};

class team {
public:
  // What every member runs; the core adds the end barrier unless the team
  // was made with end_barrier = false (the native API's permanent team).
  using body_fn = void (*)(worker &w, int slot, void *arg);

  team(runtime &rt, int size);
  ~team();
  team(const team &) = delete;
  team &operator=(const team &) = delete;

  int size() const { return size_; }
  team_slot &slot(int i) { return *slots_[i]; }
  runtime &rt() { return rt_; }

  // Returns when every member called it and every task of the team has
  // finished; the caller runs the team's tasks meanwhile. A task scheduling
  // point, as OpenMP's barrier.
  void barrier(worker &w);
  // The same, but also returns (true) once *cancelled is set: OpenMP's
  // cancellable barrier. Its state is separate and reset by each region, so
  // members that leave it early do not upset the end barrier.
  bool barrier(worker &w, const std::atomic<bool> &cancelled);
  // All members idle: start the next region's barriers afresh.
  void reset_for_region() { cbar_.store(0, std::memory_order_relaxed); }
  // Every task spawned in the team has finished (exact once all members
  // stopped spawning from their implicit tasks, see team.cpp).
  bool tasks_done() const;

  std::atomic<int> &num_sleeping() { return num_sleeping_; }
  // Jobs from threads outside the team; its members run them when idle.
  inbox &external() { return external_; }
  // Any member: queue the ready task t in the mailbox of member `member`
  // (core/mailbox.hpp) and wake that member if it sleeps, else one sleeper
  // (who takes t if the member stays busy past kMailPatienceNs).
  void mail(int member, task *t);
  void wake_one();
  void wake_all(const worker *except);

  // Tasks with a priority wait in one heap per team, checked before deques.
  void push_priority(task *t);
  task *pop_priority();
  // The highest-priority task for which allowed(t) holds, taken in one
  // critical section: the tasks passed over never leave the heap (popping
  // and pushing them back hid them from work_visible meanwhile, and a
  // member that may start them could sleep with no wake to come).
  // *refused tells whether a task of higher priority was passed over.
  template <class Allowed>
  task *pop_priority_if(Allowed allowed, bool *refused);
  bool has_priority_tasks() const {
    return prio_count_.load(std::memory_order_relaxed) > 0;
  }

  body_fn body = nullptr;
  void *arg = nullptr;
  // More per-region arguments of the front end's: on the line every member
  // reads when it starts, so a region start moves no other line.
  void *region_args[3] = {};
  bool end_barrier = true;
  void *user = nullptr; // the front end's per-team state
  // While recording a trace: the id of the task that encountered the region.
  uint32_t trace_parent = 0;
  void (*user_free)(void *) = nullptr;
  // Members other than the master still running the region; the master
  // waits for zero before it reuses or frees the team.
  alignas(64) std::atomic<int> inside{0};
  // Threads outside the team (an engine's manager, a worker routing a task
  // home) between handing it a task and waking a member: the task may run
  // and the region end before they are done with the team.
  std::atomic<int> routing{0};

private:
  runtime &rt_;
  int size_;
  std::vector<team_slot *> slots_;
  bool wait_barrier(worker &w, std::atomic<uint64_t> &word,
                    const std::atomic<bool> *cancelled);

  alignas(64) std::atomic<uint64_t> bar_{0};  // generation << 32 | arrived
  alignas(64) std::atomic<uint64_t> cbar_{0}; // the cancellable one
  alignas(64) std::atomic<int> num_sleeping_{0};
  std::atomic<unsigned> wake_cursor_{0};
  alignas(64) std::atomic<int> prio_count_{0};
  std::mutex prio_lock_;
  std::vector<task *> prio_heap_;
  task *take_priority_at(size_t i); // prio_lock_ held
  inbox external_{*this};
};

template <class Allowed>
task *team::pop_priority_if(Allowed allowed, bool *refused) {
  std::lock_guard<std::mutex> lk(prio_lock_);
  size_t best = prio_heap_.size();
  *refused = false;
  for (size_t i = 0; i < prio_heap_.size(); ++i)
    if (best == prio_heap_.size() ||
        prio_heap_[i]->priority > prio_heap_[best]->priority) {
      if (allowed(prio_heap_[i]))
        best = i;
      else
        *refused = true;
    }
  return best == prio_heap_.size() ? nullptr : take_priority_at(best);
}

} // namespace weft
