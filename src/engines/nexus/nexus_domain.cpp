#include "nexus_domain.hpp"

#include "base/error.hpp"

namespace weft {

nexus_domain *nexus_domains::acquire() {
  nexus_domain *d;
  {
    std::lock_guard<std::mutex> g(lock_);
    if (free_.empty()) {
      if (all_.size() >= UINT32_MAX - 1)
        fatal("nexus engine: out of dependence domain tags");
      all_.push_back(std::make_unique<nexus_domain>());
      d = all_.back().get();
      d->tag = static_cast<uint32_t>(all_.size()); // 1, 2, ...: 0 is none
      d->owner = this;
    } else {
      d = free_.back();
      free_.pop_back();
    }
    uint64_t n = live_.load(std::memory_order_relaxed) + 1;
    live_.store(n, std::memory_order_relaxed);
    if (n > peak_.load(std::memory_order_relaxed))
      peak_.store(n, std::memory_order_relaxed);
  }
  d->refs.store(1, std::memory_order_relaxed);
  return d;
}

void nexus_domains::recycle(nexus_domain *d) {
  std::lock_guard<std::mutex> g(lock_);
  free_.push_back(d);
  live_.store(live_.load(std::memory_order_relaxed) - 1,
              std::memory_order_relaxed);
}

bool nexus_prepare(nexus_descriptor &d, task *parent, const weft_dep *deps,
                   int ndeps, bool create_domain,
                   std::vector<nexus_param> &spill, nexus_domains &domains) {
  if (ndeps > 0)
    nexus_format(d, deps, ndeps, spill);
  if (d.n == 0)
    return true;
  nexus_domain *dom = domain_of(parent);
  if (!dom) {
    if (!create_domain)
      return false;
    dom = domains.acquire(); // the parent's reference
    parent->domain = reinterpret_cast<dep_domain *>(dom);
  }
  d.dom = dom;
  d.tag = dom->tag;
  return true;
}

} // namespace weft
