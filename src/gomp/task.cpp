// Explicit tasks: GOMP_task (if, final, untied, mergeable, priority,
// detach, depend in GCC's depend arrays), taskwait (and taskwait depend),
// taskgroup, taskyield and task reductions.
#include "gomp.hpp"
#include "omp_api.hpp"

#include "base/backoff.hpp"
#include "base/error.hpp"
#include "core/in_place.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
#include <vector>

namespace weft::gomp {

void *aligned_buffer(std::size_t size, std::size_t align) {
  std::size_t a = align < 16 ? 16 : align;
  void *p = std::aligned_alloc(a, (size + a - 1) / a * a + (size ? 0 : a));
  if (!p)
    fatal("out of memory for a task's %zu-byte argument", size);
  return p;
}

taskgroup_state *innermost_group(task *t) {
  return t->cur_group ? t->cur_group : t->group;
}

task_icvs &context::icv_to_change() {
  if (!w->task_data() && !(w->current()->flags & TASK_ROOT)) {
    auto *e = new task_env{m().icv, true};
    w->set_task_data(e);
  }
  return icv();
}

int max_active_levels(context &c) {
  int n = c.icv().max_active_levels;
  return n >= 0
             ? n
             : icv_global().max_active_levels.load(std::memory_order_relaxed);
}

namespace {

// GCC's kinds in depend arrays and omp_depend_t objects.
enum : uintptr_t {
  kDepIn = 1,
  kDepOut = 2,
  kDepInout = 3,
  kDepMutexinoutset = 4,
  kDepInoutset = 5,
};

weft_dep_mode mode_of(uintptr_t kind) {
  switch (kind) {
  case kDepIn:
    return WEFT_IN;
  case kDepOut:
  case kDepInout:
    return WEFT_INOUT;
  case kDepMutexinoutset:
    return WEFT_MUTEXINOUTSET;
  case kDepInoutset:
    return WEFT_INOUTSET;
  default:
    fatal("OpenMP: unknown dependence kind %lu in a depend clause",
          (unsigned long)kind);
  }
}

// GCC's first depend layout (depend[0] = n addresses, the first
// depend[1] of them out/inout, the rest in, from depend[2]) into deps[0, n):
// one test per address. dep_list and depend_task both convert with it.
__attribute__((always_inline)) inline void
convert_first_layout(void **depend, uintptr_t n, uintptr_t nout,
                     weft_dep *deps) {
  auto address = [](void *a) {
    if (__builtin_expect(!a, 0))
      unsupported("a dependence on omp_all_memory (or a NULL address)");
    return a;
  };
  uintptr_t i = 0;
  for (; i < nout; ++i)
    deps[i] = weft_dep{address(depend[2 + i]), WEFT_INOUT};
  for (; i < n; ++i)
    deps[i] = weft_dep{address(depend[2 + i]), WEFT_IN};
}

// GCC's depend array, in either layout:
//   depend[0] = n != 0: n addresses, the first depend[1] of them out/inout,
//               the rest in (from depend[2]);
//   depend[0] = 0: depend[1] = n, then the numbers of out/inout,
//               mutexinoutset and in addresses, which follow (from
//               depend[5]) in that order; the remaining entries point to
//               {address, kind} pairs (depobj, inoutset).
class dep_list {
public:
  // depend == nullptr: no dependences.
  explicit dep_list(void **depend) {
    uintptr_t n, nout, nmutex = 0, nin, base;
    if (!depend) {
      n = nout = nin = 0;
      base = 0;
    } else if (depend[0]) {
      n = reinterpret_cast<uintptr_t>(depend[0]);
      nout = reinterpret_cast<uintptr_t>(depend[1]);
      nin = n - nout;
      base = 2;
    } else if (!depend[1]) {
      // {0, 0}: iterators whose ranges were all empty.
      n = nout = nin = 0;
      base = 2;
    } else {
      n = reinterpret_cast<uintptr_t>(depend[1]);
      nout = reinterpret_cast<uintptr_t>(depend[2]);
      nmutex = reinterpret_cast<uintptr_t>(depend[3]);
      nin = reinterpret_cast<uintptr_t>(depend[4]);
      base = 5;
    }
    if (n > (uintptr_t(1) << 24))
      fatal("OpenMP: a task with %lu dependences", (unsigned long)n);
    deps_ = n <= kInline ? inline_ : (heap_.resize(n), heap_.data());
    n_ = static_cast<int>(n);
    if (base == 2) {
      // The first layout (the general loop below makes four tests per
      // address).
      convert_first_layout(depend, n, nout, deps_);
      return;
    }
    for (uintptr_t i = 0; i < n; ++i) {
      void *a = depend[base + i];
      weft_dep_mode m;
      if (i < nout)
        m = WEFT_INOUT;
      else if (i < nout + nmutex)
        m = WEFT_MUTEXINOUTSET;
      else if (i < nout + nmutex + nin)
        m = WEFT_IN;
      else {
        auto **obj = static_cast<void **>(a);
        a = obj[0];
        m = mode_of(reinterpret_cast<uintptr_t>(obj[1]));
      }
      if (!a)
        unsupported("a dependence on omp_all_memory (or a NULL address)");
      deps_[i] = weft_dep{a, m};
    }
  }
  // Dependences already converted (depend_task): only referred to.
  dep_list(const weft_dep *deps, int n)
      : deps_(const_cast<weft_dep *>(deps)), n_(n) {}
  const weft_dep *data() const { return deps_; }
  int size() const { return n_; }

private:
  static constexpr uintptr_t kInline = 16;
  weft_dep inline_[kInline];
  std::vector<weft_dep> heap_;
  weft_dep *deps_;
  int n_;
};

bool creation_cancelled(context &c, task *cur) {
  if (!c.g->cancellable)
    return false;
  if (c.g->cancelled.load(std::memory_order_relaxed))
    return true;
  taskgroup_state *g = innermost_group(cur);
  return g && g->cancelled.load(std::memory_order_relaxed);
}

// t is a detached task we hold a reference to. Polls (runs tasks, else
// yields) rather than sleeps: whoever completes t does not know we wait.
void wait_completed(worker &w, task *t) {
  for (backoff b({0, backoff_policy::kForever});
       t->detach_parts.load(std::memory_order_acquire) != -1;)
    if (!w.help_once())
      b.pause();
}

// An undeferred or included task: here and now, on a copy of the data
// when the task has a copy function (otherwise data is already the
// compiler's private copy).
__attribute__((noinline)) void
run_here_copied(worker &w, void (*fn)(void *), void *data,
                void (*cpyfn)(void *, void *), std::size_t size,
                std::size_t align, uint16_t flags, const weft_dep *deps,
                int ndeps) {
  alignas(64) unsigned char local[256];
  void *heap = nullptr;
  void *arg = local;
  if (size > sizeof local || align > 64)
    arg = heap = aligned_buffer(size, align);
  cpyfn(arg, data);
  run_included(w, fn, arg, flags, deps, ndeps);
  std::free(heap);
}

// deps/ndeps: a throttled task's dependences (satisfied), for the trace.
void run_here(worker &w, void (*fn)(void *), void *data,
              void (*cpyfn)(void *, void *), std::size_t size,
              std::size_t align, bool final, bool throttled = false,
              const weft_dep *deps = nullptr, int ndeps = 0) {
  uint16_t flags = static_cast<uint16_t>((final ? TASK_FINAL : 0) |
                                         (throttled ? TASK_THROTTLED : 0));
  // Deep recursions of included tasks come through here: keep the frame
  // small unless there is a copy to make.
  if (cpyfn)
    run_here_copied(w, fn, data, cpyfn, size, align, flags, deps, ndeps);
  else
    run_included(w, fn, data, flags, deps, ndeps);
}

// A deferred task with a header: one of a region that may be cancelled
// (once the region is cancelled, a task that has not started is discarded:
// OpenMP 5.2, 16.1; the region's gomp_team outlives its tasks: its end
// waits for them), or one that inherits its creator's ICVs. The program's
// data follows at data_offset.
struct task_header {
  void (*fn)(void *);
  const gomp_team *region; // nullptr: not cancellable
  std::size_t data_offset;
  bool has_env;
  task_env env;
};

void run_with_header(void *arg) {
  auto *h = static_cast<task_header *>(arg);
  if (h->region && h->region->cancelled.load(std::memory_order_acquire))
    return;
  if (h->has_env)
    tl_worker->set_task_data(&h->env);
  h->fn(static_cast<char *>(arg) + h->data_offset);
}

struct included_env {
  void (*fn)(void *);
  void *data;
  task_env env;
};

void run_included_env(void *arg) {
  auto *b = static_cast<included_env *>(arg);
  tl_worker->set_task_data(&b->env);
  b->fn(b->data);
}

void end_task_env(void *d) {
  auto *e = static_cast<task_env *>(d);
  if (e->owned)
    delete e;
}

[[maybe_unused]] const bool g_registered = (task_data_end = end_task_env, true);

} // namespace

void run_included(worker &w, void (*fn)(void *), void *data, uint16_t flags,
                  const weft_dep *deps, int ndeps) {
  if (__builtin_expect(w.task_data() != nullptr, 0)) {
    included_env b{fn, data,
                   task_env{static_cast<task_env *>(w.task_data())->icv}};
    w.run_inline(run_included_env, &b, flags, deps, ndeps);
    return;
  }
  w.run_inline(fn, data, flags, deps, ndeps);
}

void *task_payload(worker &w, task *t, std::size_t size, std::size_t align,
                   const gomp_team *region) {
  auto *env = static_cast<task_env *>(w.task_data());
  if (__builtin_expect(!region && !env, 1)) {
    void *arg = w.alloc_payload(t, size, align);
    t->arg = arg;
    return arg;
  }
  // Header first, the data at the next multiple of its alignment.
  std::size_t a = align > alignof(task_header) ? align : alignof(task_header);
  std::size_t off = (sizeof(task_header) + a - 1) / a * a;
  void *payload = w.alloc_payload(t, off + size, a);
  auto *h =
      new (payload) task_header{t->fn, region, off, env != nullptr, task_env{}};
  if (env)
    h->env.icv = env->icv;
  t->fn = run_with_header;
  t->arg = payload;
  return static_cast<char *>(payload) + off;
}

void taskgroup_open(context &c) {
  task *cur = c.w->current();
  taskgroup_state *enclosing = innermost_group(cur);
  rt().taskgroup_begin(*c.w);
  cur->cur_group->user = enclosing ? enclosing->user : nullptr;
}

// ---- task reductions
// --------------------------------------------------------- GCC's descriptor:
// data[0] = variables, data[1] = bytes per thread, data[2] = alignment (we
// store the per-thread array there), data[3] = allocator, data[4] = next
// descriptor of the same construct (we store the enclosing construct's there at
// the end of the chain), data[5] = ours (1 marks the first descriptor of a
// registration), data[6] = ours (end of the array); then per variable: address,
// offset in a thread's chunk, ours.
void reduction_setup(uintptr_t *data, uintptr_t *old, uintptr_t *orig,
                     unsigned nthreads) {
  for (uintptr_t *d = data;;) {
    if (orig) {
      d[2] = orig[2];
      d[6] = orig[6];
      orig = reinterpret_cast<uintptr_t *>(orig[4]);
    } else {
      std::size_t align = d[2] < sizeof(void *) ? sizeof(void *) : d[2];
      std::size_t size = d[1] * nthreads;
      std::size_t rounded = (size + align - 1) / align * align;
      void *p = std::aligned_alloc(align, rounded ? rounded : align);
      if (!p)
        fatal("out of memory for %zu bytes of task reduction copies", size);
      std::memset(p, 0, rounded);
      d[2] = reinterpret_cast<uintptr_t>(p);
      d[6] = d[2] + size;
    }
    d[5] = 0;
    if (d[4] == 0) {
      d[4] = reinterpret_cast<uintptr_t>(old);
      break;
    }
    d = reinterpret_cast<uintptr_t *>(d[4]);
  }
  data[5] = 1;
}

void register_reductions(context &c, uintptr_t *data, uintptr_t *orig) {
  taskgroup_state *g = c.w->current()->cur_group;
  if (!g)
    fatal("OpenMP: task reductions registered outside a taskgroup");
  reduction_setup(data, static_cast<uintptr_t *>(g->user), orig,
                  static_cast<unsigned>(c.t->size()));
  g->user = data;
}

namespace {
void reduction_free(uintptr_t *data) {
  uintptr_t *d = data;
  do {
    std::free(reinterpret_cast<void *>(d[2]));
    d = reinterpret_cast<uintptr_t *>(d[4]);
  } while (d && !d[5]);
}

uintptr_t *current_reductions(context &c) {
  for (task *t = c.w->current(); t; t = t->parent) {
    if (taskgroup_state *g = innermost_group(t))
      if (g->user)
        return static_cast<uintptr_t *>(g->user);
    if (t->flags & TASK_ROOT)
      break;
  }
  fatal("OpenMP: in_reduction without an enclosing task_reduction");
}
} // namespace

} // namespace weft::gomp

