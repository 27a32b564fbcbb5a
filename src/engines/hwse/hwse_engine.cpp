#include "hwse_engine.hpp"

#include "base/error.hpp"
#include "core/task_pool.hpp"

#include <algorithm>

namespace weft::hwse {
namespace {

static_assert(kBlockSize % 64 == 0, "descriptor bins are 64-byte aligned");

primitive init_kind(const ws_loop &l) {
  if (l.kind == ws_kind::guided)
    return primitive::guided_init;
  return l.chunk == 1 ? primitive::sections_init : primitive::loop_init;
}

primitive fetch_kind(const ws_loop &l) {
  if (l.kind == ws_kind::guided)
    return primitive::guided_fetch;
  return l.chunk == 1 ? primitive::sections_fetch : primitive::loop_fetch;
}

} // namespace

engine::engine(const config &c) : cfg_(c) {
  if (c.bins == 0)
    return;
  bins_ = unit_.serve(primitive::heap_init, [&] {
    return std::make_unique<bin_allocator>(c.bins, kBlockSize, c.fifo_depth);
  });
}

void engine::init(ws_state &ws, const ws_loop &loop) {
  if (loop.chunk == 0)
    fatal("hwse: INIT of a work share with chunk 0 (the contract's chunk is "
          ">= 1)");
  unit_.serve(init_kind(loop), [&] {
    ws.loop = loop;
    ws.next.store(0, std::memory_order_relaxed);
    unit::registers &r = unit_.regs();
    r.bank = &ws;
    r.start = 0;
  });
}

bool engine::fetch(ws_state &ws, uint64_t *begin, uint64_t *end) {
  // The description is read-only after INIT (the front end publishes it
  // before any member fetches): the kind can be chosen before arriving.
  const ws_loop &l = ws.loop;
  return unit_.serve(fetch_kind(l), [&] {
    // LOOP_START from the unit's registers when they hold this bank (no
    // miss on the work share's line), else from the bank. Every new value
    // is written through to the bank, so switching banks loses nothing and
    // the unit never writes to a work share outside its own primitives
    // (which may have been freed since).
    unit::registers &r = unit_.regs();
    loop_registers lr{r.bank == &ws ? r.start
                                    : ws.next.load(std::memory_order_relaxed),
                      l.count, l.chunk};
    const uint64_t members =
        l.kind == ws_kind::guided
            ? static_cast<uint64_t>(std::max(l.nthreads, 1))
            : 0;
    const bool got = next_chunk(lr, members, begin, end);
    r.bank = &ws;
    r.start = lr.start;
    if (got)
      ws.next.store(lr.start, std::memory_order_relaxed);
    return got;
  });
}

void engine::end(ws_state &) {
  // The register END updates lives in the front end (the member's current
  // work share): the unit's part is the access itself.
  unit_.serve(primitive::end, [] {});
}

void *engine::alloc_descriptor() {
  if (!bins_)
    return nullptr;
  return unit_.serve(primitive::alloc, [&] { return bins_->alloc(); });
}

void engine::free_descriptor(void *p) {
  if (!bins_)
    fatal("hwse: free_descriptor(%p) with no memory bins (WEFT_HWSE_BINS=0)",
          p);
  unit_.serve(primitive::free, [&] { bins_->free(p); });
}

uint64_t engine::cycles_to_ns(uint64_t n) const {
  // n * 1000 / MHz without overflowing for any realistic n.
  return n / cfg_.clock_mhz * 1000 + n % cfg_.clock_mhz * 1000 / cfg_.clock_mhz;
}

void engine::add_stats(ws_stats &out) const {
  auto n = [&](primitive p) { return unit_.served(p); };
  out.inits += n(primitive::sections_init) + n(primitive::loop_init) +
               n(primitive::guided_init);
  out.fetches += n(primitive::sections_fetch) + n(primitive::loop_fetch) +
                 n(primitive::guided_fetch);
  out.ends += n(primitive::end);
  const uint64_t busy = unit_.busy_cycles();
  out.modelled_cycles += busy;

  out.add("hwse.fifo_depth", cfg_.fifo_depth);
  out.add("hwse.clock_mhz", cfg_.clock_mhz);
  for (int i = 0; i < kPrimitiveKinds; ++i)
    out.add(shape(static_cast<primitive>(i)).name,
            n(static_cast<primitive>(i)));
  out.add("hwse.primitives", unit_.primitives());
  out.add("hwse.modelled_cycles", busy);
  out.add("hwse.modelled_ns", cycles_to_ns(busy));
  out.add("hwse.contention.waits", unit_.waits());
  out.add("hwse.contention.wait_cycles", unit_.wait_cycles());
  out.add("hwse.contention.wait_ns", cycles_to_ns(unit_.wait_cycles()));
  out.add("hwse.bins", cfg_.bins);
  if (!bins_)
    return;
  unit_.inspect([&] {
    out.add("hwse.fifo.peak", bins_->queue().peak());
    out.add("hwse.bins.handed_out", bins_->handed_out());
    out.add("hwse.bins.in_use", bins_->in_use());
    out.add("hwse.bins.in_use_peak", bins_->in_use_peak());
    out.add("hwse.bins.exhausted", bins_->exhausted());
    out.add("hwse.overflow.frees", bins_->overflow_frees());
    out.add("hwse.overflow.allocs", bins_->overflow_allocs());
    out.add("hwse.overflow.peak", bins_->overflow_peak());
  });
}

} // namespace weft::hwse

namespace weft {
std::unique_ptr<worksharing_engine> make_hwse_ws_engine() {
  return std::make_unique<hwse::engine>(hwse::config_from_env());
}
} // namespace weft
