// The region allocator: objects live in 4 KB slabs, each slab belongs to one
// region (the region's slab pool), slabs are carved from 1 MB pages of the
// pool of the scheduler owning the region (Myrmics' page trading: a
// scheduler out of pages asks its parent for a batch, the top asks the
// reserved range; a page whose slabs are all free again goes back to its
// scheduler's pool, and a pool past its high-water mark gives the surplus
// back up). Every page comes from one reserved address range,
// so the slab (and with it the region) of any address is found in O(1):
// page index, then slab index, in a table. Slab metadata (owner, size
// class, free list, per-object dependence nodes) is kept apart from the
// data. Not thread-safe: the caller holds the region space's lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace weft::regions {

inline constexpr std::size_t kSlabSize = 4096;
inline constexpr std::size_t kPageSize = std::size_t(1) << 20;
inline constexpr int kSlabsPerPage = int(kPageSize / kSlabSize);
// The reserved range is made accessible in chunks of this size, aligned to
// it: one transparent huge page each.
inline constexpr std::size_t kCommitChunk = std::size_t(2) << 20;
// Objects up to this size share slabs; larger ones get a run of slabs (or
// of pages beyond one page).
inline constexpr std::size_t kMaxSmallObject = 2048;
// Pages a scheduler asks its parent for at once, and the free pages a
// scheduler below the top keeps before it gives back all but a batch (the
// top keeps every page, returned to the kernel with MADV_DONTNEED).
inline constexpr std::size_t kPageBatch = 4;
inline constexpr std::size_t kPoolHighWater = 16;

struct region;
struct object_node;
struct scheduler;

// Metadata of one slab, or of the first slab of a run (a large object).
struct slab {
  region *owner = nullptr;
  char *data = nullptr;
  std::size_t obj_size = 0; // the size class, or the large object's size
  uint32_t nobjs = 0;       // object slots (1 for a large object)
  uint32_t nused = 0;
  uint32_t span = 1;      // slabs in the run (large objects)
  int size_class = -1;    // -1: a large object
  uint32_t free_head = 0; // first free slot; == nobjs when full
  // Per object slot, in one array (one cache line serves a lookup): its
  // dependence node (created when a task first names it), the free list.
  struct slot {
    object_node *node = nullptr;
    // The object's last producer under a scheduler tree: the worker that
    // ran the task that last wrote it and when (region_space::producer_mark
    // packed), 0 for none.
    std::atomic<uint64_t> producer{0};
    uint32_t next_free = 0;
    bool live = false;
  };
  std::unique_ptr<slot[]> slots;
  slab *prev = nullptr, *next = nullptr;   // owner's list of partial slabs
  slab *rprev = nullptr, *rnext = nullptr; // owner's list of all slabs
};

// Where an address lies: its slab and slot, or nothing.
struct object_ref {
  slab *s = nullptr;
  uint32_t index = 0;
  bool at_start = false; // the address is the object's first byte
};

class region_allocator {
public:
  region_allocator();
  ~region_allocator();
  region_allocator(const region_allocator &) = delete;
  region_allocator &operator=(const region_allocator &) = delete;

  // size bytes (> 0) in r's slab pool, 16-byte aligned; nullptr when the
  // reserved range is exhausted.
  void *alloc(region &r, std::size_t size);
  // Frees the object in slot ref (live). The slab goes back to the page
  // pool when it empties.
  void free(const object_ref &ref);
  // Returns every slab r owns to the page pool (its objects die).
  void release_all(region &r);
  // The slab and slot holding addr, if addr lies in a live object.
  object_ref find(const void *addr) const;
  std::size_t object_size(const object_ref &ref) const {
    return ref.s->obj_size;
  }
  void *object_address(const object_ref &ref) const {
    return ref.s->data + std::size_t(ref.index) * ref.s->obj_size;
  }

  // Statistics: pages handed out now and slabs in use.
  std::size_t pages_in_use() const { return pages_in_use_; }
  std::size_t slabs_in_use() const { return slabs_in_use_; }
  // Checks the page and slab bookkeeping against the scheduler tree under
  // top: every page taken from the reserved range is either in use (its
  // slabs all owned by regions of the scheduler whose page it is, or one
  // large object's) or free in exactly one scheduler's pool; no slab is
  // owned twice; the counts agree. Returns "" or what is wrong.
  std::string check(const scheduler &top) const;

private:
  struct page {
    uint64_t used[kSlabsPerPage / 64] = {};
    int nused = 0;
    bool listed = false;       // in its scheduler's with_room list
    bool whole = false;        // part of a large object of several pages
    scheduler *pool = nullptr; // whose page it is while in use
  };
  std::size_t page_index(const void *p) const;
  char *page_base(std::size_t i) const { return base_ + i * kPageSize; }
  // A run of n contiguous free slabs (n <= kSlabsPerPage); first slab
  // address.
  char *take_slabs(scheduler &s, int n);
  // n >= 2 contiguous pages, from the reserved range.
  char *take_pages(std::size_t n);
  // A free page of s's pool (refilled from above when empty), or npages_.
  std::size_t pop_page(scheduler &s);
  // Asks s's parent (the top: the reserved range) for a batch of pages.
  bool refill(scheduler &s);
  // Page pi is wholly free again: into s's pool (surplus up the tree).
  void put_page(scheduler &s, std::size_t pi);
  // Makes pages [0, pages) accessible, in whole commit chunks.
  void commit(std::size_t pages);
  void give_slabs(char *first, int n);
  slab *new_slab(region &r, int size_class, std::size_t size);
  void drop_slab(slab *s);

  // The slab metadata of every 4 KB of the reserved range (run heads
  // repeated over their run), nullptr where no slab is in use: one lookup
  // from an address. Reserved with the range, touched where used.
  slab **slab_of_ = nullptr;
  std::size_t slab_index(const void *p) const {
    return std::size_t(static_cast<const char *>(p) - base_) / kSlabSize;
  }
  char *base_ = nullptr;
  std::size_t npages_ = 0;    // reserved
  std::size_t bump_ = 0;      // pages handed out at least once
  std::size_t committed_ = 0; // pages made accessible (>= bump_)
  std::vector<page *> pages_;
  std::size_t pages_in_use_ = 0, slabs_in_use_ = 0;
};

} // namespace weft::regions
