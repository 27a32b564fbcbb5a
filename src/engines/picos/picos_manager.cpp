#include "picos_manager.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"
#include "picos_config.hpp"

#include <bit>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace weft {

void picos_lock::lock() {
  backoff b(kUnitLockBackoff);
  while (held_.exchange(true, std::memory_order_acquire))
    while (held_.load(std::memory_order_relaxed))
      b.pause();
}

namespace {
enum : uint8_t { kIdle, kOpen, kComplete }; // a core's submission

const char *const kInstructionNames[kPicosInstructions] = {
    "picos.submission_request",   "picos.submit_packet",
    "picos.submit_three_packets", "picos.ready_task_request",
    "picos.fetch_sw_id",          "picos.fetch_picos_id",
    "picos.retire_task"};
const char *const kFailNames[kPicosInstructions] = {
    "picos.submission_request.fail",   "picos.submit_packet.fail",
    "picos.submit_three_packets.fail", "picos.ready_task_request.fail",
    "picos.fetch_sw_id.fail",          "picos.fetch_picos_id.fail",
    "picos.retire_task.fail"};

// "picos.peak.core_queue.<core>": names live as long as the process.
const char *core_queue_name(int core) {
  static std::mutex m;
  static auto *names = new std::deque<std::string>;
  std::lock_guard<std::mutex> lk(m);
  while (names->size() <= static_cast<std::size_t>(core))
    names->push_back("picos.peak.core_queue." + std::to_string(names->size()));
  return (*names)[static_cast<std::size_t>(core)].c_str();
}
} // namespace

// One core's Delegate and its Manager-side queues.
struct alignas(64) picos_manager::port {
  explicit port(uint32_t capacity)
      : ring(new picos_ready_task[std::bit_ceil(capacity)]),
        mask(std::bit_ceil(capacity) - 1), cap(capacity) {}

  // ---- the core's side: written by the thread issuing its instructions ----
  uint32_t buf[WEFT_PICOS_PACKETS]; // the submission buffer (one descriptor)
  uint32_t expected = 0;            // packets announced
  uint32_t sent = 0;                // packets received so far
  uint32_t reserved_deps = 0;
  bool sw_id_fetched = false; // Fetch SW ID succeeded on the front task
  std::atomic<uint8_t> sub_state{kIdle};
  std::atomic<uint64_t> count[kPicosInstructions]{};
  std::atomic<uint64_t> fail[kPicosInstructions]{};
  std::atomic<uint64_t> packets{0};
  std::atomic<uint64_t> stall_buffer{0}; // a request while one waits

  // ---- the private ready queue: the core pops at head ----------------------
  alignas(64) std::atomic<uint32_t> head{0};
  // ---- the Manager's side (under its lock) ---------------------------------
  alignas(64) std::atomic<uint32_t> tail{0};
  std::unique_ptr<picos_ready_task[]> ring;
  uint32_t mask;
  uint32_t cap;
  uint32_t requests = 0; // Ready Task Requests not yet answered
  uint32_t peak_queue = 0;
  bool retirement_full = false; // the core's retirement queue (one packet)
  uint32_t retirement = 0;
};

picos_manager::picos_manager(const weft_picos_config &c)
    : cfg_(c), cores_(c.cores), ports_(new std::atomic<port *>[c.cores]()),
      reported_cores_(c.cores), picos_(c),
      guided_(static_cast<uint32_t>(c.cores)), fetch_requests_(c.fetch_queue),
      ready_(c.ready_queue),
      retire_pending_((static_cast<std::size_t>(c.cores) + 63) / 64, 0),
      retire_last_(c.cores - 1) {
  max_deps_ = picos_.max_deps();
}

picos_manager::~picos_manager() {
  for (int i = 0; i < cores_; ++i)
    delete ports_[i].load(std::memory_order_relaxed);
}

void picos_manager::check_core(int core, const char *instruction) const {
  if (core < 0 || core >= cores_)
    fatal("picos: %s by core %d (this Picos has cores 0..%d)", instruction,
          core, cores_ - 1);
}

