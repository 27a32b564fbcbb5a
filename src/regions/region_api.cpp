// weft/regions.h: argument checking (errors name the call and the value),
// the calling task, and the hand-over of ready region tasks to the core as
// dependence-free tasks whose completion releases their arguments.
#include "base/error.hpp"
#include "core/runtime.hpp"
#include "core/trace_points.hpp"
#include "region_space.hpp"

#include <weft/regions.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

namespace weft::regions {
namespace {

// The region task the calling thread runs now (nullptr: none, or the
// program's main code).
thread_local rtask *tl_rtask = nullptr;

using lock_guard = std::lock_guard<std::mutex>;

// "region 5" or "object 0x...", for messages.
struct node_name {
  char text[48];
  explicit node_name(const node &n) {
    if (n.is_region)
      std::snprintf(text, sizeof text, "region %u",
                    static_cast<const region &>(n).id);
    else {
      auto &o = static_cast<const object_node &>(n);
      std::snprintf(text, sizeof text, "object %p",
                    static_cast<void *>(o.s->data +
                                        std::size_t(o.index) * o.s->obj_size));
    }
  }
};

// The calling worker and region task; starts the runtime on first use.
int caller(const char *call, worker *&w, rtask *&cur) {
  w = tl_worker;
  if (!w) {
    if (weft_num_threads() < 0)
      return set_error(WEFT_ETHREAD,
                       "%s: called from a thread weft does not know", call);
    w = tl_worker;
  }
  cur = tl_rtask;
  if (cur) {
    if (w->current() != cur->core)
      return set_error(WEFT_ESTATE,
                       "%s: called from a task spawned with weft_spawn, not "
                       "a region task (weft_rspawn) or the main program",
                       call);
    return WEFT_OK;
  }
  if (w->current() != w->root())
    return set_error(WEFT_ESTATE,
                     "%s: called from a task spawned with weft_spawn, not a "
                     "region task (weft_rspawn) or the main program",
                     call);
  cur = &region_space::get().root_task();
  return WEFT_OK;
}

// The calling task must hold write access to n or a region enclosing it.
int check_writable(const char *call, rtask &cur, node &n) {
  entry *h = region_space::holder_of(cur, n);
  if (!h)
    return set_error(WEFT_ESTATE,
                     "%s: the calling task holds neither %s nor a region "
                     "enclosing it",
                     call, node_name(n).text);
  if (!h->rw)
    return set_error(WEFT_ESTATE,
                     "%s: the calling task holds %s read-only (it needs "
                     "write access to %s)",
                     call, node_name(*h->target).text, node_name(n).text);
  return WEFT_OK;
}

rtask *make_rtask(int nargs, int nentries) {
  std::size_t bytes = sizeof(rtask) + sizeof(void *) * std::size_t(nargs) +
                      sizeof(entry) * std::size_t(nentries);
  void *mem = std::malloc(bytes);
  if (!mem)
    fatal("weft regions: out of memory for a task of %d arguments", nargs);
  auto *t = new (mem) rtask;
  auto *p = reinterpret_cast<char *>(t + 1);
  t->args = reinterpret_cast<void **>(p);
  t->entries = reinterpret_cast<entry *>(p + sizeof(void *) * nargs);
  for (int i = 0; i < nentries; ++i)
    new (&t->entries[i]) entry;
  t->nargs = nargs;
  t->nentries = nentries;
  return t;
}

void destroy_rtask(rtask *t) {
  t->~rtask();
  std::free(t);
}

void run_rtask(void *p);

// Under a scheduler tree: the leaves split the workers once, when the first
// task is placed.
scheduler_tree &placing_tree() {
  static scheduler_tree &tree = []() -> scheduler_tree & {
    scheduler_tree &t = region_space::get().schedulers();
    t.assign_workers(weft_num_threads());
    return t;
  }();
  return tree;
}

// A ready task's argument bytes packed by last producer (placement_arg per
// worker that produced some, and one for the bytes no worker produced): the
// argument objects' by their slots, a region argument's by the counters of
// its own objects and of up to region_space::kMaxPackedRegions - 1 regions
// inside it (Myrmics packs every object of a region argument; this reads a
// per-region summary instead, so the cost does not grow with the number of
// objects). Sets t.producer to the worker with the most bytes.
// Writes the packed entries to out (at most tree.workers() + 1); returns
// how many.
int pack_arguments(region_space &sp, scheduler_tree &tree, rtask &t,
                   placement_arg *out) {
  const int nw = tree.workers();
  // One counter per worker, on the stack for the usual worker counts.
  constexpr int kInlineWorkers = 64;
  uint64_t inline_by[kInlineWorkers];
  std::vector<uint64_t> more;
  uint64_t *by_worker = inline_by;
  if (nw > kInlineWorkers) {
    more.resize(std::size_t(nw));
    by_worker = more.data();
  }
  std::fill_n(by_worker, nw, uint64_t(0));
  uint64_t total = 0;
  bool any_region = false;
  for (int i = 0; i < t.nentries; ++i) {
    node &n = *t.entries[i].target;
    if (n.is_region) {
      any_region = true;
      continue;
    }
    auto &o = static_cast<object_node &>(n);
    const uint64_t bytes = o.s->obj_size;
    total += bytes;
    int w = region_space::object_producer(*o.s, o.index,
                                          region_space::cover(*o.s->owner));
    if (w >= 0)
      by_worker[w % nw] += bytes;
  }
  if (any_region) { // the sibling links are struct_lock's
    std::lock_guard<std::mutex> lk(sp.struct_lock());
    for (int i = 0; i < t.nentries; ++i)
      if (node &n = *t.entries[i].target; n.is_region)
        total += sp.pack_region(static_cast<region &>(n), by_worker);
  }
  int k = 0;
  uint64_t attributed = 0, most = 0;
  t.producer = -1;
  for (int w = 0; w < nw; ++w) {
    const uint64_t b = by_worker[w];
    if (b == 0)
      continue;
    out[k++] = {&tree.leaf_of_worker(w), b, w};
    attributed += b;
    if (b > most) {
      most = b;
      t.producer = w;
    }
  }
  if (total > attributed)
    out[k++] = {nullptr, total - attributed, -1};
  return k;
}

// Places t by the score, from the scheduler handling it (the lowest common
// ancestor of its arguments' owners) down to a leaf, and there to a worker
// (its mailbox): both by T = pL + (100-p)B over its arguments' bytes packed
// by last producer.
scheduler &place(rtask &t, int &from_id, int self) {
  region_space &sp = region_space::get();
  scheduler_tree &tree = placing_tree();
  scheduler *from = nullptr;
  for (int i = 0; i < t.nentries; ++i) {
    node &n = *t.entries[i].target;
    from = from ? &scheduler_tree::lca(*from, *n.owner) : n.owner;
  }
  constexpr int kInline = 17;
  placement_arg inline_args[kInline];
  std::vector<placement_arg> more;
  placement_arg *args = inline_args;
  if (tree.workers() + 1 > kInline) {
    more.resize(std::size_t(tree.workers()) + 1);
    args = more.data();
  }
  const int nargs = pack_arguments(sp, tree, t, args);
  // place_task starts at the top when from's subtree has no workers.
  from_id = from && from->workers > 0 ? from->id : 0;
  scheduler &leaf = tree.place_task(from ? *from : tree.top(), args, nargs);
  t.chosen = tree.pick_worker(leaf, self, args, nargs);
  if (t.producer >= 0) {
    leaf.with_producer.fetch_add(1, std::memory_order_relaxed);
    if (t.chosen == t.producer)
      leaf.placed_on_producer.fetch_add(1, std::memory_order_relaxed);
  }
  return leaf;
}

// t starts on worker w (trees): w becomes the last producer of what t
// writes. (Not at its end: by then its region children may hold parts of
// it; now it holds all of it and has spawned none.)
void mark_produced(rtask &t, int w) {
  region_space &sp = region_space::get();
  for (int i = 0; i < t.nentries; ++i) {
    const entry &e = t.entries[i];
    if (!e.rw)
      continue;
    if (e.target->is_region)
      sp.produced_region(static_cast<region &>(*e.target), w);
    else {
      auto &o = static_cast<object_node &>(*e.target);
      sp.produced_object(*o.s, o.index, w);
    }
  }
}

// Hand ready tasks to the core (no lock held: the core may run one here).
void launch(ready_list &ready) {
  bool tree = region_space::get().schedulers().size() > 1;
  for (std::size_t i = 0; i < ready.size(); ++i) {
    rtask *t = ready[i];
    if (t->waiter) {
      int wid = t->waiter_worker;
      t->ready.store(true, std::memory_order_seq_cst);
      if (runtime *rt = g_runtime.load(std::memory_order_acquire))
        rt->wake(wid);
      continue;
    }
    if (tree) {
      // The leaf by the score, a worker of the leaf by its load, and the
      // task to that worker's mailbox (the native team's member i is worker
      // i). Elsewhere (inside an OpenMP team) it is only counted as placed.
      int from = 0;
      worker &w = *tl_worker;
      runtime &rt = w.rt();
      scheduler &leaf = place(*t, from, w.id());
      t->placed = &leaf;
      trace_point::rplace(w, t->trace_seq, uint32_t(from), uint32_t(leaf.id),
                          t->chosen);
      team &home = rt.initial_team();
      if (w.current_team() == &home) {
        task *core = w.alloc_task(run_rtask, t);
        if (rt.spawn_to(w, core, t->chosen % home.size()) != WEFT_OK)
          fatal("weft regions: handing a ready task to worker %d failed: %s",
                t->chosen, weft_last_error());
        continue;
      }
    }
    if (int rc = weft_spawn(run_rtask, t, nullptr, 0); rc != WEFT_OK)
      fatal("weft regions: handing a ready task to the core failed: %s",
            weft_last_error());
  }
}

// An argument in a trace: its region id or object address, and its bits.
uint64_t trace_what(const node &n) {
  if (n.is_region)
    return static_cast<const region &>(n).id;
  const auto &o = static_cast<const object_node &>(n);
  return reinterpret_cast<uintptr_t>(o.s->data +
                                     std::size_t(o.index) * o.s->obj_size);
}

uint8_t trace_type(const entry &e) {
  return uint8_t((e.rw ? WEFT_ARG_INOUT : WEFT_ARG_IN) |
                 (e.target->is_region ? WEFT_ARG_REGION : 0));
}

std::atomic<uint64_t> g_trace_seq{0};

// The spawn of t, its arguments checked (rtask_spawn, rspawn_arg): before
// it is enqueued, so before it can run.
void trace_spawn(rtask &t) {
  if (!__builtin_expect(trace::on(), 0))
    return;
  worker &w = *tl_worker;
  uint64_t at;
  if (t.waiter) { // weft_wait: not a task; its arguments (rwait)
    at = trace_point::rwait(w, uint32_t(t.nentries));
  } else {
    t.trace_seq = g_trace_seq.fetch_add(1, std::memory_order_relaxed) + 1;
    at = trace_point::rtask_spawn(w, t.trace_seq, uint32_t(t.nentries));
  }
  for (int i = 0; i < t.nentries; ++i) {
    const node &n = *t.entries[i].target;
    uint32_t within =
        n.parent ? static_cast<const region *>(n.parent)->id : WEFT_ROOT_REGION;
    trace_point::rspawn_arg(w, at, trace_type(t.entries[i]), within,
                            trace_what(n));
  }
}

void finish(rtask *t) {
  if (t->placed) {
    scheduler_tree::unplace_task(*t->placed);
    placing_tree().unpick_worker(t->chosen);
  }
  ready_list ready;
  region_space::get().release(*t, ready);
  destroy_rtask(t);
  launch(ready);
}

void run_rtask(void *p) {
  auto *t = static_cast<rtask *>(p);
  rtask *prev = tl_rtask;
  tl_rtask = t;
  t->core = tl_worker->current();
  if (scheduler *leaf = t->placed) {
    const int me = tl_worker->id();
    if (me == t->chosen)
      leaf->hits.fetch_add(1, std::memory_order_relaxed);
    if (&placing_tree().leaf_of_worker(me) == leaf)
      leaf->ran_here.fetch_add(1, std::memory_order_relaxed);
    if (me == t->producer)
      leaf->ran_on_producer.fetch_add(1, std::memory_order_relaxed);
    mark_produced(*t, me);
  }
  if (t->trace_seq != 0)
    trace_point::rtask_run(*tl_worker, t->trace_seq);
  for (int i = 0; __builtin_expect(trace::on(), 0) && i < t->nentries; ++i) {
    const entry &e = t->entries[i];
    trace_point::rtask_arg(*tl_worker, trace_type(e),
                           uint32_t(e.target->owner->id),
                           trace_what(*e.target));
  }
  std::exception_ptr exc;
  try {
    t->fn(t->args);
  } catch (...) {
    exc = std::current_exception();
  }
  // Plain tasks it spawned (weft_spawn, address dependences) are part of
  // it: they end before its arguments go to the next task.
  if (weft_taskwait() == WEFT_ETASK && !exc)
    exc = take_pending_exception();
  tl_rtask = prev;
  if (exc)
    region_space::get().record_exception(std::move(exc));
  if (t->trace_seq != 0)
    trace_point::rtask_done(*tl_worker, t->trace_seq);
  finish(t);
}

constexpr int kKnownTypeBits =
    WEFT_ARG_INOUT | WEFT_ARG_NOTRANSFER | WEFT_ARG_SAFE | WEFT_ARG_REGION;

// A task's analysed argument, resolved before any scheduler lock is taken.
struct resolved_arg {
  int index;
  region *reg;    // a region argument
  object_ref ref; // an object argument (ref.s set)
  scheduler *owner() const { return reg ? reg->owner : ref.s->owner->owner; }
};
thread_local std::vector<resolved_arg> tl_resolved;

// Resolves the analysed arguments (no lock): a live region, or the start
// of a live object.
int resolve(region_space &sp, const char *call, rtask &t, const int *types,
            std::vector<resolved_arg> &out) {
  out.clear();
  for (int i = 0; i < t.nargs; ++i) {
    int ty = types[i];
    if (ty & WEFT_ARG_SAFE)
      continue;
    if (ty & WEFT_ARG_REGION) {
      auto id = static_cast<weft_rid>(reinterpret_cast<uintptr_t>(t.args[i]));
      region *r = sp.lookup_region(id);
      if (!r) {
        char what[32];
        std::snprintf(what, sizeof what, "args[%d]", i);
        sp.find_region(id, call, what); // the message
        return WEFT_EINVAL;
      }
      out.push_back({i, r, {}});
      continue;
    }
    object_ref ref = sp.find_object(t.args[i]);
    if (!ref.s)
      return set_error(WEFT_EINVAL,
                       "%s: args[%d] is %p, not a live object allocated by "
                       "weft_alloc (a region ID needs WEFT_ARG_REGION)",
                       call, i, t.args[i]);
    if (!ref.at_start)
      return set_error(WEFT_EINVAL,
                       "%s: args[%d] is %p, inside an object that starts at "
                       "%p (an object argument is its start address)",
                       call, i, t.args[i], sp.allocator().object_address(ref));
    out.push_back({i, nullptr, ref});
  }
  return WEFT_OK;
}

// Takes the schedulers owning the calling task's arguments (where the new
// entries start) and the new task's arguments: their lowest common ancestor
// as the top, then the paths down to each.
void lock_owners(sched_locks &locks, rtask &cur,
                 const std::vector<resolved_arg> &args) {
  scheduler *top = nullptr;
  auto join = [&](scheduler *s) {
    top = top ? &scheduler_tree::lca(*top, *s) : s;
  };
  for (int i = 0; i < cur.nentries; ++i)
    join(cur.entries[i].target->owner);
  for (const resolved_arg &a : args)
    join(a.owner());
  locks.take_top(*top);
  for (int i = 0; i < cur.nentries; ++i)
    locks.extend_to(*cur.entries[i].target->owner);
  for (const resolved_arg &a : args)
    locks.extend_to(*a.owner());
}

// Checks the arguments against the calling task and each other, builds the
// entries and enqueues them (the owners locked). On error nothing is
// enqueued.
int check_and_enqueue(region_space &sp, const char *call, rtask &cur, rtask *t,
                      const int *types, const std::vector<resolved_arg> &args,
                      sched_locks &locks, ready_list &ready) {
  int k = 0;
  for (const resolved_arg &a : args) {
    int i = a.index;
    node *n = a.reg ? static_cast<node *>(a.reg) : &sp.object_node_of(a.ref);
    entry *h = region_space::holder_of(cur, *n);
    if (!h)
      return set_error(WEFT_EINVAL,
                       "%s: args[%d] (%s) is not inside any argument of the "
                       "spawning task",
                       call, i, node_name(*n).text);
    bool rw = (types[i] & WEFT_ARG_OUT) != 0;
    if (rw && !h->rw)
      return set_error(WEFT_EINVAL,
                       "%s: args[%d] (%s) asks for write access, but the "
                       "spawning task holds %s read-only",
                       call, i, node_name(*n).text, node_name(*h->target).text);
    entry &e = t->entries[k++];
    e.task = t;
    e.target = n;
    e.start = h->target;
    e.outer = h;
    e.rw = rw;
  }
  // No argument may lie inside (or be) another.
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < a; ++b)
      if (t->entries[a].target == t->entries[b].target)
        return set_error(WEFT_EINVAL, "%s: %s is named by two arguments", call,
                         node_name(*t->entries[a].target).text);
  for (int a = 0; a < k; ++a) {
    entry &e = t->entries[a];
    if (e.target == e.start)
      continue;
    for (node *x = e.target->parent;; x = x->parent) {
      for (int b = 0; b < k; ++b)
        if (b != a && t->entries[b].target == x)
          return set_error(WEFT_EINVAL,
                           "%s: the argument %s lies inside the argument %s "
                           "(arguments may not overlap)",
                           call, node_name(*e.target).text, node_name(*x).text);
      if (x == e.start)
        break;
    }
  }
  trace_spawn(*t);
  sp.enqueue(*t, locks, ready);
  return WEFT_OK;
}

int submit(const char *call, rtask &cur, rtask *t, const int *types,
           ready_list &ready) {
  region_space &sp = region_space::get();
  std::vector<resolved_arg> &args = tl_resolved;
  // No global lock: the region table and the slab table are read as they
  // are (the spawning task holds what it names, so it stays).
  if (int rc = resolve(sp, call, *t, types, args); rc != WEFT_OK)
    return rc;
  int rc;
  {
    sched_locks locks;
    lock_owners(locks, cur, args);
    rc = check_and_enqueue(sp, call, cur, t, types, args, locks, ready);
    if (rc != WEFT_OK) // object nodes made for the rejected task go again
      for (const resolved_arg &a : args)
        if (!a.reg)
          if (object_node *n = region_space::existing_node(a.ref))
            sp.drop_if_unused(*n);
  }
  sp.drain_reports(ready);
  return rc;
}

int check_arrays(const char *call, int nargs, void *const *args,
                 const int *types, int &nentries) {
  if (nargs < 0)
    return set_error(WEFT_EINVAL, "%s: nargs is %d (must be >= 0)", call,
                     nargs);
  if (nargs > 0 && (!args || !types))
    return set_error(WEFT_EINVAL, "%s: %s is NULL but nargs is %d", call,
                     args ? "types" : "args", nargs);
  nentries = 0;
  for (int i = 0; i < nargs; ++i) {
    int ty = types[i];
    if (ty & ~kKnownTypeBits)
      return set_error(WEFT_EINVAL, "%s: types[%d] is 0x%x (unknown bits 0x%x)",
                       call, i, unsigned(ty), unsigned(ty & ~kKnownTypeBits));
    if (ty & WEFT_ARG_SAFE)
      continue;
    if (!(ty & WEFT_ARG_INOUT))
      return set_error(WEFT_EINVAL,
                       "%s: types[%d] is 0x%x: neither WEFT_ARG_IN nor "
                       "WEFT_ARG_OUT (use WEFT_ARG_SAFE for a by-value "
                       "argument)",
                       call, i, unsigned(ty));
    ++nentries;
  }
  return WEFT_OK;
}

} // namespace
} // namespace weft::regions

