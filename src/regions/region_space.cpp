#include "region_space.hpp"

#include "base/check.hpp"
#include "base/env.hpp"
#include "base/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

namespace weft::regions {

region_space::region_space() : alloc_(tree_.top()) {
  void *d = mmap(nullptr, kDirSize * sizeof(*dir_), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (d == MAP_FAILED)
    fatal("weft regions: cannot reserve the region table (%s)",
          std::strerror(errno));
  dir_ = static_cast<std::atomic<std::atomic<region *> *> *>(d);
  root_.is_region = true;
  root_.owner = &tree_.top();
  tree_.top().regions.fetch_add(1, std::memory_order_relaxed);
  root_.id = WEFT_ROOT_REGION;
  set_entry(WEFT_ROOT_REGION, &root_);
  nregions_.store(1, std::memory_order_release);
  live_regions_ = 1;
  // The program's main code holds the root region for writing, for ever.
  root_entry_.task = &root_task_;
  root_entry_.at = root_entry_.start = root_entry_.target = &root_;
  root_entry_.last_desc = &root_entry_;
  root_entry_.rw = true;
  root_entry_.granted = true;
  root_.head = root_.tail = &root_entry_;
  root_task_.entries = &root_entry_;
  root_task_.nentries = 1;
}

region_space::~region_space() = default;

void region_space::set_entry(weft_rid id, region *r) {
  std::atomic<region *> *chunk =
      dir_[id >> kChunkBits].load(std::memory_order_relaxed);
  if (!chunk) {
    chunk = new std::atomic<region *>[kChunk]();
    dir_[id >> kChunkBits].store(chunk, std::memory_order_release);
  }
  chunk[id & (kChunk - 1)].store(r, std::memory_order_release);
}

namespace {
void report_unwaited_exception() {
  if (region_space::get().take_exception())
    std::fprintf(stderr, "weft: a region task threw a C++ exception that no "
                         "weft_wait reported\n");
}

// WEFT_STATS: the region statistics at exit (under a scheduler tree, the
// placement hits: placed tasks that ran on the worker chosen for them).
void report_region_stats() {
  const char *s = env::get("WEFT_STATS");
  if (!s || *s == '0')
    return;
  region_space &sp = region_space::get();
  scheduler_tree &tree = sp.schedulers();
  scheduler_tree::placement_totals t = tree.totals();
  std::string requests;
  for (uint64_t n : sp.page_requests_by_level())
    requests += (requests.empty() ? "" : ",") + std::to_string(n);
  std::fprintf(stderr,
               "weft regions: schedulers=%s live_regions=%llu placed=%llu "
               "on_chosen_worker=%llu (%.1f%%) on_chosen_leaf=%llu (%.1f%%) "
               "page_requests_by_level=%s with_producer=%llu "
               "placed_on_producer=%llu (%.1f%%) ran_on_producer=%llu "
               "(%.1f%%)\n",
               tree.shape().c_str(), (unsigned long long)sp.live_regions(),
               (unsigned long long)t.placed, (unsigned long long)t.on_worker,
               t.placed ? 100.0 * double(t.on_worker) / double(t.placed) : 0.0,
               (unsigned long long)t.on_leaf,
               t.placed ? 100.0 * double(t.on_leaf) / double(t.placed) : 0.0,
               requests.c_str(), (unsigned long long)t.with_producer,
               (unsigned long long)t.placed_on_producer,
               t.with_producer ? 100.0 * double(t.placed_on_producer) /
                                     double(t.with_producer)
                               : 0.0,
               (unsigned long long)t.ran_on_producer,
               t.with_producer
                   ? 100.0 * double(t.ran_on_producer) / double(t.with_producer)
                   : 0.0);
}
} // namespace

std::string region_space::check_allocator() {
  std::lock_guard<std::mutex> lk(struct_lock_);
  return alloc_.check(tree_.top());
}

std::vector<uint64_t> region_space::page_requests_by_level() {
  std::vector<uint64_t> out(std::size_t(tree_.levels()), 0);
  std::vector<scheduler *> todo{&tree_.top()};
  while (!todo.empty()) {
    scheduler &s = *todo.back();
    todo.pop_back();
    {
      std::lock_guard<std::mutex> lk(s.pages.lock);
      out[std::size_t(s.level)] += s.pages.requests;
    }
    for (scheduler *c : s.children)
      todo.push_back(c);
  }
  return out;
}

region_space &region_space::get() {
  // Never destroyed: tasks and atexit handlers may use regions until exit.
  static region_space *s = [] {
    auto *p = new region_space;
    std::atexit(report_unwaited_exception);
    std::atexit(report_region_stats);
    return p;
  }();
  return *s;
}

void region_space::record_exception(std::exception_ptr e) {
  auto *p = new std::exception_ptr(std::move(e));
  std::exception_ptr *expected = nullptr;
  if (!exc_.compare_exchange_strong(expected, p, std::memory_order_acq_rel))
    delete p; // the first one wins
}

std::exception_ptr region_space::take_exception() {
  if (!exc_.load(std::memory_order_acquire))
    return nullptr;
  std::exception_ptr *p = exc_.exchange(nullptr, std::memory_order_acq_rel);
  if (!p)
    return nullptr;
  std::exception_ptr e = std::move(*p);
  delete p;
  return e;
}

region *region_space::find_region(weft_rid id, const char *call,
                                  const char *what) {
  if (id >= nregions_.load(std::memory_order_acquire)) {
    set_error(WEFT_EINVAL, "%s: %s is region %u, which was never allocated",
              call, what, id);
    return nullptr;
  }
  region *r = lookup_region(id);
  if (!r)
    set_error(WEFT_EINVAL, "%s: %s is region %u, which was freed", call, what,
              id);
  return r;
}

region *region_space::new_region(region &parent, int level_hint) {
  auto *r = new region;
  r->is_region = true;
  r->parent = &parent;
  r->depth = parent.depth + 1;
  r->level_hint = level_hint;
  r->owner = &tree_.place_region(*parent.owner, level_hint);
  uint64_t id = nregions_.load(std::memory_order_relaxed);
  if (id > uint64_t(weft_rid(-1)))
    fatal("weft_ralloc: every region ID (2^32) has been used");
  r->id = weft_rid(id);
  set_entry(r->id, r);
  nregions_.store(id + 1, std::memory_order_release);
  r->next_sibling = parent.first_child;
  if (parent.first_child)
    parent.first_child->prev_sibling = r;
  parent.first_child = r;
  ++live_regions_;
  return r;
}

void region_space::delete_region(region &r) {
  while (region *c = r.first_child)
    delete_region(*c);
  alloc_.release_all(r);
  auto &parent = static_cast<region &>(*r.parent);
  if (r.prev_sibling)
    r.prev_sibling->next_sibling = r.next_sibling;
  else
    parent.first_child = r.next_sibling;
  if (r.next_sibling)
    r.next_sibling->prev_sibling = r.prev_sibling;
  set_entry(r.id, nullptr);
  tree_.unplace_region(*r.owner);
  --live_regions_;
  delete &r;
}

void *region_space::alloc(region &r, std::size_t size) {
  if (!tracks_producers())
    return alloc_.alloc(r, size);
  // A new object has no write of its own: its last producer is the region's
  // cover's. The cover is normalised before the allocator adds the object to
  // r.bytes, so its bytes are counted once.
  std::lock_guard<std::mutex> lk(r.producers_lock);
  producer_mark c = normalise(r);
  void *p = alloc_.alloc(r, size);
  if (p && c.worker >= 0)
    own_of(r)[bucket(c.worker)].fetch_add(alloc_.object_size(alloc_.find(p)),
                                          std::memory_order_relaxed);
  return p;
}

bool region_space::alloc_n(region &r, std::size_t size, int n, void **ptrs) {
  if (!tracks_producers())
    return alloc_.alloc_n(r, size, n, ptrs);
  std::lock_guard<std::mutex> lk(r.producers_lock);
  producer_mark c = normalise(r);
  if (!alloc_.alloc_n(r, size, n, ptrs))
    return false;
  if (c.worker >= 0) {
    uint64_t bytes = 0;
    for (int i = 0; i < n; ++i)
      bytes += alloc_.object_size(alloc_.find(ptrs[i]));
    own_of(r)[bucket(c.worker)].fetch_add(bytes, std::memory_order_relaxed);
  }
  return true;
}

namespace {
void take_bytes(std::atomic<uint64_t> &counter, uint64_t bytes,
                [[maybe_unused]] const region &r) {
  uint64_t before = counter.fetch_sub(bytes, std::memory_order_relaxed);
  WEFT_CHECK(before >= bytes,
             "region %u: its bytes by last producer went below zero (%llu - "
             "%llu)",
             r.id, (unsigned long long)before, (unsigned long long)bytes);
}
} // namespace

bool region_space::free_object(const object_ref &ref) {
  if (!tracks_producers())
    return alloc_.free(ref);
  region &r = *ref.s->owner;
  const uint64_t bytes = alloc_.object_size(ref);
  std::lock_guard<std::mutex> lk(r.producers_lock);
  producer_mark c = normalise(r);
  const int w = object_producer(*ref.s, ref.index, c);
  if (!alloc_.free(ref))
    return false;
  if (w >= 0)
    take_bytes(own_of(r)[bucket(w)], bytes, r);
  return true;
}

region_space::producer_mark region_space::cover(const region &r) {
  producer_mark best;
  for (const node *x = &r; x; x = x->parent) {
    producer_mark m = unpack_mark(
        static_cast<const region *>(x)->whole.load(std::memory_order_relaxed));
    if (m.stamp > best.stamp)
      best = m;
  }
  return best;
}

int region_space::object_producer(const slab &s, uint32_t i,
                                  const producer_mark &cover) {
  producer_mark m =
      unpack_mark(s.slots[i].producer.load(std::memory_order_relaxed));
  return m.stamp > cover.stamp ? m.worker : cover.worker;
}

std::atomic<uint64_t> *region_space::own_of(region &r) {
  std::atomic<uint64_t> *own = r.own.load(std::memory_order_relaxed);
  if (!own) {
    WEFT_CHECK(tree_.workers() > 0,
               "region %u: last producers kept before the workers were "
               "assigned to the schedulers",
               r.id);
    own = new std::atomic<uint64_t>[std::size_t(tree_.workers())]();
    r.own.store(own, std::memory_order_release);
  }
  return own;
}

region_space::producer_mark region_space::normalise(region &r) {
  producer_mark c = cover(r);
  if (c.stamp > r.sum_stamp.load(std::memory_order_relaxed)) {
    std::atomic<uint64_t> *own = own_of(r);
    for (int w = 0; w < tree_.workers(); ++w)
      own[w].store(0, std::memory_order_relaxed);
    own[bucket(c.worker)].store(r.bytes.load(std::memory_order_relaxed),
                                std::memory_order_relaxed);
    r.sum_stamp.store(c.stamp, std::memory_order_relaxed);
  }
  return c;
}

void region_space::produced_object(slab &s, uint32_t i, int w) {
  region &r = *s.owner;
  const uint64_t bytes = s.obj_size;
  std::lock_guard<std::mutex> lk(r.producers_lock);
  producer_mark c = normalise(r);
  int old = object_producer(s, i, c);
  s.slots[i].producer.store(
      pack_mark(clock_.fetch_add(1, std::memory_order_relaxed) + 1, w),
      std::memory_order_relaxed);
  if (old == w)
    return;
  std::atomic<uint64_t> *own = own_of(r);
  if (old >= 0)
    take_bytes(own[bucket(old)], bytes, r);
  own[bucket(w)].fetch_add(bytes, std::memory_order_relaxed);
}

void region_space::produced_region(region &r, int w) {
  r.whole.store(
      pack_mark(clock_.fetch_add(1, std::memory_order_relaxed) + 1, w),
      std::memory_order_relaxed);
}

uint64_t region_space::pack_region(region &r, uint64_t *by_worker) {
  struct item {
    region *r;
    producer_mark cover;
  };
  thread_local std::vector<item> todo;
  todo.clear();
  todo.push_back({&r, cover(r)});
  uint64_t total = 0;
  const int nw = tree_.workers();
  for (std::size_t k = 0; k < todo.size(); ++k) {
    region &x = *todo[k].r;
    const producer_mark c = todo[k].cover;
    const uint64_t bytes = x.bytes.load(std::memory_order_relaxed);
    total += bytes;
    if (c.stamp > x.sum_stamp.load(std::memory_order_relaxed)) {
      if (c.worker >= 0)
        by_worker[bucket(c.worker)] += bytes;
    } else if (std::atomic<uint64_t> *own =
                   x.own.load(std::memory_order_acquire)) {
      for (int w = 0; w < nw; ++w)
        by_worker[w] += own[w].load(std::memory_order_relaxed);
    }
    for (region *ch = x.first_child;
         ch && todo.size() < std::size_t(kMaxPackedRegions);
         ch = ch->next_sibling) {
      producer_mark m = unpack_mark(ch->whole.load(std::memory_order_relaxed));
      todo.push_back({ch, m.stamp > c.stamp ? m : c});
    }
  }
  return total;
}

object_node &region_space::object_node_of(const object_ref &ref) {
  std::atomic<object_node *> &slot = ref.s->slots[ref.index].node;
  object_node *n = slot.load(std::memory_order_relaxed);
  if (!n) {
    n = new object_node;
    n->parent = ref.s->owner;
    n->depth = ref.s->owner->depth + 1;
    n->owner = ref.s->owner->owner;
    n->s = ref.s;
    n->index = ref.index;
    slot.store(n, std::memory_order_release);
  }
  return *n;
}

entry *region_space::holder_of(rtask &t, node &n) {
  for (node *x = &n; x; x = x->parent)
    for (int i = 0; i < t.nentries; ++i)
      if (t.entries[i].target == x && t.entries[i].granted)
        return &t.entries[i];
  return nullptr;
}

} // namespace weft::regions
