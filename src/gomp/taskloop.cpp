// taskloop: the iterations split into tasks (grainsize, num_tasks, strict),
// in an implicit taskgroup unless nogroup, with task reductions. The first
// two fields of each task's data are its [start, end) bounds.
#include "gomp.hpp"

#include "base/error.hpp"

#include <cstdlib>
#include <cstring>

namespace weft::gomp {
namespace {

template <class T> struct data_head {
  T start, end;
  uintptr_t *reductions;
};

template <class T>
void taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
              long arg_size, long arg_align, unsigned flags,
              unsigned long num_tasks, int priority, T start, T end, T step) {
  context c = ctx();
  worker &w = *c.w;
  using U = unsigned long long;
  constexpr bool is_signed = static_cast<T>(-1) < 0;
  const bool nogroup = flags & kTaskNogroup;
  const bool reduction = (flags & kTaskReduction) && !nogroup;

  // Iteration count.
  U n;
  bool up = is_signed ? step > 0 : (flags & kTaskUp) != 0;
  U ustep = up ? static_cast<U>(step) : U(0) - static_cast<U>(step);
  if (up ? !(start < end) : !(start > end)) {
    if (reduction)
      static_cast<data_head<T> *>(data)->reductions[2] = 0; // not registered
    return;
  }
  U span = up ? static_cast<U>(end) - static_cast<U>(start)
              : static_cast<U>(start) - static_cast<U>(end);
  n = span / ustep + (span % ustep != 0);

  // How many tasks and how many iterations each: the first `nbig` tasks
  // get one iteration more than the others (strict: all but the last
  // get exactly grainsize).
  U ntasks, per, nbig;
  if (flags & kTaskGrainsize) {
    U grain = num_tasks ? num_tasks : 1;
    if (flags & kTaskStrict) {
      ntasks = n / grain + (n % grain != 0);
      per = grain;
      nbig = 0;
    } else {
      ntasks = n / grain;
      if (ntasks == 0)
        ntasks = 1;
      per = n / ntasks;
      nbig = n % ntasks;
    }
  } else {
    ntasks = num_tasks ? num_tasks : static_cast<U>(c.t->size());
    if (ntasks > n)
      ntasks = n;
    per = n / ntasks;
    nbig = n % ntasks;
  }

  if (!nogroup) {
    taskgroup_open(c);
    if (reduction)
      register_reductions(c, static_cast<data_head<T> *>(data)->reductions,
                          nullptr);
  }
  const bool undeferred = !(flags & kTaskIf);
  const bool final_parent = w.current()->flags & TASK_FINAL;
  std::size_t size = static_cast<std::size_t>(arg_size);
  std::size_t align = arg_align > 0 ? static_cast<std::size_t>(arg_align) : 1;
  int prio = 0;
  if (priority > 0) { // GCC 12 passes it without kTaskPriority
    int maxp = icv_global().max_task_priority;
    prio = priority < maxp ? priority : maxp;
  }

  U first = 0; // logical index of the next task's first iteration
  for (U i = 0; i < ntasks; ++i) {
    U len = (flags & kTaskStrict) && (flags & kTaskGrainsize)
                ? (n - first < per ? n - first : per)
                : per + (i < nbig);
    T lo = static_cast<T>(static_cast<U>(start) +
                          (up ? first * ustep : U(0) - first * ustep));
    T hi = first + len == n
               ? end
               : static_cast<T>(static_cast<U>(start) +
                                (up ? (first + len) * ustep
                                    : U(0) - (first + len) * ustep));
    first += len;
    if (undeferred || final_parent) {
      // Run here: a copy of the data of our own, then the body.
      alignas(64) unsigned char local[512];
      void *buf = local;
      void *heap = nullptr;
      if (size > sizeof local || align > 64) {
        heap = aligned_buffer(size, align);
        buf = heap;
      }
      if (cpyfn)
        cpyfn(buf, data);
      else
        std::memcpy(buf, data, size);
      static_cast<T *>(buf)[0] = lo;
      static_cast<T *>(buf)[1] = hi;
      run_included(w, fn, buf,
                   static_cast<uint16_t>(
                       final_parent || (flags & kTaskFinal) ? TASK_FINAL : 0));
      std::free(heap);
      continue;
    }
    task *t = w.alloc_task(fn, nullptr);
    void *arg = task_payload(w, t, size, align, nullptr);
    if (cpyfn)
      cpyfn(arg, data);
    else
      std::memcpy(arg, data, size);
    static_cast<T *>(arg)[0] = lo;
    static_cast<T *>(arg)[1] = hi;
    t->priority = prio;
    if (flags & kTaskFinal)
      t->flags |= TASK_FINAL;
    if (flags & kTaskUntied)
      t->flags |= TASK_UNTIED;
    rt().spawn(w, t, nullptr, 0);
  }
  if (!nogroup)
    rt().taskgroup_end(w);
}

} // namespace
} // namespace weft::gomp

using namespace weft::gomp;

WEFT_GOMP_API void GOMP_taskloop(void (*fn)(void *), void *data,
                                 void (*cpyfn)(void *, void *), long arg_size,
                                 long arg_align, unsigned flags,
                                 unsigned long num_tasks, int priority,
                                 long start, long end, long step) {
  taskloop<long>(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
                 priority, start, end, step);
}

WEFT_GOMP_API void GOMP_taskloop_ull(void (*fn)(void *), void *data,
                                     void (*cpyfn)(void *, void *),
                                     long arg_size, long arg_align,
                                     unsigned flags, unsigned long num_tasks,
                                     int priority, unsigned long long start,
                                     unsigned long long end,
                                     unsigned long long step) {
  taskloop<unsigned long long>(fn, data, cpyfn, arg_size, arg_align, flags,
                               num_tasks, priority, start, end, step);
}
