// Picos, the task scheduler behind the Picos Manager: it takes 48-packet task
// descriptors, tracks their dependences and emits ready tasks in the order
// they become ready, and frees a task when it retires.
//
// Structures (the Picos papers' task reservation station and dependence
// chain tracker, as a model):
//   task memory (TM)     one entry per task in Picos, from its descriptor to
//                        its retirement: SW ID, dependences, how many of them
//                        are not yet satisfied. A Picos ID names an entry:
//                        index (low 16 bits) | generation (15 bits, never 0).
//   dependence memory    one entry per address with unfinished accessors: its
//   (DM)                 oldest and youngest version.
//   version memory (VM)  the accesses to one address in submission order, as
//                        versions: a version is one writer, or consecutive
//                        readers. Only the oldest version of an address is
//                        satisfied; when its last member retires the next
//                        one is, and its members (chained through their TM
//                        entries) count one dependence fewer.
// Readiness is OpenMP's between the tasks given: a reader after a writer
// (RAW), a writer after readers (WAR) or after a writer (WAW) waits;
// consecutive readers run concurrently.
//
// Room is reserved before a descriptor arrives (reserve): a task whose
// Submission Request succeeded is always taken whole, so no admitted
// submission can stall the Manager's submission path. The DM is modelled
// fully associative for that reason (a set-associative DM could reject an
// address after admission).
//
// Not thread-safe: the Manager's lock guards it.
#pragma once

#include "picos_fifo.hpp"

#include <weft/picos.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace weft {

struct picos_ready_task {
  uint64_t sw_id;
  uint32_t picos_id;
};

class picos_scheduler {
public:
  explicit picos_scheduler(const weft_picos_config &c);
  picos_scheduler(const picos_scheduler &) = delete;
  picos_scheduler &operator=(const picos_scheduler &) = delete;

  // What a reservation lacks (none: reserved).
  enum class lack : uint8_t { none, task_memory, dep_memory, version_memory };
  // Room for one more task with up to `deps` new addresses and versions.
  lack reserve(uint32_t deps);
  // The largest dependence count a reservation can ever get.
  uint32_t max_deps() const;

  // One complete descriptor (48 packets, zero padding included) of a task
  // whose reservation was for `reserved_deps` dependences. Protocol errors
  // are fatal (see picos.h).
  void accept(const uint32_t *packets, uint32_t reserved_deps);

  bool has_ready() const { return !ready_.empty(); }
  // The oldest ready task; it is then "out" until it retires.
  picos_ready_task pop_ready();

  // The task `picos_id` (out) finished.
  void retire(uint32_t picos_id);

  // Occupancy and activity.
  uint32_t tasks() const { return tm_used_; }
  uint64_t accepted() const { return accepted_; }
  uint64_t deps() const { return deps_; }
  uint64_t edges() const { return edges_; }
  uint32_t peak_tasks() const { return peak_tm_; }
  uint32_t peak_addresses() const { return peak_dm_; }
  uint32_t peak_versions() const { return peak_vm_; }
  uint32_t peak_ready() const { return ready_.peak(); }

private:
  static constexpr uint32_t kNone = UINT32_MAX;
  enum : uint8_t { kFree, kPending, kReady, kOut };

  struct tm_entry {
    uint64_t sw_id;
    uint16_t gen;
    uint8_t ndeps;
    uint8_t waiting; // dependences whose version is not satisfied yet
    uint8_t state;
    uint32_t version[WEFT_PICOS_MAX_DEPS];
    uint32_t next_member[WEFT_PICOS_MAX_DEPS]; // chain of a waiting version
  };
  struct vm_entry {
    uint64_t addr;
    uint32_t next;        // the next younger version of addr
    uint32_t members;     // tasks in it not yet retired
    uint32_t first, last; // members that joined it before it was satisfied
    bool reader;
    bool satisfied; // the oldest version of its address
  };
  struct dm_entry {
    uint64_t addr;
    uint32_t oldest, youngest; // youngest == kNone: free slot
  };

  void add_dependence(uint32_t tm, uint32_t slot, uint64_t addr, bool writer);
  void join(uint32_t tm, uint32_t slot, uint32_t v);
  void satisfy(uint32_t v);
  void release_version(uint32_t v);
  void make_ready(uint32_t tm);
  uint32_t new_version(uint64_t addr, bool reader, bool satisfied);

  dm_entry *dm_find(uint64_t addr);
  dm_entry &dm_insert(uint64_t addr);
  void dm_erase(uint64_t addr);
  uint32_t dm_slot(uint64_t addr) const {
    return static_cast<uint32_t>((addr * 0x9E3779B97F4A7C15ull) >> dm_shift_);
  }

  uint32_t tm_cap_, dm_cap_, vm_cap_;
  std::unique_ptr<tm_entry[]> tm_;
  std::vector<uint32_t> tm_free_;
  std::unique_ptr<vm_entry[]> vm_;
  std::vector<uint32_t> vm_free_;
  std::unique_ptr<dm_entry[]> dm_; // open addressing, power-of-two size
  uint32_t dm_mask_;
  uint32_t dm_shift_;
  picos_fifo<uint32_t> ready_; // TM indices, in the order they became ready

  // Entries in use and reserved by admitted submissions not yet accepted.
  uint32_t tm_used_ = 0, dm_used_ = 0, vm_used_ = 0;
  uint32_t tm_reserved_ = 0, dm_reserved_ = 0, vm_reserved_ = 0;
  uint32_t peak_tm_ = 0, peak_dm_ = 0, peak_vm_ = 0;
  uint64_t accepted_ = 0, deps_ = 0, edges_ = 0;
};

} // namespace weft
