// The idle protocol: how a worker with nothing to run waits, sleeps and is
// woken, in one place. (Its code lives here, in worker.cpp's thread_main and
// in team.cpp's wakers; the rules are these.)
//
// Waiting for a condition (worker::wait_until): run any task found
// (find_work), one per look at the condition; with nothing to run, back off
// (base/backoff.hpp: g_wait_backoff, the wait policy's, spins, then
// yields), then hand back blocks
// held for other pools and sleep (sleep_unless).
//
// Sleeping without missing a wake-up (sleep_unless, a Dekker pair with the
// wakers, made cheap on the wakers' side by base/fence.hpp):
//   sleeper: read sleep_word_; set sleeping_; count itself in the team's
//            num_sleeping; heavy_fence(); look at the condition and for work
//            (work_visible) one last time; futex_wait(sleep_word_) unless
//            either holds (or for the engine's poll interval, if it has one).
//   waker:   publish the work or the condition (a deque push, a counter);
//            light_fence(); if the team's num_sleeping is not 0, wake one
//            (team::wake_one) or all (team::wake_all).
//   runtime::try_wake: whoever clears sleeping_ (exchange) bumps sleep_word_
//            and futex-wakes; a sleeper is woken at most once per sleep.
// The sleeper alone counts itself out of num_sleeping when it resumes.
//
// The idle hook (g_idle_poll): while a waiting worker with nothing to run
// backs off (the wait policy's spins and yields; never while it sleeps), it
// calls the hook once per round, if one is set: an MPI rank's comm layer
// (src/places, with MPI_THREAD_MULTIPLE) receives there what arrived and
// runs an arrived call on this worker, without the progress thread's
// hand-off through the inbox and its wake-up. The hook returns whether it
// handled anything (the backoff starts again then), and is told the phase
// (spin or yield). Once the worker stops polling (it goes to sleep, found a
// task, or its wait is over) it tells the hook so once (idle_poll_op::stop,
// or stop_to_sleep when it goes to sleep): the comm layer's progress thread
// naps while a worker polls in its spin phase and must receive again at
// once when none does.
//
// Between teams (worker::thread_main): a worker spins, yields, then sleeps
// on job_seq_ with job_sleeping_ set; worker::assign bumps job_seq_ and wakes
// it if job_sleeping_ is set. Before sleeping it hands back remote blocks and
// drains an engine that holds ready tasks for it.
//
// Who wakes whom: a task pushed (push_ready) wakes one sleeper of its team; a
// task finished that completes a wait wakes exactly the waiter named in the
// parent's (or taskgroup's) counter; an engine's ready task
// (engine_host::ready) wakes one member of the task's team; a job submitted
// to a team's inbox (core/inbox.hpp) by a thread outside it wakes one member
// (for the native team's: also a member of it asleep in another team), and
// work_visible counts the inbox; a task sent to a member's mailbox
// (core/mailbox.hpp, team::mail) wakes that member, or one sleeper when the
// member is awake, and work_visible counts every member's mailbox.
#pragma once

#include "base/backoff.hpp"
#include "base/fence.hpp"
#include "base/futex.hpp"
#include "core/runtime.hpp"

#include <atomic>

