/* Checks omp_get_wtime/omp_get_wtick: wtick is positive and below a second, wtime never goes backwards within a thread (sequentially and in every thread of a team), and a 2 ms nanosleep advances it by at least ~2 ms. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <time.h>

int main(void)
{
  double tick = omp_get_wtick();
  check(1, tick > 0.0 && tick < 1.0, "0 < omp_get_wtick() < 1 (got %g)", tick);
  double prev = omp_get_wtime();
  int back = 0;
  for (int i = 0; i < 20000; i++) {
    double now = omp_get_wtime();
    if (now < prev)
      back++;
    prev = now;
  }
  check(0, back, "sequential omp_get_wtime() decreases");
  double t0 = omp_get_wtime();
  struct timespec ts = {0, 2000000};
  while (nanosleep(&ts, &ts) != 0) {
  }
  double t1 = omp_get_wtime();
  check(1, t1 - t0 >= 0.002 - 2 * tick - 1e-6, "wtime advance over a 2 ms sleep (got %g s)", t1 - t0);
  int pback = 0, badtick = 0;
#pragma omp parallel num_threads(4) reduction(+ : pback, badtick)
  {
    double p = omp_get_wtime();
    for (int i = 0; i < 5000; i++) {
      double now = omp_get_wtime();
      if (now < p)
        pback++;
      p = now;
    }
    double tk = omp_get_wtick();
    badtick += !(tk > 0.0 && tk < 1.0);
  }
  check(0, pback, "omp_get_wtime() decreases within threads of a team");
  check(0, badtick, "threads with a bad omp_get_wtick()");
  return failures != 0;
}