using namespace weft;
using namespace weft::gomp;

namespace {

// Every kind of task but the plain included one (GOMP_task).
// Its own context: GOMP_task keeps only the worker and the team in registers.
__attribute__((noinline)) void
task_general(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
             long arg_size, long arg_align, bool if_clause, unsigned flags,
             void **depend, int priority, void *detach, bool throttle_asked,
             const weft_dep *converted = nullptr, int nconverted = 0) {
  context c = ctx();
  worker &w = *c.w;
  task *cur = w.current();
  const bool final_parent = cur->flags & TASK_FINAL;
  const dep_list deps =
      converted ? dep_list(converted, nconverted)
                : dep_list((flags & kTaskDepend) ? depend : nullptr);
  std::size_t size = static_cast<std::size_t>(arg_size);
  std::size_t align = arg_align > 0 ? static_cast<std::size_t>(arg_align) : 1;

  if ((!if_clause || final_parent) && !(flags & kTaskDetach)) {
    // Undeferred (or included in a final task): after its predecessors,
    // here and now.
    if (deps.size())
      rt().taskwait_deps(w, deps.data(), deps.size());
    run_here(w, fn, data, cpyfn, size, align,
             final_parent || (flags & kTaskFinal));
    return;
  }

  // Too many unfinished children: run it now if nothing stops it (as
  // libgomp does), with no descriptor to allocate. (GOMP_task has asked
  // already for a task with no dependences or copy function.)
  if (!throttle_asked && !(flags & (kTaskDetach | kTaskPriority)) &&
      runtime::in_place_now(w, deps.data(), deps.size())) {
    run_here(w, fn, data, cpyfn, size, align, flags & kTaskFinal, true,
             deps.data(), deps.size());
    return;
  }

  task *t = w.alloc_task(fn, nullptr);
  bool wait_for_it = false;
  if (flags & kTaskDetach) {
    // The event handle goes to the clause's variable and to the task's own
    // copy of it (the first field of data).
    t->flags |= TASK_DETACH;
    t->detach_parts.store(2, std::memory_order_relaxed);
    *static_cast<void **>(detach) = t;
    if (data)
      *static_cast<void **>(data) = t;
    if (!if_clause || final_parent) {
      // An undeferred detached task: we wait until it has completed.
      t->refs.fetch_add(1, std::memory_order_relaxed);
      wait_for_it = true;
    }
  }
  void *arg = task_payload(w, t, size, align,
                           c.g->cancellable && c.g->level > 0 ? c.g : nullptr);
  if (cpyfn)
    cpyfn(arg, data);
  else if (size)
    std::memcpy(arg, data, size);
  if (flags & kTaskFinal)
    t->flags |= TASK_FINAL;
  if (flags & kTaskUntied)
    t->flags |= TASK_UNTIED;
  if ((flags & kTaskPriority) && priority > 0) {
    int maxp = icv_global().max_task_priority;
    t->priority = priority < maxp ? priority : maxp;
  }
  rt().spawn(w, t, deps.data(), deps.size());
  if (wait_for_it) {
    wait_completed(w, t);
    w.release_ref(t);
  }
}

// The addresses a deferrable task's depend clause may name for the
// throttle's in-place path (depend_task); more go the general way.
constexpr uintptr_t kFastDeps = 8;

// A deferrable task whose only clause beyond the plain task's is depend
// (GOMP_task's test; the other layout and more than kFastDeps addresses go
// to task_general at once). In GCC's first layout (depend[0] = n
// addresses, depend[1] of them out/inout, then in) with at most kFastDeps
// of them: the throttle's decision (runtime::in_place_now, inline: the
// engine's lookup) and the in-place run (worker::run_in_place, inline) in one
// frame, the addresses converted once, here. A task run in place needs no entry
// in the dependence map: it runs after every earlier sibling it names has
// finished (the lookup) and finishes before any later sibling is created,
// so nothing can come to follow it. A task that does not run in place
// goes to task_general with the converted addresses and the decision made.
__attribute__((noinline)) void depend_task(worker &w, void (*fn)(void *),
                                           void *data, long arg_size,
                                           long arg_align, unsigned flags,
                                           void **depend, int priority) {
  const uintptr_t n = reinterpret_cast<uintptr_t>(depend[0]);
  if (__builtin_expect(n - 1 >= kFastDeps, 0)) {
    // The other layout, or more addresses: the general way.
    task_general(fn, data, nullptr, arg_size, arg_align, true, flags, depend,
                 priority, nullptr, false);
    return;
  }
  const uintptr_t nout = reinterpret_cast<uintptr_t>(depend[1]);
  weft_dep deps[kFastDeps];
  convert_first_layout(depend, n, nout, deps);
  const int nd = static_cast<int>(n);
  if (runtime::in_place_now(w, deps, nd)) {
    const uint16_t f = static_cast<uint16_t>(
        TASK_THROTTLED | (flags & kTaskFinal ? TASK_FINAL : 0));
    if (__builtin_expect(w.task_data() != nullptr, 0))
      run_included(w, fn, data, f, deps, nd); // inherits the creator's ICVs
    else
      w.run_in_place_traced_here(fn, data, f, deps, nd);
    return;
  }
  task_general(fn, data, nullptr, arg_size, arg_align, true, flags, depend,
               priority, nullptr, true, deps, nd);
}

// A plain deferrable task (GOMP_task's test) when the gate is closed: the
// throttle's answer with its recheck (runtime::in_place_now), then here and
// now or the deferred way, the answer given. Its arguments all come in
// registers, so GOMP_task's call of it is a jump.
__attribute__((noinline)) void plain_task(worker &w, void (*fn)(void *),
                                          void *data, long arg_size,
                                          long arg_align, unsigned flags) {
  if (runtime::in_place_now(w, nullptr, 0)) {
    if (__builtin_expect(w.task_data() != nullptr, 0))
      run_included(w, fn, data, TASK_THROTTLED); // the creator's ICVs
    else
      w.run_in_place(fn, data, TASK_THROTTLED);
    return;
  }
  task_general(fn, data, nullptr, arg_size, arg_align, true, flags, nullptr, 0,
               nullptr, true);
}

// GOMP_task but for its plain and depend_task cases: a copy function,
// if(0), a final creator or final clause, priority, detach, depend beyond
// depend_task's, a region that may be cancelled, a thread's first call.
__attribute__((noinline)) void
task_slow(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
          long arg_size, long arg_align, bool if_clause, unsigned flags,
          void **depend, int priority, void *detach) {
  context c = ctx();
  worker &w = *c.w;
  task *cur = w.current();
  if (__builtin_expect(creation_cancelled(c, cur), 0))
    return;
  // A task with no dependences, copy function or detach that runs here and
  // now: included (in a final task) or undeferred (if(0)), or one the
  // throttle runs in place (not with a priority, which it may not overtake;
  // runtime::in_place_now, inline). One decision and the body's call:
  // worker::run_in_place is inline too, with the frame the task semantics
  // need (the current task for omp_get_* and for taskwait and the parent of
  // nested tasks, the tied rule's innermost task, the trace points). The
  // deep recursions of final tasks come here, one level per frame, so this
  // path keeps its frame small (10000 levels must fit a thread's 8 MB
  // stack, tests/openmp/tasking/task_final_deep.c).
  bool asked = false;
  if (!cpyfn && !(flags & (kTaskDetach | kTaskDepend))) {
    uint16_t f;
    if (!if_clause || (cur->flags & TASK_FINAL)) {
      f = (cur->flags & TASK_FINAL) || (flags & kTaskFinal) ? TASK_FINAL : 0;
    } else if (!(flags & kTaskPriority)) {
      asked = true;
      if (!runtime::in_place_now(w, nullptr, 0))
        goto deferred;
      f = static_cast<uint16_t>(TASK_THROTTLED |
                                (flags & kTaskFinal ? TASK_FINAL : 0));
    } else {
      goto deferred;
    }
    if (__builtin_expect(w.task_data() != nullptr, 0))
      run_included(w, fn, data, f); // inherits the creator's ICVs
    else
      w.run_in_place(fn, data, f);
    return;
  }
  // With depend (the simple layout, few addresses) the same, one frame
  // further (depend_task).
  if ((flags & (kTaskDepend | kTaskDetach | kTaskPriority)) == kTaskDepend &&
      !cpyfn && if_clause && !(cur->flags & TASK_FINAL) &&
      reinterpret_cast<uintptr_t>(depend[0]) - 1 < kFastDeps) {
    depend_task(w, fn, data, arg_size, arg_align, flags, depend, priority);
    return;
  }
deferred:
  task_general(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
               priority, detach, asked);
}

} // namespace

