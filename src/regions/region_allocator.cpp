#include "region_allocator.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "region_space.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
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

using pool_guard = std::lock_guard<std::mutex>;

region_allocator::region_allocator(scheduler &top) : top_(&top) {
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
  pool_guard lk(top_->pages.lock);
  if (bump_ + n > npages_)
    return nullptr;
  std::size_t first = bump_;
  bump_ += n;
  commit(bump_);
  for (std::size_t i = first; i < first + n; ++i)
    if (!pages_[i])
      pages_[i] = new page;
  pages_in_use_.fetch_add(n, std::memory_order_relaxed);
  return page_base(first);
}

bool region_allocator::refill(scheduler &s) {
  ++s.pages.requests;
  std::size_t n = 0;
  if (!s.parent) {
    // The top: fresh pages from the reserved range, lowest first out.
    n = std::min(kPageBatch, npages_ - bump_);
    for (std::size_t i = n; i-- > 0;)
      s.pages.free.push_back(bump_ + i);
    bump_ += n;
    commit(bump_);
  } else {
    scheduler &p = *s.parent;
    pool_guard lk(p.pages.lock);
    while (n < kPageBatch) {
      // The parent asks its own parent once, when it has none to give.
      if (p.pages.free.empty() && (n > 0 || !refill(p)))
        break;
      s.pages.free.push_back(p.pages.free.back());
      p.pages.free.pop_back();
      ++n;
    }
    p.pages.pages_out += n;
  }
  s.pages.pages_in += n;
  return n > 0;
}

std::size_t region_allocator::pop_page(scheduler &s) {
  if (s.pages.free.empty() && !refill(s))
    return npages_;
  std::size_t pi = s.pages.free.back();
  s.pages.free.pop_back();
  if (!pages_[pi])
    pages_[pi] = new page;
  pages_in_use_.fetch_add(1, std::memory_order_relaxed);
  return pi;
}

void region_allocator::put_page(scheduler &s, std::size_t pi) {
  // (A page passed on from a pool it only rested in may never have been
  // used: no metadata yet.)
  if (page *pg = pages_[pi])
    pg->pool = nullptr;
  if (!s.parent) {
    madvise(page_base(pi), kPageSize, MADV_DONTNEED);
    s.pages.free.push_back(pi);
    return;
  }
  s.pages.free.push_back(pi);
  if (s.pages.free.size() <= kPoolHighWater)
    return;
  // Past the high-water mark: all but a batch go up, the coldest (longest
  // free) first; the parent may pass them on.
  std::size_t give = s.pages.free.size() - kPageBatch;
  std::vector<std::size_t> up(s.pages.free.begin(),
                              s.pages.free.begin() + std::ptrdiff_t(give));
  s.pages.free.erase(s.pages.free.begin(),
                     s.pages.free.begin() + std::ptrdiff_t(give));
  s.pages.pages_out += give;
  pool_guard lk(s.parent->pages.lock);
  s.parent->pages.pages_in += give;
  for (std::size_t q : up)
    put_page(*s.parent, q);
}

// The last slab of the first run of n free slabs in a page's used bits, or
// -1: a whole word at a time where it is all used or all free (one slab, the
// common case: the first zero bit).
static int last_of_run(const uint64_t (&used)[kSlabsPerPage / 64], int n) {
  constexpr int kWords = kSlabsPerPage / 64;
  if (n == 1) {
    for (int w = 0; w < kWords; ++w)
      if (~used[w])
        return w * 64 + std::countr_zero(~used[w]);
    return -1;
  }
  int run = 0;
  for (int w = 0; w < kWords; ++w) {
    const uint64_t u = used[w];
    if (u == ~uint64_t(0)) {
      run = 0;
      continue;
    }
    if (u == 0) {
      if (run + 64 >= n)
        return w * 64 + (n - run) - 1;
      run += 64;
      continue;
    }
    for (int b = 0; b < 64; ++b) {
      run = (u >> b & 1) ? 0 : run + 1;
      if (run == n)
        return w * 64 + b;
    }
  }
  return -1;
}

char *region_allocator::take_slabs(scheduler &s, int n) {
  pool_guard lk(s.pages.lock);
  // First fit in a page of s with room, newest first (its slabs are warm).
  std::vector<std::size_t> &room = s.pages.with_room;
  for (std::size_t k = room.size(); k-- > 0;) {
    std::size_t pi = room[k];
    page &pg = *pages_[pi];
    if (kSlabsPerPage - pg.nused < n)
      continue;
    int last = last_of_run(pg.used, n);
    if (last < 0)
      continue;
    int first = last - n + 1;
    for (int j = first; j <= last; ++j)
      pg.used[j / 64] |= uint64_t(1) << (j % 64);
    pg.nused += n;
    if (pg.nused == kSlabsPerPage) {
      room[k] = room.back();
      room.pop_back();
      pg.listed = false;
    }
    slabs_in_use_.fetch_add(std::size_t(n), std::memory_order_relaxed);
    return page_base(pi) + std::size_t(first) * kSlabSize;
  }
  std::size_t pi = pop_page(s);
  if (pi == npages_)
    return nullptr;
  page &pg = *pages_[pi];
  pg.pool = &s;
  for (int j = 0; j < n; ++j)
    pg.used[j / 64] |= uint64_t(1) << (j % 64);
  pg.nused = n;
  if (n < kSlabsPerPage) {
    room.push_back(pi);
    pg.listed = true;
  }
  slabs_in_use_.fetch_add(std::size_t(n), std::memory_order_relaxed);
  return page_base(pi);
}

