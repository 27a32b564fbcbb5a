// The omp.h user API: thread and team queries, levels, ICV getters and
// setters, timers, and the host-only device and memory routines.
#include "gomp.hpp"

#include "../core/error.hpp"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>

using namespace weft;
using namespace weft::gomp;

#define WEFT_OMP_API extern "C" __attribute__((visibility("default")))

namespace {
// The team `level` levels up from the caller's (level 0 = initial).
gomp_team *team_at_level(context &c, int level, int *thread) {
  if (level < 0 || level > c.g->level)
    return nullptr;
  gomp_team *g = c.g;
  int id = c.id;
  while (g->level > level) {
    id = g->parent_thread;
    g = g->parent;
  }
  *thread = id;
  return g;
}
} // namespace

WEFT_OMP_API int omp_get_thread_num(void) {
  worker *w = tl_worker;
  return w ? w->slot_index() : 0;
}
WEFT_OMP_API int omp_get_num_threads(void) {
  worker *w = tl_worker;
  return w ? w->current_team()->size() : 1;
}
WEFT_OMP_API int omp_get_max_threads(void) {
  context c = ctx();
  return c.m().icv.nthreads;
}
WEFT_OMP_API void omp_set_num_threads(int n) {
  context c = ctx();
  c.m().icv.nthreads = n > 0 ? n : 1;
}
WEFT_OMP_API int omp_get_num_procs(void) { return icv_global().num_procs; }
WEFT_OMP_API int omp_in_parallel(void) {
  context c = ctx();
  return c.g->active_level > 0;
}
WEFT_OMP_API void omp_set_dynamic(int d) {
  context c = ctx();
  c.m().icv.dyn = d != 0;
}
WEFT_OMP_API int omp_get_dynamic(void) {
  context c = ctx();
  return c.m().icv.dyn;
}
WEFT_OMP_API void omp_set_nested(int n) {
  icv_global().max_active_levels = n ? INT_MAX : 1;
}
WEFT_OMP_API int omp_get_nested(void) {
  return icv_global().max_active_levels.load() > 1;
}
WEFT_OMP_API void omp_set_max_active_levels(int n) {
  if (n >= 0)
    icv_global().max_active_levels = n;
}
WEFT_OMP_API int omp_get_max_active_levels(void) {
  return icv_global().max_active_levels.load();
}
WEFT_OMP_API int omp_get_supported_active_levels(void) { return INT_MAX; }
WEFT_OMP_API int omp_get_level(void) {
  context c = ctx();
  return c.g->level;
}
WEFT_OMP_API int omp_get_active_level(void) {
  context c = ctx();
  return c.g->active_level;
}
WEFT_OMP_API int omp_get_ancestor_thread_num(int level) {
  context c = ctx();
  int id;
  return team_at_level(c, level, &id) ? id : -1;
}
WEFT_OMP_API int omp_get_team_size(int level) {
  context c = ctx();
  int id;
  gomp_team *g = team_at_level(c, level, &id);
  if (!g)
    return -1;
  return static_cast<int>(g->members.size());
}
WEFT_OMP_API int omp_get_thread_limit(void) {
  return icv_global().thread_limit;
}
WEFT_OMP_API void omp_set_schedule(int kind, int chunk) {
  context c = ctx();
  int k = kind & ~kSchedMonotonic;
  if (k < sched_static || k > sched_auto)
    return;
  c.m().icv.run_sched = kind;
  c.m().icv.run_chunk = k == sched_auto ? 0 : (chunk < 1 ? (k == sched_static ? 0 : 1) : chunk);
}
WEFT_OMP_API void omp_get_schedule(int *kind, int *chunk) {
  context c = ctx();
  *kind = c.m().icv.run_sched;
  *chunk = static_cast<int>(c.m().icv.run_chunk);
}
WEFT_OMP_API int omp_get_cancellation(void) {
  return icv_global().cancellation;
}
WEFT_OMP_API int omp_get_max_task_priority(void) {
  return icv_global().max_task_priority;
}
WEFT_OMP_API int omp_get_proc_bind(void) {
  context c = ctx();
  return c.m().icv.bind;
}
WEFT_OMP_API int omp_get_num_places(void) { return 0; }
WEFT_OMP_API int omp_get_place_num_procs(int) { return 0; }
WEFT_OMP_API void omp_get_place_proc_ids(int, int *) {}
WEFT_OMP_API int omp_get_place_num(void) { return -1; }
WEFT_OMP_API int omp_get_partition_num_places(void) { return 0; }
WEFT_OMP_API void omp_get_partition_place_nums(int *) {}