// The tests first, split by clause, and every way out a tail call but the
// in-place run's, so that no way pays for another's frame (as weft_spawn
// and spawn_general): a plain deferrable task (no clause but untied or
// mergeable, no copy function) of a creator that is not final, in a region
// that cannot be cancelled, runs here when the throttle's gate is open
// (runtime::in_place_open, then worker::run_in_place, both inline) and
// takes plain_task otherwise (the recheck, or the deferred way); one with
// depend (no priority or detach) takes depend_task; everything else
// task_slow, with the arguments as they came. (GCC still loads the four
// stack arguments at entry for task_slow's jump: docs/benchmarks.md.)
WEFT_GOMP_API void GOMP_task(void (*fn)(void *), void *data,
                             void (*cpyfn)(void *, void *), long arg_size,
                             long arg_align, bool if_clause, unsigned flags,
                             void **depend, int priority, void *detach) {
  worker *w = tl_worker;
  if (__builtin_expect(w == nullptr, 0))
    goto slow;
  if (__builtin_expect(cpyfn != nullptr, 0))
    goto slow;
  if (__builtin_expect(!if_clause, 0))
    goto slow;
  {
    const auto *g = static_cast<const gomp_team *>(w->current_team()->user);
    if (__builtin_expect(g == nullptr || g->cancellable ||
                             (w->current()->flags & TASK_FINAL),
                         0))
      goto slow;
  }
  if (__builtin_expect((flags & (kTaskFinal | kTaskDepend | kTaskPriority |
                                 kTaskDetach)) == 0,
                       1)) {
    if (__builtin_expect(runtime::in_place_open(*w), 1)) {
      if (__builtin_expect(w->task_data() != nullptr, 0))
        return run_included(*w, fn, data, TASK_THROTTLED); // creator's ICVs
      w->run_in_place(fn, data, TASK_THROTTLED);
      return;
    }
    return plain_task(*w, fn, data, arg_size, arg_align, flags);
  }
  // With depend (and neither priority nor detach): depend_task.
  if ((flags & (kTaskDepend | kTaskPriority | kTaskDetach)) == kTaskDepend)
    return depend_task(*w, fn, data, arg_size, arg_align, flags, depend,
                       priority);
slow:
  task_slow(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
            priority, detach);
}

