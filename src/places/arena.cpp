#include "arena.hpp"

#include "type_registry.hpp"

#include "base/check.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <sys/mman.h>

namespace weft::places {

namespace {
constexpr std::size_t kExtentAlign = 64;
constexpr std::size_t kChunkBytes = 1 << 20;

void *reserve(std::size_t bytes, const char *what, int place) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw std::runtime_error("weft places: cannot reserve " +
                             std::to_string(bytes) + " bytes for the " + what +
                             " of place " + std::to_string(place) + ": " +
                             std::strerror(errno));
  return p;
}
} // namespace

arena::arena(int place, std::size_t capacity)
    : place_(place), cap_(capacity & ~(kExtentAlign - 1)), limit_(cap_) {
  base_ = static_cast<char *>(reserve(cap_, "arena", place));
  madvise(base_, cap_, MADV_HUGEPAGE); // large graphs: fewer TLB misses
  make_starts();
}

arena::arena(int place, char *memory, std::size_t capacity, std::size_t managed)
    : place_(place), cap_(capacity & ~(kExtentAlign - 1)), base_(memory),
      limit_(std::min(cap_, managed & ~(kExtentAlign - 1))), owned_(false) {
  make_starts();
}

void arena::make_starts() {
  starts_bytes_ = (cap_ / 8 + 63) / 64 * 8;
  in_graph_bytes_ = (cap_ / kExtentAlign + 63) / 64 * 8;
  try {
    starts_ = static_cast<std::atomic<std::uint64_t> *>(
        reserve(starts_bytes_, "start bitmap", place_));
    try {
      in_graph_ = static_cast<std::atomic<std::uint64_t> *>(
          reserve(in_graph_bytes_, "copied-graph bitmap", place_));
    } catch (...) {
      munmap(starts_, starts_bytes_);
      throw;
    }
  } catch (...) {
    if (owned_)
      munmap(base_, cap_);
    throw;
  }
}

arena::~arena() {
  munmap(in_graph_, in_graph_bytes_);
  munmap(starts_, starts_bytes_);
  if (owned_)
    munmap(base_, cap_);
}

char *arena::take(std::size_t bytes) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < bytes)
      continue;
    std::size_t off = it->first, len = it->second;
    free_.erase(it);
    if (len > bytes)
      free_.emplace(off + bytes, len - bytes);
    free_total_ -= bytes;
    return base_ + off;
  }
  if (bytes > limit_ - top_)
    return nullptr;
  char *p = base_ + top_;
  top_ += bytes;
  return p;
}

char *arena::alloc_extent(std::size_t bytes) {
  bytes = (bytes + kExtentAlign - 1) & ~(kExtentAlign - 1);
  if (bytes == 0 || bytes > limit_)
    return nullptr;
  std::lock_guard<std::mutex> lk(lock_);
  char *p = take(bytes);
  if (!p && list_bytes_ > 0) { // the listed blocks may free whole chunks
    flush_lists();
    p = take(bytes);
  }
  return p;
}

void arena::free_extent(char *p, std::size_t bytes, bool starts_clear) {
  bytes = (bytes + kExtentAlign - 1) & ~(kExtentAlign - 1);
  if (!starts_clear)
    clear_starts(p, bytes);
  std::lock_guard<std::mutex> lk(lock_);
  give_back(p, bytes);
}

void arena::give_back(char *p, std::size_t bytes) {
  std::size_t off = static_cast<std::size_t>(p - base_);
  auto next = free_.lower_bound(off);
  if (next != free_.end() && next->first == off + bytes) {
    bytes += next->second;
    free_total_ -= next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      off = prev->first;
      bytes += prev->second;
      free_total_ -= prev->second;
      free_.erase(prev);
    }
  }
  if (off + bytes == top_) {
    top_ = off;
    return;
  }
  free_.emplace(off, bytes);
  free_total_ += bytes;
}

std::map<std::size_t, arena::chunk_rec>::iterator
arena::chunk_at(std::size_t off) {
  auto it = chunks_.upper_bound(off);
  WEFT_CHECK(it != chunks_.begin(), "arena: offset %zu before every chunk",
             off);
  --it;
  WEFT_CHECK(off < it->second.end,
             "arena: offset %zu past its chunk [%zu, %zu)", off, it->first,
             it->second.end);
  return it;
}