WEFT_OMP_API double omp_get_wtime(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
WEFT_OMP_API double omp_get_wtick(void) {
  timespec ts;
  clock_getres(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

WEFT_OMP_API void omp_display_env(int verbose) { display_env(verbose != 0); }
// Releasing resources is optional; the runtime keeps its threads (they
// sleep when idle) and stays usable, which OpenMP requires.
WEFT_OMP_API int omp_pause_resource(int kind, int) {
  return kind == 1 || kind == 2 ? 0 : -1;
}
WEFT_OMP_API int omp_pause_resource_all(int kind) {
  return kind == 1 || kind == 2 ? 0 : -1;
}

// ---- devices: the host is the only one, as libgomp without offloading -------
WEFT_OMP_API int omp_get_num_devices(void) { return 0; }
WEFT_OMP_API int omp_get_default_device(void) {
  context c = ctx();
  return c.m().icv.default_device;
}
WEFT_OMP_API void omp_set_default_device(int d) {
  context c = ctx();
  c.m().icv.default_device = d;
}
WEFT_OMP_API int omp_is_initial_device(void) { return 1; }
WEFT_OMP_API int omp_get_initial_device(void) { return 0; }
WEFT_OMP_API int omp_get_device_num(void) { return 0; }

namespace {
thread_local int tl_team_num = 0;
thread_local int tl_num_teams = 1;
int g_nteams_var = 0;
int g_teams_thread_limit = 0;
} // namespace

WEFT_OMP_API int omp_get_num_teams(void) { return tl_num_teams; }
WEFT_OMP_API int omp_get_team_num(void) { return tl_team_num; }
WEFT_OMP_API void omp_set_num_teams(int n) {
  if (n > 0)
    g_nteams_var = n;
}
WEFT_OMP_API int omp_get_max_teams(void) { return g_nteams_var; }
WEFT_OMP_API void omp_set_teams_thread_limit(int n) {
  if (n >= 0)
    g_teams_thread_limit = n;
}
WEFT_OMP_API int omp_get_teams_thread_limit(void) {
  return g_teams_thread_limit;
}

// The host teams construct: each team in turn on the initial thread (a
// league of initial threads that run one after the other is conforming).
WEFT_OMP_API bool GOMP_teams4(unsigned lower, unsigned upper, unsigned,
                              bool first) {
  (void)lower;
  if (first) {
    tl_num_teams = static_cast<int>(upper ? upper : 1);
    tl_team_num = 0;
    return true;
  }
  if (++tl_team_num < tl_num_teams)
    return true;
  tl_team_num = 0;
  tl_num_teams = 1;
  return false;
}
WEFT_OMP_API void GOMP_teams_reg(void (*fn)(void *), void *data,
                                 unsigned num_teams, unsigned thread_limit,
                                 unsigned flags) {
  (void)thread_limit;
  (void)flags;
  unsigned n = num_teams ? num_teams : (g_nteams_var ? g_nteams_var : 1);
  tl_num_teams = static_cast<int>(n);
  for (unsigned i = 0; i < n; ++i) {
    tl_team_num = static_cast<int>(i);
    fn(data);
  }
  tl_team_num = 0;
  tl_num_teams = 1;
}

// ---- memory: the default allocator only ------------------------------------
WEFT_OMP_API void *omp_alloc(std::size_t size, uintptr_t) {
  return std::malloc(size);
}
WEFT_OMP_API void *omp_aligned_alloc(std::size_t align, std::size_t size,
                                     uintptr_t) {
  std::size_t a = align < sizeof(void *) ? sizeof(void *) : align;
  return std::aligned_alloc(a, (size + a - 1) / a * a);
}
WEFT_OMP_API void *omp_calloc(std::size_t n, std::size_t size, uintptr_t) {
  return std::calloc(n, size);
}
WEFT_OMP_API void *omp_aligned_calloc(std::size_t align, std::size_t n,
                                      std::size_t size, uintptr_t) {
  void *p = omp_aligned_alloc(align, n * size, 0);
  if (p)
    std::memset(p, 0, n * size);
  return p;
}
WEFT_OMP_API void *omp_realloc(void *p, std::size_t size, uintptr_t,
                               uintptr_t) {
  return std::realloc(p, size);
}
WEFT_OMP_API void omp_free(void *p, uintptr_t) { std::free(p); }
WEFT_OMP_API uintptr_t omp_get_default_allocator(void) { return 1; }
WEFT_OMP_API void omp_set_default_allocator(uintptr_t) {}

// ---- target memory on the host ------------------------------------------------
WEFT_OMP_API void *omp_target_alloc(std::size_t size, int) {
  return std::malloc(size);
}
WEFT_OMP_API void omp_target_free(void *p, int) { std::free(p); }
WEFT_OMP_API int omp_target_is_present(const void *, int) { return 1; }
WEFT_OMP_API int omp_target_memcpy(void *dst, const void *src,
                                   std::size_t len, std::size_t dst_off,
                                   std::size_t src_off, int, int) {
  std::memmove(static_cast<char *>(dst) + dst_off,
               static_cast<const char *>(src) + src_off, len);
  return 0;
}
