// The Fortran bindings of the OpenMP API (gfortran's omp_lib calls these):
// each a thin wrapper over the C entry point of the same name.
//
// gfortran's convention: arguments by reference (omp_fulfill_event's handle
// by value, as omp_lib declares it VALUE); INTEGER and LOGICAL results as
// int32; a CHARACTER argument is its address plus a hidden size_t length
// after all other arguments, not NUL-terminated, blank-padded on output.
// The _8 variants are what omp_lib's generic interfaces pick for
// INTEGER(8) / LOGICAL(8) arguments (-fdefault-integer-8): integers are
// clamped to int's range, logicals are true when non-zero (as libgomp).
//
// Locks: omp_lib's omp_lock_kind is 4 and omp_nest_lock_kind 8. The C lock
// (4 bytes) fits its Fortran variable and lives in it; the C nest lock
// (16 bytes) does not, so the Fortran variable holds a pointer to one that
// omp_init_nest_lock_ allocates and omp_destroy_nest_lock_ frees (libgomp's
// mapping too, so a program's variables look the same under both).
// At OMP_1.0 (OpenMP 2.5, binaries built by GCC 4.2 and older) the simple
// lock is the same; the 2.5 nest lock (8 bytes) fits and lives in the
// variable, nothing allocated.
#include "gomp.hpp"
#include "omp_api.hpp"

#include "base/error.hpp"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace weft;
using namespace weft::gomp;

namespace {
// gfortran's omp_lib_kinds.
constexpr std::size_t kFortranLockKind = 4, kFortranNestLockKind = 8;

// A C lock of size Size in a Fortran variable of Kind bytes: in place when
// it fits, else behind a pointer stored in the variable.
template <std::size_t Size, std::size_t Kind> struct fortran_lock {
  static constexpr bool direct = Size <= Kind;
  static_assert(direct || sizeof(void *) <= Kind,
                "a Fortran lock variable must hold the lock or a pointer");
  static void *init(void *var, const char *call) {
    if constexpr (direct)
      return var;
    void *lock = std::malloc(Size);
    if (!lock)
      fatal("%s: out of memory for a %zu-byte lock", call, Size);
    std::memcpy(var, &lock, sizeof lock);
    return lock;
  }
  static void *get(void *var, const char *call) {
    if constexpr (direct)
      return var;
    void *lock;
    std::memcpy(&lock, var, sizeof lock);
    if (!lock)
      fatal("%s: the lock variable at %p was not initialised "
            "(omp_init_*lock_ not called, or destroyed)",
            call, var);
    return lock;
  }
  static void destroy(void *var) {
    if constexpr (!direct) {
      void *lock;
      std::memcpy(&lock, var, sizeof lock);
      std::free(lock);
      lock = nullptr;
      std::memcpy(var, &lock, sizeof lock);
    }
  }
};
using simple_lock = fortran_lock<kOmpLockSize, kFortranLockKind>;
using nest_lock = fortran_lock<kOmpNestLockSize, kFortranNestLockKind>;
using nest_lock_25 = fortran_lock<kOmpNestLock25Size, kFortranNestLockKind>;
static_assert(simple_lock::direct && !nest_lock::direct && nest_lock_25::direct,
              "the lock mapping described above");

int to_int(int64_t v) {
  return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : static_cast<int>(v);
}

// A Fortran CHARACTER argument as a C string.
std::string c_string(const char *s, std::size_t len) {
  return len ? std::string(s, len) : std::string();
}

// Stores s into a Fortran CHARACTER buffer: truncated, or blank-padded.
void fortran_store(const char *s, std::size_t n, char *buf, std::size_t len) {
  std::size_t k = n < len ? n : len;
  std::memcpy(buf, s, k);
  std::memset(buf + k, ' ', len - k);
}
} // namespace

// ---- locks ------------------------------------------------------------------
WEFT_OMP_API void omp_init_lock_(void *var) {
  omp_init_lock(simple_lock::init(var, "omp_init_lock_"));
}
WEFT_OMP_API void omp_destroy_lock_(void *var) {
  omp_destroy_lock(simple_lock::get(var, "omp_destroy_lock_"));
  simple_lock::destroy(var);
}
WEFT_OMP_API void omp_set_lock_(void *var) {
  omp_set_lock(simple_lock::get(var, "omp_set_lock_"));
}
WEFT_OMP_API void omp_unset_lock_(void *var) {
  omp_unset_lock(simple_lock::get(var, "omp_unset_lock_"));
}
WEFT_OMP_API int32_t omp_test_lock_(void *var) {
  return omp_test_lock(simple_lock::get(var, "omp_test_lock_"));
}
WEFT_OMP_API void omp_init_nest_lock_(void *var) {
  omp_init_nest_lock(nest_lock::init(var, "omp_init_nest_lock_"));
}
WEFT_OMP_API void omp_destroy_nest_lock_(void *var) {
  omp_destroy_nest_lock(nest_lock::get(var, "omp_destroy_nest_lock_"));
  nest_lock::destroy(var);
}
WEFT_OMP_API void omp_set_nest_lock_(void *var) {
  omp_set_nest_lock(nest_lock::get(var, "omp_set_nest_lock_"));
}
WEFT_OMP_API void omp_unset_nest_lock_(void *var) {
  omp_unset_nest_lock(nest_lock::get(var, "omp_unset_nest_lock_"));
}
WEFT_OMP_API int32_t omp_test_nest_lock_(void *var) {
  return omp_test_nest_lock(nest_lock::get(var, "omp_test_nest_lock_"));
}

