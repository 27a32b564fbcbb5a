/* Tasks that GOMP_task runs here and now (src/gomp/task.cpp's in-place
   path): if(0) tasks, tasks included in a final task, and the tasks of a
   burst the throttle runs in place, mixed at random with deferred,
   mergeable, untied and priority tasks, nested, and checked against the
   tree's serial meaning:
     - every task runs once and the values add up;
     - an undeferred (if(0)) or included task has finished when its task
       construct returns;
     - a taskwait waits for the children of the task that calls it, the
       in-place ones included (a child filed under another parent would be
       missed: at 1 thread it has not run yet);
     - at 1 thread, a taskwait in a tied task runs no tied sibling that
       was waiting when the task started (the tied rule: only its
       descendants may start);
     - omp_in_final() is true exactly in final tasks and their descendants;
     - a task's ICVs are its creator's (omp_set_num_threads in a task), and
       a child that changes its own leaves its creator's untouched when it
       returns in place.
   Run under weft at 1, 2 and 4 threads and under libgomp (the reference).
   Optional argument: the number of random trees (default 12). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kDeferred, kIf0, kFinal, kMergeable, kUntied, kPriority, kKinds };
enum { kMaxNodes = 6000 };

typedef struct {
  int kind;
  int parent;
  int first_kid, nkids;
  int wait;  /* taskwait after creating its children */
  int icv;   /* 0, or the nthreads-var the task sets first */
  int final; /* serial meaning: in a final task (itself or an ancestor) */
  int eff;   /* serial meaning: its nthreads-var after its own setting */
  long value;
} node;

static node g[kMaxNodes];
static int nnodes;
static int done[kMaxNodes];
static long total;
static int failures;

static uint64_t rng;
static unsigned rnd(unsigned n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(rng >> 33) % n;
}

static void fail(const char *what, int i) {
#pragma omp atomic
  failures++;
  if (failures < 10)
    fprintf(stderr, "in_place_tasks: node %d (kind %d): %s\n", i, g[i].kind,
            what);
}

/* Children of i, allocated breadth first; a burst now and then so that the
   throttle runs tasks in place. */
static void grow(int i, int depth) {
  int n = 0;
  if (depth == 0)
    n = 200 + (int)rnd(200);
  else if (depth < 5)
    n = rnd(4) == 0 ? 40 + (int)rnd(60) : (int)rnd(4);
  if (nnodes + n > kMaxNodes)
    n = kMaxNodes - nnodes;
  g[i].first_kid = nnodes;
  g[i].nkids = n;
  nnodes += n;
  for (int k = 0; k < n; ++k) {
    node *c = &g[g[i].first_kid + k];
    c->parent = i;
    unsigned r = rnd(16);
    c->kind = r < 7    ? kDeferred
              : r < 9  ? kIf0
              : r < 10 ? kFinal
              : r < 12 ? kMergeable
              : r < 14 ? kUntied
                       : kPriority;
    c->wait = rnd(3) != 0;
    c->icv = rnd(4) == 0 ? 2 + (int)rnd(7) : 0;
    c->final = g[i].final || c->kind == kFinal;
    c->eff = c->icv ? c->icv : g[i].eff;
    c->value = (long)rnd(1000);
  }
  for (int k = 0; k < n; ++k)
    grow(g[i].first_kid + k, depth + 1);
}

static void run(int i);

static void spawn(int c) {
  switch (g[c].kind) {
  case kIf0:
#pragma omp task if (0) firstprivate(c)
    run(c);
    break;
  case kFinal:
#pragma omp task final(1) firstprivate(c)
    run(c);
    break;
  case kMergeable:
#pragma omp task mergeable firstprivate(c)
    run(c);
    break;
  case kUntied:
#pragma omp task untied firstprivate(c)
    run(c);
    break;
  case kPriority:
#pragma omp task priority(1) firstprivate(c)
    run(c);
    break;
  default:
#pragma omp task firstprivate(c)
    run(c);
    break;
  }
}

static int tied(int kind) { return kind != kUntied; }

static void run(int i) {
  node *t = &g[i];
  /* At 1 thread: the tied siblings created before this task and waiting. */
  enum { kWatch = 64 };
  int watch[kWatch], nwatch = 0;
  if (omp_get_num_threads() == 1 && tied(t->kind) && i != 0)
    for (int s = i - 1; s >= g[t->parent].first_kid && nwatch < kWatch; --s)
      if (tied(g[s].kind) && !done[s])
        watch[nwatch++] = s;
  if (t->icv)
    omp_set_num_threads(t->icv);
  if (omp_in_final() != t->final)
    fail("omp_in_final() is not the serial meaning's", i);
  if (omp_get_max_threads() != t->eff)
    fail("the ICVs are not its creator's", i);
  for (int k = 0; k < t->nkids; ++k) {
    int c = t->first_kid + k;
    spawn(c);
    int now;
#pragma omp atomic read
    now = done[c];
    if ((g[c].kind == kIf0 || t->final) && now != 1)
      fail("an undeferred or included child had not finished", c);
    if (omp_get_max_threads() != t->eff)
      fail("a child's ICV change leaked to its creator", i);
  }
  if (t->wait) {
#pragma omp taskwait
    for (int k = 0; k < t->nkids; ++k) {
      int now;
#pragma omp atomic read
      now = done[t->first_kid + k];
      if (now != 1)
        fail("taskwait returned before this child had finished",
             t->first_kid + k);
    }
    for (int k = 0; k < nwatch; ++k)
      if (done[watch[k]])
        fail("a tied sibling ran in this tied task's taskwait", watch[k]);
  }
#pragma omp atomic
  total += t->value;
#pragma omp atomic
  done[i]++;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 12;
  if (rounds <= 0) {
    fprintf(stderr, "in_place_tasks: bad number of rounds '%s'\n", argv[1]);
    return 2;
  }
  int tasks = 0;
  for (int r = 0; r < rounds; ++r) {
    rng = 0x9e3779b97f4a7c15ull * (uint64_t)(r + 1);
    nnodes = 1;
    g[0] = (node){kDeferred, -1, 0, 0, 1, 0, 0, omp_get_max_threads(), 0};
    grow(0, 0);
    long expect = 0;
    for (int i = 0; i < nnodes; ++i) {
      expect += g[i].value;
      done[i] = 0;
    }
    total = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
      run(0);
    }
    for (int i = 0; i < nnodes; ++i)
      if (done[i] != 1)
        fail("did not run exactly once", i);
    if (total != expect) {
      fprintf(stderr, "in_place_tasks: round %d: sum %ld, expected %ld\n", r,
              total, expect);
      failures++;
    }
    tasks += nnodes;
  }
  if (failures) {
    fprintf(stderr, "in_place_tasks: %d failures\n", failures);
    return 1;
  }
  printf("in_place_tasks: %d rounds, %d tasks, %d threads: ok\n", rounds, tasks,
         omp_get_max_threads());
  return 0;
}