using namespace weft;
using namespace weft::regions;

extern "C" {

weft_rid weft_ralloc(weft_rid parent, int level_hint) {
  worker *w;
  rtask *cur;
  if (caller("weft_ralloc", w, cur) != WEFT_OK)
    return 0;
  if (level_hint < 0) {
    set_error(WEFT_EINVAL, "weft_ralloc: level_hint is %d (must be >= 0)",
              level_hint);
    return 0;
  }
  region_space &sp = region_space::get();
  lock_guard lk(sp.struct_lock());
  region *p = sp.find_region(parent, "weft_ralloc", "parent");
  if (!p || check_writable("weft_ralloc", *cur, *p) != WEFT_OK)
    return 0;
  weft_rid id = sp.new_region(*p, level_hint)->id;
  trace_point::region_new(*w, parent, id);
  return id;
}

int weft_rfree(weft_rid r) {
  worker *w;
  rtask *cur;
  if (int rc = caller("weft_rfree", w, cur); rc != WEFT_OK)
    return rc;
  if (r == WEFT_ROOT_REGION)
    return set_error(WEFT_EINVAL,
                     "weft_rfree: region 0 is the root region, which "
                     "cannot be freed");
  region_space &sp = region_space::get();
  scheduler *owner;
  {
    lock_guard lk(sp.struct_lock());
    region *reg = sp.find_region(r, "weft_rfree", "r");
    if (!reg)
      return WEFT_EINVAL;
    owner = reg->owner;
  }
  // The region's owner and everything below it (the subtree's nodes), then
  // the table and the allocator. Only a task holding the parent for writing
  // may free r, so it is still there.
  sched_locks locks;
  locks.take_top(*owner);
  locks.extend_subtree(*owner);
  lock_guard lk(sp.struct_lock());
  region *reg = sp.find_region(r, "weft_rfree", "r");
  if (!reg)
    return WEFT_EINVAL;
  if (int rc = check_writable("weft_rfree", *cur, *reg->parent); rc != WEFT_OK)
    return rc;
  if (!reg->idle() || reg->inbound.load(std::memory_order_acquire) != 0)
    return set_error(WEFT_ESTATE,
                     "weft_rfree: region %u has live tasks: queued for, "
                     "running on or holding it or something inside it "
                     "(nothing was freed)",
                     r);
  sp.delete_region(*reg);
  return WEFT_OK;
}

int weft_region_of(const void *p, weft_rid *out) {
  if (!out)
    return set_error(WEFT_EINVAL, "weft_region_of: out is NULL");
  // No lock: the slab table is read as it is (region_allocator.hpp).
  object_ref ref = region_space::get().find_object(p);
  if (!ref.s)
    return set_error(WEFT_EINVAL,
                     "weft_region_of: %p is not inside a live object "
                     "allocated by weft_alloc",
                     p);
  *out = ref.s->owner->id;
  return WEFT_OK;
}

void *weft_alloc(size_t size, weft_rid r) {
  worker *w;
  rtask *cur;
  if (caller("weft_alloc", w, cur) != WEFT_OK)
    return nullptr;
  if (size == 0) {
    set_error(WEFT_EINVAL, "weft_alloc: size is 0");
    return nullptr;
  }
  // No global lock: the table read as it is, the region's heap lock taken
  // by the allocator. The caller holds r for writing, so r stays.
  region_space &sp = region_space::get();
  region *reg = sp.find_region(r, "weft_alloc", "r");
  if (!reg || check_writable("weft_alloc", *cur, *reg) != WEFT_OK)
    return nullptr;
  void *p = sp.alloc(*reg, size);
  if (!p)
    set_error(WEFT_EINVAL,
              "weft_alloc: no address space left for %zu bytes in region %u",
              size, r);
  return p;
}

namespace {
// Takes the scheduler owning the region of the object at p when the object
// has a dependence node (a task named it: its queue and counters are read
// under that lock, and a task releasing it may still be dropping the node);
// nothing when it has none (no task can be using it) or p is not in a live
// object (freeable reports it). A task may free only what it holds for
// writing, so the object stays where it is until the free.
void lock_object_owner(region_space &sp, const void *p, sched_locks &locks) {
  object_ref ref = sp.find_object(p);
  if (ref.s && region_space::existing_node(ref))
    locks.take_top(*ref.s->owner->owner);
}

// A live object at p that the caller may free (its region's owner held when
// the object has a dependence node).
int freeable(const char *call, rtask &cur, const void *p, object_ref &ref) {
  region_space &sp = region_space::get();
  ref = sp.find_object(p);
  if (!ref.s)
    return set_error(WEFT_EINVAL,
                     "%s: %p is not a live object allocated by weft_alloc "
                     "(never allocated, or already freed)",
                     call, p);
  if (!ref.at_start)
    return set_error(WEFT_EINVAL,
                     "%s: %p is inside the object that starts at %p", call, p,
                     sp.allocator().object_address(ref));
  if (int rc = check_writable(call, cur, *ref.s->owner); rc != WEFT_OK)
    return rc;
  if (object_node *n = region_space::existing_node(ref))
    if (!n->idle() || n->inbound.load(std::memory_order_acquire) != 0)
      return set_error(WEFT_ESTATE,
                       "%s: object %p has live tasks queued for or holding "
                       "it (nothing was freed)",
                       call, p);
  return WEFT_OK;
}
} // namespace

int weft_free(void *p) {
  worker *w;
  rtask *cur;
  if (int rc = caller("weft_free", w, cur); rc != WEFT_OK)
    return rc;
  if (!p)
    return set_error(WEFT_EINVAL, "weft_free: p is NULL");
  region_space &sp = region_space::get();
  sched_locks locks;
  lock_object_owner(sp, p, locks);
  object_ref ref;
  if (int rc = freeable("weft_free", *cur, p, ref); rc != WEFT_OK)
    return rc;
  if (!sp.free_object(ref))
    return set_error(WEFT_EINVAL,
                     "weft_free: %p was freed by another thread meanwhile", p);
  return WEFT_OK;
}

void *weft_realloc(void *p, size_t size, weft_rid r) {
  if (!p)
    return weft_alloc(size, r);
  worker *w;
  rtask *cur;
  if (caller("weft_realloc", w, cur) != WEFT_OK)
    return nullptr;
  if (size == 0) {
    set_error(WEFT_EINVAL, "weft_realloc: size is 0 (use weft_free)");
    return nullptr;
  }
  region_space &sp = region_space::get();
  sched_locks locks;
  lock_object_owner(sp, p, locks);
  object_ref ref;
  if (freeable("weft_realloc", *cur, p, ref) != WEFT_OK)
    return nullptr;
  region *reg = sp.find_region(r, "weft_realloc", "r");
  if (!reg || check_writable("weft_realloc", *cur, *reg) != WEFT_OK)
    return nullptr;
  void *q = sp.alloc(*reg, size);
  if (!q) {
    set_error(WEFT_EINVAL,
              "weft_realloc: no address space left for %zu bytes in region "
              "%u",
              size, r);
    return nullptr;
  }
  std::size_t old = sp.allocator().object_size(ref);
  std::memcpy(q, p, old < size ? old : size);
  if (!sp.free_object(ref)) {
    sp.free_object(sp.find_object(q));
    set_error(WEFT_EINVAL,
              "weft_realloc: %p was freed by another thread meanwhile", p);
    return nullptr;
  }
  return q;
}

int weft_balloc(size_t size, weft_rid r, int n, void **ptrs) {
  worker *w;
  rtask *cur;
  if (int rc = caller("weft_balloc", w, cur); rc != WEFT_OK)
    return rc;
  if (size == 0)
    return set_error(WEFT_EINVAL, "weft_balloc: size is 0");
  if (n < 0)
    return set_error(WEFT_EINVAL, "weft_balloc: n is %d (must be >= 0)", n);
  if (n > 0 && !ptrs)
    return set_error(WEFT_EINVAL, "weft_balloc: ptrs is NULL but n is %d", n);
  region_space &sp = region_space::get();
  region *reg = sp.find_region(r, "weft_balloc", "r");
  if (!reg)
    return WEFT_EINVAL;
  if (int rc = check_writable("weft_balloc", *cur, *reg); rc != WEFT_OK)
    return rc;
  if (!sp.alloc_n(*reg, size, n, ptrs))
    return set_error(WEFT_EINVAL,
                     "weft_balloc: no address space left for %d objects of "
                     "%zu bytes in region %u",
                     n, size, r);
  return WEFT_OK;
}

int weft_rspawn(weft_args_fn fn, int nargs, void *const *args,
                const int *types) {
  worker *w;
  rtask *cur;
  if (int rc = caller("weft_rspawn", w, cur); rc != WEFT_OK)
    return rc;
  if (!fn)
    return set_error(WEFT_EINVAL, "weft_rspawn: fn is NULL");
  int nentries;
  if (int rc = check_arrays("weft_rspawn", nargs, args, types, nentries);
      rc != WEFT_OK)
    return rc;
  rtask *t = make_rtask(nargs, nentries);
  t->fn = fn;
  if (nargs)
    std::memcpy(t->args, args, sizeof(void *) * std::size_t(nargs));
  ready_list ready;
  uint64_t t0 = trace_point::spawn_begin();
  if (int rc = submit("weft_rspawn", *cur, t, types, ready); rc != WEFT_OK) {
    destroy_rtask(t);
    return rc;
  }
  trace_point::rspawn_analysed(*w, t0);
  launch(ready);
  return WEFT_OK;
}

int weft_wait(void *const *args, const int *types, int nargs) {
  worker *w;
  rtask *cur;
  if (int rc = caller("weft_wait", w, cur); rc != WEFT_OK)
    return rc;
  int nentries;
  if (int rc = check_arrays("weft_wait", nargs, args, types, nentries);
      rc != WEFT_OK)
    return rc;
  rtask *t = make_rtask(nargs, nentries);
  t->waiter = true;
  t->waiter_worker = w->id();
  if (nargs)
    std::memcpy(t->args, args, sizeof(void *) * std::size_t(nargs));
  ready_list ready;
  if (int rc = submit("weft_wait", *cur, t, types, ready); rc != WEFT_OK) {
    destroy_rtask(t);
    return rc;
  }
  // In a trace, a taskwait of the calling task after its rwait record: a
  // replay waits for the children whose arguments overlap the waited ones.
  trace_point::wait_token wk = trace_point::wait_begin(
      *w, trace::wait_kind::taskwait, w->current(), nullptr, 0);
  launch(ready);
  w->wait_until([t] { return t->ready.load(std::memory_order_acquire); });
  trace_point::wait_end(*w, wk);
  ready.clear();
  region_space::get().release(*t, ready);
  destroy_rtask(t);
  launch(ready);
  if (std::exception_ptr e = region_space::get().take_exception()) {
    set_pending_exception(std::move(e));
    return set_error(WEFT_ETASK,
                     "weft_wait: a region task threw a C++ exception");
  }
  return WEFT_OK;
}

} // extern "C"
