// The omp.h user API as weft defines it (omp_api.cpp, lock.cpp, task.cpp):
// the C entry points the Fortran bindings (fortran.cpp) wrap. The files
// that define them include this header, so a definition that drifts from
// its declaration fails to compile.
#pragma once

#include <cstddef>
#include <cstdint>

// The sizes of the C lock types (GCC's Linux layouts, lock.cpp): a 4-byte
// futex word, a 16-byte {word, count, owner}, and OpenMP 2.5's nest lock
// (the OMP_1.0 entry points): an 8-byte {owner, count}.
namespace weft::gomp {
inline constexpr std::size_t kOmpLockSize = 4;
inline constexpr std::size_t kOmpNestLockSize = 16;
inline constexpr std::size_t kOmpNestLock25Size = 8;
} // namespace weft::gomp

#define WEFT_OMP_API extern "C" __attribute__((visibility("default")))

// Exports the function impl as name at the non-default version (a
// "(version) name" line of libgomp.symbols: name@version, as libgomp keeps
// the OpenMP 2.5 lock routines at OMP_1.0). It replaces the weak stub
// src/gomp/gen_abi.py generates for that line; impl itself stays local (the
// version script does not list it).
#define WEFT_OMP_SYMVER(impl, name, version)                                   \
  __asm__(".symver " #impl ", " #name "@" version)
// name@OMP_1.0 calls name (void name(void *) or ret name(void *)), as
// libgomp's simple locks are one function at both versions. A function of
// its own (no_icf: not merged with name): ld takes a symbol and its .symver
// name at one address for a renamed symbol and drops name@@OMP_3.0.
#define WEFT_OMP_SAME_AT_OMP_1_0(ret, name)                                    \
  WEFT_OMP_SYMVER(name##_omp_1_0, name, "OMP_1.0");                            \
  WEFT_OMP_API __attribute__((no_icf)) ret name##_omp_1_0(void *lock) {        \
    return name(lock);                                                         \
  }

// Threads, teams, levels.
WEFT_OMP_API int omp_get_thread_num(void);
WEFT_OMP_API int omp_get_num_threads(void);
WEFT_OMP_API int omp_get_max_threads(void);
WEFT_OMP_API void omp_set_num_threads(int n);
WEFT_OMP_API int omp_get_num_procs(void);
WEFT_OMP_API int omp_in_parallel(void);
WEFT_OMP_API void omp_set_dynamic(int d);
WEFT_OMP_API int omp_get_dynamic(void);
WEFT_OMP_API void omp_set_nested(int n);
WEFT_OMP_API int omp_get_nested(void);
WEFT_OMP_API void omp_set_max_active_levels(int n);
WEFT_OMP_API int omp_get_max_active_levels(void);
WEFT_OMP_API int omp_get_supported_active_levels(void);
WEFT_OMP_API int omp_get_level(void);
WEFT_OMP_API int omp_get_active_level(void);
WEFT_OMP_API int omp_get_ancestor_thread_num(int level);
WEFT_OMP_API int omp_get_team_size(int level);
WEFT_OMP_API int omp_get_thread_limit(void);
WEFT_OMP_API void omp_set_schedule(int kind, int chunk);
WEFT_OMP_API void omp_get_schedule(int *kind, int *chunk);
WEFT_OMP_API int omp_get_cancellation(void);
WEFT_OMP_API int omp_get_max_task_priority(void);
WEFT_OMP_API int omp_in_final(void);
WEFT_OMP_API void omp_fulfill_event(void *event);

// Places and binding.
WEFT_OMP_API int omp_get_proc_bind(void);
WEFT_OMP_API int omp_get_num_places(void);
WEFT_OMP_API int omp_get_place_num_procs(int p);
WEFT_OMP_API void omp_get_place_proc_ids(int p, int *ids);
WEFT_OMP_API int omp_get_place_num(void);
WEFT_OMP_API int omp_get_partition_num_places(void);
WEFT_OMP_API void omp_get_partition_place_nums(int *nums);

// Timers, environment, resources.
WEFT_OMP_API double omp_get_wtime(void);
WEFT_OMP_API double omp_get_wtick(void);
WEFT_OMP_API void omp_display_env(int verbose);
WEFT_OMP_API int omp_pause_resource(int kind, int device);
WEFT_OMP_API int omp_pause_resource_all(int kind);

// Devices and teams (the host only).
WEFT_OMP_API int omp_get_num_devices(void);
WEFT_OMP_API int omp_get_default_device(void);
WEFT_OMP_API void omp_set_default_device(int d);
WEFT_OMP_API int omp_is_initial_device(void);
WEFT_OMP_API int omp_get_initial_device(void);
WEFT_OMP_API int omp_get_device_num(void);
WEFT_OMP_API int omp_get_num_teams(void);
WEFT_OMP_API int omp_get_team_num(void);
WEFT_OMP_API void omp_set_num_teams(int n);
WEFT_OMP_API int omp_get_max_teams(void);
WEFT_OMP_API void omp_set_teams_thread_limit(int n);
WEFT_OMP_API int omp_get_teams_thread_limit(void);

// Allocators: handles are uintptr_t (omp_allocator_handle_t).
WEFT_OMP_API uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits,
                                          const void *traits);
WEFT_OMP_API void omp_destroy_allocator(uintptr_t a);
WEFT_OMP_API uintptr_t omp_get_default_allocator(void);
WEFT_OMP_API void omp_set_default_allocator(uintptr_t a);

// Affinity format.
WEFT_OMP_API void omp_set_affinity_format(const char *format);
WEFT_OMP_API std::size_t omp_get_affinity_format(char *buf, std::size_t size);
WEFT_OMP_API void omp_display_affinity(const char *format);
WEFT_OMP_API std::size_t omp_capture_affinity(char *buf, std::size_t size,
                                              const char *format);

// Locks: lock points to kOmpLockSize / kOmpNestLockSize bytes.
WEFT_OMP_API void omp_init_lock(void *lock);
WEFT_OMP_API void omp_destroy_lock(void *lock);
WEFT_OMP_API void omp_set_lock(void *lock);
WEFT_OMP_API void omp_unset_lock(void *lock);
WEFT_OMP_API int omp_test_lock(void *lock);
WEFT_OMP_API void omp_init_nest_lock(void *lock);
WEFT_OMP_API void omp_destroy_nest_lock(void *lock);
WEFT_OMP_API void omp_set_nest_lock(void *lock);
WEFT_OMP_API void omp_unset_nest_lock(void *lock);
WEFT_OMP_API int omp_test_nest_lock(void *lock);
// OpenMP 2.5's nest lock (owned by a thread), exported as omp_*_nest_lock
// at OMP_1.0: lock points to kOmpNestLock25Size bytes.
WEFT_OMP_API void omp_init_nest_lock_25(void *lock);
WEFT_OMP_API void omp_destroy_nest_lock_25(void *lock);
WEFT_OMP_API void omp_set_nest_lock_25(void *lock);
WEFT_OMP_API void omp_unset_nest_lock_25(void *lock);
WEFT_OMP_API int omp_test_nest_lock_25(void *lock);
