// The software work-sharing engine: one atomic operation per FETCH (a
// fetch_add for dynamic chunks, one CAS per attempt for guided ones).
#include "engines/worksharing_engine.hpp"

namespace weft {
namespace {

class sw_worksharing_engine final : public worksharing_engine {
  // count + (members x chunk) stays below 2^64 (members < 2^14).
  static constexpr uint64_t kMaxFastCount = uint64_t(1) << 62;
  static constexpr uint64_t kMaxFastChunk = uint64_t(1) << 40;

public:
  const char *name() const override { return "sw"; }

  void init(ws_state &ws, const ws_loop &loop) override {
    ws.loop = loop;
    ws.next.store(0, std::memory_order_relaxed);
  }

  bool fetch(ws_state &ws, uint64_t *begin, uint64_t *end) override {
    const uint64_t count = ws.loop.count;
    const uint64_t chunk = ws.loop.chunk;
    const bool dynamic = ws.loop.kind == ws_kind::dynamic;
    if (dynamic && count <= kMaxFastCount && chunk <= kMaxFastChunk) {
      // Members overshoot count by at most one chunk each. No look at the
      // counter first: a read then the RMW would cost two transfers of
      // its line instead of one.
      uint64_t b = ws.next.fetch_add(chunk, std::memory_order_relaxed);
      if (b >= count)
        return false;
      *begin = b;
      *end = count - b < chunk ? count : b + chunk;
      return true;
    }
    // Guided: a share of what is left, never less than the chunk (and
    // dynamic chunks of a loop too long for fetch_add).
    uint64_t n = dynamic ? UINT64_MAX : static_cast<uint64_t>(ws.loop.nthreads);
    uint64_t b = ws.next.load(std::memory_order_relaxed);
    for (;;) {
      if (b >= count)
        return false;
      uint64_t left = count - b;
      uint64_t q = left / n + (left % n != 0);
      if (q < chunk)
        q = chunk;
      uint64_t e = q >= left ? count : b + q;
      if (ws.next.compare_exchange_weak(b, e, std::memory_order_relaxed)) {
        *begin = b;
        *end = e;
        return true;
      }
    }
  }

  void end(ws_state &) override {}
  void add_stats(ws_stats &) const override {}
};

} // namespace

std::unique_ptr<worksharing_engine> make_sw_ws_engine() {
  return std::make_unique<sw_worksharing_engine>();
}

} // namespace weft