void region_allocator::give_slabs(char *first, int n) {
  std::size_t pi = page_index(first);
  page &pg = *pages_[pi];
  // The page's pool stays while these slabs are in use.
  scheduler &s = *pg.pool;
  int s0 = int((first - page_base(pi)) / kSlabSize);
  for (int j = s0; j < s0 + n; ++j)
    set_slab(pi * kSlabsPerPage + std::size_t(j), nullptr);
  pool_guard lk(s.pages.lock);
  for (int j = s0; j < s0 + n; ++j)
    pg.used[j / 64] &= ~(uint64_t(1) << (j % 64));
  pg.nused -= n;
  slabs_in_use_.fetch_sub(std::size_t(n), std::memory_order_relaxed);
  std::vector<std::size_t> &room = s.pages.with_room;
  if (pg.nused == 0) {
    // The whole page is free: back to its scheduler's pool.
    if (pg.listed) {
      for (std::size_t k = 0; k < room.size(); ++k)
        if (room[k] == pi) {
          room[k] = room.back();
          room.pop_back();
          break;
        }
      pg.listed = false;
    }
    pages_in_use_.fetch_sub(1, std::memory_order_relaxed);
    put_page(s, pi);
  } else if (!pg.listed) {
    room.push_back(pi);
    pg.listed = true;
  }
}

slab *region_allocator::new_slab(region &r, int cls, std::size_t size) {
  auto *s = new slab;
  std::size_t bytes = cls >= 0 ? kSlabSize : size;
  std::size_t nslabs = (bytes + kSlabSize - 1) / kSlabSize;
  char *data;
  if (nslabs <= std::size_t(kSlabsPerPage)) {
    data = take_slabs(*r.owner, int(nslabs));
  } else {
    std::size_t npg = (bytes + kPageSize - 1) / kPageSize;
    data = take_pages(npg);
    nslabs = npg * kSlabsPerPage;
    if (data)
      for (std::size_t i = 0; i < npg; ++i) {
        page &pg = *pages_[page_index(data) + i];
        pg.whole = true;
        pg.pool = r.owner;
      }
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
  // Published once its metadata is set (find reads the table unlocked).
  for (std::size_t k = 0; k < nslabs; ++k)
    set_slab(slab_index(data + k * kSlabSize), s);
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
      for (std::size_t j = 0; j < std::size_t(kSlabsPerPage); ++j)
        set_slab((first + i) * kSlabsPerPage + j, nullptr);
      page &pg = *pages_[first + i];
      scheduler &owner = *pg.pool;
      pool_guard lk(owner.pages.lock);
      pg.whole = false;
      pages_in_use_.fetch_sub(1, std::memory_order_relaxed);
      put_page(owner, first + i);
    }
  }
  for (uint32_t i = 0; i < s->nobjs; ++i)
    delete s->slots[i].node.load(std::memory_order_relaxed);
  delete s;
}

void *region_allocator::alloc(region &r, std::size_t size) {
  std::lock_guard<std::mutex> lk(r.heap_lock);
  return alloc_locked(r, size);
}

bool region_allocator::alloc_n(region &r, std::size_t size, int n, void **out) {
  std::lock_guard<std::mutex> lk(r.heap_lock);
  for (int i = 0; i < n; ++i) {
    out[i] = alloc_locked(r, size);
    if (!out[i]) {
      while (i-- > 0)
        free_locked(find(out[i]));
      return false;
    }
  }
  return true;
}

