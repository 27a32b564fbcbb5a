/* Checks max-active-levels-var: omp_get_supported_active_levels() >= 1, omp_set_max_active_levels round trips for 1..supported and clamps larger requests to the supported number, omp_set_nested/omp_get_nested agree with it, and the value is inherited by region threads. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

int main(void)
{
  int sup = omp_get_supported_active_levels();
  check(1, sup >= 1, "omp_get_supported_active_levels() >= 1 (got %d)", sup);
  int top = sup < 8 ? sup : 8;
  for (int l = 1; l <= top; l++) {
    omp_set_max_active_levels(l);
    check(l, omp_get_max_active_levels(), "after omp_set_max_active_levels(%d)", l);
  }
  omp_set_max_active_levels(sup);
  check(sup, omp_get_max_active_levels(), "after omp_set_max_active_levels(supported=%d)", sup);
  if (sup < 1000000) {
    omp_set_max_active_levels(sup + 7);
    check(sup, omp_get_max_active_levels(), "after omp_set_max_active_levels(supported+7) (clamped)");
  }
  omp_set_max_active_levels(1);
  check(0, omp_get_nested(), "omp_get_nested() with max-active-levels 1");
  if (sup > 1) {
    omp_set_nested(1);
    check(1, omp_get_nested(), "omp_get_nested() after omp_set_nested(1)");
    check(1, omp_get_max_active_levels() > 1, "max-active-levels > 1 after omp_set_nested(1) (got %d)",
          omp_get_max_active_levels());
  }
  omp_set_nested(0);
  check(0, omp_get_nested(), "omp_get_nested() after omp_set_nested(0)");
  check(1, omp_get_max_active_levels(), "max-active-levels after omp_set_nested(0)");
  omp_set_max_active_levels(sup < 3 ? sup : 3);
  int want = omp_get_max_active_levels(), bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
  bad += omp_get_max_active_levels() != want;
  check(0, bad, "threads with a different max-active-levels");
  return failures != 0;
}
