// A place's memory partition: a reserved address range with a first-fit
// extent allocator (copy buffers come and go), a bump chunk for objects made
// one by one, and a bitmap marking where each block (object or array store)
// starts, so that a pointer into the middle of a block is recognised.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace weft::places {

class arena {
public:
  arena(int place, std::size_t capacity);
  // An arena over memory it does not own (a rank's MPI window): contains()
  // covers [memory, memory + capacity); the extent allocator hands out only
  // the first `managed` bytes (the rest is filled by remote puts).
  arena(int place, char *memory, std::size_t capacity, std::size_t managed);
  ~arena();
  arena(const arena &) = delete;
  arena &operator=(const arena &) = delete;

  int place() const { return place_; }
  char *base() const { return base_; }
  std::size_t capacity() const { return cap_; }
  bool contains(const void *p) const {
    auto a = reinterpret_cast<std::uintptr_t>(p);
    auto b = reinterpret_cast<std::uintptr_t>(base_);
    return a >= b && a < b + cap_;
  }

  // An extent of at least `bytes` (64-byte aligned), or nullptr when the
  // arena cannot hold it. Thread-safe.
  char *alloc_extent(std::size_t bytes);
  // starts_clear: no block start is marked in it (cleared already, or
  // never marked: an intermediate buffer), so the bitmap is left alone.
  void free_extent(char *p, std::size_t bytes, bool starts_clear = false);
  // `bytes` (a multiple of 8) from the list of released blocks of exactly
  // that size (up to kListMaxBytes), else the free ranges of the chunks
  // (best fit: the smallest that holds it, split), else the bump chunk;
  // before a new chunk is taken the lists are merged into the free ranges
  // (flush_lists) and the best fit tried again. nullptr when full. A block
  // above kOwnExtentBytes gets an extent of its own, never a piece of a
  // chunk (free_small frees it as one).
  char *alloc_small(std::size_t bytes);
  static constexpr std::size_t kOwnExtentBytes = std::size_t(1) << 18;
  // Released blocks of 8 to kListMaxBytes wait on a list of their size
  // (the next pointer in their first word) until an allocation of that
  // size takes them, or until the lists are merged: when they hold more
  // than kListCapBytes, when a small block or an extent finds no room
  // otherwise, or on trim().
  static constexpr std::size_t kListMaxBytes = 1024;
  static constexpr std::size_t kListCapBytes = std::size_t(1) << 18;
  // Gives back a block of alloc_small(bytes) (its start mark cleared): one
  // of up to kListMaxBytes goes on its size's list; a larger one (and each
  // listed one when the lists are merged) merges with the free ranges
  // beside it in its chunk (or moves the bump pointer back when it ends
  // there), and a chunk other than the current one goes back to the
  // extents once none of its blocks is live or listed; a block with an
  // extent of its own is freed as an extent.
  void free_small(char *p, std::size_t bytes);
  // Merges every listed block into the chunks' free ranges now (chunks left
  // without a live block go back to the extents).
  void trim();
  // The free ranges and listed blocks kept in the chunks and the current
  // chunk's unused rest (bytes): capacity() = used() + free_bytes() +
  // held_free() for an owned arena.
  std::size_t held_free() const;
  // The small blocks' bookkeeping, copied (for the tests): the chunks
  // (offset, end, live bytes: neither free nor listed), the free ranges
  // (offset, length), the listed blocks (offset, length; by offset) and the
  // current chunk's bump range [bump, bump_end) (offsets; equal: none).
  struct small_view {
    std::vector<std::array<std::size_t, 3>> chunks;
    std::vector<std::pair<std::size_t, std::size_t>> free;
    std::vector<std::pair<std::size_t, std::size_t>> listed;
    std::size_t bump = 0, bump_end = 0;
  };
  small_view view_small() const;
  // Bytes in live blocks and graph buffers (rounded up to 64 for extents):
  // what the extent allocator handed out, less its holes, the blocks kept
  // on the free lists for reuse and the rest of the bump chunk. Releasing
  // everything made since a moment brings it back to its value then.
  std::size_t used() const;
  std::size_t free_bytes() const;

