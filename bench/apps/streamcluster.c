/* streamcluster-style (Nexus++ paper, from Starbench/PARSEC): the
 * fork-join core of streamcluster's local search. Points start assigned to
 * one centre; each iteration proposes a candidate centre and
 *
 *   1. forks one task per block of --bs points computing the block's gain
 *      (what the points would save by moving to the candidate) and joins;
 *   2. if the total gain beats the cost of opening a centre, forks one task
 *      per block reassigning the points that are closer to the candidate,
 *      and joins.
 *
 * The join is `#pragma omp taskgroup` around the group (--sync taskgroup) or
 * a `#pragma omp taskwait` after it (--sync taskwait). No depend clauses:
 * chains of groups of tasks, each followed by a join (the paper: groups of
 * about 400 tasks).
 *
 *   --n N --dim D   points and their dimensions
 *   --bs B          points per task
 *   --iters I       candidate centres proposed
 */
#include "app_common.h"

enum { SYNC_TASKGROUP = 0, SYNC_TASKWAIT = 1 };

typedef struct points {
  long n, dim;
  const double *coord; /* n * dim */
  double *cost;        /* squared distance to the assigned centre */
  long *centre;        /* the index of the assigned centre's point */
} points;

static double dist2(const points *p, long i, long j) {
  double s = 0;
  for (long d = 0; d < p->dim; d++) {
    double x = p->coord[i * p->dim + d] - p->coord[j * p->dim + d];
    s += x * x;
  }
  return s;
}

static double block_gain(const points *p, long lo, long hi, long cand) {
  double gain = 0;
  for (long i = lo; i < hi; i++) {
    double d = dist2(p, i, cand);
    if (d < p->cost[i])
      gain += p->cost[i] - d;
  }
  return gain;
}

static void block_move(points *p, long lo, long hi, long cand) {
  for (long i = lo; i < hi; i++) {
    double d = dist2(p, i, cand);
    if (d < p->cost[i]) {
      p->cost[i] = d;
      p->centre[i] = cand;
    }
  }
}

typedef struct run {
  long bs, iters, nblocks;
  int sync;
  double *gain; /* per block */
} run;

enum { GAIN, MOVE };

/* One block's share of a group: its gain or its moves. */
static void block_job(points *p, run *r, int job, long b, long cand) {
  long lo = b * r->bs, hi = lo + r->bs < p->n ? lo + r->bs : p->n;
  if (job == GAIN)
    r->gain[b] = block_gain(p, lo, hi, cand);
  else
    block_move(p, lo, hi, cand);
}

/* One fork-join group: a task per block, then the join --sync chose. */
static void fork_join(points *p, run *r, int job, long cand) {
  if (r->sync == SYNC_TASKGROUP) {
#pragma omp taskgroup
    {
      for (long b = 0; b < r->nblocks; b++) {
#pragma omp task firstprivate(b)
        block_job(p, r, job, b, cand);
      }
    }
  } else {
    for (long b = 0; b < r->nblocks; b++) {
#pragma omp task firstprivate(b)
      block_job(p, r, job, b, cand);
    }
#pragma omp taskwait
  }
}

static long candidate(long it, long n) { return (it * 7919 + 17) % n; }

/* The creating thread's decision after the gain group (identical serially
 * and with tasks: the blocks' gains are summed in block order). */
static int worth_opening(const run *r, double *total) {
  double gain = 0;
  for (long b = 0; b < r->nblocks; b++)
    gain += r->gain[b];
  if (gain <= 0.02 * *total)
    return 0;
  *total -= gain;
  return 1;
}

/* The local search, serially (tasks == NULL) or with a fork-join group of
 * tasks per step (counted in *tasks). Returns the centres opened. */
static long search(points *p, run *r, double total, long *tasks) {
  long opened = 0;
  for (long it = 0; it < r->iters; it++) {
    long cand = candidate(it, p->n);
    for (int job = GAIN; job <= MOVE; job++) {
      if (job == MOVE) {
        if (!worth_opening(r, &total))
          break;
        opened++;
      }
      if (tasks) {
        fork_join(p, r, job, cand);
        *tasks += r->nblocks;
      } else {
        for (long b = 0; b < r->nblocks; b++)
          block_job(p, r, job, b, cand);
      }
    }
  }
  return opened;
}

static points new_points(const app_ctx *a, const double *coord, long n,
                         long dim) {
  points p = {n, dim, coord, (double *)app_alloc(a, sizeof(double) * (size_t)n),
              (long *)app_alloc(a, sizeof(long) * (size_t)n)};
  for (long i = 0; i < n; i++)
    p.cost[i] = dist2(&p, i, 0); /* everything starts at centre 0 */
  return p;
}

int main(int argc, char **argv) {
  static const char *const syncs[] = {"taskgroup", "taskwait", NULL};
  app_opt opts[] = {
      {"n", 200000, 1, 1L << 30, "points", NULL},
      {"dim", 16, 1, 1024, "dimensions per point", NULL},
      {"bs", 500, 1, 1L << 30, "points per task", NULL},
      {"iters", 80, 1, 1L << 30, "candidate centres proposed", NULL},
      {"sync", SYNC_TASKGROUP, 0, 1, "how each group of tasks is joined",
       syncs},
  };
  app_ctx a = {.name = "streamcluster", .opts = opts, .nopts = 5};
  app_parse(&a, argc, argv);
  long n = opts[0].value, dim = opts[1].value;
  run r = {opts[2].value, opts[3].value,
           (n + opts[2].value - 1) / opts[2].value, (int)opts[4].value, NULL};
  r.gain = (double *)app_alloc(&a, sizeof(double) * (size_t)r.nblocks);

  double *coord = (double *)app_alloc(&a, sizeof(double) * (size_t)(n * dim));
  uint64_t seed = 99;
  for (long i = 0; i < n; i++) { /* points around 8 random clusters */
    uint64_t cl = app_rand(&seed) % 8;
    for (long d = 0; d < dim; d++)
      coord[i * dim + d] =
          (double)((cl * 2654435761u + (uint64_t)d * 40503u) % 1000) / 100.0 +
          app_rand_unit(&seed);
  }
  points want = new_points(&a, coord, n, dim);
  points got = new_points(&a, coord, n, dim);
  double total = 0;
  for (long i = 0; i < n; i++)
    total += want.cost[i];

  double t0 = omp_get_wtime();
  long want_opened = search(&want, &r, total, NULL);
  a.serial_s = omp_get_wtime() - t0;

  app_warm_up(&a);
  long got_opened = 0, tasks = 0;
  t0 = omp_get_wtime();
#pragma omp parallel num_threads(a.threads)
#pragma omp single
  got_opened = search(&got, &r, total, &tasks);
  a.time_s = omp_get_wtime() - t0;
  a.tasks = tasks;
  app_check_ints(&a, "centres opened", &got_opened, &want_opened, 1,
                 sizeof got_opened);
  app_check_doubles(&a, "cost", got.cost, want.cost, (size_t)n);
  app_check_ints(&a, "centre", got.centre, want.centre, (size_t)n,
                 sizeof got.centre[0]);
  app_report(&a,
             app_runtime(&a,
                         (const char *const[]){"GOMP_taskwait@GOMP_2.0",
                                               "GOMP_taskgroup_start@GOMP_4.0",
                                               "GOMP_taskgroup_end@GOMP_4.0"},
                         3));
  return 0;
}
