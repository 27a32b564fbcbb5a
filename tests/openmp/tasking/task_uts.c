// Checks an unbalanced tree search (BOTS-style UTS: a binomial tree whose shape comes from a hash of each node's id, recursive tied and untied tasks with taskwait, no dependences) against the serial node count and depth.
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_uts.c"

#include "omp_check.h"

/* Binomial tree: the root has ROOT_KIDS children; every other node has KIDS
   children with probability Q_PERMILLE / 1000 (expected KIDS * Q < 1: the
   tree is finite, deep in places and very unbalanced). */
#define ROOT_KIDS 400
#define KIDS 5
#define Q_PERMILLE 199

static uint64_t mix(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static int kids(uint64_t id, int depth)
{
  if (depth == 0)
    return ROOT_KIDS;
  return mix(id) % 1000 < Q_PERMILLE ? KIDS : 0;
}

static uint64_t child_id(uint64_t id, int i) { return mix(id * 31 + (uint64_t)i + 1); }

typedef struct {
  long nodes;
  int depth;
} count;

static count serial(uint64_t id, int depth)
{
  count c = {1, depth};
  int n = kids(id, depth);
  for (int i = 0; i < n; i++) {
    count k = serial(child_id(id, i), depth + 1);
    c.nodes += k.nodes;
    if (k.depth > c.depth)
      c.depth = k.depth;
  }
  return c;
}

static count tied(uint64_t id, int depth)
{
  count c = {1, depth};
  int n = kids(id, depth);
  count k[n > 0 ? n : 1];
  for (int i = 0; i < n; i++) {
#pragma omp task shared(k) firstprivate(i)
    k[i] = tied(child_id(id, i), depth + 1);
  }
#pragma omp taskwait
  for (int i = 0; i < n; i++) {
    c.nodes += k[i].nodes;
    if (k[i].depth > c.depth)
      c.depth = k[i].depth;
  }
  return c;
}

/* Untied, and counting into shared totals instead of returning them. */
static void untied(uint64_t id, int depth, long *nodes, int *maxdepth)
{
#pragma omp atomic
  *nodes += 1;
  int d;
#pragma omp atomic read
  d = *maxdepth;
  if (depth > d) {
#pragma omp critical(uts_depth)
    if (*maxdepth < depth)
      *maxdepth = depth;
  }
  int n = kids(id, depth);
  for (int i = 0; i < n; i++) {
#pragma omp task untied firstprivate(i)
    untied(child_id(id, i), depth + 1, nodes, maxdepth);
  }
#pragma omp taskwait
}

int main(void)
{
  const uint64_t root = 42;
  count expect = serial(root, 0);
  if (expect.nodes < 10000) {
    fprintf(stderr, "FAIL %s: the tree has only %ld nodes\n", NAME, expect.nodes);
    return 1;
  }
  count t = {0, 0};
  long un = 0;
  int ud = 0;
#pragma omp parallel
#pragma omp single
  {
    t = tied(root, 0);
    untied(root, 0, &un, &ud);
  }
  EXPECT(expect.nodes, t.nodes, "tied: nodes");
  EXPECT(expect.depth, t.depth, "tied: depth");
  EXPECT(expect.nodes, un, "untied: nodes");
  EXPECT(expect.depth, ud, "untied: depth");
  return failures != 0;
}
