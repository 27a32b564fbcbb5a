#include "picos_scheduler.hpp"

#include "base/error.hpp"

#include <bit>

namespace weft {

picos_scheduler::picos_scheduler(const weft_picos_config &c)
    : tm_cap_(c.task_memory), dm_cap_(c.dep_memory), vm_cap_(c.version_memory),
      tm_(new tm_entry[c.task_memory]()), vm_(new vm_entry[c.version_memory]()),
      ready_(c.task_memory) {
  tm_free_.reserve(tm_cap_);
  for (uint32_t i = tm_cap_; i-- > 0;) {
    tm_[i].gen = 1;
    tm_free_.push_back(i);
  }
  vm_free_.reserve(vm_cap_);
  for (uint32_t i = vm_cap_; i-- > 0;)
    vm_free_.push_back(i);
  // At most half full: short probe sequences.
  uint32_t size = std::bit_ceil(2 * dm_cap_);
  dm_.reset(new dm_entry[size]);
  for (uint32_t i = 0; i < size; ++i)
    dm_[i] = dm_entry{0, kNone, kNone};
  dm_mask_ = size - 1;
  dm_shift_ = 64 - static_cast<uint32_t>(std::countr_zero(size));
}

uint32_t picos_scheduler::max_deps() const {
  uint32_t m = WEFT_PICOS_MAX_DEPS;
  if (dm_cap_ < m)
    m = dm_cap_;
  if (vm_cap_ < m)
    m = vm_cap_;
  return m;
}

picos_scheduler::lack picos_scheduler::reserve(uint32_t deps) {
  if (tm_used_ + tm_reserved_ >= tm_cap_)
    return lack::task_memory;
  if (dm_used_ + dm_reserved_ + deps > dm_cap_)
    return lack::dep_memory;
  if (vm_used_ + vm_reserved_ + deps > vm_cap_)
    return lack::version_memory;
  ++tm_reserved_;
  dm_reserved_ += deps;
  vm_reserved_ += deps;
  return lack::none;
}

void picos_scheduler::accept(const uint32_t *pk, uint32_t reserved_deps) {
  uint64_t sw_id = (uint64_t(pk[0]) << 32) | pk[1];
  uint32_t nd = pk[2];
  if (nd != reserved_deps)
    fatal("picos: a descriptor says %u dependences, its Submission Request "
          "announced %u",
          nd, reserved_deps);
  if (sw_id == 0)
    fatal("picos: a descriptor with SW ID 0 (0 is the failure value)");

  uint32_t i = tm_free_.back();
  tm_free_.pop_back();
  --tm_reserved_;
  ++tm_used_;
  if (tm_used_ > peak_tm_)
    peak_tm_ = tm_used_;
  tm_entry &e = tm_[i];
  e.sw_id = sw_id;
  e.ndeps = static_cast<uint8_t>(nd);
  e.waiting = 0;
  e.state = kPending;
  ++accepted_;
  deps_ += nd;

  uint64_t seen = 0; // a filter: addresses are compared only on a hit
  for (uint32_t d = 0; d < nd; ++d) {
    const uint32_t *q = pk + 3 + 3 * d;
    uint64_t addr = (uint64_t(q[1]) << 32) | q[0];
    uint32_t dir = q[2];
    if (dir < WEFT_PICOS_DIR_IN || dir > WEFT_PICOS_DIR_INOUT)
      fatal("picos: dependence %u of SW ID %#llx has directionality %u "
            "(1 in, 2 out, 3 inout)",
            d, (unsigned long long)sw_id, dir);
    uint64_t bit = uint64_t(1) << ((addr * 0x9E3779B97F4A7C15ull) >> 58);
    if (seen & bit)
      for (uint32_t k = 0; k < d; ++k) {
        const uint32_t *r = pk + 3 + 3 * k;
        if (r[0] == q[0] && r[1] == q[1])
          fatal("picos: SW ID %#llx names address %#llx twice",
                (unsigned long long)sw_id, (unsigned long long)addr);
      }
    seen |= bit;
    add_dependence(i, d, addr, dir != WEFT_PICOS_DIR_IN);
  }
  // What the reservation held beyond what the task took.
  dm_reserved_ -= reserved_deps;
  vm_reserved_ -= reserved_deps;
  if (dm_used_ > peak_dm_)
    peak_dm_ = dm_used_;
  if (vm_used_ > peak_vm_)
    peak_vm_ = vm_used_;
  if (e.waiting == 0)
    make_ready(i);
}

void picos_scheduler::add_dependence(uint32_t tm, uint32_t slot, uint64_t addr,
                                     bool writer) {
  dm_entry *a = dm_find(addr);
  if (!a) {
    dm_entry &n = dm_insert(addr);
    uint32_t v = new_version(addr, !writer, true);
    n.oldest = n.youngest = v;
    join(tm, slot, v);
    return;
  }
  uint32_t y = a->youngest;
  if (!writer && vm_[y].reader) {
    join(tm, slot, y); // consecutive readers share a version
    if (!vm_[y].satisfied)
      ++edges_;
    return;
  }
  uint32_t v = new_version(addr, !writer, false);
  vm_[y].next = v;
  a->youngest = v;
  join(tm, slot, v);
  ++edges_;
}

uint32_t picos_scheduler::new_version(uint64_t addr, bool reader,
                                      bool satisfied) {
  uint32_t v = vm_free_.back();
  vm_free_.pop_back();
  ++vm_used_;
  vm_[v] = vm_entry{addr, kNone, 0, kNone, kNone, reader, satisfied};
  return v;
}

void picos_scheduler::join(uint32_t tm, uint32_t slot, uint32_t v) {
  tm_entry &e = tm_[tm];
  vm_entry &ver = vm_[v];
  e.version[slot] = v;
  ++ver.members;
  if (ver.satisfied)
    return;
  ++e.waiting;
  uint32_t ref = (tm << 4) | slot;
  e.next_member[slot] = kNone;
  if (ver.last == kNone)
    ver.first = ref;
  else
    tm_[ver.last >> 4].next_member[ver.last & 15] = ref;
  ver.last = ref;
}

// v became the oldest version of its address: its members count one
// unsatisfied dependence fewer.
void picos_scheduler::satisfy(uint32_t v) {
  vm_entry &ver = vm_[v];
  ver.satisfied = true;
  for (uint32_t ref = ver.first; ref != kNone;) {
    tm_entry &e = tm_[ref >> 4];
    uint32_t next = e.next_member[ref & 15];
    if (--e.waiting == 0)
      make_ready(ref >> 4);
    ref = next;
  }
  ver.first = ver.last = kNone;
}

void picos_scheduler::make_ready(uint32_t tm) {
  tm_[tm].state = kReady;
  ready_.push(tm); // holds every TM entry: never full
}

picos_ready_task picos_scheduler::pop_ready() {
  uint32_t i = ready_.pop();
  tm_entry &e = tm_[i];
  e.state = kOut;
  return {e.sw_id, (uint32_t(e.gen) << 16) | i};
}

void picos_scheduler::retire(uint32_t id) {
  uint32_t i = id & 0xffff;
  uint32_t gen = id >> 16;
  if (i >= tm_cap_ || tm_[i].gen != gen || tm_[i].state != kOut)
    fatal("picos: Retire Task of Picos ID %#x, which Picos did not hand out "
          "(or which retired already)",
          id);
  tm_entry &e = tm_[i];
  for (uint32_t d = 0; d < e.ndeps; ++d) {
    uint32_t v = e.version[d];
    if (--vm_[v].members == 0)
      release_version(v);
  }
  e.state = kFree;
  e.gen = static_cast<uint16_t>(e.gen == 0x7fff ? 1 : e.gen + 1);
  tm_free_.push_back(i);
  --tm_used_;
}

// v's last member retired (so v was the oldest version): the next version,
// if any, becomes the oldest; else the address is forgotten.
void picos_scheduler::release_version(uint32_t v) {
  uint64_t addr = vm_[v].addr;
  uint32_t next = vm_[v].next;
  vm_free_.push_back(v);
  --vm_used_;
  if (next != kNone) {
    dm_find(addr)->oldest = next;
    satisfy(next);
  } else {
    dm_erase(addr);
  }
}

picos_scheduler::dm_entry *picos_scheduler::dm_find(uint64_t addr) {
  for (uint32_t i = dm_slot(addr);; i = (i + 1) & dm_mask_) {
    dm_entry &e = dm_[i];
    if (e.youngest == kNone)
      return nullptr;
    if (e.addr == addr)
      return &e;
  }
}

picos_scheduler::dm_entry &picos_scheduler::dm_insert(uint64_t addr) {
  uint32_t i = dm_slot(addr);
  while (dm_[i].youngest != kNone)
    i = (i + 1) & dm_mask_;
  ++dm_used_;
  dm_[i].addr = addr;
  return dm_[i];
}

// Backward-shift deletion: no tombstones.
void picos_scheduler::dm_erase(uint64_t addr) {
  uint32_t i = dm_slot(addr);
  while (dm_[i].addr != addr || dm_[i].youngest == kNone)
    i = (i + 1) & dm_mask_;
  for (uint32_t j = (i + 1) & dm_mask_;; j = (j + 1) & dm_mask_) {
    if (dm_[j].youngest == kNone)
      break;
    uint32_t home = dm_slot(dm_[j].addr);
    // j's entry may move to i if its home is not in (i, j].
    if (((j - home) & dm_mask_) >= ((j - i) & dm_mask_)) {
      dm_[i] = dm_[j];
      i = j;
    }
  }
  dm_[i] = dm_entry{0, kNone, kNone};
  --dm_used_;
}

} // namespace weft
