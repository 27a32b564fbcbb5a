/* Checks OMP_AFFINITY_FORMAT=T%n/%N@L%L (see .env): omp_get_affinity_format() returns it and omp_capture_affinity with a NULL format uses it in every thread of a team and of a nested team. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "omp_env.h"

int main(void)
{
  require_env("OMP_AFFINITY_FORMAT", "T%n/%N@L%L");
  omp_set_dynamic(0);
  omp_set_max_active_levels(2);
  char buf[64];
  size_t n = omp_get_affinity_format(buf, sizeof buf);
  check(10, (long long)n, "omp_get_affinity_format() length");
  check(0, strcmp(buf, "T%n/%N@L%L"), "omp_get_affinity_format() returned '%s'", buf);
  int bad = 0, nbad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad, nbad)
  {
    char out[64], want[64];
    omp_capture_affinity(out, sizeof out, NULL);
    snprintf(want, sizeof want, "T%d/3@L1", omp_get_thread_num());
    bad += strcmp(out, want) != 0;
    int nb = 0;
#pragma omp parallel num_threads(2) reduction(+ : nb)
    {
      char o2[64], w2[64];
      omp_capture_affinity(o2, sizeof o2, NULL);
      snprintf(w2, sizeof w2, "T%d/2@L2", omp_get_thread_num());
      nb += strcmp(o2, w2) != 0;
    }
    nbad += nb;
  }
  check(0, bad, "level-1 threads with a wrong captured string");
  check(0, nbad, "level-2 threads with a wrong captured string");
  return failures != 0;
}