  // Block starts (8-byte granules). Marking races only with other granules.
  void mark_start(const void *block) {
    std::size_t g = granule(block);
    starts_[g / 64].fetch_or(1ull << (g % 64), std::memory_order_relaxed);
  }
  bool is_start(const void *block) const {
    std::size_t g = granule(block);
    return (starts_[g / 64].load(std::memory_order_relaxed) >> (g % 64)) & 1;
  }
  // Clears the start marks of [p, p + bytes).
  void clear_starts(const void *p, std::size_t bytes);
  // Sets the marks of the blocks laid out back to back in [p, p + bytes)
  // (a graph buffer moved in by one bulk copy).
  void mark_blocks(const char *p, std::size_t bytes);
  // Clears them again, block by block while the headers are intact (false:
  // one is not, and [p, p + bytes) is left to clear_starts).
  bool clear_blocks(const char *p, std::size_t bytes);
  // A copied graph's buffer (an extent, weft::graph owns it): add_graph
  // after the copy marks its 64-byte granules in a second bitmap;
  // free_graph clears them and frees the extent; in_graph(p): p lies in
  // the buffer of a live copied graph.
  void add_graph(const char *p, std::size_t bytes) {
    graph_bits(p, bytes, true);
  }
  void free_graph(char *p, std::size_t bytes, bool starts_clear);
  bool in_graph(const void *p) const {
    std::size_t g = granule(p) / 8;
    return (in_graph_[g / 64].load(std::memory_order_relaxed) >> (g % 64)) & 1;
  }
  // Whether p lies past the extent allocator's part (a remote-put region).
  bool in_remote_part(const void *p) const {
    return contains(p) && static_cast<const char *>(p) >= base_ + limit_;
  }

private:
  std::size_t granule(const void *p) const {
    return static_cast<std::size_t>(static_cast<const char *>(p) - base_) / 8;
  }
  char *take(std::size_t bytes);              // under lock_
  void give_back(char *p, std::size_t bytes); // under lock_ (64-aligned)
  void make_starts();
  void graph_bits(const void *p, std::size_t bytes, bool set);

  int place_;
  std::size_t cap_;
  char *base_;
  std::atomic<std::uint64_t> *starts_;
  std::size_t starts_bytes_;
  std::atomic<std::uint64_t> *in_graph_; // a bit per 64 bytes
  std::size_t in_graph_bytes_;
  std::size_t limit_; // the extent allocator's end (cap_ when owned)
  bool owned_ = true;
  mutable std::mutex lock_;
  std::size_t top_ = 0;                     // bump end of the extents
  std::map<std::size_t, std::size_t> free_; // offset -> length
  std::size_t free_total_ = 0;
  // Small blocks: chunks taken from the extents (offset -> end and the
  // bytes of live and listed blocks in it); the current one is bumped from
  // chunk_ to chunk_end_. Free ranges in the chunks, never across a chunk's end
  // and never side by side (merged): by offset (-> length) and by (length,
  // offset) for the best fit.
  struct chunk_rec {
    std::size_t end = 0, live = 0;
  };
  std::map<std::size_t, chunk_rec> chunks_;
  std::size_t cur_chunk_ = 0;    // the current chunk's offset (chunk_ set)
  chunk_rec *cur_rec_ = nullptr; // and its record
  char *chunk_ = nullptr, *chunk_end_ = nullptr;
  std::map<std::size_t, std::size_t> small_free_;
  std::set<std::pair<std::size_t, std::size_t>> small_by_size_;
  std::size_t small_free_bytes_ = 0;
  std::map<std::size_t, chunk_rec>::iterator chunk_at(std::size_t off);
  // Under lock_: frees [off, off + len) of chunk c (merges, gives back).
  void small_insert(std::map<std::size_t, chunk_rec>::iterator c,
                    std::size_t off, std::size_t len);
  char *fit_small(std::size_t bytes); // best fit from the free ranges
  void flush_lists();                 // under lock_
  // Released blocks by size (index bytes / 8), linked through their first
  // word, and their bytes.
  std::array<char *, kListMaxBytes / 8 + 1> lists_{};
  std::size_t list_bytes_ = 0;
  void small_erase(std::map<std::size_t, std::size_t>::iterator it);
  void small_put(std::size_t off, std::size_t len);
  std::map<std::size_t, std::size_t>::node_type spare_free_;
  std::set<std::pair<std::size_t, std::size_t>>::node_type spare_by_size_;
};

} // namespace weft::places
