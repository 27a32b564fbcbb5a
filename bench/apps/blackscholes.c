/* blackscholes (Picos paper, from PARSEC / parsec-ompss): prices European
 * options with the Black-Scholes formula, one task per block of --bs
 * options, repeated --runs times (PARSEC's NUM_RUNS). A task reads its
 * block of inputs (in) and writes its block of prices (out), so run r + 1's
 * task on a block follows run r's (WAW); the blocks are independent.
 *
 *   --n N     options
 *   --bs B    options per task
 *   --runs R  times every option is priced
 */
#include <math.h>

#include "app_common.h"

typedef struct option {
  double spot, strike, rate, vol, years;
  int put;
} option;

static double cndf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }

static void price_block(const option *o, double *price, long n) {
  for (long i = 0; i < n; i++) {
    double sqt = sqrt(o[i].years);
    double d1 = (log(o[i].spot / o[i].strike) +
                 (o[i].rate + 0.5 * o[i].vol * o[i].vol) * o[i].years) /
                (o[i].vol * sqt);
    double d2 = d1 - o[i].vol * sqt;
    double disc = o[i].strike * exp(-o[i].rate * o[i].years);
    price[i] = o[i].put ? disc * cndf(-d2) - o[i].spot * cndf(-d1)
                        : o[i].spot * cndf(d1) - disc * cndf(d2);
  }
}

int main(int argc, char **argv) {
  app_opt opts[] = {
      {"n", 1000000, 1, 1L << 30, "options", NULL},
      {"bs", 2048, 1, 1L << 30, "options per task", NULL},
      {"runs", 8, 1, 1 << 20, "times every option is priced", NULL},
  };
  app_ctx a = {.name = "blackscholes", .opts = opts, .nopts = 3};
  app_parse(&a, argc, argv);
  long n = opts[0].value, bs = opts[1].value, runs = opts[2].value;

  option *opt = (option *)app_alloc(&a, sizeof(option) * (size_t)n);
  uint64_t seed = 2024;
  for (long i = 0; i < n; i++) {
    opt[i].spot = 20 + 80 * app_rand_unit(&seed);
    opt[i].strike = opt[i].spot * (0.7 + 0.6 * app_rand_unit(&seed));
    opt[i].rate = 0.01 + 0.09 * app_rand_unit(&seed);
    opt[i].vol = 0.05 + 0.6 * app_rand_unit(&seed);
    opt[i].years = 0.1 + 2.9 * app_rand_unit(&seed);
    opt[i].put = (int)(app_rand(&seed) & 1);
  }
  double *want = (double *)app_alloc(&a, sizeof(double) * (size_t)n);
  double *got = (double *)app_alloc(&a, sizeof(double) * (size_t)n);

  double t0 = omp_get_wtime();
  for (long r = 0; r < runs; r++)
    for (long b = 0; b < n; b += bs)
      price_block(&opt[b], &want[b], b + bs < n ? bs : n - b);
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  long tasks = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  {
    for (long r = 0; r < runs; r++)
      for (long b = 0; b < n; b += bs) {
        const option *in = &opt[b];
        double *out = &got[b];
        long m = b + bs < n ? bs : n - b;
        /* clang-format off */
#pragma omp task depend(in : in[0]) depend(out : out[0]) \
    firstprivate(in, out, m)
        /* clang-format on */
        price_block(in, out, m);
        tasks++;
      }
#pragma omp taskwait
  }
  a.time_s = omp_get_wtime() - t0;
  a.tasks = tasks;
  app_check_doubles(&a, "price", got, want, (size_t)n);
  app_report(
      &a, app_runtime(&a, (const char *const[]){"GOMP_taskwait@GOMP_2.0"}, 1));
  return 0;
}