// OpenMP 2.5 (OMP_1.0).
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_init_lock_)
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_destroy_lock_)
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_set_lock_)
WEFT_OMP_SAME_AT_OMP_1_0(void, omp_unset_lock_)
WEFT_OMP_SAME_AT_OMP_1_0(int32_t, omp_test_lock_)
WEFT_OMP_SYMVER(omp_init_nest_lock__25, omp_init_nest_lock_, "OMP_1.0");
WEFT_OMP_API void omp_init_nest_lock__25(void *var) {
  omp_init_nest_lock_25(nest_lock_25::init(var, "omp_init_nest_lock_"));
}
WEFT_OMP_SYMVER(omp_destroy_nest_lock__25, omp_destroy_nest_lock_, "OMP_1.0");
WEFT_OMP_API void omp_destroy_nest_lock__25(void *var) {
  omp_destroy_nest_lock_25(nest_lock_25::get(var, "omp_destroy_nest_lock_"));
  nest_lock_25::destroy(var);
}
WEFT_OMP_SYMVER(omp_set_nest_lock__25, omp_set_nest_lock_, "OMP_1.0");
WEFT_OMP_API void omp_set_nest_lock__25(void *var) {
  omp_set_nest_lock_25(nest_lock_25::get(var, "omp_set_nest_lock_"));
}
WEFT_OMP_SYMVER(omp_unset_nest_lock__25, omp_unset_nest_lock_, "OMP_1.0");
WEFT_OMP_API void omp_unset_nest_lock__25(void *var) {
  omp_unset_nest_lock_25(nest_lock_25::get(var, "omp_unset_nest_lock_"));
}
WEFT_OMP_SYMVER(omp_test_nest_lock__25, omp_test_nest_lock_, "OMP_1.0");
WEFT_OMP_API int32_t omp_test_nest_lock__25(void *var) {
  return omp_test_nest_lock_25(nest_lock_25::get(var, "omp_test_nest_lock_"));
}

// ---- threads, teams, levels -------------------------------------------------
WEFT_OMP_API void omp_set_dynamic_(const int32_t *v) { omp_set_dynamic(*v); }
WEFT_OMP_API void omp_set_dynamic_8_(const int64_t *v) {
  omp_set_dynamic(*v != 0);
}
WEFT_OMP_API void omp_set_nested_(const int32_t *v) { omp_set_nested(*v); }
WEFT_OMP_API void omp_set_nested_8_(const int64_t *v) {
  omp_set_nested(*v != 0);
}
WEFT_OMP_API void omp_set_num_threads_(const int32_t *n) {
  omp_set_num_threads(*n);
}
WEFT_OMP_API void omp_set_num_threads_8_(const int64_t *n) {
  omp_set_num_threads(to_int(*n));
}
WEFT_OMP_API int32_t omp_get_dynamic_(void) { return omp_get_dynamic(); }
WEFT_OMP_API int32_t omp_get_nested_(void) { return omp_get_nested(); }
WEFT_OMP_API int32_t omp_in_parallel_(void) { return omp_in_parallel(); }
WEFT_OMP_API int32_t omp_get_max_threads_(void) {
  return omp_get_max_threads();
}
WEFT_OMP_API int32_t omp_get_num_procs_(void) { return omp_get_num_procs(); }
WEFT_OMP_API int32_t omp_get_num_threads_(void) {
  return omp_get_num_threads();
}
WEFT_OMP_API int32_t omp_get_thread_num_(void) { return omp_get_thread_num(); }
WEFT_OMP_API int32_t omp_get_thread_limit_(void) {
  return omp_get_thread_limit();
}
WEFT_OMP_API void omp_set_max_active_levels_(const int32_t *n) {
  omp_set_max_active_levels(*n);
}
WEFT_OMP_API void omp_set_max_active_levels_8_(const int64_t *n) {
  omp_set_max_active_levels(to_int(*n));
}
WEFT_OMP_API int32_t omp_get_max_active_levels_(void) {
  return omp_get_max_active_levels();
}
WEFT_OMP_API int32_t omp_get_supported_active_levels_(void) {
  return omp_get_supported_active_levels();
}
WEFT_OMP_API int32_t omp_get_level_(void) { return omp_get_level(); }
WEFT_OMP_API int32_t omp_get_active_level_(void) {
  return omp_get_active_level();
}
WEFT_OMP_API int32_t omp_get_ancestor_thread_num_(const int32_t *level) {
  return omp_get_ancestor_thread_num(*level);
}
WEFT_OMP_API int32_t omp_get_ancestor_thread_num_8_(const int64_t *level) {
  return omp_get_ancestor_thread_num(to_int(*level));
}
WEFT_OMP_API int32_t omp_get_team_size_(const int32_t *level) {
  return omp_get_team_size(*level);
}
WEFT_OMP_API int32_t omp_get_team_size_8_(const int64_t *level) {
  return omp_get_team_size(to_int(*level));
}
WEFT_OMP_API int32_t omp_in_final_(void) { return omp_in_final(); }
WEFT_OMP_API int32_t omp_get_cancellation_(void) {
  return omp_get_cancellation();
}
WEFT_OMP_API int32_t omp_get_max_task_priority_(void) {
  return omp_get_max_task_priority();
}
WEFT_OMP_API void omp_fulfill_event_(intptr_t event) {
  omp_fulfill_event(reinterpret_cast<void *>(event));
}

