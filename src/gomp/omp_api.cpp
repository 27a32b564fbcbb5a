// The omp.h user API: thread and team queries, levels, ICV getters and
// setters, timers, and the host-only device and memory routines.
#include "omp_api.hpp"
#include "gomp.hpp"

#include "base/error.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace weft;
using namespace weft::gomp;

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
  return c.icv().nthreads;
}
WEFT_OMP_API void omp_set_num_threads(int n) {
  context c = ctx();
  c.icv_to_change().nthreads = n > 0 ? n : 1;
}
WEFT_OMP_API int omp_get_num_procs(void) { return icv_global().num_procs; }
WEFT_OMP_API int omp_in_parallel(void) {
  context c = ctx();
  return c.g->active_level > 0;
}
WEFT_OMP_API void omp_set_dynamic(int d) {
  context c = ctx();
  c.icv_to_change().dyn = d != 0;
}
WEFT_OMP_API int omp_get_dynamic(void) {
  context c = ctx();
  return c.icv().dyn;
}
namespace {
// In an explicit task: that task's data environment; elsewhere the
// device's setting (as before OpenMP 5.1 made it per data environment).
void set_max_active_levels(int n) {
  context c = ctx();
  if (c.w->current()->flags & TASK_ROOT)
    icv_global().max_active_levels = n;
  else
    c.icv_to_change().max_active_levels = n;
}
} // namespace
WEFT_OMP_API void omp_set_nested(int n) {
  set_max_active_levels(n ? INT_MAX : 1);
}
WEFT_OMP_API int omp_get_nested(void) {
  context c = ctx();
  return max_active_levels(c) > 1;
}
WEFT_OMP_API void omp_set_max_active_levels(int n) {
  if (n >= 0)
    set_max_active_levels(n);
}
WEFT_OMP_API int omp_get_max_active_levels(void) {
  context c = ctx();
  return max_active_levels(c);
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
  task_icvs &icv = c.icv_to_change();
  icv.run_sched = kind;
  icv.run_chunk =
      k == sched_auto ? 0 : (chunk < 1 ? (k == sched_static ? 0 : 1) : chunk);
}
WEFT_OMP_API void omp_get_schedule(int *kind, int *chunk) {
  context c = ctx();
  *kind = c.icv().run_sched;
  *chunk = static_cast<int>(c.icv().run_chunk);
}
WEFT_OMP_API int omp_get_cancellation(void) {
  return icv_global().cancellation;
}
WEFT_OMP_API int omp_get_max_task_priority(void) {
  return icv_global().max_task_priority;
}
WEFT_OMP_API int omp_get_proc_bind(void) {
  context c = ctx();
  return c.icv().bind;
}
// Places are parsed from OMP_PLACES (icv.cpp). weft does not pin threads;
// a bound thread reports the place the binding policy would give it.
WEFT_OMP_API int omp_get_num_places(void) {
  return static_cast<int>(icv_global().place_list.size());
}
WEFT_OMP_API int omp_get_place_num_procs(int p) {
  const auto &pl = icv_global().place_list;
  return p >= 0 && p < static_cast<int>(pl.size())
             ? static_cast<int>(pl[static_cast<size_t>(p)].size())
             : 0;
}
WEFT_OMP_API void omp_get_place_proc_ids(int p, int *ids) {
  const auto &pl = icv_global().place_list;
  if (p >= 0 && p < static_cast<int>(pl.size()))
    for (int id : pl[static_cast<size_t>(p)])
      *ids++ = id;
}
WEFT_OMP_API int omp_get_place_num(void) {
  context c = ctx();
  int n = omp_get_num_places();
  if (c.icv().bind == 0 || n == 0)
    return -1;
  int size = c.t->size();
  if (c.icv().bind == 4 && size < n) // spread
    return c.id * n / size;
  if (c.icv().bind == 2) // primary
    return 0;
  return c.id % n;
}
namespace {
thread_local int tl_bound_place = -1;
thread_local std::string tl_last_affinity;
} // namespace

void weft::gomp::member_start(context &c) {
  global_icvs &gi = icv_global();
  if (c.icv().bind != 0 && !gi.place_list.empty()) {
    int p = omp_get_place_num();
    if (p >= 0 && p != tl_bound_place) {
      cpu_set_t set;
      CPU_ZERO(&set);
      for (int cpu : gi.place_list[static_cast<size_t>(p)])
        if (cpu >= 0 && cpu < CPU_SETSIZE)
          CPU_SET(cpu, &set);
      if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0)
        tl_bound_place = p;
    }
  }
  if (gi.display_affinity) {
    char buf[512];
    omp_capture_affinity(buf, sizeof buf, nullptr);
    if (tl_last_affinity != buf) { // libgomp too prints only changes
      tl_last_affinity = buf;
      std::fprintf(stderr, "%s\n", buf);
    }
  }
}

WEFT_OMP_API int omp_get_partition_num_places(void) {
  return omp_get_num_places();
}
WEFT_OMP_API void omp_get_partition_place_nums(int *nums) {
  for (int i = 0, n = omp_get_num_places(); i < n; ++i)
    nums[i] = i;
}