picos_manager::port &picos_manager::new_port(int core) {
  auto *p = new port(cfg_.core_queue);
  port *expected = nullptr;
  if (!ports_[core].compare_exchange_strong(expected, p,
                                            std::memory_order_acq_rel)) {
    delete p;
    return *expected;
  }
  int n = nports_.load(std::memory_order_relaxed);
  while (n <= core &&
         !nports_.compare_exchange_weak(n, core + 1, std::memory_order_release))
    ;
  return *p;
}

// Single writer per core: plain load + store.
void picos_manager::bump(port &p, int instr, bool ok) {
  auto inc = [](std::atomic<uint64_t> &c) {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  };
  inc(p.count[instr]);
  if (!ok)
    inc(p.fail[instr]);
}

void picos_manager::notify(wake_list &wake) {
  if (cfg_.notify)
    for (int i = 0; i < wake.n; ++i)
      cfg_.notify(cfg_.notify_ctx, wake.core[i]);
  wake.n = 0;
}

// ---------------------------------------------------------------------------
bool picos_manager::submission_request(int core, uint32_t npackets) {
  port &p = port_of(core, "Submission Request");
  if (npackets < 3 || npackets > WEFT_PICOS_PACKETS || npackets % 3 != 0)
    fatal("picos: Submission Request by core %d announces %u packets (must "
          "be 3 + 3*D with 0 <= D <= %d)",
          core, npackets, WEFT_PICOS_MAX_DEPS);
  uint32_t deps = (npackets - 3) / 3;
  // Only this core moves its submission out of kIdle.
  if (p.sub_state.load(std::memory_order_relaxed) != kIdle) {
    p.stall_buffer.store(p.stall_buffer.load(std::memory_order_relaxed) + 1,
                         std::memory_order_relaxed);
    bump(p, kPicosSubmissionRequest, false);
    return false;
  }
  lock_.lock();
  picos_scheduler::lack l = picos_.reserve(deps);
  if (l == picos_scheduler::lack::none) {
    p.expected = npackets;
    p.sent = 0;
    p.reserved_deps = deps;
    p.sub_state.store(kOpen, std::memory_order_relaxed);
    guided_.push(static_cast<uint32_t>(core));
  } else if (l == picos_scheduler::lack::task_memory) {
    ++stall_tm_;
  } else if (l == picos_scheduler::lack::dep_memory) {
    ++stall_dm_;
  } else {
    ++stall_vm_;
  }
  lock_.unlock();
  bool ok = l == picos_scheduler::lack::none;
  bump(p, kPicosSubmissionRequest, ok);
  return ok;
}

bool picos_manager::submit_packet(int core, uint32_t packet) {
  port &p = port_of(core, "Submit Packet");
  if (p.sub_state.load(std::memory_order_relaxed) != kOpen ||
      p.sent >= p.expected) {
    bump(p, kPicosSubmitPacket, false);
    return false;
  }
  p.buf[p.sent++] = packet;
  p.packets.store(p.packets.load(std::memory_order_relaxed) + 1,
                  std::memory_order_relaxed);
  bump(p, kPicosSubmitPacket, true);
  if (p.sent == p.expected)
    sequence_complete(p);
  return true;
}

bool picos_manager::submit_three_packets(int core, uint64_t rs1, uint64_t rs2) {
  port &p = port_of(core, "Submit Three Packets");
  if (p.sub_state.load(std::memory_order_relaxed) != kOpen ||
      p.sent + 3 > p.expected) {
    bump(p, kPicosSubmitThreePackets, false);
    return false;
  }
  p.buf[p.sent] = static_cast<uint32_t>(rs1 >> 32);
  p.buf[p.sent + 1] = static_cast<uint32_t>(rs1);
  p.buf[p.sent + 2] = static_cast<uint32_t>(rs2);
  p.sent += 3;
  p.packets.store(p.packets.load(std::memory_order_relaxed) + 3,
                  std::memory_order_relaxed);
  bump(p, kPicosSubmitThreePackets, true);
  if (p.sent == p.expected)
    sequence_complete(p);
  return true;
}