// ---- schedule: omp_sched_kind is 4 in both variants; the monotonic flag is
// masked off, as OpenMP 4.5 Fortran code does not expect it (libgomp too).
WEFT_OMP_API void omp_set_schedule_(const int32_t *kind, const int32_t *chunk) {
  omp_set_schedule(*kind, *chunk);
}
WEFT_OMP_API void omp_set_schedule_8_(const int32_t *kind,
                                      const int64_t *chunk) {
  omp_set_schedule(*kind, to_int(*chunk));
}
WEFT_OMP_API void omp_get_schedule_(int32_t *kind, int32_t *chunk) {
  int k, c;
  omp_get_schedule(&k, &c);
  *kind = k & ~kSchedMonotonic;
  *chunk = c;
}
WEFT_OMP_API void omp_get_schedule_8_(int32_t *kind, int64_t *chunk) {
  int k, c;
  omp_get_schedule(&k, &c);
  *kind = k & ~kSchedMonotonic;
  *chunk = c;
}

// ---- places -----------------------------------------------------------------
WEFT_OMP_API int32_t omp_get_proc_bind_(void) { return omp_get_proc_bind(); }
WEFT_OMP_API int32_t omp_get_num_places_(void) { return omp_get_num_places(); }
WEFT_OMP_API int32_t omp_get_place_num_procs_(const int32_t *p) {
  return omp_get_place_num_procs(*p);
}
WEFT_OMP_API int32_t omp_get_place_num_procs_8_(const int64_t *p) {
  return omp_get_place_num_procs(to_int(*p));
}
WEFT_OMP_API void omp_get_place_proc_ids_(const int32_t *p, int32_t *ids) {
  omp_get_place_proc_ids(*p, ids);
}
WEFT_OMP_API void omp_get_place_proc_ids_8_(const int64_t *p, int64_t *ids) {
  int place = to_int(*p);
  std::vector<int> v(static_cast<std::size_t>(omp_get_place_num_procs(place)));
  omp_get_place_proc_ids(place, v.data());
  for (int id : v)
    *ids++ = id;
}
WEFT_OMP_API int32_t omp_get_place_num_(void) { return omp_get_place_num(); }
WEFT_OMP_API int32_t omp_get_partition_num_places_(void) {
  return omp_get_partition_num_places();
}
WEFT_OMP_API void omp_get_partition_place_nums_(int32_t *nums) {
  omp_get_partition_place_nums(nums);
}
WEFT_OMP_API void omp_get_partition_place_nums_8_(int64_t *nums) {
  std::vector<int> v(static_cast<std::size_t>(omp_get_partition_num_places()));
  omp_get_partition_place_nums(v.data());
  for (int n : v)
    *nums++ = n;
}

// ---- timers, environment, resources -----------------------------------------
WEFT_OMP_API double omp_get_wtime_(void) { return omp_get_wtime(); }
WEFT_OMP_API double omp_get_wtick_(void) { return omp_get_wtick(); }
WEFT_OMP_API void omp_display_env_(const int32_t *verbose) {
  omp_display_env(*verbose);
}
WEFT_OMP_API void omp_display_env_8_(const int64_t *verbose) {
  omp_display_env(*verbose != 0);
}
WEFT_OMP_API int32_t omp_pause_resource_(const int32_t *kind,
                                         const int32_t *device) {
  return omp_pause_resource(*kind, *device);
}
WEFT_OMP_API int32_t omp_pause_resource_all_(const int32_t *kind) {
  return omp_pause_resource_all(*kind);
}

