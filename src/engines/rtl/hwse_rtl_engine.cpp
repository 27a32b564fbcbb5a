#include "hwse_rtl_engine.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"
#include "base/futex.hpp"
#include "core/task_pool.hpp"
#include "engines/hwse/hwse_bin_allocator.hpp"
#include "engines/hwse/hwse_cost_model.hpp"
#include "hwse_rtl_port.hpp"
#include "rtl_fork_guard.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

namespace weft::hwse_rtl {
namespace {

using hwse::bin_word1;
using hwse::free_mark;
using hwse::set_bin_word1;

using hwse::primitive;

// A caller waiting for its answer while another thread owns the unit: the
// owner answers within a few accesses unless it is preempted.
constexpr backoff_policy kAnswerBackoff{64, 16};

// Counter names per primitive, in hwse::primitive's order.
struct names {
  const char *count, *rtl, *model;
};
constexpr std::array<names, hwse::kPrimitiveKinds> kNames = {{
    {"hwse_rtl.sections.fetch", "hwse_rtl.sections.fetch.rtl_cycles",
     "hwse_rtl.sections.fetch.model_cycles"},
    {"hwse_rtl.loop.fetch", "hwse_rtl.loop.fetch.rtl_cycles",
     "hwse_rtl.loop.fetch.model_cycles"},
    {"hwse_rtl.alloc", "hwse_rtl.alloc.rtl_cycles",
     "hwse_rtl.alloc.model_cycles"},
    {"hwse_rtl.free", "hwse_rtl.free.rtl_cycles", "hwse_rtl.free.model_cycles"},
    {"hwse_rtl.guided.fetch", "hwse_rtl.guided.fetch.rtl_cycles",
     "hwse_rtl.guided.fetch.model_cycles"},
    {"hwse_rtl.end", "hwse_rtl.end.rtl_cycles", "hwse_rtl.end.model_cycles"},
    {"hwse_rtl.sections.init", "hwse_rtl.sections.init.rtl_cycles",
     "hwse_rtl.sections.init.model_cycles"},
    {"hwse_rtl.loop.init", "hwse_rtl.loop.init.rtl_cycles",
     "hwse_rtl.loop.init.model_cycles"},
    {"hwse_rtl.guided.init", "hwse_rtl.guided.init.rtl_cycles",
     "hwse_rtl.guided.init.model_cycles"},
    {"hwse_rtl.heap.init", "hwse_rtl.heap.init.rtl_cycles",
     "hwse_rtl.heap.init.model_cycles"},
}};

// The END register a thread writes: a small id per thread, modulo the
// unit's per-thread registers.
unsigned thread_slot() {
  static std::atomic<unsigned> next{0};
  thread_local unsigned slot =
      next.fetch_add(1, std::memory_order_relaxed) % kThreads;
  return slot;
}

class engine final : public worksharing_engine {
public:
  engine(const hwse::config &c, int max_passes)
      : cfg_(c), max_passes_(max_passes), port_(make_port(c.fifo_depth)) {
    if (c.bins) {
      heap_bytes_ = uint64_t(c.bins) * kBlockSize;
      heap_ = static_cast<char *>(std::aligned_alloc(64, heap_bytes_));
      if (!heap_)
        fatal("hwse-rtl: out of memory for a heap of %u bins", c.bins);
      const auto base = reinterpret_cast<uint64_t>(heap_);
      begin(primitive::heap_init);
      expect_ok(port_->write(kHeapStart, base), "HEAP_START");
      expect_ok(port_->write(kHeapEnd, base + heap_bytes_), "HEAP_END");
      expect_ok(port_->write(kHeapIncr, kBlockSize), "HEAP_INCR");
      finish(primitive::heap_init);
    }
  }

  ~engine() override { std::free(heap_); }

  const char *name() const override { return "hwse-rtl"; }

