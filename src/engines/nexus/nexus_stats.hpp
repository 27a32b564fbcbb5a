// The Task Maestro's counters. Each is written by one thread at a time (the
// unit's owner: the lock's holder or the manager thread) and may be read by
// any thread at any time, hence relaxed atomics with plain load + store. The
// few counters that submitters bump concurrently (refused reservations in
// thread mode) use add_shared.
#pragma once

#include <atomic>
#include <cstdint>

namespace weft {

struct nexus_counter {
  std::atomic<uint64_t> v{0};
  void add(uint64_t n = 1) {
    v.store(v.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  void add_shared(uint64_t n = 1) { v.fetch_add(n, std::memory_order_relaxed); }
  void peak(uint64_t x) {
    if (x > v.load(std::memory_order_relaxed))
      v.store(x, std::memory_order_relaxed);
  }
  uint64_t get() const { return v.load(std::memory_order_relaxed); }
};

struct nexus_stats {
  // Operations.
  nexus_counter tasks_new;         // tasks inserted (waiters included)
  nexus_counter waiters;           // taskwait-depend pseudo tasks inserted
  nexus_counter tasks_finished;    // finished tasks processed (waiters too)
  nexus_counter tasks_ready;       // words written to the Ready FIFO
  nexus_counter deps;              // dependences offered by inserted tasks
  nexus_counter params;            // their parameters, duplicates merged
  nexus_counter lookups;           // Dependence Table lookups
  nexus_counter inserts;           // entries created
  nexus_counter deletes;           // entries freed
  nexus_counter joins;             // accesses granted at once on a held entry
  nexus_counter kol_appends;       // tasks put in a Kick-Off List (edges)
  nexus_counter kickoffs;          // tasks taken from a Kick-Off List
  nexus_counter dummy_kol_allocs;  // Dummy Kick-Off Lists allocated
  nexus_counter dummy_kol_refills; // entry lists refilled from a dummy
  nexus_counter dummy_entries;     // Task Pool dummy entries allocated
  // Stalls, by cause: an insertion refused (the submitter gets `full`).
  nexus_counter stall_pool;      // not enough free Task Pool entries
  nexus_counter set_conflicts;   // a new address's set had no free way
  nexus_counter stall_dummy_kol; // no free Dummy Kick-Off List
  nexus_counter stall_ready;     // the Ready FIFO was full at a kick-off
  nexus_counter stall_cycles;    // cycles spent on refused insertions and
                                 // waiting for Ready FIFO room
  // Modelled time.
  nexus_counter cycles;       // busy cycles of the unit
  nexus_counter pcie_written; // PCIe words written (descriptors, finishes)
  nexus_counter pcie_read;    // PCIe words read (ready words)
  // Peak occupancies.
  nexus_counter peak_pool;        // Task Pool entries in use
  nexus_counter peak_dummy_pool;  // of them dummy entries
  nexus_counter peak_table;       // Dependence Table entries
  nexus_counter peak_set;         // entries in one set
  nexus_counter peak_dummy_kol;   // Dummy Kick-Off Lists in use
  nexus_counter peak_kol;         // tasks waiting on one address
  nexus_counter peak_task_buffer; // tasks in the Task Buffer
};

} // namespace weft
