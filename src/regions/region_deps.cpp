// The dependence analysis of region_space (see region_space.hpp).
#include "region_space.hpp"

#include "base/check.hpp"
#include "base/error.hpp"

namespace weft::regions {

namespace {
// process() nests through move_down; one stack per thread, as operations on
// different schedulers run at once.
thread_local std::vector<region_space::scan_level> tl_scan_stack;

// A node's parent counters on their way to a parent whose owner the
// operation did not hold (Myrmics' counter report message).
struct report {
  node *parent;
  uint32_t rw, ro;
};
thread_local std::vector<report> tl_reports;
} // namespace

void region_space::append(node &n, entry &e) {
  e.at = &n;
  e.outer = nullptr;
  e.last_desc = &e;
  e.next = nullptr;
  e.prev = n.tail;
  if (n.tail)
    n.tail->next = &e;
  else
    n.head = &e;
  n.tail = &e;
}

// After the holder's block: serial order among the holder's children, and
// before every entry that came after the holder.
void region_space::insert_nested(entry &e, entry &holder) {
  node &n = *holder.at;
  entry *after = holder.last_desc;
  e.at = &n;
  e.outer = &holder;
  e.last_desc = &e;
  e.prev = after;
  e.next = after->next;
  if (after->next)
    after->next->prev = &e;
  else
    n.tail = &e;
  after->next = &e;
  for (entry *x = &holder; x && x->last_desc == after; x = x->outer)
    x->last_desc = &e;
}

void region_space::unlink(entry &e) {
  node &n = *e.at;
  if (e.last_desc != &e) {
    // Its nested entries now belong to its own enclosing block.
    for (entry *x = e.next;; x = x->next) {
      if (x->outer == &e)
        x->outer = e.outer;
      if (x == e.last_desc)
        break;
    }
  } else {
    for (entry *x = e.outer; x && x->last_desc == &e; x = x->outer)
      x->last_desc = e.prev;
  }
  if (e.prev)
    e.prev->next = e.next;
  else
    n.head = e.next;
  if (e.next)
    e.next->prev = e.prev;
  else
    n.tail = e.prev;
  e.prev = e.next = nullptr;
}

void region_space::grant(entry &e, ready_list &ready) {
  e.granted = true;
  if (e.task->ungranted.fetch_sub(1, std::memory_order_acq_rel) == 1)
    ready.push_back(e.task);
}

void region_space::move_down(node &n, entry &e, sched_locks &locks,
                             ready_list &ready) {
  // The child of n on the path to the target (found by walking up from it:
  // no node stores the paths below it, as in Myrmics).
  node *c = e.target;
  while (c->parent != &n)
    c = c->parent;
  unlink(e);
  if (e.rw)
    ++n.c_rw;
  else
    ++n.c_ro;
  if (c->owner != n.owner && !locks.holds(*c->owner))
    locks.extend_to(*c->owner);
  if (e.rw)
    ++c->p_rw;
  else
    ++c->p_ro;
  append(*c, e);
  process(*c, locks, ready);
}

void region_space::process(node &n, sched_locks &locks, ready_list &ready) {
  std::vector<scan_level> &stack = tl_scan_stack;
  std::size_t base = stack.size(); // process() nests through move_down
  stack.push_back({nullptr, false, false, false});
  std::size_t depth = base;
  entry *e = n.head;
  while (e) {
    while (stack[depth].owner != e->outer) {
      stack.pop_back();
      WEFT_CHECK(depth > base,
                 "a queue entry's enclosing entry is not before it in the "
                 "queue");
      --depth;
    }
    scan_level &l = stack[depth];
    entry *next = e->last_desc->next;
    if (l.stopped) {
      // Everything after this point at this level waits: resume after the
      // block that holds the level (nothing is left at the top level).
      e = l.owner ? l.owner->last_desc->next : nullptr;
      continue;
    }
    if (e->granted) {
      l.any_granted = true;
      if (e->rw)
        l.writer_granted = true;
      if (e->last_desc != e) {
        stack.push_back({e, false, false, false});
        ++depth;
        e = e->next;
        continue;
      }
      e = next;
      continue;
    }
    // A waiting entry: siblings ahead must all be granted readers (or none)
    // and it must read too, or be the first.
    if (l.writer_granted || (e->rw && l.any_granted)) {
      l.stopped = true;
      e = l.owner ? l.owner->last_desc->next : nullptr;
      continue;
    }
    if (e->target == &n) {
      bool free = e->rw ? n.c_rw == 0 && n.c_ro == 0 : n.c_rw == 0;
      if (!free) {
        l.stopped = true;
        e = l.owner ? l.owner->last_desc->next : nullptr;
        continue;
      }
      grant(*e, ready);
      l.any_granted = true;
      if (e->rw)
        l.writer_granted = true;
      e = next;
      continue;
    }
    move_down(n, *e, locks, ready); // may grow the stack: `l` is stale after it
    e = next;
  }
  stack.resize(base);
}

// n's counters or queue changed: grant what may go now, or, if n is idle,
// report its parent counters upwards (and so on while parents go idle).
void region_space::settle(node *n, sched_locks &locks, ready_list &ready) {
  while (n) {
    if (!n->idle()) {
      process(*n, locks, ready);
      return;
    }
    node *p = n->parent;
    uint32_t rw = n->p_rw, ro = n->p_ro;
    n->p_rw = n->p_ro = 0;
    drop_if_unused(*n);
    if (rw == 0 && ro == 0)
      return;
    if (!locks.holds(*p->owner)) {
      tl_reports.push_back({p, rw, ro});
      return;
    }
    WEFT_CHECK(p->c_rw >= rw && p->c_ro >= ro,
               "a node reports more enqueues than its parent passed down");
    p->c_rw -= rw;
    p->c_ro -= ro;
    n = p;
  }
}

void region_space::drop_if_unused(node &n) {
  if (n.is_region || !n.idle() ||
      n.inbound.load(std::memory_order_acquire) != 0 || n.p_rw || n.p_ro)
    return;
  auto &o = static_cast<object_node &>(n);
  o.s->slots[o.index].node = nullptr;
  delete &o;
}

void region_space::enqueue(rtask &t, sched_locks &locks, ready_list &ready) {
  // Held until every entry is in place.
  t.ungranted.store(t.nentries + 1, std::memory_order_relaxed);
  for (int i = 0; i < t.nentries; ++i) {
    entry &e = t.entries[i];
    for (node *x = e.target; x != e.start; x = x->parent)
      x->inbound.fetch_add(1, std::memory_order_relaxed);
  }
  for (int i = 0; i < t.nentries; ++i) {
    entry &e = t.entries[i];
    // e.outer holds the spawning task's entry (set by the caller).
    entry &holder = *e.outer;
    insert_nested(e, holder);
    process(*e.start, locks, ready);
  }
  if (t.ungranted.fetch_sub(1, std::memory_order_acq_rel) == 1)
    ready.push_back(&t);
}

void region_space::release(rtask &t, ready_list &ready) {
  // One entry at a time, each under its target's owner (and what the
  // settling reaches below it): the entries' targets are disjoint.
  for (int i = 0; i < t.nentries; ++i) {
    entry &e = t.entries[i];
    WEFT_CHECK(e.granted, "a task ended before all its arguments were granted");
    for (node *x = e.target; x != e.start; x = x->parent)
      x->inbound.fetch_sub(1, std::memory_order_acq_rel);
    sched_locks locks;
    locks.take_top(*e.target->owner);
    unlink(e);
    settle(e.target, locks, ready);
  }
  drain_reports(ready);
}

void region_space::drain_reports(ready_list &ready) {
  while (!tl_reports.empty()) {
    report r = tl_reports.back();
    tl_reports.pop_back();
    sched_locks locks;
    locks.take_top(*r.parent->owner);
    node *p = r.parent;
    WEFT_CHECK(p->c_rw >= r.rw && p->c_ro >= r.ro,
               "a node reports more enqueues than its parent passed down");
    p->c_rw -= r.rw;
    p->c_ro -= r.ro;
    settle(p, locks, ready);
  }
}

} // namespace weft::regions