  void init(ws_state &ws, const ws_loop &loop) override {
    if (loop.chunk == 0)
      fatal("hwse-rtl: INIT of a work share with chunk 0 (the contract's "
            "chunk is >= 1)");
    request r{op::init, &ws, loop};
    call(r);
  }

  bool fetch(ws_state &ws, uint64_t *b, uint64_t *e) override {
    request r{op::fetch, &ws, {}};
    call(r);
    if (r.got) {
      *b = r.b;
      *e = r.e;
    }
    return r.got;
  }

  void end(ws_state &ws) override {
    request r{op::end, &ws, {}};
    r.b = thread_slot();
    call(r);
  }

  bool allocates_descriptors() const override { return heap_ != nullptr; }

  void *alloc_descriptor() override {
    if (!heap_)
      return nullptr;
    request r{op::alloc, nullptr, {}};
    call(r);
    return r.ptr;
  }

  void free_descriptor(void *p) override {
    if (!heap_)
      fatal("hwse-rtl: free_descriptor(%p) with no memory bins "
            "(WEFT_HWSE_BINS=0)",
            p);
    request r{op::free, nullptr, {}};
    r.ptr = p;
    call(r);
  }

  void add_stats(ws_stats &out) const override {
    auto n = [&](primitive p) { return load(count_[int(p)]); };
    out.inits += n(primitive::sections_init) + n(primitive::loop_init) +
                 n(primitive::guided_init);
    out.fetches += n(primitive::sections_fetch) + n(primitive::loop_fetch) +
                   n(primitive::guided_fetch);
    out.ends += n(primitive::end);
    uint64_t model = 0, rtl = 0;
    for (int i = 0; i < hwse::kPrimitiveKinds; ++i) {
      model += load(model_cycles_[i]);
      rtl += load(rtl_cycles_[i]);
    }
    out.modelled_cycles += model;
    out.add("hwse_rtl.fifo_depth", cfg_.fifo_depth);
    out.add("hwse_rtl.bins", cfg_.bins);
    for (int i = 0; i < hwse::kPrimitiveKinds; ++i) {
      out.add(kNames[i].count, load(count_[i]));
      out.add(kNames[i].rtl, load(rtl_cycles_[i]));
      out.add(kNames[i].model, load(model_cycles_[i]));
    }
    out.add("hwse_rtl.accesses", load(accesses_));
    out.add("hwse_rtl.rtl_cycles", rtl);
    // What the model charges beyond the module: 2 interconnect cycles per
    // access and the software lock of multi-access primitives.
    out.add("hwse_rtl.rtl_cycles_with_interconnect", rtl + load(ic_cycles_));
    out.add("hwse_rtl.model_cycles", model);
    out.add("hwse_rtl.bank_loads", load(bank_loads_));
    out.add("hwse_rtl.bank_load_cycles", load(bank_load_cycles_));
    out.add("hwse_rtl.bins.exhausted", load(exhausted_));
    out.add("hwse_rtl.overflow.frees", load(overflow_frees_));
    out.add("hwse_rtl.overflow.allocs", load(overflow_allocs_));
    out.add("hwse_rtl.handoffs", load(handoffs_));
    out.add("hwse_rtl.served_queued", load(queued_));
  }

private:
  enum class op : uint8_t { init, fetch, end, alloc, free };
  struct request {
    op kind;
    ws_state *ws;
    ws_loop loop;
    void *ptr = nullptr;
    bool got = false;
    uint64_t b = 0, e = 0;
    std::atomic<uint32_t> state{kQueued};
  };
  // A request's state: queued; its caller asleep on it (futex); answered;
  // or answered by nobody yet but its caller handed the unit (to serve it
  // and whatever is queued).
  static constexpr uint32_t kQueued = 0, kSleeping = 1, kDone = 2, kServe = 3;

