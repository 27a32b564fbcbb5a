// The dependency engine `picos` (WEFT_ENGINE=picos): the runtime drives one
// Picos (picos_manager) through the instructions of include/weft/picos.h
// only, as the Phentos runtime does (Picos paper, section V-B). Worker w is
// core w.id().
//
//   submit    Submission Request, then Submit Three Packets for the header
//             and for each dependence; a failed request answers `full`
//             (and a task without dependences refused 16 times in a row is
//             answered `ready`: it runs without Picos). SW ID = the task
//             pointer. More than 15 distinct dependences (or more than half
//             the dependence or version memory): `serialize`, the core runs
//             the task outside Picos.
//   fetch     Ready Task Request when this core has none outstanding (and
//             the worker is in a team), then Fetch SW ID + Fetch Picos ID
//             (kept in task::engine_data).
//   retire    Retire Task.
//   wait_deps the TASK_WAITER goes to Picos as a task with those dependences
//             (more than fit: behind a chain of join pseudo-tasks); the core
//             that fetches it retires it and hands it back.
//
// Picos has no nested tasks: dependences are between siblings, so each
// parent gets a 16-bit domain tag (task::domain holds it) that is folded into
// the top bits of every dependence address its children submit. A tag is
// recycled with the parent's descriptor (all its children retired by then).
//
// What the runtime does with fetched tasks (Phentos runs each at once):
//  * Inside a task (a taskwait), the waiting task's own children run first:
//    other fetched tasks of the team are held in the core's list and run
//    later, by it or by an idle worker (which takes the oldest, as work
//    stealing does). Picos hands out ready tasks oldest first; running them
//    in that order on top of waiting tasks would nest task bodies without
//    bound.
//  * Tasks with a priority (Picos has none): while any is in Picos or held,
//    a fetch takes every ready task and hands out the highest first.
//  * Cores are software threads that may leave their team or block with a
//    Ready Task Request outstanding; the task the Manager then puts into
//    their queue would wait for them. A worker that finds nothing else takes
//    such a task from another core's queue (Fetch SW ID + Fetch Picos ID
//    issued for that core) once other workers have seen it there a few
//    times without that core fetching.
#pragma once

#include "core/per_worker_table.hpp"
#include "engines/engine.hpp"

#include <weft/picos.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {

class picos_engine final : public dependency_engine {
public:
  // Capacities from WEFT_PICOS_* (bad values are fatal), one core per
  // possible worker id.
  explicit picos_engine(int nworkers);
  // A given configuration (tests); cfg.notify is the engine's own.
  picos_engine(const weft_picos_config &cfg, int poll_us, int nworkers);
  ~picos_engine() override;

  const char *name() const override { return "picos"; }
  void start(runtime &rt) override;
  void stop() override;
  submit_result submit(worker &w, task *parent, task *t, const weft_dep *deps,
                       int ndeps) override;
  bool holds_ready_tasks() const override { return true; }
  task *fetch(worker &w) override;
  bool has_ready(worker &w) override;
  int poll_interval_us(worker &w) override;
  void retire(worker &w, task *t) override;
  wait_result wait_deps(worker &w, task *parent, task *waiter,
                        const weft_dep *deps, int ndeps) override;
  void children_done(worker &, task *) override {}
  void task_end(worker &w, task *parent) override;
  void add_stats(engine_stats &out) const override;
  void task_free(worker &w, task *t) override;

  weft_picos *unit() { return unit_; }

  // A dependence as Picos takes it: address and directionality.
  struct picos_dep {
    uint64_t addr;
    uint32_t dir;
  };
  // Merges repeated addresses (an address named with a writer access
  // becomes inout); inoutset and mutexinoutset are inout. Returns the
  // number of distinct addresses, or max + 1 once there are more than max.
  static int merge_deps(const weft_dep *deps, int ndeps, picos_dep *out,
                        int max);

private:
  struct core_state;
  static void on_task_queued(void *ctx, int core);

  core_state &core(int id);
  bool enter_own(core_state &cs);
  void leave_own(core_state &cs);
  bool enter_other(core_state &cs);
  void leave_other(core_state &cs);
  task *take(int me, int c, core_state &cs);
  bool request_for_wait(worker &w, int nd);
  task *pick(worker &w, int c, core_state &cs, bool &held_more);
  void request(int c, core_state &cs);
  void hold(core_state &cs, task *t);
  task *unhold(core_state &cs, std::size_t i);
  task *rescue(worker &w);
  task *finish_fetch(worker &w, task *t);
  void send(int c, uint64_t sw_id, const picos_dep *d, int nd, uint32_t tag);
  uint32_t tag_of(task *parent);
  void free_tag(uint32_t tag);
  static void bump(std::atomic<uint64_t> &c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  weft_picos *unit_;
  int max_deps_;
  int poll_us_;
  std::atomic<runtime *> rt_{nullptr};
  per_worker_table<core_state> cores_;
  // Tasks with a priority submitted and not yet handed to the core.
  alignas(64) std::atomic<int64_t> prio_tasks_{0};

  // Domain tags 1..65535.
  mutable std::mutex tag_lock_;
  std::vector<uint32_t> free_tags_;
  uint32_t next_tag_ = 1;
  uint32_t tags_in_use_ = 0, peak_tags_ = 0;
};

} // namespace weft
