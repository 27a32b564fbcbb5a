#include "engines/sw/sw_engine.hpp"

#include "base/check.hpp"
#include "base/error.hpp"
#include "core/engine_host.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace weft {

namespace {

access access_of(weft_dep_mode m) {
  switch (m) {
  case WEFT_IN:
    return access::in;
  case WEFT_OUT:
  case WEFT_INOUT:
    return access::out;
  case WEFT_INOUTSET:
    return access::inoutset;
  case WEFT_MUTEXINOUTSET:
    return access::mutexinoutset;
  default:
    fatal("sw engine: dependence mode %d reached the engine", (int)m);
  }
}

constexpr int kChunkSlots = 21;
} // namespace

// Successor slots beyond a task's inline ones, one pool block each.
struct succ_chunk {
  task *slot[kChunkSlots];
  succ_chunk *next;
  succ_chunk *tail; // valid in the first chunk of a list
  uint64_t owner;   // the pool the block came from
};
static_assert(sizeof(succ_chunk) <= kBlockSize);

sw_engine::sw_engine(int) {}

sw_engine::~sw_engine() = default;

dep_domain *sw_engine::new_domain(worker &w, task *parent) {
  std::vector<dep_domain *> &spare = pw(w).spare_domains;
  dep_domain *d;
  if (spare.empty()) {
    d = new dep_domain;
  } else {
    d = spare.back();
    spare.pop_back();
  }
  parent->domain = d;
  return d;
}

// Single producer (the parent's thread); the retiring thread closes the list
// with one fetch_or and then reads only the slots registered before it.
bool sw_engine::add_successor(worker &w, task *pred, task *succ) {
  uint32_t s = pred->succ_state.load(std::memory_order_acquire);
  if (s & kSuccClosed)
    return false;
  if (s < static_cast<uint32_t>(kSuccInline)) {
    pred->succ_inline[s] = succ;
  } else {
    uint32_t k = s - kSuccInline;
    succ_chunk *c;
    if (k % kChunkSlots == 0) {
      c = static_cast<succ_chunk *>(w.side_pool().alloc()); // not a task block
      c->next = nullptr;
      c->owner = static_cast<uint64_t>(w.id());
      succ_chunk *first = pred->succ_more;
      if (!first) {
        pred->succ_more = c;
        c->tail = c;
      } else {
        first->tail->next = c;
        first->tail = c;
      }
    } else {
      c = pred->succ_more->tail;
    }
    c->slot[k % kChunkSlots] = succ;
  }
  // Failing means pred closed meanwhile: acquire, since the caller then
  // treats the dependence as satisfied by pred's retirement.
  return pred->succ_state.compare_exchange_strong(
      s, s + 1, std::memory_order_release, std::memory_order_acquire);
}

// Inline: a chain's submission links one predecessor per task.
[[gnu::always_inline]] inline void sw_engine::link(worker &w, linker &l,
                                                   task *pred) {
  if (pred == l.last || pred == l.t)
    return;
  l.last = pred;
  if (add_successor(w, pred, l.t)) {
    ++l.npreds;
    ++pw(w).edges;
  }
}