  static uint64_t load(const std::atomic<uint64_t> &a) {
    return a.load(std::memory_order_relaxed);
  }
  static void bump(std::atomic<uint64_t> &a, uint64_t by) {
    // Written by the unit's owner only (one at a time, under mu_'s order).
    a.store(a.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }

  // Hands r to the unit and returns with its answer. The unit has one
  // owner at a time, the caller that found it free: it serves its own
  // request, then every request queued meanwhile, in passes, with no
  // hand-off between threads while it holds the unit. Other callers queue
  // theirs and wait (spin, yield, then sleep on the request's word).
  void call(request &r) {
    fork_.check("hwse-rtl");
    bool own;
    {
      std::lock_guard<std::mutex> g(mu_);
      own = !serving_;
      if (own)
        serving_ = true;
      else
        queue_.push_back(&r);
    }
    if (!own && wait(r) == kDone)
      return;
    serve(r);
  }

  // Waits until r is answered or its caller is handed the unit.
  static uint32_t wait(request &r) {
    backoff b(kAnswerBackoff);
    uint32_t s;
    while ((s = r.state.load(std::memory_order_acquire)) == kQueued)
      if (!b.pause()) {
        uint32_t q = kQueued;
        if (r.state.compare_exchange_strong(q, kSleeping,
                                            std::memory_order_acq_rel))
          do
            futex_wait(r.state, kSleeping);
          while ((s = r.state.load(std::memory_order_acquire)) == kSleeping);
        else
          s = q;
        break;
      }
    return s;
  }

  // Answers r's caller (who may return and free r at once).
  static void answer(request &r, uint32_t how) {
    if (r.state.exchange(how, std::memory_order_acq_rel) == kSleeping)
      futex_wake(r.state, 1);
  }

  // The unit's owner: mine, then the queue, until it is empty (the unit
  // is free again) or max_passes_ are made (the oldest waiter gets it).
  void serve(request &mine) {
    run(mine);
    for (int pass = 0;; ++pass) {
      {
        std::lock_guard<std::mutex> g(mu_);
        if (queue_.empty()) {
          serving_ = false;
          return;
        }
        if (pass == max_passes_) {
          request *next = queue_.front();
          queue_.pop_front();
          bump(handoffs_, 1);
          answer(*next, kServe);
          return;
        }
        batch_.swap(queue_);
      }
      bump(queued_, batch_.size());
      for (request *r : batch_) {
        run(*r);
        answer(*r, kDone);
      }
      batch_.clear();
    }
  }

  void run(request &r) {
    switch (r.kind) {
    case op::init:
      run_init(r);
      break;
    case op::fetch:
      run_fetch(r);
      break;
    case op::end:
      begin(primitive::end);
      expect_ok(port_->write(kEnd, r.b), "END");
      finish(primitive::end);
      break;
    case op::alloc:
      r.ptr = run_alloc();
      break;
    case op::free:
      run_free(r.ptr);
      break;
    }
  }

  static primitive init_kind(const ws_loop &l) {
    if (l.kind == ws_kind::guided)
      return primitive::guided_init;
    return l.chunk == 1 ? primitive::sections_init : primitive::loop_init;
  }
  static primitive fetch_kind(const ws_loop &l) {
    if (l.kind == ws_kind::guided)
      return primitive::guided_fetch;
    return l.chunk == 1 ? primitive::sections_fetch : primitive::loop_fetch;
  }
  static uint64_t members(const ws_loop &l) {
    return static_cast<uint64_t>(std::max(l.nthreads, 1));
  }

  void run_init(request &r) {
    ws_state &ws = *r.ws;
    const ws_loop &l = r.loop;
    const primitive p = init_kind(l);
    begin(p);
    if (p == primitive::sections_init) {
      expect_ok(port_->write(kSectionsInit, l.count), "SECTIONS_INIT");
    } else {
      expect_ok(port_->write(kLoopStart, 0), "LOOP_START");
      expect_ok(port_->write(kLoopEnd, l.count), "LOOP_END");
      expect_ok(port_->write(kLoopIncr, l.chunk), "LOOP_INCR");
      if (p == primitive::guided_init)
        expect_ok(port_->write(kLoopMembers, members(l)), "LOOP_MEMBERS");
    }
    finish(p);
    ws.loop = l;
    ws.next.store(0, std::memory_order_relaxed);
    bank_ = &ws;
  }

  // The unit's register set holds another work share: load this one's.
  void load_bank(ws_state &ws) {
    const ws_loop &l = ws.loop;
    const uint64_t before = edges();
    const uint64_t a0 = accesses_in_primitive_;
    expect_ok(port_->write(kLoopStart, ws.next.load(std::memory_order_relaxed)),
              "LOOP_START");
    expect_ok(port_->write(kLoopEnd, l.count), "LOOP_END");
    expect_ok(port_->write(kLoopIncr, l.chunk), "LOOP_INCR");
    if (l.kind == ws_kind::guided)
      expect_ok(port_->write(kLoopMembers, members(l)), "LOOP_MEMBERS");
    accesses_in_primitive_ = a0; // not the primitive's own accesses
    bump(bank_loads_, 1);
    bump(bank_load_cycles_, edges() - before);
    bank_ = &ws;
  }

  void run_fetch(request &r) {
    ws_state &ws = *r.ws;
    const ws_loop &l = ws.loop;
    if (bank_ != &ws)
      load_bank(ws);
    const primitive p = fetch_kind(l);
    begin(p);
    if (p == primitive::sections_fetch) {
      const response s = port_->read(kSectionsFetch);
      expect_ok(s, "SECTIONS_FETCH");
      count_access(s);
      r.got = s.rdata != kNone;
      r.b = s.rdata;
      r.e = s.rdata + 1;
    } else {
      const response s = port_->read(kFetchIstart);
      expect_ok(s, "FETCH_ISTART");
      count_access(s);
      r.got = s.rdata != kNone;
      if (r.got) {
        const response e = port_->read(kFetchIend);
        expect_ok(e, "FETCH_IEND");
        count_access(e);
        r.b = s.rdata;
        r.e = e.rdata;
      }
    }
    finish_counted(p);
    if (r.got) {
      if (r.b >= r.e || r.e > l.count)
        fatal("hwse-rtl: FETCH answered the chunk [%llu, %llu) of a work "
              "share of %llu iterations",
              (unsigned long long)r.b, (unsigned long long)r.e,
              (unsigned long long)l.count);
      ws.next.store(r.e, std::memory_order_relaxed);
    }
  }

  void *run_alloc() {
    begin(primitive::alloc);
    const response a = port_->read(kAlloc);
    expect_ok(a, "ALLOC");
    count_access(a);
    finish_counted(primitive::alloc);
    void *p;
    if (a.rdata != kNone) {
      p = reinterpret_cast<void *>(a.rdata);
      const uint32_t i = index_of(p, "ALLOC answered");
      if (uint64_t(i) * kBlockSize >= fresh_end_) {
        fresh_end_ = (uint64_t(i) + 1) * kBlockSize; // a fresh bin
      } else if (bin_word1(p) != free_mark(p)) {
        fatal("hwse-rtl: memory bin %u (%p) came from the FIFO but is not "
              "marked free (written after its free, or handed out twice)",
              i, p);
      }
    } else if ((p = overflow_)) {
      std::memcpy(&overflow_, p, sizeof overflow_);
      bump(overflow_allocs_, 1);
    } else {
      bump(exhausted_, 1);
      return nullptr;
    }
    set_bin_word1(p, 0);
    return p;
  }

  void run_free(void *p) {
    const uint32_t i = index_of(p, "free of");
    if (uint64_t(i) * kBlockSize >= fresh_end_)
      fatal("hwse-rtl: free of memory bin %u (%p), which was never handed "
            "out",
            i, p);
    if (bin_word1(p) == free_mark(p))
      fatal("hwse-rtl: free of memory bin %u (%p), which is not in use "
            "(freed twice?)",
            i, p);
    set_bin_word1(p, free_mark(p));
    begin(primitive::free);
    const response f = port_->write(kFree, reinterpret_cast<uint64_t>(p));
    expect_ok(f, "FREE");
    count_access(f);
    finish_counted(primitive::free);
    if (f.rdata == 0) { // the FIFO is full
      std::memcpy(p, &overflow_, sizeof overflow_);
      overflow_ = p;
      bump(overflow_frees_, 1);
    }
  }

  uint32_t index_of(const void *p, const char *what) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    const auto base = reinterpret_cast<uintptr_t>(heap_);
    if (a < base || a - base >= heap_bytes_ || (a - base) % kBlockSize != 0)
      fatal("hwse-rtl: %s %p, which is not a memory bin of the unit's heap",
            what, p);
    return static_cast<uint32_t>((a - base) / kBlockSize);
  }

