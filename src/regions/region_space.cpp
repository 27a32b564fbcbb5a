#include "region_space.hpp"

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
               "page_requests_by_level=%s\n",
               tree.shape().c_str(), (unsigned long long)sp.live_regions(),
               (unsigned long long)t.placed, (unsigned long long)t.on_worker,
               t.placed ? 100.0 * double(t.on_worker) / double(t.placed) : 0.0,
               (unsigned long long)t.on_leaf,
               t.placed ? 100.0 * double(t.on_leaf) / double(t.placed) : 0.0,
               requests.c_str());
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
