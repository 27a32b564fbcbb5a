#include "scheduler_tree.hpp"

#include "base/backoff.hpp"
#include "base/check.hpp"
#include "base/env.hpp"
#include "base/error.hpp"
#include "base/tree_shape.hpp"

#include <algorithm>
#include <limits>

namespace weft::regions {

namespace {
// Fan-outs in [1, 64], at most 16 levels and 4096 schedulers.
constexpr tree_shape_limits kShapeLimits{64, 16, 4096, 0};
} // namespace

bool scheduler::is_ancestor_of(const scheduler &s) const {
  for (const scheduler *x = &s; x; x = x->parent)
    if (x == this)
      return true;
  return false;
}

bool parse_scheduler_shape(const char *text, std::vector<int> &fanouts,
                           std::string &error) {
  std::vector<uint32_t> f;
  const bool ok =
      parse_tree_shape("WEFT_SCHEDULERS", text, kShapeLimits, f, error);
  fanouts.assign(f.begin(), f.end());
  return ok;
}

scheduler_tree::scheduler_tree() {
  const char *v = env::get("WEFT_SCHEDULERS");
  std::vector<int> fanouts;
  std::string error;
  if (!parse_scheduler_shape(v, fanouts, error))
    fatal("%s", error.c_str());
  build(fanouts);
  if (v)
    shape_ = v;
  env::reader r(env::get, " (the locality bias p of the scheduler tree's "
                          "score, a percentage)");
  int bias = -1;
  r.integer("WEFT_SCHED_LOCALITY", 0, 100, locality_);
  r.integer("WEFT_SCHED_BIAS", 0, 100, bias);
  if (!r.ok())
    fatal("%s", r.error().c_str());
  if (bias >= 0) {
    if (env::get("WEFT_SCHED_LOCALITY") && bias != locality_)
      fatal("WEFT_SCHED_BIAS=%d and WEFT_SCHED_LOCALITY=%d: two values for "
            "the same setting (WEFT_SCHED_BIAS is its other name)",
            bias, locality_);
    locality_ = bias;
  }
}

scheduler_tree::scheduler_tree(const std::vector<int> &fanouts) {
  build(fanouts);
  if (!fanouts.empty()) {
    shape_.clear();
    shape_ = "1";
    for (int f : fanouts)
      shape_ += "x" + std::to_string(f);
  }
}

scheduler_tree::~scheduler_tree() {
  for (scheduler *s : all_)
    delete s;
}

void scheduler_tree::build(const std::vector<int> &fanouts) {
  levels_ = int(fanouts.size()) + 1;
  // Pre-order numbering: an ancestor's id is below its descendants'.
  auto make = [&](auto &self, scheduler *parent, int level) -> void {
    auto *s = new scheduler;
    s->id = int(all_.size());
    s->level = level;
    s->parent = parent;
    all_.push_back(s);
    if (parent)
      parent->children.push_back(s);
    if (level < int(fanouts.size()))
      for (int i = 0; i < fanouts[std::size_t(level)]; ++i)
        self(self, s, level + 1);
    else {
      s->leaf_index = int(leaves_.size());
      leaves_.push_back(s);
    }
  };
  make(make, nullptr, 0);
}

void scheduler_tree::assign_workers(int nworkers) {
  WEFT_CHECK(nworkers > 0 && worker_leaf_.empty(),
             "assign_workers: %d workers, or called twice", nworkers);
  std::size_t nleaves = leaves_.size();
  worker_load_ =
      std::make_unique<std::atomic<int64_t>[]>(std::size_t(nworkers));
  for (int w = 0; w < nworkers; ++w) {
    std::size_t leaf = std::size_t(nworkers) >= nleaves
                           ? std::size_t(w) * nleaves / std::size_t(nworkers)
                           : std::size_t(w);
    worker_leaf_.push_back(leaves_[leaf]);
    if (leaves_[leaf]->first_worker < 0)
      leaves_[leaf]->first_worker = w;
    for (scheduler *x = leaves_[leaf]; x; x = x->parent)
      ++x->workers;
  }
}

int scheduler_tree::pick_worker(const scheduler &leaf, int self,
                                const placement_arg *args, int nargs) {
  WEFT_CHECK(leaf.leaf_index >= 0 && leaf.workers > 0,
             "pick_worker: scheduler %d is not a leaf with workers", leaf.id);
  const int first = leaf.first_worker, end = first + leaf.workers;
  uint64_t total = 0;
  for (int i = 0; i < nargs; ++i)
    total += args[i].bytes;
  auto load_of = [&](int w) {
    return std::max<int64_t>(
        worker_load_[std::size_t(w)].load(std::memory_order_relaxed), 0);
  };
  int64_t max_load = 0;
  for (int w = first; w < end; ++w)
    max_load = std::max(max_load, load_of(w));
  int best = -1;
  int64_t best_load = 0;
  double best_t = 0;
  for (int w = first; w < end; ++w) {
    uint64_t mine = 0;
    for (int i = 0; i < nargs; ++i)
      if (args[i].worker == w)
        mine += args[i].bytes;
    // A load read again may exceed max_load (others place and finish
    // tasks meanwhile): B is clamped at 0.
    int64_t l = load_of(w);
    double lscore = total ? 1024.0 * double(mine) / double(total) : 0;
    double b =
        max_load > 0
            ? 1024.0 * (1 - double(std::min(l, max_load)) / double(max_load))
            : 1024.0;
    double t = locality_ * lscore + (100 - locality_) * b;
    if (best < 0 || t > best_t ||
        (t == best_t && (l < best_load || (l == best_load && w == self)))) {
      best = w;
      best_t = t;
      best_load = l;
    }
  }
  worker_load_[std::size_t(best)].fetch_add(1, std::memory_order_relaxed);
  return best;
}

scheduler_tree::placement_totals scheduler_tree::totals() const {
  placement_totals t;
  for (const scheduler *leaf : leaves_) {
    t.placed += leaf->placed.load(std::memory_order_relaxed);
    t.on_worker += leaf->hits.load(std::memory_order_relaxed);
    t.on_leaf += leaf->ran_here.load(std::memory_order_relaxed);
    t.with_producer += leaf->with_producer.load(std::memory_order_relaxed);
    t.placed_on_producer +=
        leaf->placed_on_producer.load(std::memory_order_relaxed);
    t.ran_on_producer += leaf->ran_on_producer.load(std::memory_order_relaxed);
  }
  return t;
}

scheduler *best_child(const std::vector<scheduler *> &candidates,
                      const placement_arg *args, int nargs, int p) {
  uint64_t total = 0;
  for (int i = 0; i < nargs; ++i)
    total += args[i].bytes;
  double max_load = 0;
  for (scheduler *c : candidates)
    if (c->workers > 0)
      max_load =
          std::max(max_load, double(std::max<int64_t>(
                                 c->load.load(std::memory_order_relaxed), 0)) /
                                 c->workers);
  // Loads move under us (other threads place and finish tasks): a child's
  // second read may exceed max_load, so B is clamped at 0 and any score
  // beats the initial one; a candidate with workers is always chosen.
  scheduler *best = nullptr;
  double best_t = -std::numeric_limits<double>::infinity();
  for (scheduler *c : candidates) {
    if (c->workers == 0)
      continue;
    uint64_t here = 0;
    for (int i = 0; i < nargs; ++i)
      if (args[i].last_leaf && c->is_ancestor_of(*args[i].last_leaf))
        here += args[i].bytes;
    double l = total ? 1024.0 * double(here) / double(total) : 0;
    double per_worker =
        double(std::max<int64_t>(c->load.load(std::memory_order_relaxed), 0)) /
        c->workers;
    double b = max_load > 0
                   ? 1024.0 * (1 - std::min(per_worker, max_load) / max_load)
                   : 1024.0;
    double t = p * l + (100 - p) * b;
    if (!best || t > best_t ||
        (t == best_t && c->placed.load(std::memory_order_relaxed) <
                            best->placed.load(std::memory_order_relaxed))) {
      best_t = t;
      best = c;
    }
  }
  return best;
}

scheduler &scheduler_tree::place_task(scheduler &from,
                                      const placement_arg *args, int nargs) {
  scheduler *s = from.workers > 0 ? &from : &top();
  while (!s->children.empty()) {
    scheduler *c = best_child(s->children, args, nargs, locality_);
    WEFT_CHECK(c, "place_task: scheduler %d has workers but no child has",
               s->id);
    s = c;
  }
  for (scheduler *x = s; x; x = x->parent) {
    x->load.fetch_add(1, std::memory_order_relaxed);
    x->placed.fetch_add(1, std::memory_order_relaxed);
  }
  return *s;
}

void scheduler_tree::unplace_task(scheduler &leaf) {
  for (scheduler *x = &leaf; x; x = x->parent)
    x->load.fetch_sub(1, std::memory_order_relaxed);
}

scheduler &scheduler_tree::lca(scheduler &a, scheduler &b) {
  scheduler *x = &a, *y = &b;
  while (x->level > y->level)
    x = x->parent;
  while (y->level > x->level)
    y = y->parent;
  while (x != y) {
    x = x->parent;
    y = y->parent;
  }
  return *x;
}

scheduler &scheduler_tree::place_region(scheduler &parent_owner,
                                        int level_hint) {
  scheduler *s = &parent_owner;
  while (s->level < level_hint && !s->children.empty())
    s = *std::min_element(s->children.begin(), s->children.end(),
                          [](auto *a, auto *b) {
                            return a->regions.load(std::memory_order_relaxed) <
                                   b->regions.load(std::memory_order_relaxed);
                          });
  for (scheduler *x = s; x; x = x->parent)
    x->regions.fetch_add(1, std::memory_order_relaxed);
  return *s;
}

void scheduler_tree::unplace_region(scheduler &owner) {
  for (scheduler *x = &owner; x; x = x->parent)
    x->regions.fetch_sub(1, std::memory_order_relaxed);
}

namespace {
// A scheduler below a held one. Its holder is inside a short operation and
// never waits for the caller (the caller holds an ancestor, see the header),
// so waiting for it is safe; it spins and yields on try_lock rather than
// blocking, as ThreadSanitizer's lock-order check does not know that the
// held ancestor orders two threads' acquisitions of siblings in either order
// (and try-locks add no lock-order edges).
void lock_below(scheduler &s) {
  backoff b(kUnitLockBackoff);
  while (!s.lock.try_lock())
    b.pause();
}
} // namespace

sched_locks::~sched_locks() {
  for (auto it = held_.rbegin(); it != held_.rend(); ++it)
    (*it)->lock.unlock();
}

bool sched_locks::holds(const scheduler &s) const {
  return std::find(held_.begin(), held_.end(), &s) != held_.end();
}

void sched_locks::take_top(scheduler &s) {
  WEFT_CHECK(held_.empty(), "a scheduler lock taken as a top while holding "
                            "others (lock order)");
  s.lock.lock();
  held_.push_back(&s);
}

void sched_locks::extend_to(scheduler &s) {
  scheduler *path[64];
  int n = 0;
  scheduler *x = &s;
  while (!holds(*x)) {
    WEFT_CHECK(x->parent && n < 64,
               "extend_to: scheduler %d is not below "
               "the held ones",
               s.id);
    path[n++] = x;
    x = x->parent;
  }
  while (n > 0) {
    scheduler *y = path[--n];
    lock_below(*y);
    held_.push_back(y);
  }
}

void sched_locks::extend_subtree(scheduler &s) {
  for (scheduler *c : s.children) {
    if (!holds(*c)) {
      lock_below(*c);
      held_.push_back(c);
    }
    extend_subtree(*c);
  }
}

} // namespace weft::regions
