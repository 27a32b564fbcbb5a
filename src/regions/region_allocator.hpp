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
// data.
//
// Locking (no global lock on the allocation path):
// * a region's slab pool (its partial lists, its slab list, the free lists
//   and counts of its slabs) is guarded by the region's heap_lock, taken
//   here by alloc, free and release_all;
// * a scheduler's page pool, and the bitmaps of the pages it has carved, by
//   the pool's lock (page_pool::lock); a pool refilled from its parent, or
//   giving its surplus up, holds its own lock and takes the parent's (locks
//   of pools are taken deeper first, never a child's under a parent's); the
//   reserved range (bump_, commit) by the top's pool lock;
// * a heap lock may be held while pool locks are taken, never the reverse;
//   scheduler locks and the region space's struct_lock come before both;
// * the slab table is read without a lock (find): a slab is published there
//   (release) once its metadata is set, and unpublished before it is
//   deleted. A slab is deleted only when its last object is freed or its
//   region freed, so a find on a live object the caller holds is safe; a
//   find racing the free of the object it looks at (a task touching what
//   it does not hold) is a program error this does not detect.
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
    // Set under the owning scheduler's lock; read without it by a free
    // (no node: no scheduler lock needed).
    std::atomic<object_node *> node{nullptr};
    // The object's last producer under a scheduler tree: the worker that
    // ran the task that last wrote it and when (region_space::producer_mark
    // packed), 0 for none.
    std::atomic<uint64_t> producer{0};
    uint32_t next_free = 0;
    std::atomic<bool> live{false}; // read by find without the heap lock
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
  // top: the scheduler tree's top, whose pool takes pages from the
  // reserved range.
  explicit region_allocator(scheduler &top);
  ~region_allocator();
  region_allocator(const region_allocator &) = delete;
  region_allocator &operator=(const region_allocator &) = delete;

  // size bytes (> 0) in r's slab pool, 16-byte aligned; nullptr when the
  // reserved range is exhausted. Takes r's heap lock; r.bytes grows by the
  // object's size.
  void *alloc(region &r, std::size_t size);
  // n objects of size bytes under one hold of r's heap lock; false (none
  // kept) when the range is exhausted.
  bool alloc_n(region &r, std::size_t size, int n, void **out);
  // Frees the object in slot ref. The slab goes back to the page pool when
  // it empties. Takes the region's heap lock; false (nothing done) when the
  // slot is no longer live (freed by another thread since the find).
  bool free(const object_ref &ref);
  // Returns every slab r owns to the page pool (its objects die). Takes r's
  // heap lock.
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
  std::size_t pages_in_use() const {
    return pages_in_use_.load(std::memory_order_relaxed);
  }
  std::size_t slabs_in_use() const {
    return slabs_in_use_.load(std::memory_order_relaxed);
  }
  // Checks the page and slab bookkeeping against the scheduler tree under
  // top: every page taken from the reserved range is either in use (its
  // slabs all owned by regions of the scheduler whose page it is, or one
  // large object's) or free in exactly one scheduler's pool; no slab is
  // owned twice; the counts agree. Returns "" or what is wrong. Takes
  // every pool lock; no allocation may run meanwhile.
  std::string check(scheduler &top) const;

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
  // address. Takes s's pool lock.
  char *take_slabs(scheduler &s, int n);
  // n >= 2 contiguous pages, from the reserved range.
  char *take_pages(std::size_t n);
  // A free page of s's pool (refilled from above when empty), or npages_.
  // s's pool lock held.
  std::size_t pop_page(scheduler &s);
  // Asks s's parent (the top: the reserved range) for a batch of pages. s's
  // pool lock held; takes the parent's.
  bool refill(scheduler &s);
  // Page pi is wholly free again: into s's pool (surplus up the tree). s's
  // pool lock held; takes the parent's for the surplus.
  void put_page(scheduler &s, std::size_t pi);
  // Makes pages [0, pages) accessible, in whole commit chunks.
  void commit(std::size_t pages);
  // Takes the page's pool lock.
  void give_slabs(char *first, int n);
  // (r's heap lock held, as for drop_slab and alloc_locked)
  slab *new_slab(region &r, int size_class, std::size_t size);
  void drop_slab(slab *s);
  void *alloc_locked(region &r, std::size_t size);
  void free_locked(const object_ref &ref);
  slab *slab_at(std::size_t i) const {
    return std::atomic_ref<slab *>(slab_of_[i]).load(std::memory_order_acquire);
  }
  void set_slab(std::size_t i, slab *s) {
    std::atomic_ref<slab *>(slab_of_[i]).store(s, std::memory_order_release);
  }

  // The slab metadata of every 4 KB of the reserved range (run heads
  // repeated over their run), nullptr where no slab is in use: one lookup
  // from an address. Reserved with the range, touched where used.
  slab **slab_of_ = nullptr;
  std::size_t slab_index(const void *p) const {
    return std::size_t(static_cast<const char *>(p) - base_) / kSlabSize;
  }
  char *base_ = nullptr;
  std::size_t npages_ = 0;    // reserved
  std::size_t bump_ = 0;      // pages handed out at least once (top's lock)
  std::size_t committed_ = 0; // pages made accessible (>= bump_; top's lock)
  // Page metadata, made when a page is first used (under the lock of the
  // pool it came from), then kept.
  std::vector<page *> pages_;
  scheduler *top_ = nullptr; // the top's pool guards the reserved range
  std::atomic<std::size_t> pages_in_use_{0}, slabs_in_use_{0};
};

} // namespace weft::regions
