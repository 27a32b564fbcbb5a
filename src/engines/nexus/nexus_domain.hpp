// Dependence domains: dependences exist only between siblings, so the
// Dependence Table is keyed by (tag, address), where the tag names the
// parent. A parent gets a domain when its first child with dependences is
// submitted; the parent holds one reference until its function returns
// (task_end) and every task of the domain in the unit holds one until the
// unit has processed its end. The tag is reused only after the last
// reference is gone, so no entry of an old parent can meet a new one.
#pragma once

#include "base/check.hpp"
#include "core/task.hpp"
#include "engines/nexus/nexus_descriptor.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {

class nexus_domains;

struct nexus_domain {
  uint32_t tag = 0; // fixed for the object's life: reusing it reuses the tag
  std::atomic<int32_t> refs{0};
  nexus_domains *owner = nullptr;

  void ref() { refs.fetch_add(1, std::memory_order_relaxed); }
  void unref();
};

class nexus_domains {
public:
  // A domain with one reference (the caller's), under an unused tag.
  nexus_domain *acquire();
  // Domains in use now and at most.
  uint64_t live() const { return live_.load(std::memory_order_relaxed); }
  uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }

private:
  friend struct nexus_domain;
  void recycle(nexus_domain *d);

  std::mutex lock_;
  std::vector<nexus_domain *> free_;
  std::vector<std::unique_ptr<nexus_domain>> all_;
  std::atomic<uint64_t> live_{0}, peak_{0};
};

// The parent's domain, null until its first child with dependences.
inline nexus_domain *domain_of(task *parent) {
  return reinterpret_cast<nexus_domain *>(parent->domain);
}

// The Nexus Plugin's step before a submit: formats deps into d
// (nexus_format, spilling into spill) and, when d has parameters, names
// the parent's domain in it, making that domain (with the parent's
// reference) on first use when create_domain. False only when the parent
// has no domain and create_domain is false.
bool nexus_prepare(nexus_descriptor &d, task *parent, const weft_dep *deps,
                   int ndeps, bool create_domain,
                   std::vector<nexus_param> &spill, nexus_domains &domains);

inline void nexus_domain::unref() {
  auto r = refs.fetch_sub(1, std::memory_order_acq_rel);
  WEFT_CHECK(r > 0,
             "nexus domain %p: a reference released that was never "
             "given",
             static_cast<void *>(this));
  if (r == 1)
    owner->recycle(this);
}

} // namespace weft
