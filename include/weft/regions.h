/* weft regions — Myrmics-style regions as task arguments. The C API.
 *
 * A region is a growable pool of objects and of child regions; region 0 is
 * the root. A region task names its arguments as objects (the address
 * weft_alloc returned) or regions (a weft_rid), each read (IN), written (OUT)
 * or both. A task holding a region may touch every object and sub-region in
 * it and follow pointers freely. Tasks run in an order equivalent to the
 * serial execution of the program: a task is ordered after every earlier
 * task (in serial order) whose arguments overlap its own with a write on
 * either side; readers of one object or region run together.
 *
 * Delegation (as Myrmics): a task may spawn children only on objects and
 * regions inside its own arguments, with no more access than it holds
 * there. After spawning, the parent must not touch what it delegated until
 * weft_wait gives it back. The program's main code (outside tasks) holds the
 * root region for writing.
 *
 * Region tasks and plain weft_spawn tasks are separate worlds: a region
 * argument never orders a plain task, and address dependences (weft_dep)
 * never order a region task (docs/regions.md). Region calls must be made by
 * the program's main code or by region tasks; allocation calls by any weft
 * thread. All calls are thread-safe. Calls that fail return 0, NULL or a
 * negative WEFT_E* code and weft_last_error() names the call and the value.
 */
#ifndef WEFT_REGIONS_H
#define WEFT_REGIONS_H

#include <weft/weft.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A region ID: unique, never reused; 0 is the root region. */
typedef uint32_t weft_rid;
#define WEFT_ROOT_REGION ((weft_rid)0)

/* Argument types of weft_rspawn / weft_wait (Myrmics' bit values). */
enum {
  WEFT_ARG_IN = 1 << 0,
  WEFT_ARG_OUT = 1 << 1,
  WEFT_ARG_INOUT = WEFT_ARG_IN | WEFT_ARG_OUT,
  /* Dependence analysis as usual; the task will not read the data (a
   * transfer hint for non-coherent machines; no effect on shared memory). */
  WEFT_ARG_NOTRANSFER = 1 << 2,
  /* No dependence analysis: a by-value argument, passed through. */
  WEFT_ARG_SAFE = 1 << 3,
  /* The argument is a region ID ((void *)(uintptr_t)rid), not an object. */
  WEFT_ARG_REGION = 1 << 4
};

/* ---- regions ------------------------------------------------------------ */

/* A new region under parent (0: the root). level_hint (>= 0) tells how deep
 * the region is expected to sit in the application's region tree (used by
 * hierarchical schedulers). Returns the new non-zero ID, or 0 on error. */
WEFT_API weft_rid weft_ralloc(weft_rid parent, int level_hint);

/* Frees r, its objects and its sub-regions, recursively. The caller must
 * hold write access to a region enclosing r; no task may be queued for,
 * running on, or holding anything inside r (WEFT_ESTATE otherwise, and
 * nothing is freed). */
WEFT_API int weft_rfree(weft_rid r);

/* The region that holds the object starting at or containing p (O(1)), or
 * WEFT_EINVAL if p is not inside a live weft_alloc object. */
WEFT_API int weft_region_of(const void *p, weft_rid *out);

/* ---- objects ------------------------------------------------------------ */

/* size bytes (> 0), 16-byte aligned, in region r. NULL on error. */
WEFT_API void *weft_alloc(size_t size, weft_rid r);

/* Frees an object weft_alloc returned. No task may be queued for or hold
 * it (WEFT_ESTATE otherwise). */
WEFT_API int weft_free(void *p);

/* Resizes p and/or moves it to region r: a new object in r holding the
 * first min(old, new) bytes of p; p is freed. p == NULL allocates. Returns
 * the new address, or NULL on error (p is then untouched). */
WEFT_API void *weft_realloc(void *p, size_t size, weft_rid r);

/* n objects of size bytes each in r, written to ptrs[0..n). On error none
 * is allocated. */
WEFT_API int weft_balloc(size_t size, weft_rid r, int n, void **ptrs);

/* ---- tasks -------------------------------------------------------------- */

/* Spawn fn(args) with nargs arguments typed by types[i] (WEFT_ARG_*). The
 * args and types arrays are copied; fn receives the copy of args. The task
 * runs once it heads the dependency queue of every non-SAFE argument and,
 * for a region argument, nothing inside the region is busy. */
WEFT_API int weft_rspawn(weft_args_fn fn, int nargs, void *const *args,
                         const int *types);

/* Suspend the calling task (running other tasks meanwhile) until every
 * argument it delegated to children is back with the requested access:
 * the children spawned earlier that touch them have finished. Arguments as
 * weft_rspawn's (SAFE ones are ignored). Returns WEFT_ETASK when a region
 * task (any, not only those waited for) threw a C++ exception that no wait
 * reported yet; the C++ weft::wait rethrows it. */
WEFT_API int weft_wait(void *const *args, const int *types, int nargs);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_REGIONS_H */