  static void expect_ok(const response &r, const char *reg) {
    if (r.error)
      fatal("hwse-rtl: the unit answered an access to %s with an error", reg);
  }

  uint64_t edges() const { return port_->cycles(); }

  // A primitive's cycles: the clock edges between begin and finish.
  void begin(primitive) {
    begin_edges_ = edges();
    accesses_in_primitive_ = 0;
  }
  void count_access(const response &) { ++accesses_in_primitive_; }
  void finish(primitive p) {
    accesses_in_primitive_ = hwse::shape(p).accesses;
    finish_counted(p);
  }
  void finish_counted(primitive p) {
    const int i = int(p);
    bump(count_[i], 1);
    bump(rtl_cycles_[i], edges() - begin_edges_);
    bump(model_cycles_[i], hwse::cycles(p));
    bump(accesses_, accesses_in_primitive_);
    bump(ic_cycles_, accesses_in_primitive_ * hwse::kCrossingCycles +
                         (accesses_in_primitive_ > 1 ? hwse::kLockCycles : 0));
  }

  hwse::config cfg_;
  int max_passes_;
  rtl::fork_guard fork_;
  std::unique_ptr<port> port_; // the unit's owner's (and the constructor's)

  std::mutex mu_;
  std::deque<request *> queue_; // waiting for the unit's owner
  bool serving_ = false;        // the unit has an owner