WEFT_OMP_API double omp_get_wtime(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}
WEFT_OMP_API double omp_get_wtick(void) {
  timespec ts;
  clock_getres(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
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
  return c.icv().default_device;
}
WEFT_OMP_API void omp_set_default_device(int d) {
  context c = ctx();
  c.icv_to_change().default_device = d;
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

// ---- memory allocators ------------------------------------------------------
// The predefined allocators are the small handles omp.h names (all plain
// heap memory here); omp_init_allocator makes one that honours the
// alignment trait.
namespace {
struct allocator {
  std::size_t alignment = 0;
};
constexpr uintptr_t kPredefinedMax = 0x100;
thread_local uintptr_t tl_default_allocator = 1; // omp_default_mem_alloc

std::size_t alignment_of(uintptr_t a) {
  if (a == 0)
    a = tl_default_allocator;
  return a > kPredefinedMax ? reinterpret_cast<allocator *>(a)->alignment : 0;
}

void *allocate(std::size_t align, std::size_t size, uintptr_t a) {
  std::size_t al = alignment_of(a);
  if (align > al)
    al = align;
  if (al <= alignof(std::max_align_t))
    return std::malloc(size ? size : 1);
  return std::aligned_alloc(al, (size + al - 1) / al * al);
}
} // namespace

WEFT_OMP_API uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits,
                                          const void *traits) {
  (void)memspace;
  struct trait {
    int key;
    uintptr_t value;
  };
  auto *al = new allocator;
  const auto *t = static_cast<const trait *>(traits);
  for (int i = 0; i < ntraits; ++i)
    if (t[i].key == 2) { // omp_atk_alignment
      if (t[i].value == 0 || (t[i].value & (t[i].value - 1))) {
        delete al;
        return 0; // omp_null_allocator: not a power of two
      }
      al->alignment = t[i].value;
    }
  return reinterpret_cast<uintptr_t>(al);
}
WEFT_OMP_API void omp_destroy_allocator(uintptr_t a) {
  if (a > kPredefinedMax)
    delete reinterpret_cast<allocator *>(a);
}
WEFT_OMP_API void *omp_alloc(std::size_t size, uintptr_t a) {
  return allocate(0, size, a);
}
WEFT_OMP_API void *omp_aligned_alloc(std::size_t align, std::size_t size,
                                     uintptr_t a) {
  return allocate(align, size, a);
}
WEFT_OMP_API void *omp_calloc(std::size_t n, std::size_t size, uintptr_t a) {
  void *p = allocate(0, n * size, a);
  if (p)
    std::memset(p, 0, n * size);
  return p;
}
WEFT_OMP_API void *omp_aligned_calloc(std::size_t align, std::size_t n,
                                      std::size_t size, uintptr_t a) {
  void *p = allocate(align, n * size, a);
  if (p)
    std::memset(p, 0, n * size);
  return p;
}
WEFT_OMP_API void *omp_realloc(void *p, std::size_t size, uintptr_t a,
                               uintptr_t) {
  if (alignment_of(a) <= alignof(std::max_align_t))
    return std::realloc(p, size);
  void *q = allocate(0, size, a);
  if (q && p) {
    std::size_t old = malloc_usable_size(p);
    std::memcpy(q, p, old < size ? old : size);
  }
  std::free(p);
  return q;
}
WEFT_OMP_API void omp_free(void *p, uintptr_t) { std::free(p); }
WEFT_OMP_API uintptr_t omp_get_default_allocator(void) {
  return tl_default_allocator;
}
WEFT_OMP_API void omp_set_default_allocator(uintptr_t a) {
  tl_default_allocator = a ? a : 1;
}
WEFT_GOMP_API void *GOMP_alloc(std::size_t align, std::size_t size,
                               uintptr_t a) {
  return allocate(align, size, a);
}
WEFT_GOMP_API void GOMP_free(void *p, uintptr_t) { std::free(p); }

// ---- affinity format
// ----------------------------------------------------------
namespace {
std::string &g_affinity_format = icv_global().affinity_format;

// A processor list as OpenMP prints it: ascending, runs as ranges ("0-3,6").
std::string cpu_list(std::vector<int> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    if (!out.empty())
      out += ',';
    out += std::to_string(ids[i]);
    if (j > i)
      out += '-' + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

// %A: the processors of the calling thread's place when it is bound to one
// (what omp_get_place_proc_ids reports), else its affinity mask.
std::string thread_affinity() {
  std::vector<int> ids;
  if (int p = omp_get_place_num(); p >= 0) {
    ids.resize(static_cast<std::size_t>(omp_get_place_num_procs(p)));
    omp_get_place_proc_ids(p, ids.data());
    return cpu_list(std::move(ids));
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set))
        ids.push_back(cpu);
  if (ids.empty())
    return "0-" + std::to_string(icv_global().num_procs - 1);
  return cpu_list(std::move(ids));
}

std::string expand_affinity(const char *fmt) {
  context c = ctx();
  std::string out;
  for (const char *p = fmt; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    ++p;
    std::string field;
    if (*p == '{') {
      const char *e = std::strchr(p, '}');
      if (!e)
        break;
      field.assign(p + 1, e);
      p = e;
    } else if (*p) {
      field.assign(1, *p);
    } else {
      break;
    }
    auto is = [&](const char *s, const char *l) {
      return field == s || field == l;
    };
    if (is("t", "team_num"))
      out += std::to_string(omp_get_team_num());
    else if (is("T", "num_teams"))
      out += std::to_string(omp_get_num_teams());
    else if (is("L", "nesting_level"))
      out += std::to_string(c.g->level);
    else if (is("n", "thread_num"))
      out += std::to_string(c.id);
    else if (is("N", "num_threads"))
      out += std::to_string(c.t->size());
    else if (is("a", "ancestor_tnum"))
      out += std::to_string(c.g->level > 0 ? c.g->parent_thread : -1);
    else if (is("H", "host")) {
      char h[256] = "";
      gethostname(h, sizeof h - 1);
      out += h;
    } else if (is("P", "process_id"))
      out += std::to_string(getpid());
    else if (is("i", "native_thread_id"))
      out += std::to_string(gettid());
    else if (is("A", "thread_affinity"))
      out += thread_affinity();
    else if (field == "%")
      out += '%';
    else
      out += "%" + field;
  }
  return out;
}

std::size_t copy_out(const std::string &s, char *buf, std::size_t size) {
  if (buf && size) {
    std::size_t n = s.size() < size - 1 ? s.size() : size - 1;
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
  }
  return s.size();
}
} // namespace

WEFT_OMP_API void omp_set_affinity_format(const char *format) {
  g_affinity_format = format ? format : "";
}
WEFT_OMP_API std::size_t omp_get_affinity_format(char *buf, std::size_t size) {
  return copy_out(g_affinity_format, buf, size);
}
WEFT_OMP_API void omp_display_affinity(const char *format) {
  std::string s =
      expand_affinity(format && *format ? format : g_affinity_format.c_str());
  std::fprintf(stderr, "%s\n", s.c_str());
}
WEFT_OMP_API std::size_t omp_capture_affinity(char *buf, std::size_t size,
                                              const char *format) {
  return copy_out(
      expand_affinity(format && *format ? format : g_affinity_format.c_str()),
      buf, size);
}

// ---- target memory on the host
// ------------------------------------------------
WEFT_OMP_API void *omp_target_alloc(std::size_t size, int) {
  return std::malloc(size);
}
WEFT_OMP_API void omp_target_free(void *p, int) { std::free(p); }
WEFT_OMP_API int omp_target_is_present(const void *, int) { return 1; }
WEFT_OMP_API int omp_target_memcpy(void *dst, const void *src, std::size_t len,
                                   std::size_t dst_off, std::size_t src_off,
                                   int, int) {
  std::memmove(static_cast<char *>(dst) + dst_off,
               static_cast<const char *>(src) + src_off, len);
  return 0;
}

// GOMP 4.0's teams inside a host-fallback target region: one team.
WEFT_GOMP_API void GOMP_teams(unsigned num_teams, unsigned thread_limit) {
  (void)num_teams;
  (void)thread_limit;
}

// No device memory to associate with: the host is the only device.
WEFT_OMP_API int omp_target_associate_ptr(const void *, const void *,
                                          std::size_t, std::size_t, int) {
  return 22; // EINVAL, as libgomp answers for the host device
}
WEFT_OMP_API int omp_target_disassociate_ptr(const void *, int) { return 22; }

// Copies a num_dims-dimensional box of elements between two arrays.
static void copy_rect(char *dst, const char *src, std::size_t elem, int dims,
                      const std::size_t *volume, const std::size_t *doff,
                      const std::size_t *soff, const std::size_t *ddim,
                      const std::size_t *sdim) {
  if (dims == 1) {
    std::memcpy(dst + doff[0] * elem, src + soff[0] * elem, volume[0] * elem);
    return;
  }
  std::size_t dstride = elem, sstride = elem;
  for (int i = 1; i < dims; ++i) {
    dstride *= ddim[i];
    sstride *= sdim[i];
  }
  for (std::size_t i = 0; i < volume[0]; ++i)
    copy_rect(dst + (doff[0] + i) * dstride, src + (soff[0] + i) * sstride,
              elem, dims - 1, volume + 1, doff + 1, soff + 1, ddim + 1,
              sdim + 1);
}

WEFT_OMP_API int
omp_target_memcpy_rect(void *dst, const void *src, std::size_t elem, int dims,
                       const std::size_t *volume, const std::size_t *doff,
                       const std::size_t *soff, const std::size_t *ddim,
                       const std::size_t *sdim, int, int) {
  if (!dst && !src)
    return INT_MAX; // the number of dimensions supported
  if (dims < 1)
    return 22;
  copy_rect(static_cast<char *>(dst), static_cast<const char *>(src), elem,
            dims, volume, doff, soff, ddim, sdim);
  return 0;
}
