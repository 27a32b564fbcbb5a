// The sw engine's per-parent dependence map: address -> the tasks that last
// accessed it. Only the thread running the parent touches it (dependences
// exist only among siblings), so it takes no locks. An open-addressing table
// (linear probing, backward-shift deletion) whose slots are an 8-byte key and
// an 8-byte word, in two arrays (a probe reads only keys, so a lookup that
// finds nothing touches no word): most addresses have a single task (a
// writer of fresh data, a chain's last writer, a lone reader), and the word
// then holds that task and its access class (a *lone* slot); any other state
// (a stage of several tasks, the stage before it, a mutexinoutset stage's
// lock) lives in a one-line dep_entry of its own that the word points to (a
// *full* slot). An insertion and the backward shift of a deletion thus write
// 16 bytes a slot, where a 64-byte entry beside each key took 72.
// A FIFO log of inserted addresses goes with it: each insertion looks at up
// to two of the oldest records and deletes their entries once every task in
// them has retired (an entry with a live task is logged again under it). A
// record whose own task has not retired ends the look, without a lookup, and
// stays at the head (past kLogHigh records it goes to the end instead). The
// table thus stays a few times the number of unfinished accesses, without
// sweeps.
#pragma once

#include "core/task.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace weft {

// Whether t has retired: its successor list is closed, so the map's
// references to it order nothing any more.
inline bool retired(const task *t) {
  return t->succ_state.load(std::memory_order_acquire) & kSuccClosed;
}

class worker;

// Access classes: tasks of one class on one address form a *stage*; a new
// task joins the current stage if its class is concurrent (in, inoutset,
// mutexinoutset) and equal to the stage's, else it starts a new stage after
// every member of the current one.
enum class access : uint8_t { none = 0, in, out, inoutset, mutexinoutset };

// The lock shared by the members of one mutexinoutset stage.
struct mutex_group {
  std::atomic<int32_t> refs{1};
  std::mutex lock;
  bool held = false;
  std::vector<task *> waiters; // FIFO: served from the front
  std::size_t next_waiter = 0;
  uintptr_t addr = 0;
};

// The mutex groups a task holds while it runs, in address order.
struct mutex_set {
  uint32_t n = 0;
  uint32_t acquired = 0;
  mutex_group *g[1];
};

// A full slot's state (see the file's comment): stages of several tasks, or a
// mutexinoutset stage.
struct alignas(64) dep_entry {
  uintptr_t addr;   // the key (a copy of the slot's)
  task *cur_one;    // current stage: first member
  task **cur_more;  // current stage: members 1..cur_n-1
  task *prev_one;   // stage before (joiners depend on it): first member
  task **prev_more; // members 1..prev_n-1
  mutex_group *mx;  // current stage's lock (mutexinoutset stages)
  uint32_t cur_n;
  uint32_t prev_n;
  uint32_t cur_more_cap;
  access kind;
  bool prev_more_block; // prev_more is a block (dep_domain::alloc_members)

  task *cur(uint32_t i) const { return i == 0 ? cur_one : cur_more[i - 1]; }
  task *prev(uint32_t i) const { return i == 0 ? prev_one : prev_more[i - 1]; }
};
static_assert(sizeof(dep_entry) == 64);

// A slot's word: 0 while a new slot is being filled; a lone task | its access
// class (in, out or inoutset: the low bits, which a task's alignment leaves
// free), the entry's only stage, with no stage before it and no lock; or a
// pointer to a dep_entry (low bits 0).
namespace dep_word {
inline constexpr uintptr_t kKindMask = 7;
static_assert(alignof(task) > kKindMask && alignof(dep_entry) > kKindMask);
static_assert(static_cast<uintptr_t>(access::in) <= kKindMask &&
              static_cast<uintptr_t>(access::out) <= kKindMask &&
              static_cast<uintptr_t>(access::inoutset) <= kKindMask);
inline bool lone(uintptr_t w) { return w & kKindMask; }
inline task *lone_task(uintptr_t w) {
  return reinterpret_cast<task *>(w & ~kKindMask);
}
inline access lone_kind(uintptr_t w) {
  return static_cast<access>(w & kKindMask);
}
inline uintptr_t of_lone(task *t, access a) {
  return reinterpret_cast<uintptr_t>(t) | static_cast<uintptr_t>(a);
}
inline dep_entry *full(uintptr_t w) { return reinterpret_cast<dep_entry *>(w); }
// The first task of the current stage (tests, and re-logging).
inline task *first(uintptr_t w) {
  return lone(w) ? lone_task(w) : full(w)->cur_one;
}
} // namespace dep_word

