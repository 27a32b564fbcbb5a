// The Task Pool and the Dependence Counts. Each entry describes up to
// `params` parameters of one task; a task with more takes further entries
// (dummy tasks, paper section III-A) linked from its main entry, so a task
// has no upper bound on its parameters other than the pool itself. A task's
// id is the index of its main entry. Not thread-safe: the unit's owner (its
// lock, or the manager thread) is the only user.
#pragma once

#include "nexus_descriptor.hpp"

#include <cstdint>
#include <vector>

namespace weft {

class nexus_task_pool {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  nexus_task_pool(uint32_t entries, uint32_t params_per_entry);

  uint32_t entries() const { return static_cast<uint32_t>(e_.size()); }
  uint32_t params_per_entry() const { return per_; }
  // Entries a task with n parameters takes (at least one).
  uint32_t entries_for(uint32_t n) const {
    return n <= per_ ? 1 : (n + per_ - 1) / per_;
  }
  uint32_t free_entries() const { return static_cast<uint32_t>(free_.size()); }
  uint32_t used_entries() const { return entries() - free_entries(); }
  uint32_t used_dummies() const { return dummies_; }

  // Stores d's task and parameters; returns the task's id. The caller has
  // checked free_entries() >= entries_for(d.n).
  uint32_t store(const nexus_descriptor &d);
  // Frees the task's entries (main and dummies); returns how many.
  uint32_t release(uint32_t id);

  task *task_of(uint32_t id) const { return e_[id].t; }
  nexus_domain *domain_of(uint32_t id) const { return e_[id].dom; }
  uint32_t tag_of(uint32_t id) const { return e_[id].tag; }
  bool is_waiter(uint32_t id) const { return e_[id].waiter; }
  // The entries of a task: id, then next(id)... until kNone; each holds
  // count(e) parameters param(e, 0..count(e)-1).
  uint32_t next(uint32_t e) const { return e_[e].next; }
  uint32_t count(uint32_t e) const { return e_[e].n; }
  const nexus_param &param(uint32_t e, uint32_t i) const {
    return params_[static_cast<std::size_t>(e) * per_ + i];
  }
  uint32_t &dep_count(uint32_t id) { return counts_[id]; }

private:
  struct entry {
    task *t = nullptr;
    nexus_domain *dom = nullptr;
    uint32_t next = kNone;
    uint32_t tag = 0;
    uint32_t n = 0;
    bool waiter = false;
  };
  uint32_t per_;
  uint32_t dummies_ = 0;
  std::vector<entry> e_;
  std::vector<nexus_param> params_;
  std::vector<uint32_t> counts_; // the Dependence Counts, by task id
  std::vector<uint32_t> free_;   // a stack of free entry indices
};

} // namespace weft
