#include "copy_map.hpp"

#include <algorithm>
#include <new>
#include <random>
#include <sys/mman.h>

namespace weft::places {

h3_hash::h3_hash() {
  // A fixed matrix (the hardware's is fixed too), structured for software:
  // address bits 6-15 (the cache line within 64 KiB) go to output bits 1-10,
  // so the objects of a 64 KiB stretch of memory fill every other slot of
  // one block of 2048; bit 16+j goes to output bit 11+j plus random bits
  // above it and below bit 11 (unit lower-triangular: a table of 2^k slots
  // maps the 64 KiB stretches of an aligned 2^(k+5)-byte window one-to-one
  // onto its blocks). A graph copied in allocation order then walks the
  // table in order too (prefetchable), where a random matrix costs a cache
  // miss per probe once the table outgrows the caches. Bits 3-5 (objects
  // sharing a line) are random; bits 0-2 are always zero.
  std::mt19937_64 rng(0x4e454d4553595321ull);
  std::uint64_t col[64];
  for (int i = 0; i < 64; ++i) {
    if (i < 3)
      col[i] = 0;
    else if (i < 6)
      col[i] = rng();
    else if (i < 16)
      col[i] = 1ull << (i - 5);
    else
      col[i] = (1ull << (i - 5)) | (rng() & ~((2ull << (i - 5)) - 1)) |
               (rng() & 0x7ff);
  }
  for (int b = 0; b < 8; ++b)
    for (int v = 0; v < 256; ++v) {
      std::uint64_t h = 0;
      for (int bit = 0; bit < 8; ++bit)
        if (v >> bit & 1)
          h ^= col[8 * b + bit];
      t_[b][v] = h;
    }
}

const h3_hash &h3() {
  static const h3_hash h;
  return h;
}

scratch::~scratch() {
  if (p_)
    munmap(p_, bytes_);
}

std::uintptr_t *scratch::grow(std::size_t n) {
  constexpr std::size_t kHuge = std::size_t(2) << 20;
  std::size_t bytes = std::max(n * sizeof(std::uintptr_t), std::size_t(4096));
  bytes = bytes >= kHuge ? (bytes + kHuge - 1) & ~(kHuge - 1)
                         : (bytes + 4095) & ~std::size_t(4095);
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    throw std::bad_alloc();
  if (bytes >= kHuge)
    madvise(p, bytes, MADV_HUGEPAGE); // random probes: spare the TLB
  if (p_)
    munmap(p_, bytes_);
  p_ = static_cast<std::uintptr_t *>(p);
  bytes_ = bytes;
  n_ = bytes / sizeof(std::uintptr_t);
  return p_;
}

scratch &map_buffer() {
  thread_local scratch s;
  return s;
}

namespace {
constexpr std::size_t kVisitedStart = 64;
} // namespace

visited_set::visited_set() : h_(h3()), slots_(kVisitedStart) {
  buf_.assign(slots_, 0);
  keys_ = buf_.data();
}

void visited_set::grow() {
  std::vector<std::uintptr_t> old(keys_, keys_ + slots_);
  slots_ *= 2;
  buf_.assign(slots_, 0);
  keys_ = buf_.data();
  for (std::uintptr_t k : old) {
    if (!k)
      continue;
    std::size_t s = h_(k) & (slots_ - 1);
    while (keys_[s])
      s = (s + 1) & (slots_ - 1);
    keys_[s] = k;
  }
}

} // namespace weft::places
