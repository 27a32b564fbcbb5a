#include "nexus_task_maestro.hpp"

#include "base/error.hpp"
#include "nexus_cost_model.hpp"
#include "nexus_domain.hpp"

#include <algorithm>

namespace weft {

namespace cost = nexus_cost;

nexus_task_maestro::nexus_task_maestro(const nexus_config &c, nexus_port &port,
                                       bool reservations)
    : cfg_(c), port_(port), reservations_(reservations),
      pool_(c.pool, c.params), table_(c.sets, c.ways, c.kol, c.dummy_kol),
      buffer_(c.task_buffer), new_(c.new_fifo), ready_(c.ready_fifo),
      finished_(c.finished_fifo), claimed_(c.sets, 0), pool_credit_(c.pool),
      dummy_credit_(c.dummy_kol),
      set_credit_(new std::atomic<int32_t>[c.sets]) {
  for (uint32_t s = 0; s < c.sets; ++s)
    set_credit_[s].store(static_cast<int32_t>(c.ways),
                         std::memory_order_relaxed);
}

bool nexus_task_maestro::fits_ever(const nexus_descriptor &d) const {
  if (pool_.entries_for(d.n) > cfg_.pool)
    return false;
  if (reservations_ && d.n > cfg_.dummy_kol)
    return false;
  if (d.n <= cfg_.ways)
    return true; // no set can be asked for more ways than there are
  std::vector<uint32_t> sets(d.n);
  const nexus_param *p = d.params();
  for (uint32_t i = 0; i < d.n; ++i)
    sets[i] = table_.set_of(d.tag, p[i].addr);
  std::sort(sets.begin(), sets.end());
  uint32_t run = 0;
  for (uint32_t i = 0; i < d.n; ++i) {
    run = i > 0 && sets[i] == sets[i - 1] ? run + 1 : 1;
    if (run > cfg_.ways)
      return false;
  }
  return true;
}

nexus_refusal nexus_task_maestro::refuse(nexus_refusal why, uint64_t lookups) {
  switch (why) {
  case nexus_refusal::pool:
    st_.stall_pool.add();
    break;
  case nexus_refusal::set:
    st_.set_conflicts.add();
    break;
  case nexus_refusal::dummy_kol:
    st_.stall_dummy_kol.add();
    break;
  case nexus_refusal::none:
    break;
  }
  // The lookups the unit made before it found the missing room.
  st_.lookups.add(lookups);
  st_.stall_cycles.add(lookups * cost::lookup);
  return why;
}

nexus_refusal nexus_task_maestro::insert(const nexus_descriptor &d) {
  const uint32_t n = d.n;
  const nexus_param *p = d.params();
  if (n > 0 && d.tag == 0)
    fatal("nexus task maestro: a task with parameters has no domain tag");
  const uint32_t need = pool_.entries_for(n);
  if (pool_.free_entries() < need)
    return refuse(nexus_refusal::pool, 0);

  // Look every parameter up; refuse at the first that has no room.
  if (look_.size() < n)
    look_.resize(n);
  uint32_t dummies = 0;
  nexus_refusal why = nexus_refusal::none;
  uint32_t i = 0;
  for (; i < n; ++i) {
    uint32_t s = table_.set_of(d.tag, p[i].addr);
    uint32_t e = table_.find(s, d.tag, p[i].addr);
    look_[i] = {e, s};
    if (e == kNone) {
      if (table_.free_ways(s) <= claimed_[s]) {
        why = nexus_refusal::set;
        break;
      }
      ++claimed_[s];
    } else if (!joinable(e, p[i].acc) && table_.kol_needs_dummy(e)) {
      if (++dummies > table_.dummy_free()) {
        why = nexus_refusal::dummy_kol;
        break;
      }
    }
  }
  for (uint32_t j = 0; j < i; ++j)
    if (look_[j].entry == kNone)
      claimed_[look_[j].set] = 0;
  if (why != nexus_refusal::none)
    return refuse(why, i + 1);

  // Room for everything: store the task, then place each parameter.
  uint32_t id = pool_.store(d);
  d.t->engine_data = id + 1;
  uint64_t cyc = (n + 1) * cost::fifo_word + need * cost::pool_entry;
  uint32_t pending = 0;
  uint32_t took = 0;
  for (i = 0; i < n; ++i) {
    uint32_t e = look_[i].entry;
    cyc += cost::lookup + cost::table_write;
    if (e == kNone) {
      uint32_t s = look_[i].set;
      table_.create(s, d.tag, p[i].addr, p[i].acc);
      st_.inserts.add();
      st_.peak_set.peak(table_.set_used(s));
    } else if (joinable(e, p[i].acc)) {
      ++table_.holders(e);
      st_.joins.add();
      if (reservations_) // the way reserved for it stays free
        set_credit_[look_[i].set].fetch_add(1, std::memory_order_relaxed);
    } else {
      bool dummy = table_.kol_append(e, id, p[i].acc);
      cyc += cost::kol_slot + (dummy ? cost::dummy_kol : 0);
      ++pending;
      took += dummy;
      st_.kol_appends.add();
      st_.peak_kol.peak(table_.kol_length(e));
      if (reservations_)
        set_credit_[look_[i].set].fetch_add(1, std::memory_order_relaxed);
    }
  }
  if (reservations_ && n > took)
    dummy_credit_.fetch_add(n - took, std::memory_order_relaxed);

  st_.tasks_new.add();
  if (d.waiter)
    st_.waiters.add();
  st_.deps.add(d.ndeps);
  st_.params.add(n);
  st_.lookups.add(n);
  st_.dummy_entries.add(need - 1);
  st_.dummy_kol_allocs.add(took);
  st_.pcie_written.add(n + 1);
  st_.peak_pool.peak(pool_.used_entries());
  st_.peak_dummy_pool.peak(pool_.used_dummies());
  st_.peak_table.peak(table_.used());
  st_.peak_dummy_kol.peak(table_.dummy_used());
  if (!reservations_) {
    // Inline: the descriptor went straight through the New FIFO into the
    // Task Buffer.
    new_.pass_through();
    st_.peak_task_buffer.peak(1);
  }
  if (pending > 0) {
    pool_.dep_count(id) = pending;
    cyc += cost::count_write;
    st_.cycles.add(cyc);
  } else {
    st_.cycles.add(cyc);
    emit_ready(id);
    release_waiters();
  }
  return nexus_refusal::none;
}

void nexus_task_maestro::emit_ready(uint32_t id) {
  if (pool_.is_waiter(id)) {
    ready_waiters_.push_back(id); // retired by the unit at the end of the op
    return;
  }
  task *t = pool_.task_of(id);
  for (;;) {
    bool ok = reservations_ ? ready_.try_push(t) : ready_.try_push_exclusive(t);
    if (ok)
      break;
    st_.stall_ready.add();
    st_.stall_cycles.add(port_.make_room());
  }
  st_.tasks_ready.add();
  st_.pcie_read.add();
  st_.cycles.add(cost::fifo_word);
  if (reservations_)
    port_.ready_written();
}

void nexus_task_maestro::kick_off(uint32_t e) {
  // Nobody holds e: grant the oldest waiter, and with a concurrent class
  // every waiter of the same class right behind it.
  do {
    nexus_dependence_table::waiting w = table_.kol_front(e);
    if (table_.holders(e) > 0 &&
        !(nexus_concurrent(w.acc) && w.acc == table_.holder_class(e)))
      break;
    bool refilled = table_.kol_pop(e);
    st_.kickoffs.add();
    uint64_t cyc = cost::kol_slot + cost::count_decrement;
    if (refilled) {
      cyc += cost::dummy_kol;
      st_.dummy_kol_refills.add();
      if (reservations_)
        dummy_credit_.fetch_add(1, std::memory_order_relaxed);
    }
    st_.cycles.add(cyc);
    if (table_.holders(e) == 0)
      table_.holder_class(e) = w.acc;
    ++table_.holders(e);
    if (--pool_.dep_count(w.id) == 0)
      emit_ready(w.id);
  } while (!table_.kol_empty(e) && nexus_concurrent(table_.holder_class(e)));
}

void nexus_task_maestro::release_param(uint32_t tag, const nexus_param &p) {
  uint32_t s = table_.set_of(tag, p.addr);
  uint32_t e = table_.find(s, tag, p.addr);
  if (e == kNone)
    fatal("nexus task maestro: a finished task's address %#lx (tag %u) is "
          "not in the dependence table",
          static_cast<unsigned long>(p.addr), tag);
  st_.lookups.add();
  st_.cycles.add(cost::lookup + cost::table_write);
  if (--table_.holders(e) == 0 && !table_.kol_empty(e))
    kick_off(e);
  if (table_.holders(e) == 0) {
    table_.erase(e);
    st_.deletes.add();
    if (reservations_)
      set_credit_[s].fetch_add(1, std::memory_order_relaxed);
  }
}

void nexus_task_maestro::do_finish(uint32_t id) {
  const uint32_t tag = pool_.tag_of(id);
  uint32_t entries = 0;
  for (uint32_t e = id; e != kNone; e = pool_.next(e)) {
    ++entries;
    for (uint32_t i = 0; i < pool_.count(e); ++i)
      release_param(tag, pool_.param(e, i));
  }
  nexus_domain *dom = pool_.domain_of(id);
  pool_.release(id);
  // Read every entry, then free every entry.
  st_.cycles.add(2 * entries * cost::pool_entry);
  st_.tasks_finished.add();
  if (reservations_)
    pool_credit_.fetch_add(entries, std::memory_order_relaxed);
  if (dom)
    dom->unref();
}

void nexus_task_maestro::release_waiters() {
  for (std::size_t i = 0; i < ready_waiters_.size(); ++i) {
    uint32_t id = ready_waiters_[i];
    task *w = pool_.task_of(id);
    do_finish(id);
    port_.waiter_released(w);
  }
  ready_waiters_.clear();
}

void nexus_task_maestro::finish(uint32_t id) {
  if (id >= pool_.entries() || pool_.task_of(id) == nullptr)
    fatal("nexus task maestro: finished task id %u is not in the task pool",
          id);
  st_.cycles.add(cost::fifo_word);
  st_.pcie_written.add();
  if (!reservations_)
    finished_.pass_through();
  do_finish(id);
  release_waiters();
}

// ---- thread mode -----------------------------------------------------------
nexus_refusal nexus_task_maestro::reserve(const nexus_descriptor &d) {
  const int64_t need = pool_.entries_for(d.n);
  if (pool_credit_.fetch_sub(need, std::memory_order_relaxed) < need) {
    pool_credit_.fetch_add(need, std::memory_order_relaxed);
    st_.stall_pool.add_shared();
    return nexus_refusal::pool;
  }
  const nexus_param *p = d.params();
  for (uint32_t i = 0; i < d.n; ++i) {
    uint32_t s = table_.set_of(d.tag, p[i].addr);
    if (set_credit_[s].fetch_sub(1, std::memory_order_relaxed) < 1) {
      for (uint32_t j = 0; j <= i; ++j)
        set_credit_[table_.set_of(d.tag, p[j].addr)].fetch_add(
            1, std::memory_order_relaxed);
      pool_credit_.fetch_add(need, std::memory_order_relaxed);
      st_.set_conflicts.add_shared();
      return nexus_refusal::set;
    }
  }
  if (dummy_credit_.fetch_sub(d.n, std::memory_order_relaxed) <
      static_cast<int64_t>(d.n)) {
    dummy_credit_.fetch_add(d.n, std::memory_order_relaxed);
    for (uint32_t j = 0; j < d.n; ++j)
      set_credit_[table_.set_of(d.tag, p[j].addr)].fetch_add(
          1, std::memory_order_relaxed);
    pool_credit_.fetch_add(need, std::memory_order_relaxed);
    st_.stall_dummy_kol.add_shared();
    return nexus_refusal::dummy_kol;
  }
  return nexus_refusal::none;
}

void nexus_task_maestro::unreserve(const nexus_descriptor &d) {
  const nexus_param *p = d.params();
  for (uint32_t j = 0; j < d.n; ++j)
    set_credit_[table_.set_of(d.tag, p[j].addr)].fetch_add(
        1, std::memory_order_relaxed);
  dummy_credit_.fetch_add(d.n, std::memory_order_relaxed);
  pool_credit_.fetch_add(pool_.entries_for(d.n), std::memory_order_relaxed);
}

bool nexus_task_maestro::step() {
  bool did = false;
  uint32_t id;
  if (finished_.try_pop(id)) {
    finish(id);
    finished_done_.fetch_add(1, std::memory_order_release);
    did = true;
  }
  nexus_descriptor d;
  while (!buffer_.full() && new_.try_pop(d)) {
    buffer_.push(d);
    st_.peak_task_buffer.peak(buffer_.size());
  }
  if (!buffer_.empty()) {
    nexus_descriptor &head = buffer_.front();
    if (insert(head) != nexus_refusal::none)
      fatal("nexus task maestro: a task whose room was reserved did not fit");
    nexus_free_params(head);
    buffer_.pop();
    inserted_.fetch_add(1, std::memory_order_release);
    did = true;
  }
  return did;
}

} // namespace weft
