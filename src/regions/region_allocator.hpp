// The region allocator: objects live in 4 KB slabs, each slab belongs to one
// region (the region's slab pool), slabs are carved from 1 MB pages that a
// shared page pool hands to regions and takes back when all of a page's
// slabs are free again. Every page comes from one reserved address range,
// so the slab (and with it the region) of any address is found in O(1):
// page index, then slab index, in a table. Slab metadata (owner, size
// class, free list, per-object dependence nodes) is kept apart from the
// data. Not thread-safe: the caller holds the region space's lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
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
    // The leaf scheduler whose worker was last given write access to the
    // object (the paper's last producer, per leaf), or nullptr.
    std::atomic<const scheduler *> last_leaf{nullptr};
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

private:
  struct page {
    uint64_t used[kSlabsPerPage / 64] = {};
    int nused = 0;
    bool listed = false; // in pages_with_room_
  };
  std::size_t page_index(const void *p) const;
  char *page_base(std::size_t i) const { return base_ + i * kPageSize; }
  // A run of n contiguous free slabs (n <= kSlabsPerPage); first slab
  // address.
  char *take_slabs(int n);
  char *take_pages(std::size_t n);
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
  std::vector<std::size_t> free_pages_;
  std::vector<std::size_t> pages_with_room_;
  std::size_t pages_in_use_ = 0, slabs_in_use_ = 0;
};

} // namespace weft::regions
