#include "region_allocator.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "region_space.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/mman.h>

namespace weft::regions {
namespace {

// Address space reserved (PROT_NONE) for regions, committed a page at a
// time: 64 GB unless WEFT_REGION_SPACE (in MB, one page each) says otherwise
// (valgrind, for one, cannot map 64 GB).
constexpr std::size_t kDefaultReservedPages = 65536;

std::size_t reserved_pages() {
  env::reader r(env::get, " (the address space reserved for regions, in MB)");
  std::size_t pages = kDefaultReservedPages;
  r.integer("WEFT_REGION_SPACE", 16, std::size_t(1) << 24, pages, "a size");
  if (!r.ok())
    fatal("%s", r.error().c_str());
  return pages;
}

constexpr std::size_t kClassSize[kNumClasses] = {
    16,  32,  48,  64,  80,  96,  112, 128,  160,  192,  224,  256,
    320, 384, 448, 512, 640, 768, 896, 1024, 1280, 1536, 1792, 2048};

int size_class(std::size_t size) {
  int lo = 0;
  while (kClassSize[lo] < size)
    ++lo;
  return lo;
}

void list_remove(slab *&head, slab *s) {
  if (s->prev)
    s->prev->next = s->next;
  else
    head = s->next;
  if (s->next)
    s->next->prev = s->prev;
  s->prev = s->next = nullptr;
}

void list_push(slab *&head, slab *s) {
  s->prev = nullptr;
  s->next = head;
  if (head)
    head->prev = s;
  head = s;
}

} // namespace

region_allocator::region_allocator() {
  npages_ = reserved_pages();
  void *p = mmap(nullptr, npages_ * kPageSize + kCommitChunk, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    fatal("weft regions: cannot reserve %zu MB of address space for regions "
          "(%s; WEFT_REGION_SPACE sets the size in MB)",
          npages_, std::strerror(errno));
  // Aligned to a huge page, so that each commit chunk is one.
  uintptr_t a = (reinterpret_cast<uintptr_t>(p) + kCommitChunk - 1) &
                ~(uintptr_t(kCommitChunk) - 1);
  base_ = reinterpret_cast<char *>(a);
  // Large pages where the kernel offers them: fewer TLB misses when tasks
  // touch objects spread over many regions.
  madvise(base_, npages_ * kPageSize, MADV_HUGEPAGE);
  std::size_t table = npages_ * kSlabsPerPage * sizeof(slab *);
  void *t = mmap(nullptr, table, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (t == MAP_FAILED)
    fatal("weft regions: cannot reserve the %zu MB slab table (%s)",
          table >> 20, std::strerror(errno));
  slab_of_ = static_cast<slab **>(t);
  pages_.assign(npages_, nullptr);
}

region_allocator::~region_allocator() {
  for (page *pg : pages_)
    delete pg;
  // The reservation stays: objects may outlive the space at exit.
}

std::size_t region_allocator::page_index(const void *p) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  uintptr_t b = reinterpret_cast<uintptr_t>(base_);
  if (a < b || a >= b + npages_ * kPageSize)
    return npages_;
  return (a - b) / kPageSize;
}

void region_allocator::commit(std::size_t pages) {
  if (pages <= committed_)
    return;
  // Whole huge-page chunks: a 1 MB commit left the other half of the
  // chunk PROT_NONE when the first half was touched, so the kernel could
  // not fault a huge page there, and region data lived on 4 KB pages
  // (matmul's tiles: 0-6 of 19 MB in huge pages) while the MPI twins' 2
  // MB-aligned buffers got huge ones.
  std::size_t per = kCommitChunk / kPageSize;
  std::size_t upto = std::min((pages + per - 1) / per * per, npages_);
  if (mprotect(page_base(committed_), (upto - committed_) * kPageSize,
               PROT_READ | PROT_WRITE))
    fatal("weft regions: mprotect of %zu pages failed (%s)", upto - committed_,
          std::strerror(errno));
  committed_ = upto;
}

char *region_allocator::take_pages(std::size_t n) {
  std::size_t first;
  if (n == 1 && !free_pages_.empty()) {
    first = free_pages_.back();
    free_pages_.pop_back();
  } else {
    if (bump_ + n > npages_)
      return nullptr;
    first = bump_;
    bump_ += n;
    commit(bump_);
  }
  for (std::size_t i = first; i < first + n; ++i) {
    if (!pages_[i])
      pages_[i] = new page;
    ++pages_in_use_;
  }
  return page_base(first);
}

char *region_allocator::take_slabs(int n) {
  // First fit in a page with room, newest first (its slabs are warm).
  for (std::size_t k = pages_with_room_.size(); k-- > 0;) {
    std::size_t pi = pages_with_room_[k];
    page &pg = *pages_[pi];
    if (kSlabsPerPage - pg.nused < n)
      continue;
    int run = 0;
    for (int i = 0; i < kSlabsPerPage; ++i) {
      bool used = pg.used[i / 64] >> (i % 64) & 1;
      run = used ? 0 : run + 1;
      if (run == n) {
        int first = i - n + 1;
        for (int j = first; j <= i; ++j)
          pg.used[j / 64] |= uint64_t(1) << (j % 64);
        pg.nused += n;
        if (pg.nused == kSlabsPerPage) {
          pages_with_room_[k] = pages_with_room_.back();
          pages_with_room_.pop_back();
          pg.listed = false;
        }
        slabs_in_use_ += n;
        return page_base(pi) + std::size_t(first) * kSlabSize;
      }
    }
  }
  char *p = take_pages(1);
  if (!p)
    return nullptr;
  std::size_t pi = page_index(p);
  page &pg = *pages_[pi];
  for (int j = 0; j < n; ++j)
    pg.used[j / 64] |= uint64_t(1) << (j % 64);
  pg.nused = n;
  if (n < kSlabsPerPage) {
    pages_with_room_.push_back(pi);
    pg.listed = true;
  }
  slabs_in_use_ += n;
  return p;
}

void region_allocator::give_slabs(char *first, int n) {
  std::size_t pi = page_index(first);
  page &pg = *pages_[pi];
  int s0 = int((first - page_base(pi)) / kSlabSize);
  for (int j = s0; j < s0 + n; ++j) {
    pg.used[j / 64] &= ~(uint64_t(1) << (j % 64));
    slab_of_[pi * kSlabsPerPage + std::size_t(j)] = nullptr;
  }
  pg.nused -= n;
  slabs_in_use_ -= n;
  if (pg.nused == 0) {
    // The whole page is free: back to the pool for any region to take.
    if (pg.listed) {
      for (std::size_t k = 0; k < pages_with_room_.size(); ++k)
        if (pages_with_room_[k] == pi) {
          pages_with_room_[k] = pages_with_room_.back();
          pages_with_room_.pop_back();
          break;
        }
      pg.listed = false;
    }
    madvise(page_base(pi), kPageSize, MADV_DONTNEED);
    free_pages_.push_back(pi);
    --pages_in_use_;
  } else if (!pg.listed) {
    pages_with_room_.push_back(pi);
    pg.listed = true;
  }
}

slab *region_allocator::new_slab(region &r, int cls, std::size_t size) {
  auto *s = new slab;
  std::size_t bytes = cls >= 0 ? kSlabSize : size;
  std::size_t nslabs = (bytes + kSlabSize - 1) / kSlabSize;
  char *data;
  if (nslabs <= std::size_t(kSlabsPerPage)) {
    data = take_slabs(int(nslabs));
  } else {
    std::size_t npg = (bytes + kPageSize - 1) / kPageSize;
    data = take_pages(npg);
    nslabs = npg * kSlabsPerPage;
  }
  if (!data) {
    delete s;
    return nullptr;
  }
  s->owner = &r;
  s->data = data;
  s->size_class = cls;
  s->obj_size = cls >= 0 ? kClassSize[cls] : size;
  s->nobjs = cls >= 0 ? uint32_t(kSlabSize / kClassSize[cls]) : 1;
  s->span = uint32_t(nslabs);
  s->slots = std::make_unique<slab::slot[]>(s->nobjs);
  for (uint32_t i = 0; i < s->nobjs; ++i)
    s->slots[i].next_free = i + 1;
  for (std::size_t k = 0; k < nslabs; ++k) {
    char *a = data + k * kSlabSize;
    slab_of_[slab_index(a)] = s;
  }
  s->rnext = r.slabs;
  if (r.slabs)
    r.slabs->rprev = s;
  r.slabs = s;
  return s;
}

void region_allocator::drop_slab(slab *s) {
  region &r = *s->owner;
  if (s->rprev)
    s->rprev->rnext = s->rnext;
  else
    r.slabs = s->rnext;
  if (s->rnext)
    s->rnext->rprev = s->rprev;
  if (s->span <= uint32_t(kSlabsPerPage)) {
    give_slabs(s->data, int(s->span));
  } else {
    std::size_t first = page_index(s->data);
    for (std::size_t i = 0; i < s->span / kSlabsPerPage; ++i) {
      std::memset(slab_of_ + (first + i) * kSlabsPerPage, 0,
                  sizeof(slab *) * kSlabsPerPage);
      madvise(page_base(first + i), kPageSize, MADV_DONTNEED);
      free_pages_.push_back(first + i);
      --pages_in_use_;
    }
  }
  for (uint32_t i = 0; i < s->nobjs; ++i)
    delete s->slots[i].node;
  delete s;
}

void *region_allocator::alloc(region &r, std::size_t size) {
  if (size > kMaxSmallObject) {
    slab *s = new_slab(r, -1, size);
    if (!s)
      return nullptr;
    s->free_head = 1;
    s->nused = 1;
    s->slots[0].live = true;
    s->slots[0].last_leaf.store(nullptr, std::memory_order_relaxed);
    return s->data;
  }
  int cls = size_class(size);
  slab *s = r.partial[cls];
  if (!s) {
    s = new_slab(r, cls, 0);
    if (!s)
      return nullptr;
    list_push(r.partial[cls], s);
  }
  uint32_t i = s->free_head;
  s->free_head = s->slots[i].next_free;
  s->slots[i].live = true;
  s->slots[i].last_leaf.store(nullptr, std::memory_order_relaxed);
  if (++s->nused == s->nobjs)
    list_remove(r.partial[cls], s);
  return s->data + std::size_t(i) * s->obj_size;
}

void region_allocator::free(const object_ref &ref) {
  slab *s = ref.s;
  slab::slot &sl = s->slots[ref.index];
  sl.live = false;
  delete sl.node;
  sl.node = nullptr;
  if (s->size_class < 0) {
    drop_slab(s);
    return;
  }
  region &r = *s->owner;
  bool was_full = s->nused == s->nobjs;
  sl.next_free = s->free_head;
  s->free_head = ref.index;
  if (--s->nused == 0) {
    if (!was_full)
      list_remove(r.partial[s->size_class], s);
    drop_slab(s);
  } else if (was_full) {
    list_push(r.partial[s->size_class], s);
  }
}

void region_allocator::release_all(region &r) {
  while (slab *s = r.slabs)
    drop_slab(s);
  for (slab *&p : r.partial)
    p = nullptr;
}

object_ref region_allocator::find(const void *addr) const {
  std::size_t pi = page_index(addr);
  if (pi >= npages_)
    return {};
  const char *a = static_cast<const char *>(addr);
  slab *s = slab_of_[slab_index(a)];
  if (!s)
    return {};
  std::size_t off = std::size_t(a - s->data);
  auto i = uint32_t(off / s->obj_size);
  if (i >= s->nobjs || !s->slots[i].live)
    return {};
  return {s, i, off % s->obj_size == 0};
}

} // namespace weft::regions
