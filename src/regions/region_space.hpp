// The region space: the region tree, the objects in it, their dependency
// queues and the Myrmics dependence analysis (paper section V-D) over them.
// One instance. Its nodes are owned by the schedulers of a scheduler tree
// (scheduler_tree.hpp; flat: one scheduler, Myrmics' single scheduler): a
// node's queue and counters change only under its owner's lock. Region
// creation and freeing (the table's growth, the sibling links) have their
// own lock (struct_lock), taken after any scheduler locks and never before
// one. Allocation and spawns do not take it: the region table is read
// without a lock (region IDs are never reused; an entry is cleared before
// its region is deleted), an address's slab is found without one, and each
// region's slab pool has its own heap_lock, each scheduler's page pool its
// own lock (region_allocator.hpp).
// Ready tasks leave the space and run on weft's core.
//
// Dependence analysis. Every region and every object in use by tasks is a
// node with a dependency queue of entries, one entry per (task, non-SAFE
// argument). A child task's entry starts in the queue of the node its parent
// holds (nested in the parent's block there: the parent's entry is
// transparent to its descendants) and moves down the path towards its
// target as the queues on the way let it. A node counts the entries it
// passed down to its children (c_rw / c_ro) and the ones it received from
// its parent (p_rw / p_ro); when a node becomes idle (empty queue, zero
// child counters) it reports its parent counters back and the parent
// subtracts them from its child counters (the paper's boundary protocol,
// which makes delayed reports safe: a report to a parent owned by a
// scheduler the operation does not hold is sent as a message, applied right
// after under that scheduler's lock). An entry is granted at its target when
// it heads the queue (or only granted readers, and its ancestors' entries,
// precede it) and no child is busy (writers: c_rw == c_ro == 0; readers:
// c_rw == 0). A task is ready when all its entries are granted.
#pragma once

#include "base/check.hpp"
#include "region_allocator.hpp"
#include "scheduler_tree.hpp"

#include <weft/regions.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

namespace weft::regions {

struct entry;
struct rtask;

struct node {
  node *parent = nullptr; // enclosing region; nullptr for the root
  entry *head = nullptr, *tail = nullptr;
  uint32_t c_rw = 0, c_ro = 0; // enqueues passed to children, unreported
  uint32_t p_rw = 0, p_ro = 0; // enqueues received from parent, unreported
  // live entries targeting this node or below that started above it
  std::atomic<uint32_t> inbound{0};
  uint32_t depth = 0;         // root: 0
  scheduler *owner = nullptr; // its region's owner, for ever
  bool is_region = false;
  bool idle() const { return !head && c_rw == 0 && c_ro == 0; }
};

inline constexpr int kNumClasses = 24;

struct region : node {
  weft_rid id = 0;
  int level_hint = 0;
  region *first_child = nullptr, *next_sibling = nullptr,
         *prev_sibling = nullptr;
  // Guards the region's slab pool: partial, slabs, and the free lists and
  // counts of its slabs (region_allocator).
  std::mutex heap_lock;
  slab *partial[kNumClasses] = {}; // slabs with free slots, per size class
  slab *slabs = nullptr;           // every slab the region owns
  // Bytes of its live objects (not its sub-regions'), for the score.
  std::atomic<uint64_t> bytes{0};
  // Last producers (scheduler trees only; region_space "last producers"):
  // the last task that wrote the region as a whole (a producer_mark,
  // packed; 0: none), and its own objects' bytes by last producer (one
  // counter per worker, allocated at first use; nullptr: all zero), valid
  // for the writes after the region's cover with stamp sum_stamp.
  std::atomic<uint64_t> whole{0};
  std::atomic<uint64_t> sum_stamp{0};
  std::atomic<std::atomic<uint64_t> *> own{nullptr};
  std::mutex producers_lock; // updates of own and sum_stamp
  ~region() { delete[] own.load(std::memory_order_relaxed); }
};

struct object_node : node {
  slab *s = nullptr;
  uint32_t index = 0;
};

// One (task, argument) in a dependency queue.
struct entry {
  rtask *task = nullptr;
  node *at = nullptr;     // the queue it is in
  node *start = nullptr;  // where it entered (its parent's node)
  node *target = nullptr; // the argument
  entry *prev = nullptr, *next = nullptr;
  entry *outer = nullptr;     // the enclosing (ancestor task's) entry at `at`
  entry *last_desc = nullptr; // last entry of its block (itself if none)
  bool rw = false;
  bool granted = false;
};

// A region task (or a weft_wait's pseudo task).
struct rtask {
  weft_args_fn fn = nullptr;
  int nargs = 0;
  void **args = nullptr; // copied
  entry *entries = nullptr;
  int nentries = 0;
  std::atomic<int> ungranted{0};
  void *core = nullptr;        // the core task running it
  scheduler *placed = nullptr; // the leaf it was placed at (trees only)
  int chosen = -1;             // the worker chosen there (its mailbox)
  int producer = -1;           // the worker that produced most of its bytes
  uint64_t trace_seq = 0;      // its spawn number in a trace (0: untraced)
  bool waiter = false;         // weft_wait's pseudo task
  int waiter_worker = -1;
  std::atomic<bool> ready{false};
};

// The tasks one operation made ready: a few inline, more on the heap (most
// operations release zero or one).
class ready_list {
public:
  void push_back(rtask *t) {
    if (n_ < kInline)
      inline_[n_] = t;
    else
      more_.push_back(t);
    ++n_;
  }
  std::size_t size() const { return n_; }
  rtask *operator[](std::size_t i) const {
    return i < kInline ? inline_[i] : more_[i - kInline];
  }
  void clear() {
    n_ = 0;
    more_.clear();
  }

private:
  static constexpr std::size_t kInline = 8;
  rtask *inline_[kInline];
  std::size_t n_ = 0;
  std::vector<rtask *> more_;
};

class region_space {
public:
  region_space();
  ~region_space();
  static region_space &get();
  // Region creation and freeing: the table's growth and the sibling links.
  std::mutex &struct_lock() { return struct_lock_; }
  scheduler_tree &schedulers() { return tree_; }

