#include "nexus_task_pool.hpp"

namespace weft {

nexus_task_pool::nexus_task_pool(uint32_t entries, uint32_t params_per_entry)
    : per_(params_per_entry), e_(entries),
      params_(static_cast<std::size_t>(entries) * params_per_entry),
      counts_(entries, 0) {
  free_.reserve(entries);
  for (uint32_t i = entries; i-- > 0;)
    free_.push_back(i); // entry 0 is handed out first
}

uint32_t nexus_task_pool::store(const nexus_descriptor &d) {
  const nexus_param *p = d.params();
  uint32_t left = d.n;
  uint32_t id = kNone, prev = kNone;
  do {
    uint32_t e = free_.back();
    free_.pop_back();
    entry &x = e_[e];
    x.t = d.t;
    x.dom = d.dom;
    x.tag = d.tag;
    x.waiter = d.waiter;
    x.next = kNone;
    x.n = left < per_ ? left : per_;
    nexus_param *dst = &params_[static_cast<std::size_t>(e) * per_];
    for (uint32_t i = 0; i < x.n; ++i)
      dst[i] = p[i];
    p += x.n;
    left -= x.n;
    if (prev == kNone) {
      id = e;
    } else {
      e_[prev].next = e;
      ++dummies_;
    }
    prev = e;
  } while (left > 0);
  counts_[id] = 0;
  return id;
}

uint32_t nexus_task_pool::release(uint32_t id) {
  uint32_t n = 0;
  for (uint32_t e = id; e != kNone;) {
    uint32_t next = e_[e].next;
    e_[e] = entry{};
    free_.push_back(e);
    if (e != id)
      --dummies_;
    ++n;
    e = next;
  }
  return n;
}

} // namespace weft
