/* emptytask (Nexus++ paper): chains of minimal tasks, each adding 1 to one
 * shared counter with inout on it, so every task depends on the one before;
 * a taskwait ends each chain. No parallelism at all: the time is the
 * runtime's cost of creating, ordering and retiring tasks.
 *
 *   --n T       tasks in all (rounded down to a multiple of --chain)
 *   --chain L   tasks per chain, one taskwait after each (the paper: 1000)
 */
#include "app_common.h"

/* Not inlined, so that the serial run really does T calls. */
__attribute__((noinline)) static void add_one(long *counter) { *counter += 1; }

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 1000000, 1, 1L << 30, "tasks in all", NULL},
      {"chain", 1000, 1, 1L << 30, "tasks per chain (taskwait after each)",
       NULL},
  };
  app_ctx a = {.name = "emptytask", .opts = opts, .nopts = 2};
  app_parse(&a, argc, argv);
  long chain = opts[1].value;
  long chains = opts[0].value / chain;
  if (chains < 1)
    app_die(&a, "--n %ld is smaller than --chain %ld", opts[0].value, chain);
  opts[0].value = chains * chain;

  long want = 0;
  double t0 = omp_get_wtime();
  for (long c = 0; c < chains; c++)
    for (long i = 0; i < chain; i++)
      add_one(&want);
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  long counter = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long c = 0; c < chains; c++) {
      for (long i = 0; i < chain; i++) {
#pragma omp task depend(inout : counter) shared(counter)
        add_one(&counter);
      }
#pragma omp taskwait
      /* The chain's last task must have run before the taskwait returned. */
      if (counter != (c + 1) * chain)
        app_die(&a,
                "check FAILED: counter is %ld after chain %ld, expected "
                "%ld",
                counter, c, (c + 1) * chain);
    }
  }
  a.time_s = omp_get_wtime() - t0;
  a.tasks = chains * chain;
  app_check_ints(&a, "counter", &counter, &want, 1, sizeof counter);
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