void *region_allocator::alloc_locked(region &r, std::size_t size) {
  if (size > kMaxSmallObject) {
    slab *s = new_slab(r, -1, size);
    if (!s)
      return nullptr;
    s->free_head = 1;
    s->nused = 1;
    s->slots[0].producer.store(0, std::memory_order_relaxed);
    s->slots[0].live.store(true, std::memory_order_relaxed);
    r.bytes.fetch_add(s->obj_size, std::memory_order_relaxed);
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
  s->slots[i].producer.store(0, std::memory_order_relaxed);
  s->slots[i].live.store(true, std::memory_order_relaxed);
  if (++s->nused == s->nobjs)
    list_remove(r.partial[cls], s);
  r.bytes.fetch_add(s->obj_size, std::memory_order_relaxed);
  return s->data + std::size_t(i) * s->obj_size;
}

bool region_allocator::free(const object_ref &ref) {
  std::lock_guard<std::mutex> lk(ref.s->owner->heap_lock);
  if (!ref.s->slots[ref.index].live.load(std::memory_order_relaxed))
    return false;
  free_locked(ref);
  return true;
}

void region_allocator::free_locked(const object_ref &ref) {
  slab *s = ref.s;
  slab::slot &sl = s->slots[ref.index];
  s->owner->bytes.fetch_sub(s->obj_size, std::memory_order_relaxed);
  sl.live.store(false, std::memory_order_relaxed);
  delete sl.node.exchange(nullptr, std::memory_order_relaxed);
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
  std::lock_guard<std::mutex> lk(r.heap_lock);
  r.bytes.store(0, std::memory_order_relaxed);
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
  slab *s = slab_at(slab_index(a));
  if (!s)
    return {};
  std::size_t off = std::size_t(a - s->data);
  auto i = uint32_t(off / s->obj_size);
  if (i >= s->nobjs || !s->slots[i].live.load(std::memory_order_relaxed))
    return {};
  return {s, i, off % s->obj_size == 0};
}

std::string region_allocator::check(scheduler &top) const {
  // Every pool's lock, deeper schedulers first (the order refill and
  // put_page take them in).
  std::vector<scheduler *> all{&top};
  for (std::size_t k = 0; k < all.size(); ++k)
    for (scheduler *c : all[k]->children)
      all.push_back(c);
  std::vector<std::unique_lock<std::mutex>> held;
  for (std::size_t k = all.size(); k-- > 0;)
    held.emplace_back(all[k]->pages.lock);
  char buf[200];
  auto fail = [&](const char *fmt, std::size_t a, std::size_t b) {
    std::snprintf(buf, sizeof buf, fmt, a, b);
    return std::string(buf);
  };
  // 1: free in a pool, 2: listed with room.
  std::vector<unsigned char> seen(bump_, 0);
  std::vector<const scheduler *> todo{&top};
  while (!todo.empty()) {
    const scheduler &s = *todo.back();
    todo.pop_back();
    for (const scheduler *c : s.children)
      todo.push_back(c);
    for (std::size_t pi : s.pages.free) {
      if (pi >= bump_)
        return fail("page %zu in scheduler %zu's pool was never taken", pi,
                    std::size_t(s.id));
      if (seen[pi] & 1)
        return fail("page %zu is free in two pools (the second: "
                    "scheduler %zu)",
                    pi, std::size_t(s.id));
      seen[pi] |= 1;
    }
    for (std::size_t pi : s.pages.with_room) {
      const page *pg = pi < bump_ ? pages_[pi] : nullptr;
      if (!pg || (seen[pi] & 2) || pg->pool != &s || !pg->listed ||
          pg->nused == 0 || pg->nused == kSlabsPerPage)
        return fail("page %zu is listed with room by scheduler %zu but is "
                    "not a partly used page of its own (or listed twice)",
                    pi, std::size_t(s.id));
      seen[pi] |= 2;
    }
  }
  std::size_t in_use = 0, slabs = 0;
  for (std::size_t pi = 0; pi < bump_; ++pi) {
    const page *pg = pages_[pi];
    bool used = pg && (pg->nused > 0 || pg->whole);
    bool pooled = seen[pi] & 1;
    if (used == pooled)
      return fail(used ? "page %zu is in use and free in a pool (%zu)"
                       : "page %zu is neither in use nor in a pool: leaked "
                         "(%zu)",
                  pi, 0);
    if (!used)
      continue;
    ++in_use;
    if (!pg->pool)
      return fail("page %zu is in use without a scheduler (%zu)", pi, 0);
    if ((seen[pi] & 2) !=
        ((pg->nused > 0 && pg->nused < kSlabsPerPage && !pg->whole) ? 2 : 0))
      return fail("page %zu: listed with room is %zu, its use says "
                  "otherwise",
                  pi, std::size_t(seen[pi] & 2));
    for (int j = 0; j < kSlabsPerPage; ++j) {
      const slab *sl = slab_at(pi * kSlabsPerPage + std::size_t(j));
      bool bit = pg->whole || (pg->used[j / 64] >> (j % 64) & 1);
      if (bit != (sl != nullptr))
        return fail("page %zu slab %zu: used bit and slab table disagree", pi,
                    std::size_t(j));
      if (!sl)
        continue;
      if (sl->owner->owner != pg->pool)
        return fail("page %zu holds a slab of region %zu, which another "
                    "scheduler owns",
                    pi, std::size_t(sl->owner->id));
      if (!pg->whole)
        ++slabs;
    }
  }
  if (in_use != pages_in_use())
    return fail("%zu pages in use, the count says %zu", in_use, pages_in_use());
  std::size_t small_slabs = slabs_in_use();
  if (slabs != small_slabs)
    return fail("%zu slabs in use in carved pages, the count says %zu", slabs,
                small_slabs);
  return "";
}

} // namespace weft::regions
