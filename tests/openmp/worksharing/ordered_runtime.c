// Checks the ordered clause with schedule(runtime) after omp_set_schedule to static, static chunk, dynamic, guided and auto: ordered regions run exactly once each, in iteration order.
#include <omp.h>
#include <stdio.h>

#include "ordered_record.h"

int main(void) {
  static const omp_sched_t kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided, omp_sched_auto};
  static const int chunks[] = {0, 1, 4};
  static const int sizes[] = {0, 1, 7, 200};
  for (unsigned k = 0; k < 4; k++)
    for (unsigned c = 0; c < 3; c++) {
      omp_set_schedule(kinds[k], chunks[c]);
      for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        char tag[48];
        snprintf(tag, sizeof tag, "runtime(%d,%d)", kinds[k], chunks[c]);
        reset(n);
#pragma omp parallel
#pragma omp for ordered schedule(runtime)
        for (int i = 0; i < n; i++) {
          delay(i);
#pragma omp ordered
          in_order(i);
        }
        check_order(tag, n);
      }
    }
  return fails != 0;
}