  // The owner's state.
  std::deque<request *> batch_;
  const ws_state *bank_ = nullptr;
  uint64_t begin_edges_ = 0;
  uint32_t accesses_in_primitive_ = 0;
  char *heap_ = nullptr;
  uint64_t heap_bytes_ = 0;
  uint64_t fresh_end_ = 0; // bytes of the heap handed out fresh
  void *overflow_ = nullptr;

  // Written by the unit's owner, read by add_stats from any thread.
  std::atomic<uint64_t> count_[hwse::kPrimitiveKinds] = {};
  std::atomic<uint64_t> rtl_cycles_[hwse::kPrimitiveKinds] = {};
  std::atomic<uint64_t> model_cycles_[hwse::kPrimitiveKinds] = {};
  std::atomic<uint64_t> accesses_{0}, ic_cycles_{0};
  std::atomic<uint64_t> bank_loads_{0}, bank_load_cycles_{0};
  std::atomic<uint64_t> handoffs_{0}, queued_{0};
  std::atomic<uint64_t> exhausted_{0}, overflow_frees_{0}, overflow_allocs_{0};
};

} // namespace

std::unique_ptr<worksharing_engine> make_engine(const hwse::config &c,
                                                int max_passes) {
  if (max_passes < 0)
    fatal("hwse-rtl: make_engine with max_passes %d (must be >= 0)",
          max_passes);
  return std::make_unique<engine>(c, max_passes);
}

} // namespace weft::hwse_rtl

namespace weft {
std::unique_ptr<worksharing_engine> make_hwse_rtl_ws_engine() {
  return hwse_rtl::make_engine(hwse::config_from_env());
}
} // namespace weft
