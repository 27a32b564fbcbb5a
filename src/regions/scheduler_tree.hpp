// The tree of schedulers (Myrmics, paper section V-A/V-E) for weft's region
// layer. A scheduler is a lock and the part of the region tree it owns; it is
// a role that whichever worker needs it takes (bench/sched_handoff), not a
// thread.
//
// Shape (WEFT_SCHEDULERS), the grammar of `weft sim --model myrmics`:
// "flat" or "1" (one scheduler: Myrmics' single scheduler), or 1xF1x...xFn:
// one top scheduler with F1 children, each with F2 children, ..., n+1 levels
// in all; each fan-out an integer in [1, 64], at most 16 levels and 4096
// schedulers. "1x4" is a top and four leaves, "1x2x2" a top, two mid-level
// schedulers and four leaves.
//
// Ownership is monotone: the scheduler owning a region owns, or is an
// ancestor of the owner of, every region and object below it. So the
// schedulers whose nodes one step of the analysis touches form a connected
// piece of the scheduler tree, and locks are only ever taken at the top of
// such a piece (holding nothing) or at a child of a held scheduler: two
// operations cannot deadlock (the one holding the child started deeper).
#pragma once

#include "base/check.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft::regions {

// A scheduler's pool of 1 MB pages (Myrmics' page trading, docs/regions.md):
// the region allocator carves the slabs of the regions the scheduler owns
// from its pages; a scheduler out of free pages asks its parent for a batch
// (the top asks the reserved range), and one holding more than a high-water
// mark gives the surplus back up. Guarded by its lock (region_allocator:
// a child's pool lock is taken before its parent's, never after).
struct page_pool {
  std::mutex lock;
  std::vector<std::size_t> free;        // whole free pages (indices)
  std::vector<std::size_t> with_room;   // carved pages with free slabs
  uint64_t requests = 0;                // times it ran out and asked above
  uint64_t pages_in = 0, pages_out = 0; // pages received from / given up
};

struct scheduler {
  int id = 0;    // pre-order index; the top is 0
  int level = 0; // the top is 0
  scheduler *parent = nullptr;
  std::vector<scheduler *> children;
  std::mutex lock;
  // Regions it and its descendants own: its subtree's region load.
  std::atomic<uint64_t> regions{0};
  // Tasks placed in its subtree and not finished (the load report).
  std::atomic<int64_t> load{0};
  int workers = 0;       // workers of the leaves below it
  int leaf_index = -1;   // leaves: index among the leaves
  int first_worker = -1; // leaves: the first of its workers (contiguous)
  // Tasks placed in its subtree; leaves: the ones that ran on the worker
  // chosen for them (hits), and on any worker of this leaf (ran_here). The
  // rest ran elsewhere: their worker stayed busy past the mailbox's
  // patience, or the core ran them in their spawner (throttling).
  std::atomic<uint64_t> placed{0}, hits{0}, ran_here{0};
  // Leaves: placed tasks with bytes some worker produced last, those whose
  // chosen worker is the one that produced most of their bytes, and those
  // that ran on it (WEFT_STATS' locality counts).
  std::atomic<uint64_t> with_producer{0}, placed_on_producer{0},
      ran_on_producer{0};
  page_pool pages;

  bool is_ancestor_of(const scheduler &s) const; // or s itself
};

// A placed task's argument bytes for the score, packed by last producer (as
// Myrmics packs a task's arguments before scheduling it): `bytes` that
// worker `worker`, of leaf `last_leaf`, produced last; with last_leaf nullptr
// (and worker -1) bytes no worker produced. Several entries may name one
// worker.
struct placement_arg {
  const scheduler *last_leaf;
  uint64_t bytes;
  int worker = -1;
};

// The paper's score (section V-E) of child c of a scheduler for a task:
// T = p*L + (100-p)*B, L = 1024 * (the task's argument bytes last produced in
// c's subtree) / (all its argument bytes) (0 when it has none), B = 1024 *
// (1 - c's load per worker / the largest load per worker among the
// candidates) (1024 when none is loaded). Candidates without workers are
// skipped. Returns the best candidate (ties: the one given fewer tasks so
// far, then the first), nullptr if none has workers.
scheduler *best_child(const std::vector<scheduler *> &candidates,
                      const placement_arg *args, int nargs, int p);

// Parses a WEFT_SCHEDULERS value into fan-outs (empty for "flat"). On a bad
// value returns false with a message naming the variable and the value.
bool parse_scheduler_shape(const char *text, std::vector<int> &fanouts,
                           std::string &error);

