// The Picos Manager and the per-core Picos Delegates (Picos paper, section
// IV-E/F): the seven instructions of Table I over one Picos.
//
//   Submission Handler  per-core submission buffers (one descriptor each);
//                       the Guided Arbiter forwards whole packet sequences in
//                       the order their Submission Requests succeeded, never
//                       interleaved; the Zero Padder completes each to the
//                       48 packets Picos takes.
//   Packet Encoder      moves Picos' ready tasks, as (Picos ID, SW ID)
//                       tuples, into the central ready queue.
//   Work-Fetch Arbiter  a routing queue of Ready Task Requests in the order
//                       they came; each takes the next ready task into the
//                       requesting core's private ready queue.
//   Round-Robin Arbiter one retirement packet buffered per core, served in
//                       round-robin order of cores.
//
// The Manager and Picos form one clock domain, modelled under one lock: an
// instruction that gives them work (the last packet of a sequence, a Ready
// Task Request, a retirement) runs them until they are idle before it
// returns. In manual mode (tests) instructions only queue their work and
// advance() runs the units, which makes the arbiters' orders observable.
// Fetch SW ID and Fetch Picos ID take no lock: the private ready queue is a
// single-producer (the Manager), single-consumer (the core) ring.
#pragma once

#include "engines/engine.hpp"
#include "picos_fifo.hpp"
#include "picos_scheduler.hpp"

#include <weft/picos.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace weft {

// The Manager's lock: spin briefly, then yield (threads may outnumber cores).
class picos_lock {
public:
  void lock();
  void unlock() { held_.store(false, std::memory_order_release); }

private:
  std::atomic<bool> held_{false};
};

enum picos_instruction : int {
  kPicosSubmissionRequest,
  kPicosSubmitPacket,
  kPicosSubmitThreePackets,
  kPicosReadyTaskRequest,
  kPicosFetchSwId,
  kPicosFetchPicosId,
  kPicosRetireTask,
  kPicosInstructions
};

class picos_manager {
public:
  explicit picos_manager(const weft_picos_config &c);
  ~picos_manager();
  picos_manager(const picos_manager &) = delete;
  picos_manager &operator=(const picos_manager &) = delete;

  // ---- the instructions (semantics: include/weft/picos.h) ----------------
  bool submission_request(int core, uint32_t npackets);
  bool submit_packet(int core, uint32_t packet);
  bool submit_three_packets(int core, uint64_t rs1, uint64_t rs2);
  bool ready_task_request(int core);
  uint64_t fetch_sw_id(int core);
  uint32_t fetch_picos_id(int core);
  void retire_task(int core, uint32_t picos_id);

  // Tasks in core's private ready queue (a status read).
  uint32_t queued(int core) const;
  // The most dependences a Submission Request can ever be granted.
  uint32_t max_deps() const { return max_deps_; }
  int cores() const { return cores_; }
  // Cores 0..n-1 get a peak-occupancy counter of their own (default: all);
  // the set of counters never changes once the unit exists.
  void set_reported_cores(int n) { reported_cores_ = n < cores_ ? n : cores_; }

  // ---- statistics ----------------------------------------------------------
  // Appends the "picos.*" counters.
  void counters(std::vector<engine_counter> &out) const;
  struct summary {
    uint64_t tasks, deps, edges, cycles;
    uint32_t peak_addresses;
  };
  summary totals() const;

  // ---- model controls (tests) ---------------------------------------------
  // Manual mode: instructions queue work; advance() runs the Manager and
  // Picos until idle. Set before any instruction.
  void set_manual(bool on) { manual_ = on; }
  void advance();
  // Called, under the lock, with every packet Picos receives / every
  // retirement in the order the arbiter serves it.
  std::function<void(uint32_t)> on_picos_packet;
  std::function<void(int core, uint32_t picos_id)> on_retirement;

private:
  struct port;
  // Cores to notify once the lock is released.
  struct wake_list {
    static constexpr int kMax = 16;
    int core[kMax];
    int n = 0;
  };

  port &port_of(int core, const char *instruction) {
    if (core < 0 || core >= cores_)
      check_core(core, instruction); // fatal
    if (port *p = ports_[core].load(std::memory_order_acquire))
      return *p;
    return new_port(core);
  }
  __attribute__((noinline)) port &new_port(int core);
  port *existing_port(int core) const {
    return ports_[core].load(std::memory_order_acquire);
  }
  // Fatal unless 0 <= core < cores.
  void check_core(int core, const char *instruction) const;
  void bump(port &p, int instr, bool ok);
  void sequence_complete(port &p);
  void run_units(wake_list &wake); // everything, until idle
  void forward_sequences();        // Guided Arbiter + Zero Padder
  void arbitrate_retirements();    // Round-Robin Arbiter
  void serve_retirement(int core, uint32_t picos_id);
  void route_ready_tasks(wake_list &wake); // Packet Encoder + Work-Fetch
  void notify(wake_list &wake);

  const weft_picos_config cfg_;
  const int cores_;
  uint32_t max_deps_;
  bool manual_ = false;
  std::unique_ptr<std::atomic<port *>[]> ports_;
  std::atomic<int> nports_{0}; // highest core with a port, + 1
  int reported_cores_;

  // ---- under lock_ ----------------------------------------------------------
  mutable picos_lock lock_;
  picos_scheduler picos_;
  picos_fifo<uint32_t> guided_;          // cores, request order
  picos_fifo<uint32_t> fetch_requests_;  // cores, request order
  picos_fifo<picos_ready_task> ready_;   // central ready queue
  std::vector<uint64_t> retire_pending_; // cores with a packet
  uint32_t retire_count_ = 0, peak_retire_ = 0;
  int retire_last_; // last core served
  uint32_t descriptor_[WEFT_PICOS_PACKETS];
  uint64_t picos_cycles_ = 0;
  uint64_t zero_padded_ = 0, to_picos_ = 0, routed_ = 0;
  uint64_t stall_tm_ = 0, stall_dm_ = 0, stall_vm_ = 0;
  uint64_t stall_fetch_queue_ = 0, stall_core_queue_ = 0, stall_retire_ = 0;
};

} // namespace weft

// The handle of include/weft/picos.h.
struct weft_picos {
  explicit weft_picos(const weft_picos_config &c) : manager(c) {}
  weft::picos_manager manager;
};
