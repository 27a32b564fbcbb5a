#include "hwse_bin_allocator.hpp"

#include "base/error.hpp"

#include <cstdlib>
#include <cstring>

namespace weft::hwse {

bin_allocator::bin_allocator(uint32_t bins, std::size_t bin_size,
                             uint32_t fifo_depth)
    : regs_{0, uint64_t(bins) * bin_size, bin_size}, fifo_(fifo_depth),
      bins_(bins), bin_size_(bin_size) {
  static_assert(sizeof(loop_registers) + sizeof(fifo) + sizeof(void *) +
                        sizeof(uint64_t) + 2 * sizeof(uint32_t) <=
                    64,
                "the allocator's hot state fits one line");
  if (bin_size < 16 || bin_size % 64 != 0)
    fatal("hwse: a memory bin of %zu bytes (must be a multiple of 64)",
          bin_size);
  if (bins == 0)
    return;
  heap_ = static_cast<char *>(std::aligned_alloc(64, regs_.end));
  if (!heap_)
    fatal("hwse: out of memory for a heap of %u bins of %zu bytes", bins,
          bin_size);
}

bin_allocator::~bin_allocator() { std::free(heap_); }

bool bin_allocator::owns(const void *p) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  auto base = reinterpret_cast<uintptr_t>(heap_);
  return heap_ && a >= base && a - base < regs_.end &&
         (a - base) % bin_size_ == 0;
}

uint32_t bin_allocator::index_of(const void *b) const {
  if (!owns(b))
    fatal("hwse: free of %p, which is not a memory bin of the unit's heap", b);
  return static_cast<uint32_t>(
      (reinterpret_cast<uintptr_t>(b) - reinterpret_cast<uintptr_t>(heap_)) /
      bin_size_);
}

void *bin_allocator::alloc() {
  uint64_t b, e;
  void *p;
  if (next_chunk(regs_, 0, &b, &e)) {
    p = heap_ + b; // never handed out: nothing to check
  } else {
    if (!(p = fifo_.pop()) && !(p = take_overflow())) {
      ++exhausted_;
      return nullptr;
    }
    if (bin_word1(p) != free_mark(p))
      fatal("hwse: memory bin %u (%p) is on the free list but not marked "
            "free (written after its free, or handed out twice)",
            index_of(p), p);
  }
  // Unmarked (a fresh bin may hold an old heap's mark at the same address).
  set_bin_word1(p, 0);
  ++handed_out_;
  if (++in_use_ > in_use_peak_)
    in_use_peak_ = in_use_;
  return p;
}

void bin_allocator::free(void *p) {
  const uint32_t i = index_of(p);
  if (uint64_t(i) * bin_size_ >= regs_.start)
    fatal("hwse: free of memory bin %u (%p), which was never handed out", i, p);
  if (bin_word1(p) == free_mark(p))
    fatal("hwse: free of memory bin %u (%p), which is not in use (freed "
          "twice?)",
          i, p);
  set_bin_word1(p, free_mark(p));
  --in_use_;
  if (!fifo_.push(p))
    put_overflow(p);
}

void *bin_allocator::take_overflow() {
  void *p = overflow_;
  if (p) {
    std::memcpy(&overflow_, p, sizeof overflow_); // its link
    --overflow_n_;
    ++overflow_allocs_;
  }
  return p;
}

void bin_allocator::put_overflow(void *p) {
  std::memcpy(p, &overflow_, sizeof overflow_);
  overflow_ = p;
  ++overflow_frees_;
  if (++overflow_n_ > overflow_peak_)
    overflow_peak_ = overflow_n_;
}

} // namespace weft::hwse
