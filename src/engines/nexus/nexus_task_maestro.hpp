// The Nexus++ Task Maestro (paper, section III): the Task Buffer, the Task
// Pool with its dummy entries, the Dependence Counts, the set-associative
// Dependence Table with Kick-Off Lists and Dummy Kick-Off Lists, and the
// three Nexus IO FIFOs. It counts what it does in the cycles of the cost
// model (nexus_cost_model.hpp) and records peak occupancies.
//
// Not thread-safe, except where noted: one owner at a time drives it (the
// unit's lock in inline mode, the manager thread in thread mode, a test).
// Readiness follows OpenMP between tasks of one domain tag: a task waits on
// an address behind the tasks that hold it or wait for it before it, except
// that a task of a concurrent class (in, inoutset) joins the holders at once
// when they are of its class and nobody waits.
#pragma once

#include "nexus_config.hpp"
#include "nexus_dependence_table.hpp"
#include "nexus_descriptor.hpp"
#include "nexus_fifo.hpp"
#include "nexus_stats.hpp"
#include "nexus_task_buffer.hpp"
#include "nexus_task_pool.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace weft {

// What the unit needs from whoever drives it.
class nexus_port {
public:
  // The Ready FIFO is full and the unit has a ready task to write: return
  // once the FIFO has room (read it, or wait for its readers). Returns the
  // unit cycles this stall lasted.
  virtual uint64_t make_room() = 0;
  // A taskwait-depend pseudo task became ready; the unit has already
  // processed its end. Release the waiting thread.
  virtual void waiter_released(task *w) = 0;
  // Thread mode: a word was written to the Ready FIFO (wake a reader).
  virtual void ready_written() {}

protected:
  ~nexus_port() = default;
};

// Why an insertion was refused (nothing changed; offer the task again).
enum class nexus_refusal : uint8_t { none, pool, set, dummy_kol };

class nexus_task_maestro {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // reservations: thread mode. The FIFOs are then shared with other
  // threads, and submitters reserve room (reserve) before writing the New
  // FIFO, so that an accepted task always fits when the unit reaches it.
  nexus_task_maestro(const nexus_config &c, nexus_port &port,
                     bool reservations);

  const nexus_config &config() const { return cfg_; }

  // Whether d fits into the empty unit at all: Task Pool entries, and no set
  // asked for more ways than it has (with reservations also: no more
  // parameters than Dummy Kick-Off Lists). Any thread.
  bool fits_ever(const nexus_descriptor &d) const;

  // Inserts d into the task graph (it is the Task Buffer's oldest task), or
  // refuses it with no change when a structure lacks room. On success the
  // task's id is in t->engine_data (id + 1); a task with no unfinished
  // dependence goes to the Ready FIFO, a waiter is retired and released
  // through the port instead. d's parameters may be freed afterwards.
  nexus_refusal insert(const nexus_descriptor &d);

  // Task `id` finished (a word of the Finished FIFO): release its
  // parameters, kick off the tasks waiting for them, free its entries.
  void finish(uint32_t id);

  // ---- thread mode ---------------------------------------------------------
  // Reserve (any thread) the room d can need: its Task Pool entries, a way
  // in the set of each parameter, a Dummy Kick-Off List per parameter.
  // Refusals are counted as stalls. unreserve undoes it (d not written).
  nexus_refusal reserve(const nexus_descriptor &d);
  void unreserve(const nexus_descriptor &d);
  // One round of the unit: a Finished FIFO word, then New FIFO words into
  // the Task Buffer, then one insertion. Returns whether it did anything.
  bool step();
  // Nothing in the New or Finished FIFO or the Task Buffer (a hint when
  // read by another thread than the unit's).
  bool idle() const {
    return buffer_.empty() && !new_.maybe_nonempty() &&
           !finished_.maybe_nonempty();
  }

  // Whether the unit has inserted the first `news` tasks written to the New
  // FIFO and processed the first `finishes` Finished FIFO words (any
  // thread; thread mode).
  bool caught_up(uint64_t news, uint64_t finishes) const {
    return inserted_.load(std::memory_order_acquire) >= news &&
           finished_done_.load(std::memory_order_acquire) >= finishes;
  }

  nexus_fifo<nexus_descriptor> &new_fifo() { return new_; }
  nexus_fifo<task *> &ready_fifo() { return ready_; }
  nexus_fifo<uint32_t> &finished_fifo() { return finished_; }
  const nexus_fifo<nexus_descriptor> &new_fifo() const { return new_; }
  const nexus_fifo<task *> &ready_fifo() const { return ready_; }
  const nexus_fifo<uint32_t> &finished_fifo() const { return finished_; }

  const nexus_stats &stats() const { return st_; }
  nexus_stats &stats() { return st_; }
  const nexus_task_pool &pool() const { return pool_; }
  const nexus_dependence_table &table() const { return table_; }

private:
  struct lookup_result {
    uint32_t entry; // kNone: a new entry in `set`
    uint32_t set;
  };

  bool joinable(uint32_t e, nexus_access acc) {
    return table_.kol_empty(e) && nexus_concurrent(acc) &&
           table_.holder_class(e) == acc && table_.holders(e) > 0;
  }
  nexus_refusal refuse(nexus_refusal why, uint64_t lookups);
  void release_param(uint32_t tag, const nexus_param &p);
  void kick_off(uint32_t e);
  void emit_ready(uint32_t id);
  void do_finish(uint32_t id);
  void release_waiters();

  nexus_config cfg_;
  nexus_port &port_;
  bool reservations_;
  nexus_task_pool pool_;
  nexus_dependence_table table_;
  nexus_task_buffer buffer_;
  nexus_fifo<nexus_descriptor> new_;
  nexus_fifo<task *> ready_;
  nexus_fifo<uint32_t> finished_;
  nexus_stats st_;

  // Scratch of insert: per parameter, and new entries claimed per set.
  std::vector<lookup_result> look_;
  std::vector<uint32_t> claimed_;
  // Waiters made ready during an operation, retired at its end.
  std::vector<uint32_t> ready_waiters_;

  // Thread mode: room not yet reserved (may go below zero while a
  // reservation fails and is undone).
  std::atomic<int64_t> pool_credit_;
  std::atomic<int64_t> dummy_credit_;
  std::unique_ptr<std::atomic<int32_t>[]> set_credit_;
  // Thread mode: New FIFO tasks inserted, Finished FIFO words processed.
  std::atomic<uint64_t> inserted_{0}, finished_done_{0};
};

} // namespace weft