  // ---- tree and objects ---------------------------------------------------
  // The live region with this ID, or nullptr (no lock needed; a region the
  // caller does not hold may be freed meanwhile by another thread).
  region *lookup_region(weft_rid id) const {
    if (id >= nregions_.load(std::memory_order_acquire))
      return nullptr;
    return dir_[id >> kChunkBits]
        .load(std::memory_order_acquire)[id & (kChunk - 1)]
        .load(std::memory_order_acquire);
  }
  // The live region with this ID, or nullptr with a message naming call and
  // value (never allocated / freed).
  region *find_region(weft_rid id, const char *call, const char *what);
  // (struct_lock held)
  region *new_region(region &parent, int level_hint);
  void delete_region(region &r); // r idle with no inbound entries
  // With producers tracked, under r's producers lock (then r's heap lock,
  // inside the allocator, which counts r.bytes).
  void *alloc(region &r, std::size_t size);
  bool alloc_n(region &r, std::size_t size, int n, void **ptrs);
  object_ref find_object(const void *p) const { return alloc_.find(p); }
  // false when the object was freed by another thread since the find.
  bool free_object(const object_ref &ref);
  // (the owner of ref's region held)
  object_node &object_node_of(const object_ref &ref);
  region_allocator &allocator() { return alloc_; }
  // The allocator's bookkeeping check (region_allocator::check), taking
  // struct_lock; "" when it holds.
  std::string check_allocator();
  // Page requests (a pool ran out and asked above) made by the schedulers
  // of each level, the top's first (WEFT_STATS).
  std::vector<uint64_t> page_requests_by_level();
  // The object's node, if one exists (tasks use it), else nullptr.
  static object_node *existing_node(const object_ref &ref) {
    return ref.s->slots[ref.index].node.load(std::memory_order_acquire);
  }

  // ---- the calling task --------------------------------------------------
  rtask &root_task() { return root_task_; }
  region &root() { return root_; }
  // t's granted entry whose target is n or encloses n, or nullptr.
  static entry *holder_of(rtask &t, node &n);

  // ---- dependence analysis -----------------------------------------------
  // Enqueue t's entries (targets and holders filled in by the caller, who
  // holds the owners of every start and target: a connected piece of the
  // scheduler tree); tasks that became ready are appended to `ready`. Owners
  // further down are taken into `locks` as entries move there; reports to
  // owners above are queued for drain_reports.
  void enqueue(rtask &t, sched_locks &locks, ready_list &ready);
  // t finished (or a waiter resumed): remove its entries (takes the locks it
  // needs; none may be held), then drain_reports.
  void release(rtask &t, ready_list &ready);
  // Applies the parent-counter reports this thread queued for schedulers it
  // did not hold (each under its scheduler's lock; none may be held).
  void drain_reports(ready_list &ready);

  // Deletes n if it is an object node no task uses (idle, nothing on its
  // way to it, nothing to report). n's owner held.
  void drop_if_unused(node &n);

