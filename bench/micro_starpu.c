/* micro_starpu — the task-overhead microbenchmarks (docs/benchmarks.md) on
 * StarPU's native API: the peer of micro_weft for dependent tasks. Same CLI,
 * same checks (micro_check), same JSON record ("runtime": "starpu", plus
 * "scheduler", StarPU's scheduling policy).
 *
 * Mapping of the workloads:
 *   dependences  each address a weft task names is a StarPU variable data
 *                handle on that long, accessed STARPU_RW (inout); StarPU's
 *                sequential consistency orders the tasks, as weft's tracker
 *                does. Handles are registered before the timed region and
 *                unregistered after it (a StarPU program registers its data
 *                once): StarPU's timed cost is submission, scheduling,
 *                dependence tracking and retirement only.
 *   task-free    T tasks, N handles of its own each (T*N handles).
 *   task-chain   T tasks on the same N handles.
 *   emptytask    chains of 1000 tasks with RW on the counter's handle, a
 *                starpu_task_wait_for_all after each chain.
 * Codelet bodies do what micro_weft's do (one store into the task's slot, or
 * the counter through its handle), so micro_check catches a task that ran
 * twice, never, or before its predecessor.
 *
 * Threads: --threads P starts P CPU workers (conf.ncpus, as STARPU_NCPU=P)
 * and no accelerators; unlike weft and OpenMP, the submitting main thread is
 * not a worker, so P workers + the submitter share the machine.
 * The scheduler is lws (StarPU 1.3's default) unless STARPU_SCHED names one.
 */
#include <starpu.h>

#include "micro_common.h"

static void free_cpu(void *buffers[], void *arg) {
  (void)buffers;
  volatile int *d = (volatile int *)arg;
  *d = *d + 1;
}

static void chain_cpu(void *buffers[], void *arg) {
  (void)buffers;
  volatile int *d = (volatile int *)arg;
  d[0] = d[-1] + 1;
}

static void empty_cpu(void *buffers[], void *arg) {
  (void)arg;
  volatile long *c = (volatile long *)STARPU_VARIABLE_GET_PTR(buffers[0]);
  *c = *c + 1;
}

static struct starpu_codelet free_cl = {.cpu_funcs = {free_cpu},
                                        .nbuffers = STARPU_VARIABLE_NBUFFERS,
                                        .name = "task_free"};
static struct starpu_codelet chain_cl = {.cpu_funcs = {chain_cpu},
                                         .nbuffers = STARPU_VARIABLE_NBUFFERS,
                                         .name = "task_chain"};
static struct starpu_codelet empty_cl = {.cpu_funcs = {empty_cpu},
                                         .nbuffers = 1,
                                         .modes = {STARPU_RW},
                                         .name = "emptytask"};

static void check_rc(int rc, const char *what) {
  if (rc != 0)
    micro_die("%s failed: %d (%s)", what, rc, strerror(rc < 0 ? -rc : rc));
}

/* Submits one task of codelet cl with arg, RW on the n handles hs. */
static void submit(struct starpu_codelet *cl, void *arg,
                   starpu_data_handle_t *hs, int n) {
  struct starpu_task *t = starpu_task_create();
  t->cl = cl;
  t->cl_arg = arg;
  t->nbuffers = n;
  if (n > STARPU_NMAXBUFS) { /* StarPU frees dyn_* with the task */
    t->dyn_handles = malloc(sizeof(*t->dyn_handles) * (size_t)n);
    t->dyn_modes = malloc(sizeof(*t->dyn_modes) * (size_t)n);
    if (!t->dyn_handles || !t->dyn_modes)
      micro_die("out of memory (task buffers)");
  }
  for (int k = 0; k < n; k++) {
    STARPU_TASK_SET_HANDLE(t, hs[k], k);
    STARPU_TASK_SET_MODE(t, STARPU_RW, k);
  }
  check_rc(starpu_task_submit(t), "starpu_task_submit");
}

int main(int argc, char **argv) {
  micro_options o = micro_parse_args(argc, argv);
  const char *runtime = "starpu";

  struct starpu_conf conf;
  starpu_conf_init(&conf);
  conf.ncpus = o.threads;
  conf.ncuda = 0;
  conf.nopencl = 0;
  conf.nmic = 0;
  conf.nmpi_ms = 0;
  const char *sched = getenv("STARPU_SCHED");
  if (!sched || !sched[0])
    sched = "lws"; /* StarPU 1.3's default, named so the record says it */
  conf.sched_policy_name = sched;
  check_rc(starpu_init(&conf), "starpu_init");
  int workers = (int)starpu_cpu_worker_get_count();
  if (workers != o.threads)
    micro_die("StarPU started %d CPU workers, %d asked (is STARPU_NCPU set?)",
              workers, o.threads);

  int n = o.deps;
  long nbuf = o.pattern == MICRO_TASK_FREE ? o.tasks * n : n;
  long *buf = (long *)micro_alloc(sizeof(long) * (size_t)nbuf);
  starpu_data_handle_t *hs = (starpu_data_handle_t *)micro_alloc(
      sizeof(starpu_data_handle_t) * (size_t)(nbuf + 1));
  int *done = (int *)micro_alloc(sizeof(int) * (size_t)(o.tasks + 1));
  long counter = 0;
  double *ns = (double *)micro_alloc(sizeof(double) * (size_t)o.reps);

  for (int rep = -1; rep < o.reps; rep++) { /* rep -1: warm-up */
    memset(done, 0, sizeof(int) * (size_t)(o.tasks + 1));
    counter = 0;
    long nh = o.pattern == MICRO_EMPTYTASK ? 1 : nbuf;
    for (long k = 0; k < nh; k++)
      starpu_variable_data_register(
          &hs[k], STARPU_MAIN_RAM,
          (uintptr_t)(o.pattern == MICRO_EMPTYTASK ? &counter : &buf[k]),
          sizeof(long));

    long long t0 = micro_now_ns();
    switch (o.pattern) {
    case MICRO_TASK_FREE:
    case MICRO_TASK_CHAIN: {
      int chain = o.pattern == MICRO_TASK_CHAIN && n > 0;
      for (long i = 0; i < o.tasks; i++)
        submit(chain ? &chain_cl : &free_cl, done + i + 1,
               o.pattern == MICRO_TASK_FREE ? hs + i * n : hs, n);
      check_rc(starpu_task_wait_for_all(), "starpu_task_wait_for_all");
      break;
    }
    case MICRO_EMPTYTASK:
      for (long c = 0; c < o.tasks / MICRO_CHAIN_LEN; c++) {
        for (int i = 0; i < MICRO_CHAIN_LEN; i++)
          submit(&empty_cl, NULL, hs, 1);
        check_rc(starpu_task_wait_for_all(), "starpu_task_wait_for_all");
      }
      break;
    }
    long long t1 = micro_now_ns();

    for (long k = 0; k < nh; k++)
      starpu_data_unregister(hs[k]);
    micro_check(&o, done, counter, runtime, rep);
    if (rep >= 0)
      ns[rep] = (double)(t1 - t0) / (double)o.tasks;
  }

  char extra[160];
  snprintf(extra, sizeof extra,
           "\"scheduler\": \"%s\", \"handles_registered_untimed\": %ld", sched,
           o.pattern == MICRO_EMPTYTASK ? 1L : nbuf);
  starpu_shutdown();
  micro_print_json(runtime, &o, ns, extra);
  free(ns);
  free(done);
  free(hs);
  free(buf);
  return 0;
}