class scheduler_tree {
public:
  // Reads WEFT_SCHEDULERS (unset: flat); a bad value is fatal, naming it.
  scheduler_tree();
  explicit scheduler_tree(const std::vector<int> &fanouts);
  scheduler_tree(const scheduler_tree &) = delete;
  scheduler_tree &operator=(const scheduler_tree &) = delete;
  ~scheduler_tree();

  scheduler &top() { return *all_[0]; }
  std::size_t size() const { return all_.size(); }
  int levels() const { return levels_; }
  const std::string &shape() const { return shape_; }
  // The lowest common ancestor of a and b.
  static scheduler &lca(scheduler &a, scheduler &b);
  // The owner of a new region whose parent region is owned by parent_owner:
  // from there down, while the level is below level_hint, the child owning
  // the fewest regions (Myrmics' region load).
  // The load counts of the owner and its ancestors grow by one.
  scheduler &place_region(scheduler &parent_owner, int level_hint);
  // A region owned by owner was freed.
  void unplace_region(scheduler &owner);

  // The locality bias p of the score, in [0, 100] (WEFT_SCHED_LOCALITY,
  // or WEFT_SCHED_BIAS; default 20).
  int locality() const { return locality_; }
  const std::vector<scheduler *> &leaves() const { return leaves_; }
  // Splits nworkers among the leaves, in contiguous groups of equal size
  // (+-1); with fewer workers than leaves, worker w gets leaf w and the
  // other leaves none. Once, before leaf_of_worker or place_task.
  void assign_workers(int nworkers);
  // (A runtime restarted with more workers than at the first placement
  // maps the extra ones round-robin onto the first ones' leaves.)
  scheduler &leaf_of_worker(int w) const {
    return *worker_leaf_[std::size_t(w) % worker_leaf_.size()];
  }
  // Descends from `from` (or the top, when from's subtree has no workers)
  // to a leaf, at each level the child with the best score; adds one to
  // the load of the leaf and its ancestors.
  scheduler &place_task(scheduler &from, const placement_arg *args, int nargs);
  // A task placed at leaf finished.
  static void unplace_task(scheduler &leaf);
  // The worker of leaf that gets a task placed there, by the score over the
  // leaf's workers: T = p*L + (100-p)*B as best_child's, with L from the
  // bytes in args that the worker produced last and B from its placed tasks
  // unfinished (its queue and mailbox). Ties: the fewest placed tasks
  // unfinished, then `self` (the calling worker), then the first. Its count
  // grows by one until unpick_worker.
  int pick_worker(const scheduler &leaf, int self,
                  const placement_arg *args = nullptr, int nargs = 0);
  // Workers split among the leaves by assign_workers (0 before).
  int workers() const { return int(worker_leaf_.size()); }
  // The locality bias, set (tests: both settings in one process).
  void set_locality(int p) {
    WEFT_CHECK(p >= 0 && p <= 100, "set_locality: p is %d", p);
    locality_ = p;
  }
  void unpick_worker(int w) {
    worker_load_[std::size_t(w)].fetch_sub(1, std::memory_order_relaxed);
  }

  // Placed tasks so far, those that ran on their chosen worker and those
  // that ran on a worker of their leaf (sums over the leaves).
  struct placement_totals {
    uint64_t placed = 0, on_worker = 0, on_leaf = 0;
    uint64_t with_producer = 0, placed_on_producer = 0, ran_on_producer = 0;
  };
  placement_totals totals() const;

private:
  void build(const std::vector<int> &fanouts);
  std::vector<scheduler *> all_;
  std::vector<scheduler *> leaves_;
  std::vector<scheduler *> worker_leaf_;
  std::unique_ptr<std::atomic<int64_t>[]> worker_load_; // by worker
  int locality_ = 20;
  int levels_ = 1;
  std::string shape_ = "flat";
};

// The scheduler locks one operation holds (a connected piece of the tree,
// see above). Released, in reverse order, on destruction.
class sched_locks {
public:
  sched_locks() = default;
  sched_locks(const sched_locks &) = delete;
  sched_locks &operator=(const sched_locks &) = delete;
  ~sched_locks();

  bool holds(const scheduler &s) const;
  // Takes s as the top of the piece; nothing may be held.
  void take_top(scheduler &s);
  // Takes s and every scheduler between it and the held piece, top down;
  // some ancestor of s must be held.
  void extend_to(scheduler &s);
  // Takes every scheduler below the held ones (a whole subtree).
  void extend_subtree(scheduler &s);

private:
  std::vector<scheduler *> held_;
};

} // namespace weft::regions