// ---- devices and teams ------------------------------------------------------
WEFT_OMP_API void omp_set_default_device_(const int32_t *d) {
  omp_set_default_device(*d);
}
WEFT_OMP_API void omp_set_default_device_8_(const int64_t *d) {
  omp_set_default_device(to_int(*d));
}
WEFT_OMP_API int32_t omp_get_default_device_(void) {
  return omp_get_default_device();
}
WEFT_OMP_API int32_t omp_get_num_devices_(void) {
  return omp_get_num_devices();
}
WEFT_OMP_API int32_t omp_get_num_teams_(void) { return omp_get_num_teams(); }
WEFT_OMP_API int32_t omp_get_team_num_(void) { return omp_get_team_num(); }
WEFT_OMP_API int32_t omp_is_initial_device_(void) {
  return omp_is_initial_device();
}
WEFT_OMP_API int32_t omp_get_initial_device_(void) {
  return omp_get_initial_device();
}
WEFT_OMP_API int32_t omp_get_device_num_(void) { return omp_get_device_num(); }
WEFT_OMP_API void omp_set_num_teams_(const int32_t *n) {
  omp_set_num_teams(*n);
}
WEFT_OMP_API void omp_set_num_teams_8_(const int64_t *n) {
  omp_set_num_teams(to_int(*n));
}
WEFT_OMP_API int32_t omp_get_max_teams_(void) { return omp_get_max_teams(); }
WEFT_OMP_API void omp_set_teams_thread_limit_(const int32_t *n) {
  omp_set_teams_thread_limit(*n);
}
WEFT_OMP_API void omp_set_teams_thread_limit_8_(const int64_t *n) {
  omp_set_teams_thread_limit(to_int(*n));
}
WEFT_OMP_API int32_t omp_get_teams_thread_limit_(void) {
  return omp_get_teams_thread_limit();
}

// ---- allocators: handles are INTEGER(c_intptr_t); omp_alloctrait is
// {INTEGER(c_int) key, INTEGER(c_intptr_t) value}, the C struct's layout.
WEFT_OMP_API intptr_t omp_init_allocator_(const intptr_t *memspace,
                                          const int32_t *ntraits,
                                          const void *traits) {
  return static_cast<intptr_t>(
      omp_init_allocator(static_cast<uintptr_t>(*memspace), *ntraits, traits));
}
WEFT_OMP_API intptr_t omp_init_allocator_8_(const intptr_t *memspace,
                                            const int64_t *ntraits,
                                            const void *traits) {
  return static_cast<intptr_t>(omp_init_allocator(
      static_cast<uintptr_t>(*memspace), to_int(*ntraits), traits));
}
WEFT_OMP_API void omp_destroy_allocator_(const intptr_t *a) {
  omp_destroy_allocator(static_cast<uintptr_t>(*a));
}
WEFT_OMP_API void omp_set_default_allocator_(const intptr_t *a) {
  omp_set_default_allocator(static_cast<uintptr_t>(*a));
}
WEFT_OMP_API intptr_t omp_get_default_allocator_(void) {
  return static_cast<intptr_t>(omp_get_default_allocator());
}

// ---- affinity format: an empty (zero-length) format means the
// affinity-format-var, as in C. Results are the full length, as in C.
WEFT_OMP_API void omp_set_affinity_format_(const char *format,
                                           std::size_t len) {
  omp_set_affinity_format(c_string(format, len).c_str());
}
WEFT_OMP_API int32_t omp_get_affinity_format_(char *buf, std::size_t len) {
  std::size_t n = omp_get_affinity_format(nullptr, 0);
  std::string s(n, '\0');
  omp_get_affinity_format(s.data(), n + 1);
  fortran_store(s.data(), n, buf, len);
  return static_cast<int32_t>(n);
}
WEFT_OMP_API void omp_display_affinity_(const char *format, std::size_t len) {
  omp_display_affinity(c_string(format, len).c_str());
}
WEFT_OMP_API int32_t omp_capture_affinity_(char *buf, const char *format,
                                           std::size_t buf_len,
                                           std::size_t format_len) {
  std::vector<char> out(buf_len + 1);
  std::size_t n = omp_capture_affinity(out.data(), out.size(),
                                       c_string(format, format_len).c_str());
  fortran_store(out.data(), n, buf, buf_len);
  return static_cast<int32_t>(n);
}
