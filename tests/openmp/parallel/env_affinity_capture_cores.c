/* Checks omp_capture_affinity's %A and %{thread_affinity} with OMP_PROC_BIND=close OMP_PLACES=cores (see .env): the same checks as env_affinity_capture_threads.c, with one place per core. */
#define NAME "env_affinity_capture_cores.c"
#define PLACES "cores"
#include "env_affinity_capture_threads.c"
