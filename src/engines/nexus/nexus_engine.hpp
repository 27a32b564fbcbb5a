// The dependency engine `nexus` (WEFT_ENGINE=nexus): the Nexus++ Task
// Maestro (nexus_task_maestro) behind the engine contract, in one of two
// modes (WEFT_NEXUS_MODE, docs/engines.md):
//
//   inline (default)  the unit is one lock. submit / retire / wait_deps do
//                     the unit's work under it and read the tasks it made
//                     ready from the Ready FIFO before letting go; they are
//                     siblings of the task submitted or retired, handed to
//                     the core with worker::make_ready.
//   thread            a manager thread is the unit, as the board is: submit
//                     writes the New FIFO (`pending`, or `full`), retire
//                     writes the Finished FIFO, workers read the Ready FIFO
//                     with fetch(); the manager wakes a sleeping worker
//                     after each ready word. What fetch reads goes into the
//                     plugin's pool of ready tasks (VSs has one), from which
//                     a worker takes the newest child of the task it runs,
//                     else the newest task of its team.
//
// Every task goes through the unit, with or without dependences. A task
// that can never fit answers `serialize`; temporary lack of room `full`.
#pragma once

#include "core/per_worker_table.hpp"
#include "engines/engine.hpp"
#include "nexus_config.hpp"
#include "nexus_domain.hpp"
#include "nexus_task_maestro.hpp"
#include "nexus_unit_lock.hpp"

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace weft {

class team;

class nexus_engine final : public dependency_engine, private nexus_port {
public:
  explicit nexus_engine(const nexus_config &cfg);
  ~nexus_engine() override;

  const char *name() const override { return "nexus"; }
  void start(runtime &rt) override;
  void stop() override;
  submit_result submit(worker &w, task *parent, task *t, const weft_dep *deps,
                       int ndeps) override;
  bool holds_ready_tasks() const override { return threaded_; }
  task *fetch(worker &w) override;
  bool has_ready(worker &w) override;
  void retire(worker &w, task *t) override;
  wait_result wait_deps(worker &w, task *parent, task *waiter,
                        const weft_dep *deps, int ndeps) override;
  void children_done(worker &w, task *parent) override;
  void task_end(worker &w, task *parent) override;
  void task_free(worker &w, task *t) override;
  void add_stats(engine_stats &out) const override;

  const nexus_config &config() const { return cfg_; }

private:
  // Per worker (by id, made on first use): the Nexus Plugin's scratch and
  // counters.
  struct alignas(64) per_worker {
    std::vector<nexus_param> spill;    // parameters beyond the inline ones
    std::vector<task *> ready;         // read from the Ready FIFO (inline)
    std::vector<task *> released;      // waiters the unit released (inline)
    std::atomic<uint64_t> new_full{0}; // New FIFO full (thread)
    std::atomic<uint64_t> finished_full{0}; // Finished FIFO full (thread)
    std::atomic<uint64_t> serialized{0};    // answered serialize
    std::atomic<uint64_t> wait_all{0};      // taskwait depend -> all
    std::atomic<uint64_t> bypassed{0};      // ran without the unit
    // The task submit refused last, and how many times in a row.
    task *refused_task = nullptr;
    uint32_t refusals = 0;
  };
  static void bump(std::atomic<uint64_t> &c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  per_worker &pw(worker &w);

  // Formats d's parameters and domain (created for the parent when asked);
  // false when d has parameters but the parent no domain.
  bool format(per_worker &p, task *parent, nexus_descriptor &d,
              const weft_dep *deps, int ndeps, bool create_domain);
  // Inline: run op on the unit under the lock, then read its Ready FIFO.
  template <class Op> nexus_refusal run_inline(per_worker &p, Op op);
  // Thread mode: write the New FIFO (after reserving room).
  nexus_refusal write_new(per_worker &p, nexus_descriptor &d);
  // A refusal of t: full, or ready (t runs without the unit) once a task
  // without parameters was refused kBypassAfter times in a row.
  submit_result refused(per_worker &p, task *t, const nexus_descriptor &d);

  // nexus_port
  uint64_t make_room() override;
  void waiter_released(task *w) override;
  void ready_written() override;

  // Thread mode: the plugin's pool of ready tasks.
  bool drain_ready(worker &w);
  bool catch_up(worker &w);
  task *pick(worker &w);

  void manager_main();
  void poke_manager();
  template <class Cond> void manager_wait(Cond busy);

  nexus_config cfg_;
  bool threaded_;
  nexus_domains domains_;
  nexus_task_maestro unit_;
  nexus_unit_lock lock_;          // inline: the unit
  per_worker *current_ = nullptr; // inline: the lock holder's
  runtime *rt_ = nullptr;

  // Thread mode.
  std::thread manager_;
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<bool> mgr_sleeping_{false};
  std::atomic<uint32_t> mgr_word_{0};
  std::atomic<uint32_t> mgr_order_{0}; // orders pokes against sleeping
  unsigned wake_cursor_ = 0;           // manager only
  struct pooled {
    task *t;
    team *home;
  };
  nexus_unit_lock pool_lock_;
  std::vector<pooled> ready_pool_; // newest last
  std::atomic<std::size_t> pooled_{0};

  per_worker_table<per_worker> pw_;
};

// The engine WEFT_ENGINE=nexus names, configured from WEFT_NEXUS_*.
std::unique_ptr<dependency_engine> make_nexus_engine();

} // namespace weft