void picos_manager::sequence_complete(port &p) {
  wake_list wake;
  lock_.lock();
  p.sub_state.store(kComplete, std::memory_order_relaxed);
  if (!manual_) {
    forward_sequences();
    route_ready_tasks(wake);
  }
  lock_.unlock();
  notify(wake);
}

bool picos_manager::ready_task_request(int core) {
  port &p = port_of(core, "Ready Task Request");
  wake_list wake;
  bool ok = false;
  lock_.lock();
  // head only grows: a stale value overstates the occupancy, never less.
  uint32_t queued = p.tail.load(std::memory_order_relaxed) -
                    p.head.load(std::memory_order_acquire);
  if (fetch_requests_.full()) {
    ++stall_fetch_queue_;
  } else if (p.requests + queued >= p.cap) {
    ++stall_core_queue_;
  } else {
    fetch_requests_.push(static_cast<uint32_t>(core));
    ++p.requests;
    ok = true;
    if (!manual_)
      route_ready_tasks(wake);
  }
  lock_.unlock();
  notify(wake);
  bump(p, kPicosReadyTaskRequest, ok);
  return ok;
}

uint64_t picos_manager::fetch_sw_id(int core) {
  port &p = port_of(core, "Fetch SW ID");
  uint32_t h = p.head.load(std::memory_order_relaxed);
  if (h == p.tail.load(std::memory_order_acquire)) {
    bump(p, kPicosFetchSwId, false);
    return WEFT_PICOS_FAIL;
  }
  p.sw_id_fetched = true;
  bump(p, kPicosFetchSwId, true);
  return p.ring[h & p.mask].sw_id;
}

uint32_t picos_manager::fetch_picos_id(int core) {
  port &p = port_of(core, "Fetch Picos ID");
  uint32_t h = p.head.load(std::memory_order_relaxed);
  if (!p.sw_id_fetched || h == p.tail.load(std::memory_order_acquire)) {
    bump(p, kPicosFetchPicosId, false);
    return WEFT_PICOS_FAIL;
  }
  uint32_t id = p.ring[h & p.mask].picos_id;
  p.sw_id_fetched = false;
  p.head.store(h + 1, std::memory_order_release);
  bump(p, kPicosFetchPicosId, true);
  return id;
}

void picos_manager::retire_task(int core, uint32_t picos_id) {
  port &p = port_of(core, "Retire Task");
  wake_list wake;
  lock_.lock();
  // Blocking: wait while this core's retirement packet is still queued
  // (only in manual mode: otherwise the arbiter drains it at once).
  while (p.retirement_full) {
    ++stall_retire_;
    lock_.unlock();
    std::this_thread::yield();
    lock_.lock();
  }
  if (!manual_ && retire_count_ == 0) {
    // The only packet waiting: the round-robin arbiter serves it now.
    if (peak_retire_ == 0)
      peak_retire_ = 1;
    serve_retirement(core, picos_id);
    route_ready_tasks(wake);
  } else {
    p.retirement_full = true;
    p.retirement = picos_id;
    retire_pending_[static_cast<std::size_t>(core) / 64] |= uint64_t(1)
                                                            << (core % 64);
    if (++retire_count_ > peak_retire_)
      peak_retire_ = retire_count_;
    if (!manual_)
      run_units(wake);
  }
  lock_.unlock();
  notify(wake);
  bump(p, kPicosRetireTask, true);
}

uint32_t picos_manager::queued(int core) const {
  check_core(core, "queued");
  port *p = existing_port(core);
  if (!p)
    return 0;
  return p->tail.load(std::memory_order_acquire) -
         p->head.load(std::memory_order_acquire);
}

// ---------------------------------------------------------------------------
void picos_manager::advance() {
  wake_list wake;
  lock_.lock();
  run_units(wake);
  lock_.unlock();
  notify(wake);
}

void picos_manager::run_units(wake_list &wake) {
  forward_sequences();
  arbitrate_retirements();
  route_ready_tasks(wake);
}

