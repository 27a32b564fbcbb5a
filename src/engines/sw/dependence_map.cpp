#include "engines/sw/dependence_map.hpp"

#include "base/check.hpp"
#include "base/error.hpp"
#include "core/worker.hpp"

#include <cstdlib>
#include <cstring>

namespace weft {

namespace {
constexpr uint32_t kMinCapacity = 128;
constexpr uint32_t kShrinkAbove = 4096;

bool entry_dead(const dep_entry &e) {
  for (uint32_t i = 0; i < e.cur_n; ++i)
    if (!retired(e.cur(i)))
      return false;
  for (uint32_t i = 0; i < e.prev_n; ++i)
    if (!retired(e.prev(i)))
      return false;
  return true;
}

void release_mutex_group(mutex_group *g) {
  if (g && g->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete g;
}
} // namespace

void release_task_ref(task *t, worker &w) { w.release_ref(t); }

dep_domain::dep_domain() : log_(kLogSlack * 4), log_mask_(kLogSlack * 4 - 1) {
  allocate(kMinCapacity);
}

dep_domain::~dep_domain() {
  std::free(keys_);
  free_blocks();
}

void dep_domain::allocate(uint32_t capacity) {
  std::size_t bytes = sizeof(uintptr_t) * capacity;
  keys_ = static_cast<uintptr_t *>(std::aligned_alloc(64, 2 * bytes));
  if (!keys_)
    fatal("out of memory for a dependence map of %u entries", capacity);
  words_ = keys_ + capacity;
  std::memset(keys_, 0, bytes);
  mask_ = capacity - 1;
  shift_ = 64 - __builtin_ctz(capacity);
  used_ = 0;
}

void *dep_domain::new_block() {
  void *mem = std::aligned_alloc(alignof(dep_entry), sizeof(dep_entry));
  if (!mem)
    fatal("out of memory for a dependence map entry");
  return mem;
}

void dep_domain::free_blocks() {
  while (free_node *b = free_blocks_) {
    free_blocks_ = b->next;
    std::free(b);
  }
}

task **dep_domain::alloc_members_big(uint32_t n) {
  auto *a = static_cast<task **>(std::malloc(n * sizeof(task *)));
  if (!a)
    fatal("out of memory growing a reader set to %u tasks", n);
  return a;
}

// Doubling; the block's members move to a malloc'd array when it is full.
void dep_domain::grow_full_members(dep_entry &e) {
  uint32_t cap = e.cur_more_cap;
  uint32_t bigger = cap * 2;
  task **more;
  if (is_block(cap)) {
    more = alloc_members_big(bigger);
    std::memcpy(more, e.cur_more, cap * sizeof(task *));
    free_block(e.cur_more);
  } else {
    more =
        static_cast<task **>(std::realloc(e.cur_more, bigger * sizeof(task *)));
    if (!more)
      fatal("out of memory growing a reader set to %u tasks", bigger);
  }
  e.cur_more = more;
  e.cur_more_cap = bigger;
}

// Inline in clear's two loops (out of line it cost a call a slot).
[[gnu::always_inline]] inline void dep_domain::release_slot(uintptr_t word,
                                                            worker &w) {
  if (dep_word::lone(word)) {
    map_release(dep_word::lone_task(word), w);
  } else {
    dep_entry *e = dep_word::full(word);
    if (e->cur_n == 1 && e->prev_n <= 1 && !e->cur_more && !e->prev_more &&
        !e->mx) {
      // One task after at most one (a reader after a writer, submit's
      // chain shape): drop's loops and frees have nothing to do.
      map_release(e->cur_one, w);
      if (e->prev_n)
        map_release(e->prev_one, w);
    } else {
      drop(*e, w);
    }
    free_entry(e);
  }
}

void dep_domain::drop_prev(dep_entry &e, worker &w) {
  if (e.prev_n == 0)
    return;
  for (uint32_t i = 0; i < e.prev_n; ++i)
    map_release(e.prev(i), w);
  if (e.prev_more)
    free_members(e.prev_more, e.prev_more_block);
  e.prev_more = nullptr;
  e.prev_one = nullptr;
  e.prev_n = 0;
}

void dep_domain::drop(dep_entry &e, worker &w) {
  for (uint32_t i = 0; i < e.cur_n; ++i)
    map_release(e.cur(i), w);
  if (e.cur_more)
    free_members(e.cur_more, is_block(e.cur_more_cap));
  drop_prev(e, w);
  if (e.mx)
    release_mutex_group(e.mx);
}

inline uint32_t dep_domain::logged_slot(uintptr_t addr) const {
  uint32_t i;
  [[maybe_unused]] bool found = probe(addr, i);
  WEFT_CHECK(found, "dependence map: logged address %#lx has no entry",
             static_cast<unsigned long>(addr));
  return i;
}

// The oldest record, whose task has retired: delete its entry if every task
// in it has retired, else log the entry again under a live member.
inline void dep_domain::collect_oldest(worker &w) {
  std::size_t mask = log_mask_;
  if (log_size() > kPrefetchAhead)
    __builtin_prefetch(log_[(log_head_ + kPrefetchAhead) & mask].t);
  log_record r = log_[log_head_++ & mask];
  uint32_t i = logged_slot(r.addr);
  uintptr_t word = words_[i];
  if (dep_word::lone(word)) {
    // One task, the common case (a writer of fresh data).
    task *t = dep_word::lone_task(word);
    if (t != r.t && !retired(t)) {
      log_insert(r.addr, t);
      map_release(r.t, w);
      return;
    }
    map_release(t, w);
  } else {
    dep_entry *e = dep_word::full(word);
    WEFT_CHECK(e->addr == r.addr,
               "dependence map: slot %u holds %#lx, key %#lx", i,
               static_cast<unsigned long>(e->addr),
               static_cast<unsigned long>(r.addr));
    if (!entry_dead(*e)) {
      log_insert(r.addr, e->cur_one);
      map_release(r.t, w);
      return;
    }
    drop(*e, w);
    free_entry(e);
  }
  erase_slot(i);
  map_release(r.t, w);
}

// Up to two of the oldest records per insertion, so that the log shrinks
// back to kLogSlack once its tasks retire. A record whose task has not
// retired stops the collection and stays where it is: the records behind
// it are younger and mostly live too (tasks are stolen oldest first), and
// sending it to the end of the log only to find it again live cost a lookup
// per insertion. Past kLogHigh records the live one goes to the end (it
// keeps its slot) and the next is looked at, which bounds the log (and the
// table) when one old task stays unfinished while its siblings come and go.
void dep_domain::collect(worker &w) {
  for (int n = 0; n < 2; ++n) {
    const log_record &r = log_[log_head_ & log_mask_];
    if (!retired(r.t)) {
      if (log_size() <= kLogHigh)
        return;
      log_record live = r;
      ++log_head_;
      push_log(live.addr, live.t);
      continue;
    }
    collect_oldest(w);
  }
}

// Backward-shift deletion: move later members of the probe run into the
// hole so that every entry stays reachable from its home slot.
void dep_domain::erase_slot(uint32_t i) {
  uint32_t j = i;
  for (;;) {
    j = (j + 1) & mask_;
    uintptr_t a = keys_[j];
    if (a == 0)
      break;
    uint32_t k = slot_of(a);
    bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
    if (stays)
      continue;
    keys_[i] = a;
    words_[i] = words_[j];
    i = j;
  }
  keys_[i] = 0;
  --used_;
}

void dep_domain::grow() {
  uintptr_t *old_keys = keys_;
  const uintptr_t *old_words = words_;
  uint32_t old_cap = mask_ + 1;
  uint32_t live = used_;
  allocate(old_cap * 2);
  for (uint32_t i = 0; i < old_cap; ++i) {
    if (!old_keys[i])
      continue;
    uint32_t j = slot_of(old_keys[i]);
    while (keys_[j])
      j = (j + 1) & mask_;
    keys_[j] = old_keys[i];
    words_[j] = old_words[i];
  }
  used_ = live;
  std::free(old_keys);
}

void dep_domain::grow_log() {
  std::vector<log_record> bigger(log_.size() * 2);
  std::size_t n = log_size();
  for (std::size_t i = 0; i < n; ++i)
    bigger[i] = log_[(log_head_ + i) & log_mask_];
  log_.swap(bigger);
  log_mask_ = log_.size() - 1;
  log_head_ = 0;
  log_tail_ = n;
}

// Every slot has exactly one log record (a new slot is logged; the
// collection deletes a slot only with its record, and re-logs a live one
// when it takes its record off), so the log names every slot in use: clear
// walks it, at a lookup a record, rather than every slot of a table that
// kept the size of its busiest interval (up to kShrinkAbove slots). A map
// filled beyond a quarter of its table is scanned instead (a slot costs
// less to scan than a record to look up). Keys are zeroed only after every
// record was looked up: an early zero would cut the probe runs of the
// others, so the walk keeps each record's slot index in its place.
void dep_domain::clear(worker &w) {
  uint32_t cap = mask_ + 1;
  std::size_t n = log_size();
  WEFT_CHECK(n == used_, "dependence map: %zu log records for %u slots", n,
             used_);
  if (static_cast<std::size_t>(used_) * 4 <= cap) {
    for (std::size_t r = log_head_; r != log_tail_; ++r) {
      log_record &rec = log_[r & log_mask_];
      uint32_t i = logged_slot(rec.addr);
      WEFT_CHECK(words_[i] != 0, "dependence map: address %#lx logged twice",
                 static_cast<unsigned long>(rec.addr));
      release_slot(words_[i], w);
      words_[i] = 0;
      map_release(rec.t, w);
      rec.addr = i;
    }
    for (std::size_t r = log_head_; r != log_tail_; ++r)
      keys_[log_[r & log_mask_].addr] = 0;
  } else {
    for (std::size_t r = log_head_; r != log_tail_; ++r)
      map_release(log_[r & log_mask_].t, w);
    for (uint32_t i = 0; i < cap; ++i)
      if (keys_[i]) {
        release_slot(words_[i], w);
        keys_[i] = 0;
      }
  }
  log_head_ = log_tail_ = 0;
  used_ = 0;
  if (cap > kShrinkAbove) {
    std::free(keys_);
    allocate(kMinCapacity);
    free_blocks();
  }
}

} // namespace weft
