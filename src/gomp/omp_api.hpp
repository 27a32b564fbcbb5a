// The omp.h user API as weft defines it (omp_api.cpp, lock.cpp, task.cpp):
// the C entry points the Fortran bindings (fortran.cpp) wrap. The files
// that define them include this header, so a definition that drifts from
// its declaration fails to compile.
#pragma once

#include <cstddef>
#include <cstdint>

// The sizes of the C lock types (GCC's Linux layouts, lock.cpp): a 4-byte
// futex word, and a 16-byte {word, count, owner}.
namespace weft::gomp {
inline constexpr std::size_t kOmpLockSize = 4;
inline constexpr std::size_t kOmpNestLockSize = 16;
} // namespace weft::gomp

#define WEFT_OMP_API extern "C" __attribute__((visibility("default")))

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