// Takes the free range at it out of both indexes, keeping its two nodes
// for the next range put in (no allocation on a split or a merge).
void arena::small_erase(std::map<std::size_t, std::size_t>::iterator it) {
  spare_by_size_ = small_by_size_.extract({it->second, it->first});
  small_free_bytes_ -= it->second;
  spare_free_ = small_free_.extract(it);
}

// Puts the free range [off, off + len) in both indexes (the spare nodes
// first).
void arena::small_put(std::size_t off, std::size_t len) {
  if (spare_free_) {
    spare_free_.key() = off;
    spare_free_.mapped() = len;
    small_free_.insert(std::move(spare_free_));
  } else {
    small_free_.emplace(off, len);
  }
  if (spare_by_size_) {
    spare_by_size_.value() = {len, off};
    small_by_size_.insert(std::move(spare_by_size_));
  } else {
    small_by_size_.emplace(len, off);
  }
  small_free_bytes_ += len;
}

// Frees [off, off + len) of a chunk: merged with the free ranges beside it
// in that chunk, or taken back by the bump pointer when it ends there; a
// chunk that is not the current one and has no live block left goes back
// to the extents whole.
void arena::small_insert(std::map<std::size_t, chunk_rec>::iterator c,
                         std::size_t off, std::size_t len) {
  const std::size_t cstart = c->first, cend = c->second.end;
  auto next = small_free_.lower_bound(off);
  if (next != small_free_.end() && next->first == off + len &&
      next->first < cend) {
    len += next->second;
    auto n = std::next(next);
    small_erase(next);
    next = n;
  }
  if (off > cstart && next != small_free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      off = prev->first;
      len += prev->second;
      small_erase(prev);
    }
  }
  const bool current = chunk_ && cstart == cur_chunk_;
  if (current && base_ + off + len == chunk_) {
    chunk_ = base_ + off; // the bump pointer takes it back
    return;
  }
  if (!current && c->second.live == 0) {
    // Every block of it was freed, and merged: [off, off + len) is it.
    WEFT_CHECK(off == cstart && off + len == cend,
               "arena: chunk [%zu, %zu) has no live block but its free range "
               "is [%zu, %zu)",
               cstart, cend, off, off + len);
    chunks_.erase(c);
    give_back(base_ + cstart, cend - cstart);
    return;
  }
  small_put(off, len);
}

// Merges every listed block into its chunk's free ranges. A chunk's live
// count includes its listed blocks, so it reaches 0 only at the last of
// them, when all the others are merged already.
void arena::flush_lists() {
  for (std::size_t k = 1; k < lists_.size(); ++k) {
    char *p = lists_[k];
    lists_[k] = nullptr;
    while (p) {
      char *next;
      std::memcpy(&next, p, sizeof next);
      const std::size_t off = static_cast<std::size_t>(p - base_);
      auto c = chunk_at(off);
      WEFT_CHECK(c->second.live >= 8 * k,
                 "arena: a listed block of %zu bytes in a chunk with %zu "
                 "live",
                 8 * k, c->second.live);
      c->second.live -= 8 * k;
      small_insert(c, off, 8 * k);
      p = next;
    }
  }
  list_bytes_ = 0;
}

void arena::trim() {
  std::lock_guard<std::mutex> lk(lock_);
  flush_lists();
}

char *arena::fit_small(std::size_t bytes) {
  auto f = small_by_size_.lower_bound({bytes, 0});
  if (f == small_by_size_.end())
    return nullptr;
  const std::size_t off = f->second, len = f->first;
  small_erase(small_free_.find(off));
  if (len > bytes) // the rest lies between this block and a live one
    small_put(off + bytes, len - bytes);
  chunk_at(off)->second.live += bytes;
  return base_ + off;
}