// The map holds one reference on a task however many slots name it; the
// number of slots is task::engine_data, written only by the parent's thread.
// map_release forgets one slot.
void release_task_ref(task *t, worker &w);
inline void map_release(task *t, worker &w) {
  if (--t->engine_data == 0)
    release_task_ref(t, w);
}

class dep_domain {
public:
  dep_domain();
  ~dep_domain();
  dep_domain(const dep_domain &) = delete;
  dep_domain &operator=(const dep_domain &) = delete;

  // The word of addr's slot (dep_word), 0 if absent.
  uintptr_t find(uintptr_t addr) const { return finder(*this)(addr); }

  // A lookup for many addresses in a row (the map unchanged meanwhile): the
  // table's fields are read once.
  class finder {
  public:
    explicit finder(const dep_domain &d)
        : keys_(d.keys_), mask_(d.mask_), shift_(d.shift_) {}
    uintptr_t operator()(uintptr_t addr) const {
      std::size_t i = slot(addr);
      return i ? keys_[mask_ + i] : 0; // words_ = keys_ + mask_ + 1
    }
    // addr's slot + 1, 0 if absent (the probe loop keeps only the index).
    std::size_t slot(uintptr_t addr) const {
      std::size_t i;
      return probe(keys_, mask_, shift_, addr, i) ? i + 1 : 0;
    }

  private:
    const uintptr_t *keys_;
    std::size_t mask_;
    uint32_t shift_;
  };

  // The word of addr's slot, created 0 if absent; the caller sets it (a
  // lone word, or full() of it) before the map is used again. May delete
  // dead entries and grow: references to other slots are then invalid.
  // Inline in submit's loop (out of line it cost a call an address).
  [[gnu::always_inline]] uintptr_t &find_or_insert(uintptr_t addr, worker &w) {
    if (log_size() > kLogSlack && collect_due())
      collect(w);
    uint32_t i;
    if (probe(addr, i))
      return words_[i];
    if (used_ + 1 > (mask_ + 1) / 2) {
      grow();
      probe(addr, i);
    }
    keys_[i] = addr;
    words_[i] = 0;
    ++used_;
    return words_[i];
  }

  // Makes the slot whose word is `word` (a reference from find_or_insert)
  // full: a dep_entry holding what the word held (a lone task's stage, or
  // nothing for a new slot), which stays at its address until the slot is
  // deleted or made lone again.
  dep_entry &make_full(uintptr_t addr, uintptr_t &word) {
    if (word && !dep_word::lone(word))
      return *dep_word::full(word);
    dep_entry *e = static_cast<dep_entry *>(take_block());
    *e = dep_entry{};
    e->addr = addr;
    if (word) {
      e->cur_one = dep_word::lone_task(word);
      e->cur_n = 1;
      e->kind = dep_word::lone_kind(word);
    }
    word = reinterpret_cast<uintptr_t>(e);
    return *e;
  }

  // Makes a full slot lone again when its entry holds what a lone word can
  // (one task in one in, out or inoutset stage, no stage before it, no lock).
  void make_lone_if_one(uintptr_t &word) {
    dep_entry *e = dep_word::full(word);
    if (e->cur_n != 1 || e->prev_n != 0 || e->mx ||
        e->kind == access::mutexinoutset)
      return;
    if (e->cur_more)
      free_members(e->cur_more, is_block(e->cur_more_cap));
    word = dep_word::of_lone(e->cur_one, e->kind);
    free_entry(e);
  }

  // Log that `t` now appears in the entry for addr (called once per entry
  // created, after the task is placed in it). The record holds one of the
  // map's slots on t (task::engine_data), so that the collection may read
  // t's state before it looks the entry up.
  void log_insert(uintptr_t addr, task *t) {
    ++t->engine_data;
    push_log(addr, t);
  }

  // Release every entry (all children have finished, or no more will come),
  // at a cost in the entries in use, not the table's size: the log names
  // each of them once (see clear in the .cpp).
  void clear(worker &w);
  uint32_t size() const { return used_; }

  // The log's length up to which a record whose task has not retired stops
  // the collection (see collect): the table may then hold up to this many
  // retired entries beyond the live ones.
  static constexpr std::size_t kLogHigh = 2048;

  // Drops the map's references to the entry's tasks and frees its storage
  // (the caller frees its slot).
  void drop(dep_entry &e, worker &w);
  void drop_prev(dep_entry &e, worker &w);