WEFT_GOMP_API void GOMP_taskwait(void) {
  context c = ctx();
  rt().taskwait(*c.w);
}

WEFT_GOMP_API void GOMP_taskwait_depend(void **depend) {
  context c = ctx();
  dep_list deps(depend);
  rt().taskwait_deps(*c.w, deps.data(), deps.size());
}

WEFT_GOMP_API void GOMP_taskyield(void) {
  context c = ctx();
  c.w->help_once();
}

WEFT_GOMP_API void GOMP_taskgroup_start(void) {
  context c = ctx();
  taskgroup_open(c);
}

WEFT_GOMP_API void GOMP_taskgroup_end(void) {
  context c = ctx();
  rt().taskgroup_end(*c.w);
}

WEFT_GOMP_API void GOMP_taskgroup_reduction_register(uintptr_t *data) {
  context c = ctx();
  register_reductions(c, data, nullptr);
}

WEFT_GOMP_API void GOMP_taskgroup_reduction_unregister(uintptr_t *data) {
  reduction_free(data);
}

// ptrs[i] (an original list item, or a pointer into some thread's copies)
// becomes the calling thread's copy; for i < cntorig ptrs[cnt + i] also
// gets the original item's address.
WEFT_GOMP_API void GOMP_task_reduction_remap(size_t cnt, size_t cntorig,
                                             void **ptrs) {
  context c = ctx();
  uintptr_t *data = current_reductions(c);
  uintptr_t id = static_cast<uintptr_t>(c.id);
  for (size_t i = 0; i < cnt; ++i) {
    uintptr_t p = reinterpret_cast<uintptr_t>(ptrs[i]);
    bool done = false;
    for (uintptr_t *d = data; d && !done;
         d = reinterpret_cast<uintptr_t *>(d[4])) {
      for (uintptr_t j = 0; j < d[0]; ++j) {
        uintptr_t *ent = d + 7 + 3 * j;
        if (ent[0] == p) {
          ptrs[i] = reinterpret_cast<void *>(d[2] + id * d[1] + ent[1]);
          if (i < cntorig)
            ptrs[cnt + i] = reinterpret_cast<void *>(ent[0]);
          done = true;
          break;
        }
      }
    }
    for (uintptr_t *d = data; d && !done;
         d = reinterpret_cast<uintptr_t *>(d[4])) {
      if (p < d[2] || p >= d[6])
        continue;
      uintptr_t off = (p - d[2]) % d[1];
      ptrs[i] = reinterpret_cast<void *>(d[2] + id * d[1] + off);
      if (i < cntorig) {
        ptrs[cnt + i] = nullptr;
        for (uintptr_t j = 0; j < d[0]; ++j)
          if (d[7 + 3 * j + 1] == off)
            ptrs[cnt + i] = reinterpret_cast<void *>(d[7 + 3 * j]);
        if (!ptrs[cnt + i])
          fatal("OpenMP: no task reduction item at offset %lu",
                (unsigned long)off);
      }
      done = true;
    }
    if (!done)
      fatal("OpenMP: no task_reduction or reduction(task) matches %p",
            reinterpret_cast<void *>(p));
  }
}

