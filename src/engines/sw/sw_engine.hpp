// The software dependency engine `sw`. Readiness is tracked per task: a
// count of unfinished predecessors and a list of successors. Dependence
// lookup uses the parent's dep_domain (no locks: only the parent's thread
// touches it); the only shared writes are one CAS per predecessor link and
// one decrement per successor at retirement.
#pragma once

#include "core/per_worker_table.hpp"
#include "core/worker.hpp"
#include "engines/engine.hpp"
#include "engines/sw/dependence_map.hpp"

#include <atomic>
#include <memory>
#include <vector>

namespace weft {

class sw_engine final : public dependency_engine {
public:
  explicit sw_engine(int nworkers);
  ~sw_engine() override;

  const char *name() const override { return "sw"; }
  submit_result submit(worker &w, task *parent, task *t, const weft_dep *deps,
                       int ndeps) override;
  bool ready_now(worker &w, task *parent, const weft_dep *deps,
                 int ndeps) override;
  void retire(worker &w, task *t) override;
  wait_result wait_deps(worker &w, task *parent, task *waiter,
                        const weft_dep *deps, int ndeps) override;
  void children_done(worker &w, task *parent) override;
  void task_end(worker &w, task *parent) override;
  void task_free(worker &w, task *t) override;
  void add_stats(engine_stats &out) const override;

private:
  struct alignas(64) per_worker {
    uint64_t deps = 0;
    uint64_t edges = 0;
    uint64_t peak_entries = 0;
    std::vector<dep_domain *> spare_domains;
    ~per_worker() {
      for (dep_domain *d : spare_domains)
        delete d;
    }
  };
  // The predecessors being linked to one new task.
  struct linker {
    task *t;
    task *last = nullptr; // consecutive duplicates are linked once
    int32_t npreds = 0;
  };

  void link(worker &w, linker &l, task *pred);
  bool add_successor(worker &w, task *pred, task *succ);
  void apply(worker &w, dep_domain &dom, dep_entry &e, access acc, linker &l,
             int ndeps);
  void join_second_reader(worker &w, dep_domain &dom, dep_entry &e, linker &l);
  void release(worker &w, task *t);
  bool acquire_mutexes(task *t);
  void release_mutexes(worker &w, task *t);
  // The parent's map, made (or taken from the spares) at its first child
  // with dependences.
  dep_domain *domain_of(worker &w, task *parent) {
    return parent->domain ? parent->domain : new_domain(w, parent);
  }
  dep_domain *new_domain(worker &w, task *parent);

  per_worker &pw(worker &w) { return pw_.get(w.id()); }

  per_worker_table<per_worker> pw_;
};

} // namespace weft