  // A stage's members beyond its first (dep_entry::cur_more, prev_more): an
  // array for at least n of them, its capacity in cap. Up to kBlockMembers
  // it is a block of the entries' free list (a stage of a few readers, the
  // common case, takes no malloc and frees none), beyond that malloc'd.
  static constexpr uint32_t kBlockMembers = sizeof(dep_entry) / sizeof(task *);
  static bool is_block(uint32_t cap) { return cap <= kBlockMembers; }
  task **alloc_members(uint32_t n, uint32_t &cap) {
    if (n <= kBlockMembers) {
      cap = kBlockMembers;
      return reinterpret_cast<task **>(take_block());
    }
    cap = n;
    return alloc_members_big(n);
  }
  void free_members(task **a, bool block) {
    if (block)
      free_block(a);
    else
      std::free(a);
  }
  // Makes room in the current stage's array for one more member.
  void grow_members(dep_entry &e) {
    if (!e.cur_more)
      e.cur_more = alloc_members(1, e.cur_more_cap);
    else
      grow_full_members(e);
  }

private:
  // A record names a task that was in the entry when logged. While that task
  // has not retired the entry has a live task: the task itself, or one of
  // the later stages, which follow it (and did not start before it ended).
  struct log_record {
    uintptr_t addr;
    task *t;
  };
  static constexpr std::size_t kLogSlack = 64;
  static constexpr std::size_t kPrefetchAhead = 8;

  static uint32_t slot_of(uintptr_t addr, uint32_t shift) {
    return static_cast<uint32_t>((addr * 0x9E3779B97F4A7C15ull) >> shift);
  }
  uint32_t slot_of(uintptr_t addr) const { return slot_of(addr, shift_); }
  // Whether addr (never 0) is in the table; slot is set to its slot, or to
  // the free slot that ends its probe run: the one probe loop of the table
  // (inlined, each exit's answer is a constant the caller's branch folds).
  static bool probe(const uintptr_t *keys, std::size_t mask, uint32_t shift,
                    uintptr_t addr, std::size_t &slot) {
    for (std::size_t i = slot_of(addr, shift);; i = (i + 1) & mask) {
      uintptr_t k = keys[i];
      if (k == addr) {
        slot = i;
        return true;
      }
      if (k == 0) {
        slot = i;
        return false;
      }
    }
  }
  bool probe(uintptr_t addr, uint32_t &slot) const {
    std::size_t i;
    bool found = probe(keys_, mask_, shift_, addr, i);
    slot = static_cast<uint32_t>(i);
    return found;
  }
  // The slot of an address the log names (it must be in the table).
  uint32_t logged_slot(uintptr_t addr) const;
  std::size_t log_size() const { return log_tail_ - log_head_; }
  void push_log(uintptr_t addr, task *t) {
    if (log_tail_ - log_head_ > log_mask_)
      grow_log();
    log_[log_tail_++ & log_mask_] = {addr, t};
  }
  // Whether collect would do anything: the oldest record's task has retired,
  // or the log is past its high mark (a live head ends the collection below
  // it; the check is inline, as most insertions on a busy map meet one).
  bool collect_due() const {
    return retired(log_[log_head_ & log_mask_].t) || log_size() > kLogHigh;
  }
  void collect(worker &w);        // up to two of the oldest records
  void collect_oldest(worker &w); // the oldest, its task retired
  void erase_slot(uint32_t i);
  void grow();
  void grow_log();
  void allocate(uint32_t capacity);             // an empty table
  void release_slot(uintptr_t word, worker &w); // its references, its entry
  // The free list of 64-byte blocks: dep_entry storage and small member
  // arrays (alloc_members), linked through their first word.
  struct free_node {
    free_node *next;
  };
  void *take_block() {
    free_node *b = free_blocks_;
    if (!b)
      return new_block();
    free_blocks_ = b->next;
    return b;
  }
  void free_block(void *b) { free_blocks_ = new (b) free_node{free_blocks_}; }
  void free_entry(dep_entry *e) { free_block(e); }
  void *new_block();
  void free_blocks(); // the free list's storage
  static task **alloc_members_big(uint32_t n);
  void grow_full_members(dep_entry &e); // doubles a full array

  // The slots: keys (0: a free slot) and, in an array of their own right
  // after them (one allocation), words (dep_word), so that a probe reads 8
  // bytes a slot and a lookup that finds nothing touches no word.
  uintptr_t *keys_ = nullptr;
  uintptr_t *words_ = nullptr; // keys_ + capacity
  free_node *free_blocks_ = nullptr;

  std::vector<log_record> log_; // ring buffer, power-of-two size
  std::size_t log_mask_;        // its size - 1
  std::size_t log_head_ = 0, log_tail_ = 0;
  uint32_t mask_ = 0;
  uint32_t shift_ = 64;
  uint32_t used_ = 0;
};

} // namespace weft
