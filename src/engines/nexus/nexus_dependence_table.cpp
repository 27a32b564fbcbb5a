#include "nexus_dependence_table.hpp"

#include "base/error.hpp"

namespace weft {

nexus_dependence_table::nexus_dependence_table(uint32_t sets, uint32_t ways,
                                               uint32_t kol, uint32_t dummy_kol)
    : sets_(sets), ways_(ways), kol_cap_(kol),
      set_mask_((sets & (sets - 1)) == 0 ? sets - 1 : 0),
      e_(static_cast<std::size_t>(sets) * ways), set_used_(sets, 0),
      kol_slots_(static_cast<std::size_t>(sets) * ways * kol),
      dummies_(dummy_kol),
      dummy_slots_(static_cast<std::size_t>(dummy_kol) * kol) {
  if (sets == 1)
    set_mask_ = 0; // x & 0 == 0 == x % 1 either way
  dummy_free_.reserve(dummy_kol);
  for (uint32_t i = dummy_kol; i-- > 0;)
    dummy_free_.push_back(i);
}

uint32_t nexus_dependence_table::create(uint32_t set, uint32_t tag,
                                        uintptr_t addr, nexus_access acc) {
  entry *row = &e_[static_cast<std::size_t>(set) * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (row[w].tag != 0)
      continue;
    entry &x = row[w];
    x = entry{};
    x.addr = addr;
    x.tag = tag;
    x.holders = 1;
    x.acc = acc;
    ++set_used_[set];
    ++used_;
    return set * ways_ + w;
  }
  fatal("nexus dependence table: set %u has no free way", set);
}

void nexus_dependence_table::erase(uint32_t e) {
  entry &x = e_[e];
  if (x.holders != 0 || x.waiting != 0)
    fatal("nexus dependence table: erasing a busy entry");
  x = entry{};
  --set_used_[e / ways_];
  --used_;
}

bool nexus_dependence_table::kol_append(uint32_t e, uint32_t id,
                                        nexus_access acc) {
  entry &x = e_[e];
  uint32_t word = id << 2 | static_cast<uint32_t>(acc);
  ++x.waiting;
  if (x.dummy_tail == kNone && x.kol_len < kol_cap_) {
    kol_slots_[static_cast<std::size_t>(e) * kol_cap_ +
               (x.kol_head + x.kol_len) % kol_cap_] = word;
    ++x.kol_len;
    return false;
  }
  bool took = false;
  if (x.dummy_tail == kNone || dummies_[x.dummy_tail].n == kol_cap_) {
    if (dummy_free_.empty())
      fatal("nexus dependence table: no free dummy kick-off list");
    uint32_t d = dummy_free_.back();
    dummy_free_.pop_back();
    dummies_[d] = dummy{};
    if (x.dummy_tail == kNone)
      x.dummy_head = d;
    else
      dummies_[x.dummy_tail].next = d;
    x.dummy_tail = d;
    took = true;
  }
  dummy &t = dummies_[x.dummy_tail];
  dummy_slots_[static_cast<std::size_t>(x.dummy_tail) * kol_cap_ + t.n++] =
      word;
  return took;
}

bool nexus_dependence_table::kol_pop(uint32_t e) {
  entry &x = e_[e];
  x.kol_head = (x.kol_head + 1) % kol_cap_;
  --x.kol_len;
  --x.waiting;
  if (x.kol_len != 0 || x.dummy_head == kNone)
    return false;
  // The entry's own list ran dry: move the first dummy list into it.
  uint32_t d = x.dummy_head;
  dummy &dl = dummies_[d];
  const uint32_t *src = &dummy_slots_[static_cast<std::size_t>(d) * kol_cap_];
  uint32_t *dst = &kol_slots_[static_cast<std::size_t>(e) * kol_cap_];
  for (uint32_t i = 0; i < dl.n; ++i)
    dst[i] = src[i];
  x.kol_head = 0;
  x.kol_len = dl.n;
  x.dummy_head = dl.next;
  if (x.dummy_head == kNone)
    x.dummy_tail = kNone;
  dummy_free_.push_back(d);
  return true;
}

} // namespace weft