char *arena::alloc_small(std::size_t bytes) {
  std::lock_guard<std::mutex> lk(lock_);
  if (bytes > kOwnExtentBytes) { // an extent of its own, as free_small frees
    const std::size_t n = (bytes + kExtentAlign - 1) & ~(kExtentAlign - 1);
    char *p = take(n);
    if (!p && list_bytes_ > 0) {
      flush_lists();
      p = take(n);
    }
    return p;
  }
  if (bytes - 1 < kListMaxBytes) {
    if (char *p = lists_[bytes / 8]) { // its chunk counts it live already
      std::memcpy(&lists_[bytes / 8], p, sizeof p);
      list_bytes_ -= bytes;
      return p;
    }
  }
  if (char *p = fit_small(bytes))
    return p;
  if (static_cast<std::size_t>(chunk_end_ - chunk_) < bytes &&
      list_bytes_ > 0) { // merge the lists before a new chunk is taken
    flush_lists();
    if (char *p = fit_small(bytes))
      return p;
  }
  if (static_cast<std::size_t>(chunk_end_ - chunk_) < bytes) {
    char *c = take(kChunkBytes);
    if (!c)
      return nullptr;
    if (chunk_) {
      // The old chunk's rest: its 64-byte aligned part back to the
      // extents (the chunk ends there), the words before that a free range
      // of the chunk (no block start was ever marked in the rest).
      auto old = chunks_.find(cur_chunk_);
      std::size_t off = static_cast<std::size_t>(chunk_ - base_);
      std::size_t a = (off + kExtentAlign - 1) & ~(kExtentAlign - 1);
      std::size_t rest_end = old->second.end;
      chunk_ = chunk_end_ = nullptr; // not current from here on
      if (a < rest_end) {
        give_back(base_ + a, rest_end - a);
        old->second.end = a;
      }
      if (a > off) // (a chunk is refreshed only with a block live in it)
        small_insert(old, off, a - off);
    }
    cur_chunk_ = static_cast<std::size_t>(c - base_);
    cur_rec_ = &(chunks_[cur_chunk_] = chunk_rec{cur_chunk_ + kChunkBytes, 0});
    chunk_ = c;
    chunk_end_ = c + kChunkBytes;
  }
  char *p = chunk_;
  chunk_ += bytes;
  cur_rec_->live += bytes;
  return p;
}

void arena::free_small(char *p, std::size_t bytes) {
  if (bytes > kOwnExtentBytes) { // it had an extent of its own
    free_extent(p, bytes);
    return;
  }
  clear_starts(p, bytes);
  std::lock_guard<std::mutex> lk(lock_);
  if (bytes - 1 < kListMaxBytes) { // onto its size's list, merged later
    std::memcpy(p, &lists_[bytes / 8], sizeof p);
    lists_[bytes / 8] = p;
    list_bytes_ += bytes;
    if (list_bytes_ > kListCapBytes)
      flush_lists();
    return;
  }
  const std::size_t off = static_cast<std::size_t>(p - base_);
  auto c = chunk_at(off);
  WEFT_CHECK(c->second.live >= bytes,
             "arena: %zu bytes freed of a chunk with %zu live", bytes,
             c->second.live);
  c->second.live -= bytes;
  small_insert(c, off, bytes);
}

std::size_t arena::used() const {
  std::lock_guard<std::mutex> lk(lock_);
  return top_ - free_total_ - small_free_bytes_ - list_bytes_ -
         static_cast<std::size_t>(chunk_end_ - chunk_);
}

std::size_t arena::held_free() const {
  std::lock_guard<std::mutex> lk(lock_);
  return small_free_bytes_ + list_bytes_ +
         static_cast<std::size_t>(chunk_end_ - chunk_);
}

arena::small_view arena::view_small() const {
  std::lock_guard<std::mutex> lk(lock_);
  small_view v;
  for (const auto &[off, c] : chunks_)
    v.chunks.push_back({off, c.end, c.live});
  v.free.assign(small_free_.begin(), small_free_.end());
  for (std::size_t k = 1; k < lists_.size(); ++k)
    for (char *p = lists_[k]; p; std::memcpy(&p, p, sizeof p)) {
      const std::size_t off = static_cast<std::size_t>(p - base_);
      v.listed.emplace_back(off, 8 * k);
      // A listed block counts as live in its chunk's record, not here.
      auto c = std::upper_bound(
          v.chunks.begin(), v.chunks.end(), off,
          [](std::size_t o, const std::array<std::size_t, 3> &r) {
            return o < r[0];
          });
      if (c != v.chunks.begin() && off < (c - 1)->at(1))
        (c - 1)->at(2) -= 8 * k;
    }
  std::sort(v.listed.begin(), v.listed.end());
  if (chunk_) {
    v.bump = static_cast<std::size_t>(chunk_ - base_);
    v.bump_end = static_cast<std::size_t>(chunk_end_ - base_);
  }
  return v;
}