WEFT_GOMP_API void GOMP_workshare_task_reduction_unregister(bool cancelled) {
  context c = ctx();
  uintptr_t *data = static_cast<uintptr_t *>(c.w->current()->cur_group->user);
  rt().taskgroup_end(*c.w);
  if (!cancelled)
    c.t->barrier(*c.w);
  if (c.id == 0)
    reduction_free(data);
}

WEFT_OMP_API void omp_fulfill_event(void *event) {
  if (!event)
    fatal("omp_fulfill_event: the event handle is NULL");
  rt().fulfill(static_cast<task *>(event));
}

WEFT_OMP_API int omp_in_final(void) {
  context c = ctx();
  return (c.w->current()->flags & TASK_FINAL) != 0;
}

// scope with task reductions: a work share only to pick which member
// allocates the private copies; the others share them. The barrier and
// GOMP_workshare_task_reduction_unregister follow in the caller.
WEFT_GOMP_API void GOMP_scope_start(uintptr_t *reductions) {
  context c = ctx();
  bool first;
  work_share &ws = ws_begin(c, reductions, nullptr, &first);
  if (first) {
    ws.kind = sched_static;
    ws.count = 0;
  }
  ws_begin_done(c, ws, first, reductions, nullptr);
  ws_leave(c);
}

// The error directive at run time (severity(warning) / severity(fatal)).
WEFT_GOMP_API void GOMP_warning(const char *msg, size_t len) {
  if (msg)
    std::fprintf(stderr, "weft: warning: %.*s\n", static_cast<int>(len), msg);
  else
    std::fprintf(stderr, "weft: warning: error directive encountered\n");
}
WEFT_GOMP_API void GOMP_error(const char *msg, size_t len) {
  if (msg)
    fatal("fatal error: %.*s", static_cast<int>(len), msg);
  fatal("fatal error: error directive encountered");
}