  // The first exception a region task threw and no weft_wait has reported
  // yet (any thread). One never reported is printed at exit.
  void record_exception(std::exception_ptr e);
  std::exception_ptr take_exception();

  uint64_t live_regions() const { return live_regions_; }

  // ---- last producers (scheduler trees only) -----------------------------
  // The worker that ran the task that last wrote an object, kept in its
  // slot, and the last writer of a region as a whole, kept in the region,
  // each with a stamp from one clock. An object's last producer is its own
  // writer or, if later, its region's *cover*: the latest whole-region write
  // of the region or a region enclosing it. Each region also keeps its own
  // objects' bytes per last producer, brought up to date when a task that
  // writes one of them starts and at allocation and free: a whole-region
  // write only stamps the region (O(1)); a region's counters older than its
  // cover are read as "all its bytes by the cover's worker" and reset to
  // that at their next update. Updates happen when the writer starts (it
  // then holds the argument exclusively and has spawned no children); the
  // reads, when a task holding the argument is placed: the analysis keeps
  // the two apart for the same data.
  struct producer_mark {
    uint64_t stamp = 0; // 0: none
    int worker = -1;
  };
  // The worker (+1) in the low 16 bits, the stamp above (48 bits).
  static uint64_t pack_mark(uint64_t stamp, int worker) {
    WEFT_CHECK(worker >= 0 && worker < 0xffff,
               "a last producer's worker %d does not fit in 16 bits", worker);
    return stamp << 16 | uint64_t(worker + 1);
  }
  static producer_mark unpack_mark(uint64_t v) {
    return {v >> 16, int(v & 0xffff) - 1};
  }
  bool tracks_producers() const { return tree_.size() > 1; }
  // The latest whole-region write of r or a region enclosing it.
  static producer_mark cover(const region &r);
  // The last producer of the object in slot i of s (-1: none).
  static int object_producer(const slab &s, uint32_t i,
                             const producer_mark &cover);
  // A task writing the object in slot i of s, or region r as a whole,
  // starts on worker w.
  void produced_object(slab &s, uint32_t i, int w);
  void produced_region(region &r, int w);
  // Adds to by_worker (tree().workers() counters) the bytes of r's objects
  // and of those of the regions inside it, by last producer, visiting at
  // most kMaxPackedRegions regions (breadth-first; struct_lock held).
  // Returns the bytes visited, attributed or not.
  static constexpr int kMaxPackedRegions = 64;
  uint64_t pack_region(region &r, uint64_t *by_worker);

private:
  void insert_nested(entry &e, entry &holder);
  void append(node &n, entry &e);
  void unlink(entry &e);
  void process(node &n, sched_locks &locks, ready_list &ready);
  void move_down(node &n, entry &e, sched_locks &locks, ready_list &ready);
  void settle(node *n, sched_locks &locks, ready_list &ready);
  void grant(entry &e, ready_list &ready);

public:
  // One level of process()'s scan per open block: the entries of a block
  // are siblings (children of the block owner's task, or unrelated tasks at
  // the top level); within a level, granted entries are a prefix.
  struct scan_level {
    entry *owner;
    bool any_granted;
    bool writer_granted;
    bool stopped;
  };

private:
  std::atomic<std::exception_ptr *> exc_{nullptr};
  scheduler_tree tree_;
  std::mutex struct_lock_;
  region_allocator alloc_;
  region root_;
  rtask root_task_;
  entry root_entry_;
  // The region table, by ID (nullptr once freed): a directory of chunks of
  // kChunk entries, reserved for every 32-bit ID and touched where used,
  // so that readers need no lock while it grows (under struct_lock).
  static constexpr unsigned kChunkBits = 12;
  static constexpr std::size_t kChunk = std::size_t(1) << kChunkBits;
  static constexpr std::size_t kDirSize = (std::size_t(1) << 32) / kChunk;
  std::atomic<std::atomic<region *> *> *dir_ = nullptr;
  std::atomic<uint64_t> nregions_{0}; // IDs handed out
  void set_entry(weft_rid id, region *r);
  uint64_t live_regions_ = 0;
  std::atomic<uint64_t> clock_{0}; // last producers' stamps
  // r's counters, brought up to its cover (producers_lock held); the
  // cover.
  producer_mark normalise(region &r);
  std::atomic<uint64_t> *own_of(region &r);
  std::size_t bucket(int w) const {
    return std::size_t(w) % std::size_t(tree_.workers());
  }
};

} // namespace weft::regions