std::size_t arena::free_bytes() const {
  std::lock_guard<std::mutex> lk(lock_);
  return limit_ - top_ + free_total_;
}

void arena::free_graph(char *p, std::size_t bytes, bool starts_clear) {
  graph_bits(p, bytes, false);
  free_extent(p, bytes, starts_clear);
}

void arena::graph_bits(const void *p, std::size_t bytes, bool set) {
  const std::size_t g = granule(p) / 8;
  const std::size_t e = g + (bytes + kExtentAlign - 1) / kExtentAlign;
  if (g == e)
    return;
  // A word wholly inside the extent is this graph's alone: a plain store
  // (a locked read-modify-write per word was 8% of a 32 KiB array's copy);
  // the end words, which other extents may share, are read-modify-writes.
  auto apply = [&](std::size_t w, std::uint64_t bits) {
    if (bits == ~0ull)
      in_graph_[w].store(set ? ~0ull : 0, std::memory_order_relaxed);
    else if (set)
      in_graph_[w].fetch_or(bits, std::memory_order_relaxed);
    else
      in_graph_[w].fetch_and(~bits, std::memory_order_relaxed);
  };
  const std::size_t w0 = g / 64, w1 = (e - 1) / 64;
  const std::uint64_t first = ~0ull << (g % 64);
  const std::uint64_t last = ~0ull >> (63 - (e - 1) % 64);
  if (w0 == w1) {
    apply(w0, first & last);
    return;
  }
  apply(w0, first);
  for (std::size_t w = w0 + 1; w < w1; ++w)
    in_graph_[w].store(set ? ~0ull : 0, std::memory_order_relaxed);
  apply(w1, last);
}

void arena::clear_starts(const void *p, std::size_t bytes) {
  std::size_t g = granule(p), e = g + bytes / 8;
  while (g < e) {
    std::size_t w = g / 64, lo = g % 64;
    std::size_t hi = std::min<std::size_t>(64, lo + (e - g));
    std::uint64_t bits =
        (hi == 64 ? ~0ull : (1ull << hi) - 1) & ~((1ull << lo) - 1);
    if (bits == ~0ull)
      starts_[w].store(0, std::memory_order_relaxed);
    else
      starts_[w].fetch_and(~bits, std::memory_order_relaxed);
    g += hi - lo;
  }
}

bool arena::clear_blocks(const char *p, std::size_t bytes) {
  const char *end = p + bytes;
  while (p < end) {
    std::uint64_t tag;
    std::memcpy(&tag, p, sizeof tag);
    std::size_t n;
    if ((tag & kTagMask) == kStoreTag) {
      n = store_bytes(tag & ~kTagMask);
    } else {
      const type_record *t =
          (tag & kTagMask) == kObjectTag ? find_type(tag & ~kTagMask) : nullptr;
      if (!t)
        return false;
      n = object_bytes(*t);
    }
    if (n == 0 || n > std::size_t(end - p))
      return false;
    std::size_t g = granule(p);
    starts_[g / 64].fetch_and(~(1ull << (g % 64)), std::memory_order_relaxed);
    p += n;
  }
  return true;
}

void arena::mark_blocks(const char *p, std::size_t bytes) {
  const char *end = p + bytes;
  while (p < end) {
    mark_start(p);
    std::uint64_t tag;
    std::memcpy(&tag, p, sizeof tag);
    if ((tag & kTagMask) == kStoreTag)
      p += store_bytes(tag & ~kTagMask);
    else
      p += object_bytes(type_at(std::uint32_t(tag & ~kTagMask)));
  }
}

} // namespace weft::places
