/* weft — a task-dataflow runtime. The C API.
 *
 * Tasks are functions with dependences on storage locations. A task runs once
 * every earlier *sibling* task (same parent) it conflicts with has finished:
 * in after out (RAW), out after in (WAR), out after out (WAW); inoutset tasks
 * run concurrently with each other, mutexinoutset tasks one at a time in any
 * order. A dependence names its location by address (exact-address identity,
 * as OpenMP's list items).
 *
 * All calls are thread-safe when made from weft threads: the thread that
 * started the runtime and the workers, i.e. from inside tasks. Errors: calls
 * that can fail return 0 or a negative WEFT_E* code, and weft_last_error()
 * then names the call and the offending value.
 */
#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WEFT_API __attribute__((visibility("default")))
#else
#define WEFT_API
#endif

/* Error codes (negative return values). */
enum {
  WEFT_OK = 0,
  WEFT_EINVAL = -1, /* bad argument: the message names call and value */
  WEFT_ESTATE =
      -2, /* call not allowed now (e.g. taskgroup_end without begin) */
  WEFT_ETHREAD = -3, /* called from a thread weft does not know */
  WEFT_ETASK = -4    /* a waited-for task threw a C++ exception */
};

/* Dependence modes, with OpenMP's meaning. */
typedef enum weft_dep_mode {
  WEFT_IN = 1,
  WEFT_OUT = 2,
  WEFT_INOUT = 3,
  WEFT_INOUTSET = 4, /* concurrent with each other, ordered against in/out */
  WEFT_MUTEXINOUTSET = 5, /* mutually exclusive with each other, any order */
  WEFT_VALUE = 0 /* weft_spawn_args only: an argument, not a dependence */
} weft_dep_mode;

typedef struct weft_dep {
  const void *addr;
  weft_dep_mode mode;
} weft_dep;

typedef void (*weft_task_fn)(void *arg);

/* Optional attributes of a spawned task; a NULL pointer means defaults. */
typedef struct weft_task_attr {
  int priority; /* >= 0; higher runs earlier when several tasks are ready */
} weft_task_attr;

/* ---- runtime ---------------------------------------------------------- */

/* Start the runtime with num_threads workers (the caller is worker 0). 0 means
 * WEFT_NUM_THREADS, else the cores available. Calling it is optional: the
 * first weft call starts the runtime with 0. Returns WEFT_ESTATE if already
 * running with another thread count. */
WEFT_API int weft_init(int num_threads);

/* Wait for every task, stop and join the workers. The runtime may be started
 * again afterwards. Must be called from the thread that started it, outside
 * tasks. */
WEFT_API int weft_shutdown(void);

/* Number of worker threads (starts the runtime if needed). */
WEFT_API int weft_num_threads(void);

/* Index of the calling worker in [0, weft_num_threads()), or -1 for a thread
 * weft does not know. */
WEFT_API int weft_thread_id(void);

/* ---- tasks ------------------------------------------------------------ */

/* Spawn fn(arg) after the earlier siblings it depends on. deps may be NULL
 * when ndeps is 0. The caller keeps arg alive until the task has run. When
 * the caller already has many ready children (64 per thread) or unfinished
 * ones (64 per thread, 1024 for coarse tasks: docs/architecture.md,
 * "Throttling") and the task's dependences are met, weft may run it here
 * before returning, as OpenMP runtimes do: a task must not wait for a later
 * sibling. */
WEFT_API int weft_spawn(weft_task_fn fn, void *arg, const weft_dep *deps,
                        int ndeps);

/* As weft_spawn, copying arg_size bytes from arg into the task; fn receives a
 * pointer to the copy (valid while it runs). attr may be NULL. */
WEFT_API int weft_spawn_copy(weft_task_fn fn, const void *arg, size_t arg_size,
                             const weft_dep *deps, int ndeps,
                             const weft_task_attr *attr);

/* The papers' style (VSs, Phentos): fn(args) with nargs pointer arguments,
 * each tagged in/out/inout/inoutset/mutexinoutset (a dependence on the
 * pointed-to location) or WEFT_VALUE (passed through only). The args array is
 * copied; fn receives the copy. */
typedef void (*weft_args_fn)(void **args);
WEFT_API int weft_spawn_args(weft_args_fn fn, int nargs, void *const *args,
                             const weft_dep_mode *types);

/* Wait until every child of the calling task has finished (running other
 * tasks meanwhile). */
WEFT_API int weft_taskwait(void);

/* Wait only for the earlier children that access addr (any mode), as
 * OpenMP's taskwait depend(inout: addr) and VSs' taskwait on. */
WEFT_API int weft_taskwait_on(const void *addr);

/* Wait for the earlier children that the given dependences would order a new
 * task after (OpenMP taskwait depend(...)). */
WEFT_API int weft_taskwait_deps(const weft_dep *deps, int ndeps);

/* Taskgroups nest; end waits for every task created in the group and all of
 * their descendants. */
WEFT_API int weft_taskgroup_begin(void);
WEFT_API int weft_taskgroup_end(void);

/* Mark the measured phase of the program in its trace (WEFT_TRACE): the
 * calling task's records between begin and end of the phase `name` (1-12
 * letters, digits, '_', '-' or '.'). `weft sim --phase name` replays only the
 * tasks created inside it. Without WEFT_TRACE only the name is checked. */
WEFT_API int weft_trace_phase_begin(const char *name);
WEFT_API int weft_trace_phase_end(const char *name);

/* The message of the last failed call on this thread ("" if none). */
WEFT_API const char *weft_last_error(void);

/* ---- statistics --------------------------------------------------------- */

typedef struct weft_stats {
  uint64_t tasks_spawned;
  uint64_t tasks_run;
  uint64_t tasks_undeferred; /* run at once by their creator (throttling) */
  uint64_t deps_submitted;   /* dependences offered to the engine */
  uint64_t edges;            /* predecessor -> successor links made */
  uint64_t steals;
  uint64_t immediate_successors; /* tasks run next by the retiring worker */
  uint64_t sleeps;               /* times a worker went to sleep */
  uint64_t engine_full;          /* submits answered "full" (back-pressure) */
  uint64_t peak_map_entries;     /* largest per-parent dependence map seen */
  uint64_t modelled_cycles;  /* hardware cycles the engine models (0 for sw) */
  uint64_t tasks_serialized; /* run by their creator after their earlier
                                siblings: the engine could not take them */
  char engine[16];           /* NUL-terminated engine name */
} weft_stats;

/* Totals since the runtime started. With WEFT_STATS=1 they are printed to
 * stderr at shutdown. */
WEFT_API int weft_stats_get(weft_stats *out);

/* One of an engine's own counters: operations, modelled cycles and time,
 * peak occupancy of its tables and FIFOs, stalls ("nexus.pool.peak", ...). */
typedef struct weft_counter {
  const char *name; /* static storage */
  uint64_t value;
} weft_counter;

/* The dependency and work-sharing engines' counters since the runtime
 * started: writes up to max of them to out (out may be NULL when max is 0)
 * and returns how many there are, or a negative error code. */
WEFT_API int weft_engine_counters(weft_counter *out, int max);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_WEFT_H */