void sw_engine::apply(worker &w, dep_domain &dom, dep_entry &e, access acc,
                      linker &l, int ndeps) {
  task *t = l.t;
  if (acc == access::out && e.kind == access::out && e.cur_one != t) {
    // The common case, a writer after a lone writer (an out stage has one
    // member and no stage before it): follow it and take its place.
    task *p = e.cur_one;
    link(w, l, p);
    map_release(p, w);
    e.cur_one = t;
    ++t->engine_data;
    return;
  }
  if (e.cur_n > 0 && e.cur(e.cur_n - 1) == t) {
    // The task names this address twice: the stronger access wins.
    if (e.kind == acc || e.kind == access::out)
      return;
    --e.cur_n; // leave the stage, to join again below as a writer
    --t->engine_data;
    acc = access::out;
  }
  if (acc != access::out && acc == e.kind && e.cur_n > 0) {
    // Join the current concurrent stage: order after the stage before it.
    for (uint32_t i = 0; i < e.prev_n; ++i)
      link(w, l, e.prev(i));
    if (e.cur_n == 1 + e.cur_more_cap) {
      // Full: first forget members that have retired, then grow.
      uint32_t keep = 0;
      for (uint32_t i = 0; i < e.cur_n; ++i) {
        task *m = e.cur(i);
        if (retired(m)) {
          map_release(m, w);
          continue;
        }
        if (keep == 0)
          e.cur_one = m;
        else
          e.cur_more[keep - 1] = m;
        ++keep;
      }
      e.cur_n = keep;
      if (keep == 0) {
        e.cur_one = t;
        e.cur_n = 1;
        ++t->engine_data;
        goto mutex;
      }
      if (e.cur_n == 1 + e.cur_more_cap)
        dom.grow_members(e);
    }
    if (e.cur_n == 0)
      e.cur_one = t;
    else
      e.cur_more[e.cur_n - 1] = t;
    ++e.cur_n;
    ++t->engine_data;
  } else {
    // A new stage after every member of the current one.
    for (uint32_t i = 0; i < e.cur_n; ++i)
      link(w, l, e.cur(i));
    dom.drop_prev(e, w);
    if (acc == access::out) {
      for (uint32_t i = 0; i < e.cur_n; ++i)
        map_release(e.cur(i), w);
    } else if (e.cur_n > 0) {
      // The current stage becomes the one joiners must follow.
      e.prev_one = e.cur_one;
      e.prev_n = e.cur_n;
      if (e.cur_n > 1) {
        e.prev_more = e.cur_more;
        e.prev_more_block = dep_domain::is_block(e.cur_more_cap);
        e.cur_more = nullptr;
        e.cur_more_cap = 0;
      }
    }
    e.cur_one = t;
    e.cur_n = 1;
    e.kind = acc;
    ++t->engine_data;
    if (e.mx) {
      if (e.mx->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
        delete e.mx;
      e.mx = nullptr;
    }
    if (acc == access::mutexinoutset) {
      e.mx = new mutex_group;
      e.mx->addr = e.addr;
    }
  }
mutex:
  if (acc == access::mutexinoutset) {
    if (!t->mutexes) {
      void *mem =
          std::malloc(sizeof(mutex_set) + (ndeps - 1) * sizeof(mutex_group *));
      if (!mem)
        fatal("out of memory for a mutexinoutset set");
      t->mutexes = new (mem) mutex_set;
    }
    e.mx->refs.fetch_add(1, std::memory_order_relaxed);
    t->mutexes->g[t->mutexes->n++] = e.mx;
  }
}

// A second reader of a writer's output (a wavefront's north-east neighbour
// after the west one): apply's join of a stage of one, without its tests.
// It follows the writer, and takes the first reader's place if that one has
// retired, else joins it (the stage's array a block of the map's). Out of
// line, so that submit's loop keeps its registers for the chain's paths.
__attribute__((noinline)) void sw_engine::join_second_reader(worker &w,
                                                             dep_domain &dom,
                                                             dep_entry &e,
                                                             linker &l) {
  task *t = l.t;
  link(w, l, e.prev_one);
  if (retired(e.cur_one)) {
    map_release(e.cur_one, w);
    e.cur_one = t;
  } else {
    if (e.cur_more_cap == 0)
      dom.grow_members(e);
    e.cur_more[0] = t;
    e.cur_n = 2;
  }
  ++t->engine_data;
}

submit_result sw_engine::submit(worker &w, task *parent, task *t,
                                const weft_dep *deps, int ndeps) {
  if (ndeps == 0) {
    // Never in a dependence map, so no task can ever name it a predecessor.
    t->flags |= TASK_NO_SUCCESSORS;
    return submit_result::ready;
  }
  per_worker &p = pw(w);
  p.deps += static_cast<uint64_t>(ndeps);
  dep_domain *dom = domain_of(w, parent);

  t->pending.store(kPendingBias, std::memory_order_relaxed);
  linker l{t};
  for (int i = 0; i < ndeps; ++i) {
    auto addr = reinterpret_cast<uintptr_t>(deps[i].addr);
    uintptr_t &word = dom->find_or_insert(addr, w);
    access acc = access_of(deps[i].mode);
    if (word == 0 && acc != access::mutexinoutset) {
      // A new slot (the common case, fresh data): nothing to follow, and t
      // is its one stage (what apply makes of an empty entry).
      word = dep_word::of_lone(t, acc);
      ++t->engine_data;
      dom->log_insert(addr, t);
      continue;
    }
    if (acc == access::out && dep_word::lone(word)) {
      // A writer after a lone task (a chain's shape): follow it and take its
      // place (apply's new stage when the current one has one member and no
      // stage before it).
      task *pred = dep_word::lone_task(word);
      if (pred == t) {
        if (dep_word::lone_kind(word) == access::out)
          continue; // the task names this address twice
      } else {
        link(w, l, pred);
        map_release(pred, w);
        word = dep_word::of_lone(t, access::out);
        ++t->engine_data;
        continue;
      }
    } else if (acc == access::in && dep_word::lone(word) &&
               dep_word::lone_kind(word) == access::out) {
      // A reader after a lone writer (a chain's west neighbour): a stage of
      // one reader after the writer's, what apply's new stage makes of this
      // state, without its tests. The writer keeps its map reference as the
      // stage before, which later readers follow.
      task *pred = dep_word::lone_task(word);
      if (pred == t)
        continue; // t writes it too: the stronger access wins
      link(w, l, pred);
      dep_entry &e = dom->make_full(addr, word);
      e.prev_one = pred;
      e.prev_n = 1;
      e.cur_one = t;
      e.kind = access::in;
      ++t->engine_data;
      continue;
    } else if (acc == access::in && !dep_word::lone(word)) {
      dep_entry &e = *dep_word::full(word);
      if (e.kind == access::in && e.cur_n == 1 && e.prev_n == 1 &&
          e.cur_one != t) {
        join_second_reader(w, *dom, e, l);
        continue;
      }
    }
    bool fresh = word == 0; // (a mutexinoutset stage's lock: in apply)
    apply(w, *dom, dom->make_full(addr, word), acc, l, ndeps);
    dom->make_lone_if_one(word);
    if (fresh)
      dom->log_insert(addr, t);
  }
  if (dom->size() > p.peak_entries)
    p.peak_entries = dom->size();
  // One reference for running, one for the map (task::engine_data counts
  // its slots). Nobody else touches refs before the task runs, which needs
  // pending to reach 0.
  t->refs.store(t->engine_data ? 2 : 1, std::memory_order_relaxed);
  if (mutex_set *m = t->mutexes)
    std::sort(m->g, m->g + m->n,
              [](mutex_group *a, mutex_group *b) { return a->addr < b->addr; });

  if (l.npreds > 0) {
    int32_t add = l.npreds - kPendingBias;
    if (t->pending.fetch_add(add, std::memory_order_acq_rel) + add != 0)
      return submit_result::pending;
  } else {
    t->pending.store(0, std::memory_order_relaxed);
  }
  if (t->mutexes && !acquire_mutexes(t))
    return submit_result::pending;
  return submit_result::ready;
}

namespace {
// Whether a task accessing an address `acc` would follow an unfinished task
// of its entry (see apply): the stage before the current concurrent stage it
// would join, else the current stage (whose members follow the stage before
// them).
bool follows_live(const dep_entry &e, access acc) {
  if (acc != access::out && acc == e.kind) {
    for (uint32_t j = 0; j < e.prev_n; ++j)
      if (!retired(e.prev(j)))
        return true;
  } else {
    for (uint32_t j = 0; j < e.cur_n; ++j)
      if (!retired(e.cur(j)))
        return true;
  }
  return false;
}

// ready_now from the first of the addresses that is in the map on (word:
// its slot's word).
__attribute__((noinline)) bool ready_from(dep_domain &dom, uintptr_t word,
                                          const weft_dep *deps, int ndeps) {
  for (int i = 0; i < ndeps; ++i) {
    access acc = access_of(deps[i].mode);
    if (acc == access::mutexinoutset)
      return false; // would need the stage's lock
    if (i > 0)
      word = dom.find(reinterpret_cast<uintptr_t>(deps[i].addr));
    if (!word)
      continue;
    if (dep_word::lone(word)) {
      // One stage of one task: a concurrent access of its class joins it.
      if ((acc == access::out || acc != dep_word::lone_kind(word)) &&
          !retired(dep_word::lone_task(word)))
        return false;
      continue;
    }
    if (follows_live(*dep_word::full(word), acc))
      return false;
  }
  return true;
}
} // namespace

bool sw_engine::ready_now(worker &, task *parent, const weft_dep *deps,
                          int ndeps) {
  if (ndeps == 0)
    return true;
  dep_domain *dom = parent->domain;
  if (!dom) {
    for (int i = 0; i < ndeps; ++i)
      if (deps[i].mode == WEFT_MUTEXINOUTSET)
        return false; // would need the stage's lock
    return true;
  }
  // Most addresses are not in the map (fresh data): a lookup that finds
  // none of them is all it takes (no calls, no mode but mutexinoutset).
  const dep_domain::finder find(*dom);
  for (int i = 0; i < ndeps; ++i) {
    if (deps[i].mode == WEFT_MUTEXINOUTSET)
      return false;
    uintptr_t word = find(reinterpret_cast<uintptr_t>(deps[i].addr));
    if (!word)
      continue;
    if (dep_word::lone(word) && dep_word::lone_kind(word) == access::out) {
      // A lone writer (a chain's shape): whatever the access, it follows it.
      if (!(dep_word::lone_task(word)->succ_state.load(
                std::memory_order_acquire) &
            kSuccClosed))
        return false;
      continue;
    }
    return ready_from(*dom, word, deps + i, ndeps - i);
  }
  return true;
}

void sw_engine::release(worker &w, task *t) {
  int32_t p = t->pending.fetch_sub(1, std::memory_order_acq_rel);
  WEFT_CHECK(p > 0, "task %p released by more predecessors than it has",
             static_cast<void *>(t));
  if (p != 1)
    return;
  if (t->mutexes && !acquire_mutexes(t))
    return;
  w.make_ready(t);
}

void sw_engine::retire(worker &w, task *t) {
  if (t->flags & TASK_NO_SUCCESSORS)
    return;
  uint32_t n = t->succ_state.fetch_or(kSuccClosed, std::memory_order_acq_rel);
  WEFT_CHECK(!(n & kSuccClosed), "task %p retired twice",
             static_cast<void *>(t));
  if (t->mutexes)
    release_mutexes(w, t);
  uint32_t inl = n < static_cast<uint32_t>(kSuccInline) ? n : kSuccInline;
  for (uint32_t i = 0; i < inl; ++i)
    release(w, t->succ_inline[i]);
  // Read chunk links only while published slots remain: the parent's
  // thread may be linking a chunk for a successor that will never count.
  uint32_t rest = n - inl;
  if (rest == 0)
    return;
  succ_chunk *c = t->succ_more;
  for (;;) {
    uint32_t k = rest < kChunkSlots ? rest : kChunkSlots;
    for (uint32_t i = 0; i < k; ++i)
      release(w, c->slot[i]);
    rest -= k;
    if (rest == 0)
      break;
    c = c->next;
  }
}

// Acquire the task's mutexinoutset locks in address order (so that no two
// tasks wait for each other); a task that finds one held waits in that
// lock's queue and continues when it is handed over.
bool sw_engine::acquire_mutexes(task *t) {
  mutex_set *m = t->mutexes;
  while (m->acquired < m->n) {
    mutex_group *g = m->g[m->acquired];
    std::lock_guard<std::mutex> lk(g->lock);
    if (g->held) {
      g->waiters.push_back(t);
      return false;
    }
    g->held = true;
    ++m->acquired;
  }
  return true;
}

void sw_engine::release_mutexes(worker &w, task *t) {
  mutex_set *m = t->mutexes;
  for (uint32_t i = m->n; i-- > 0;) {
    mutex_group *g = m->g[i];
    task *next = nullptr;
    {
      std::lock_guard<std::mutex> lk(g->lock);
      if (g->next_waiter < g->waiters.size())
        next = g->waiters[g->next_waiter++];
      else
        g->held = false; // hand over keeps it held
    }
    if (next) {
      ++next->mutexes->acquired;
      if (acquire_mutexes(next))
        w.make_ready(next);
    }
  }
}

wait_result sw_engine::wait_deps(worker &w, task *parent, task *waiter,
                                 const weft_dep *deps, int ndeps) {
  dep_domain *dom = parent->domain;
  if (!dom)
    return wait_result::none;
  waiter->pending.store(kPendingBias, std::memory_order_relaxed);
  linker l{waiter};
  for (int i = 0; i < ndeps; ++i) {
    uintptr_t word = dom->find(reinterpret_cast<uintptr_t>(deps[i].addr));
    if (!word)
      continue;
    access acc = access_of(deps[i].mode);
    if (dep_word::lone(word)) {
      if (acc == access::out || acc != dep_word::lone_kind(word))
        link(w, l, dep_word::lone_task(word));
      continue;
    }
    const dep_entry &e = *dep_word::full(word);
    if (acc != access::out && acc == e.kind)
      for (uint32_t j = 0; j < e.prev_n; ++j)
        link(w, l, e.prev(j));
    else
      for (uint32_t j = 0; j < e.cur_n; ++j)
        link(w, l, e.cur(j));
  }
  if (l.npreds == 0)
    return wait_result::none;
  int32_t add = l.npreds - kPendingBias;
  return waiter->pending.fetch_add(add, std::memory_order_acq_rel) + add != 0
             ? wait_result::waiter
             : wait_result::none;
}

void sw_engine::children_done(worker &w, task *parent) {
  parent->domain->clear(w);
}

void sw_engine::task_end(worker &w, task *parent) {
  dep_domain *d = parent->domain;
  parent->domain = nullptr;
  d->clear(w);
  pw(w).spare_domains.push_back(d);
}

void sw_engine::task_free(worker &w, task *t) {
  for (succ_chunk *c = t->succ_more; c;) {
    succ_chunk *next = c->next;
    engine_host::release_block(w, c, static_cast<uint16_t>(c->owner));
    c = next;
  }
  if (mutex_set *m = t->mutexes) {
    for (uint32_t i = 0; i < m->n; ++i)
      if (m->g[i]->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
        delete m->g[i];
    std::free(m);
  }
}

void sw_engine::add_stats(engine_stats &out) const {
  pw_.for_each([&](int, const per_worker &p) {
    out.deps_submitted += p.deps;
    out.edges += p.edges;
    if (p.peak_entries > out.peak_map_entries)
      out.peak_map_entries = p.peak_entries;
  });
}

// ---------------------------------------------------------------------------
} // namespace weft