// The Guided Arbiter serves cores in the order their Submission Requests
// succeeded; a core whose sequence is incomplete holds every later one back.
void picos_manager::forward_sequences() {
  while (!guided_.empty()) {
    port &q = *existing_port(static_cast<int>(guided_.front()));
    if (q.sub_state.load(std::memory_order_relaxed) != kComplete)
      return;
    guided_.pop();
    uint32_t n = q.expected;
    // The Zero Padder: Picos always takes 48 packets. Picos reads only the
    // 3 + 3*D that carry something, so the zeros are written only for an
    // observer.
    if (on_picos_packet) {
      std::memset(q.buf + n, 0, (WEFT_PICOS_PACKETS - n) * sizeof(uint32_t));
      for (uint32_t i = 0; i < WEFT_PICOS_PACKETS; ++i)
        on_picos_packet(q.buf[i]);
    }
    zero_padded_ += WEFT_PICOS_PACKETS - n;
    to_picos_ += WEFT_PICOS_PACKETS;
    picos_cycles_ += WEFT_PICOS_PACKETS * kPicosPacketCycles;
    picos_.accept(q.buf, q.reserved_deps);
    q.sub_state.store(kIdle, std::memory_order_relaxed);
  }
}

// The Round-Robin Arbiter: one packet per core per round, starting after the
// core served last.
void picos_manager::arbitrate_retirements() {
  int n = nports_.load(std::memory_order_relaxed);
  while (retire_count_ > 0) {
    int c = -1;
    for (int pass = 0; pass < 2 && c < 0; ++pass) {
      int lo = pass == 0 ? retire_last_ + 1 : 0;
      int hi = pass == 0 ? n : retire_last_ + 1;
      for (int w = lo / 64; w * 64 < hi && c < 0; ++w) {
        uint64_t bits = retire_pending_[static_cast<std::size_t>(w)];
        if (w == lo / 64)
          bits &= ~uint64_t(0) << (lo % 64);
        if (bits) {
          int found = w * 64 + std::countr_zero(bits);
          if (found < hi)
            c = found;
        }
      }
    }
    port &q = *existing_port(c);
    uint32_t id = q.retirement;
    q.retirement_full = false;
    retire_pending_[static_cast<std::size_t>(c) / 64] &=
        ~(uint64_t(1) << (c % 64));
    --retire_count_;
    serve_retirement(c, id);
  }
}

void picos_manager::serve_retirement(int core, uint32_t picos_id) {
  retire_last_ = core;
  if (on_retirement)
    on_retirement(core, picos_id);
  picos_cycles_ += kPicosRetireCycles;
  picos_.retire(picos_id);
}

// The Packet Encoder fills the central ready queue from Picos; the
// Work-Fetch Arbiter gives its front task to the oldest Ready Task Request.
void picos_manager::route_ready_tasks(wake_list &wake) {
  for (;;) {
    while (!ready_.full() && picos_.has_ready()) {
      ready_.push(picos_.pop_ready());
      picos_cycles_ += kPicosReadyTaskCycles;
    }
    if (fetch_requests_.empty() || ready_.empty())
      return;
    int c = static_cast<int>(fetch_requests_.pop());
    port &q = *existing_port(c);
    uint32_t t = q.tail.load(std::memory_order_relaxed);
    q.ring[t & q.mask] = ready_.pop();
    q.tail.store(t + 1, std::memory_order_release);
    --q.requests;
    ++routed_;
    uint32_t occupancy = t + 1 - q.head.load(std::memory_order_relaxed);
    if (occupancy > q.peak_queue)
      q.peak_queue = occupancy;
    if (wake.n == wake_list::kMax)
      notify(wake); // rare: many cores served at once
    wake.core[wake.n++] = c;
  }
}

// ---------------------------------------------------------------------------
picos_manager::summary picos_manager::totals() const {
  summary s{};
  uint64_t useful = 0; // instructions that succeeded
  int n = nports_.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (port *p = existing_port(i))
      for (int k = 0; k < kPicosInstructions; ++k)
        useful += p->count[k].load(std::memory_order_relaxed) -
                  p->fail[k].load(std::memory_order_relaxed);
  lock_.lock();
  s.tasks = picos_.accepted();
  s.deps = picos_.deps();
  s.edges = picos_.edges();
  s.cycles = picos_cycles_ + useful * kPicosInstructionCycles;
  s.peak_addresses = picos_.peak_addresses();
  lock_.unlock();
  return s;
}