namespace weft {

// The idle hook (above); null when none is set. It may run a job on w
// (worker::run_job), whose own waits call it again (nested).
// spin, yield: poll (in the backoff's spin or yield phase); stop: the
// worker stopped polling; stop_to_sleep: it goes to sleep.
enum class idle_poll_op { spin, yield, stop, stop_to_sleep };
using idle_poll_fn = bool (*)(worker &w, idle_poll_op op);
inline std::atomic<idle_poll_fn> g_idle_poll{nullptr};

// A worker with a backlog (worker::backlog_) sleeps at most this long
// before it offers the backlog to the engine again.
inline constexpr int kBacklogPollUs = 200;

template <class Cond> void worker::sleep_unless(Cond cond) {
  uint32_t seen = sleep_word_.load(std::memory_order_acquire);
  std::atomic<int> &asleep = team_->num_sleeping();
  // A member of the native team asleep in another team (an OpenMP region)
  // that may serve its inbox counts among the native team's sleepers too:
  // a remote call queued there (inbox::submit) then wakes it through its
  // native slot (team::wake_one), and work_visible looks at that inbox.
  team &native = rt_.initial_team();
  std::atomic<int> *also = nullptr;
  if (__builtin_expect(team_ != &native, 0) && id_ < native.size() &&
      native.slot(id_).w == this && may_serve())
    also = &native.num_sleeping();
  sleeping_.store(true, std::memory_order_seq_cst);
  asleep.fetch_add(1, std::memory_order_seq_cst);
  if (also)
    also->fetch_add(1, std::memory_order_seq_cst);
  heavy_fence(); // pairs with light_fence() in push_ready
  if (!cond()) {
    worker_counters::bump(c_.sleeps);
    int us = rt_.engine().poll_interval_us(*this);
    // Nobody wakes us when the engine makes room for the backlog.
    if (!backlog_.empty() && (us == 0 || us > kBacklogPollUs))
      us = kBacklogPollUs;
    if (us)
      futex_wait_for(sleep_word_, seen, us);
    else
      futex_wait(sleep_word_, seen);
  }
  // The sleeper alone counts itself out (a waker that did so could read the
  // counter of this thread's next sleep, in another team).
  sleeping_.store(false, std::memory_order_relaxed);
  asleep.fetch_sub(1, std::memory_order_relaxed);
  if (also)
    also->fetch_sub(1, std::memory_order_relaxed);
}

// A worker with nothing to run while it waits: spin briefly (cheap to
// resume), yield (other threads may need this core when oversubscribed),
// then sleep. (The default policy; runtime::start picks this or one of the
// two below into g_wait_backoff.)
inline constexpr backoff_policy kWaitBackoff{63, 8, 256};
// Between teams (worker::thread_main): the next team usually follows at once.
inline constexpr backoff_policy kBetweenTeamsBackoff{1999, 100};
// WEFT_WAIT_POLICY=passive (OMP_WAIT_POLICY=passive): no spin phase; a few
// yields (a task pushed just now is still found), then sleep.
inline constexpr backoff_policy kPassiveWaitBackoff{0, 4, 1};
// WEFT_WAIT_POLICY=active (OMP_WAIT_POLICY=active): spin 2^24 rounds of 256
// pauses (about 4 x 10^9 pauses, tens of seconds of CPU; libgomp's active
// policy spins 3 x 10^10 times) before the usual yields and sleep.
inline constexpr backoff_policy kActiveWaitBackoff{1 << 24, 8, 256};

// Spin rounds of a backoff with this max_pause that pause at least pauses
// times in all (base/backoff.hpp: round r pauses min(2^((r+1)/2),
// max_pause)), at most kActiveWaitBackoff.spins: GOMP_SPINCOUNT's count
// in rounds.
constexpr int spin_rounds_for(int64_t pauses, int max_pause) {
  int64_t sum = 0;
  int r = 0;
  for (; sum < pauses && r < kActiveWaitBackoff.spins; ++r) {
    const int shift = (r + 1) / 2;
    const int n =
        shift < 30 && (1 << shift) < max_pause ? 1 << shift : max_pause;
    if (n == max_pause) {
      // The rest in whole rounds of max_pause.
      const int64_t more = (pauses - sum + max_pause - 1) / max_pause;
      const int64_t left = kActiveWaitBackoff.spins - r;
      return r + static_cast<int>(more < left ? more : left);
    }
    sum += n;
  }
  return r;
}

template <class Done> void worker::wait_until(Done done) {
  backoff idle(g_wait_backoff);
  // Whether this wait told the idle hook it polls (stop tells it the end).
  bool polling = false;
  auto stop_polling = [&](idle_poll_op why) {
    if (polling) {
      polling = false;
      if (idle_poll_fn hook = g_idle_poll.load(std::memory_order_relaxed))
        hook(*this, why);
    }
  };
  // Our own finished-children counts may be what done() waits for.
  flush_finished_children();
  while (!done()) {
    if (rt_.drain_backlog_if_any(*this)) {
      idle.reset();
      continue;
    }
    // find_work may run a job from the team's inbox (an arrived call the
    // progress thread queued) and still return nullptr: activity all the
    // same, so the backoff starts again (and the idle hook spins again).
    const std::uint64_t inbox_taken = team_->external().taken();
    if (task *t = find_work()) {
      stop_polling(idle_poll_op::stop);
      // One task per look at done(), not run_chain: the wait may be over
      // after any task (taskwait on waits for one), and the successors each
      // task releases could keep this thread running far past it while the
      // code after the wait creates nobody's next work.
      execute(t);
      // A taskwait of the task we are in may be waiting for these counts;
      // counts for other parents wait until we run out of work, and all of
      // them until the end of a chain of immediate successors (one atomic
      // add for the chain).
      if (!immediate_ && unflushed_parent_ == current_)
        flush_finished_children();
      idle.reset();
      continue;
    }
    flush_finished_children();
    if (team_->external().taken() != inbox_taken) {
      idle.reset();
      continue;
    }
    if (idle_poll_fn hook = g_idle_poll.load(std::memory_order_relaxed)) {
      polling = true;
      if (hook(*this, idle.rounds() < g_wait_backoff.spins
                          ? idle_poll_op::spin
                          : idle_poll_op::yield)) {
        idle.reset();
        continue;
      }
    }
    if (!idle.pause()) {
      stop_polling(idle_poll_op::stop_to_sleep);
      pool_.flush_remote(rt_.pools());
      side_pool_.flush_remote(rt_.side_pools());
      sleep_unless([&] { return done() || work_visible(); });
      idle.reset();
    }
  }
  stop_polling(idle_poll_op::stop);
  // Counts for other parents: their waiters must not depend on when we
  // next go idle.
  flush_finished_children();
  // A successor kept for this thread goes where the others can take it.
  if (task *t = immediate_) {
    immediate_ = nullptr;
    push_ready(t);
  }
}

} // namespace weft
