// The Dependence Table: `sets` x `ways` entries, set-associative by a hash
// of (domain tag, address), so that a lookup visits one set. An entry holds
// the class and number of the tasks that hold the address now (concurrent
// readers, or inoutset members, or one writer) and its Kick-Off List: the
// ids of the tasks waiting for it, in submission order, `kol` of them in the
// entry and the rest in Dummy Kick-Off Lists (`kol` ids each) chained from
// it, allocated from a table of `dummy_kol` lists. Not thread-safe: the
// unit's owner is its only user.
#pragma once

#include "nexus_descriptor.hpp"

#include <cstdint>
#include <vector>

namespace weft {

class nexus_dependence_table {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct waiting {
    uint32_t id;
    nexus_access acc;
  };

  nexus_dependence_table(uint32_t sets, uint32_t ways, uint32_t kol,
                         uint32_t dummy_kol);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }

  // The set of (tag, addr): the address without its byte-in-word bits,
  // xor the tag, folded onto itself and taken modulo the number of sets.
  uint32_t set_of(uint32_t tag, uintptr_t addr) const {
    uint64_t x = (static_cast<uint64_t>(addr) >> 3) ^ tag;
    x ^= x >> 32;
    x ^= x >> 16;
    return set_mask_ ? static_cast<uint32_t>(x) & set_mask_
                     : static_cast<uint32_t>(x % sets_);
  }
  // The entry of (tag, addr) in `set`, or kNone.
  uint32_t find(uint32_t set, uint32_t tag, uintptr_t addr) const {
    const entry *e = &e_[static_cast<std::size_t>(set) * ways_];
    for (uint32_t w = 0; w < ways_; ++w)
      if (e[w].tag == tag && e[w].addr == addr)
        return set * ways_ + w;
    return kNone;
  }
  uint32_t free_ways(uint32_t set) const { return ways_ - set_used_[set]; }
  uint32_t set_used(uint32_t set) const { return set_used_[set]; }
  uint32_t used() const { return used_; }
  uint32_t set_of_entry(uint32_t e) const { return e / ways_; }

  // A new entry for (tag, addr) in `set` (which has a free way), held by
  // one task of class acc.
  uint32_t create(uint32_t set, uint32_t tag, uintptr_t addr, nexus_access acc);
  // Frees an entry that nobody holds or waits for.
  void erase(uint32_t e);

  uint32_t &holders(uint32_t e) { return e_[e].holders; }
  nexus_access &holder_class(uint32_t e) { return e_[e].acc; }

  // ---- the Kick-Off List ---------------------------------------------------
  bool kol_empty(uint32_t e) const { return e_[e].waiting == 0; }
  uint32_t kol_length(uint32_t e) const { return e_[e].waiting; }
  // Whether appending to e's list needs a new Dummy Kick-Off List.
  bool kol_needs_dummy(uint32_t e) const {
    const entry &x = e_[e];
    if (x.dummy_tail == kNone)
      return x.kol_len == kol_cap_;
    return dummies_[x.dummy_tail].n == kol_cap_;
  }
  // Appends a waiting task; returns whether it took a Dummy Kick-Off List
  // (the caller checked that one is free when kol_needs_dummy).
  bool kol_append(uint32_t e, uint32_t id, nexus_access acc);
  waiting kol_front(uint32_t e) const {
    const entry &x = e_[e];
    uint32_t w =
        kol_slots_[static_cast<std::size_t>(e) * kol_cap_ + x.kol_head];
    return {w >> 2, static_cast<nexus_access>(w & 3)};
  }
  // Removes the front; returns whether the entry's list was refilled from
  // its first Dummy Kick-Off List (which is then freed).
  bool kol_pop(uint32_t e);

  uint32_t dummy_free() const {
    return static_cast<uint32_t>(dummy_free_.size());
  }
  uint32_t dummy_used() const {
    return static_cast<uint32_t>(dummies_.size() - dummy_free_.size());
  }

private:
  struct entry {
    uintptr_t addr = 0;
    uint32_t tag = 0; // 0: a free way
    uint32_t holders = 0;
    uint32_t waiting = 0;               // in the list and its dummies
    uint32_t kol_head = 0, kol_len = 0; // the entry's own list, a ring
    uint32_t dummy_head = kNone, dummy_tail = kNone;
    nexus_access acc = nexus_access::in;
  };
  struct dummy {
    uint32_t next = kNone;
    uint32_t n = 0;
  };

  uint32_t sets_, ways_, kol_cap_;
  uint32_t set_mask_; // sets - 1 when a power of two, else 0
  uint32_t used_ = 0;
  std::vector<entry> e_;
  std::vector<uint32_t> set_used_;
  std::vector<uint32_t> kol_slots_; // kol_cap_ slots per entry: id << 2 | class
  std::vector<dummy> dummies_;
  std::vector<uint32_t> dummy_slots_;
  std::vector<uint32_t> dummy_free_;
};

} // namespace weft