void picos_manager::counters(std::vector<engine_counter> &out) const {
  uint64_t count[kPicosInstructions] = {}, fail[kPicosInstructions] = {};
  uint64_t packets = 0, stall_buffer = 0, instructions = 0, failed = 0;
  uint32_t peak_core = 0;
  int n = nports_.load(std::memory_order_acquire);
  lock_.lock(); // peak_queue is the Manager's
  for (int i = 0; i < n; ++i) {
    port *p = existing_port(i);
    if (!p)
      continue;
    for (int k = 0; k < kPicosInstructions; ++k) {
      count[k] += p->count[k].load(std::memory_order_relaxed);
      fail[k] += p->fail[k].load(std::memory_order_relaxed);
    }
    packets += p->packets.load(std::memory_order_relaxed);
    stall_buffer += p->stall_buffer.load(std::memory_order_relaxed);
    if (p->peak_queue > peak_core)
      peak_core = p->peak_queue;
  }
  for (int k = 0; k < kPicosInstructions; ++k) {
    out.push_back({kInstructionNames[k], count[k]});
    out.push_back({kFailNames[k], fail[k]});
    instructions += count[k];
    failed += fail[k];
  }
  // Cycles the tasks cost: the instructions that did something, and Picos.
  // Failed ones (an idle core polling its queue) are counted apart.
  uint64_t core_cycles = (instructions - failed) * kPicosInstructionCycles;
  uint64_t cycles = core_cycles + picos_cycles_;
  out.push_back({"picos.tasks", picos_.accepted()});
  out.push_back({"picos.deps", picos_.deps()});
  out.push_back({"picos.edges", picos_.edges()});
  out.push_back({"picos.packets.submitted", packets});
  out.push_back({"picos.packets.zero_padded", zero_padded_});
  out.push_back({"picos.packets.to_picos", to_picos_});
  out.push_back({"picos.ready_tasks_routed", routed_});
  out.push_back({"picos.cycles.instructions", core_cycles});
  out.push_back({"picos.cycles.picos", picos_cycles_});
  out.push_back(
      {"picos.cycles.failed_instructions", failed * kPicosInstructionCycles});
  out.push_back({"picos.cycles", cycles});
  out.push_back(
      {"picos.modelled_ns",
       static_cast<uint64_t>(
           static_cast<double>(cycles) * 1000.0 / cfg_.clock_mhz + 0.5)});
  out.push_back({"picos.peak.task_memory", picos_.peak_tasks()});
  out.push_back({"picos.peak.dep_memory", picos_.peak_addresses()});
  out.push_back({"picos.peak.version_memory", picos_.peak_versions()});
  out.push_back({"picos.peak.picos_ready", picos_.peak_ready()});
  out.push_back({"picos.peak.ready_queue", ready_.peak()});
  out.push_back({"picos.peak.fetch_requests", fetch_requests_.peak()});
  out.push_back({"picos.peak.submission_requests", guided_.peak()});
  out.push_back({"picos.peak.retirements", peak_retire_});
  out.push_back({"picos.peak.core_queue", peak_core});
  for (int i = 0; i < reported_cores_; ++i) {
    port *p = i < n ? existing_port(i) : nullptr;
    out.push_back({core_queue_name(i), p ? p->peak_queue : 0u});
  }
  out.push_back({"picos.stall.task_memory", stall_tm_});
  out.push_back({"picos.stall.dep_memory", stall_dm_});
  out.push_back({"picos.stall.version_memory", stall_vm_});
  out.push_back({"picos.stall.submission_buffer", stall_buffer});
  out.push_back({"picos.stall.fetch_queue", stall_fetch_queue_});
  out.push_back({"picos.stall.core_queue", stall_core_queue_});
  out.push_back({"picos.stall.retirement", stall_retire_});
  lock_.unlock();
}

} // namespace weft
