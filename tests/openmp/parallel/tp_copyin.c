/* Checks copyin of threadprivate scalars, arrays and structs: every thread starts the region with the primary thread's values even after earlier regions changed their copies; copyin of a subset leaves the others alone. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <string.h>
#define T 4

static int c_i;
static double c_d;
static int c_a[16];
struct cfg {
  char name[8];
  long v[3];
};
static struct cfg c_s;
static int keep;
#pragma omp threadprivate(c_i, c_d, c_a, c_s, keep)

int main(void)
{
  omp_set_dynamic(0);
  for (int rep = 0; rep < 40; rep++) {
    c_i = 1000 + rep;
    c_d = rep + 0.25;
    for (int j = 0; j < 16; j++)
      c_a[j] = rep * 16 + j;
    memset(c_s.name, 0, sizeof c_s.name);
    snprintf(c_s.name, sizeof c_s.name, "r%d", rep % 100);
    c_s.v[0] = rep;
    c_s.v[1] = -rep;
    c_s.v[2] = rep * rep;
    int bad = 0, team = 0;
#pragma omp parallel num_threads(T) copyin(c_i, c_d, c_a, c_s)
    {
      int t = omp_get_thread_num();
#pragma omp atomic
      team++;
      char want[8] = {0};
      snprintf(want, sizeof want, "r%d", rep % 100);
      int good = c_i == 1000 + rep && c_d == rep + 0.25 && c_s.v[0] == rep && c_s.v[1] == -rep &&
                 c_s.v[2] == (long)rep * rep;
      for (int j = 0; j < 8; j++)
        good = good && c_s.name[j] == want[j];
      for (int j = 0; j < 16; j++)
        good = good && c_a[j] == rep * 16 + j;
      if (!good) {
#pragma omp atomic
        bad++;
      }
      /* scribble on the copies so the next copyin has to overwrite them */
      c_i = -t;
      c_d = -1.0;
      c_a[t] = -1;
      c_s.v[0] = -7;
      keep = t * 3 + rep;
    }
    check(T, team, "rep %d: team size", rep);
    check(0, bad, "rep %d: threads that did not start with the primary thread's values", rep);
    /* copyin of keep only: c_i etc. are not copied, keep is */
    keep = 55;
    int keep_bad = 0;
#pragma omp parallel num_threads(T) copyin(keep)
    {
      if (keep != 55) {
#pragma omp atomic
        keep_bad++;
      }
    }
    check(0, keep_bad, "rep %d: threads whose keep was not copied in", rep);
    check(0, c_i, "rep %d: primary thread's c_i after it was set to -0 in the region", rep);
  }
  return failures != 0;
}
