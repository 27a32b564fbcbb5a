/* Checks omp_display_env(0) and omp_display_env(1) run and print the OpenMP 5.1 display block (BEGIN/END lines and _OPENMP) to stdout or stderr, and that parallel regions still work afterwards. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "captured_output.h"

#include <string.h>
#include <unistd.h>

int main(void)
{
  struct capture cap;
  if (capture_start(&cap))
    return 1;
  omp_display_env(0);
  omp_display_env(1);
  capture_stop(&cap);
  static char buf[1 << 16];
  capture_read(&cap, buf, sizeof buf);
  check(2, count_matches(buf, "OPENMP DISPLAY ENVIRONMENT BEGIN"), "BEGIN lines printed by two calls");
  check(2, count_matches(buf, "OPENMP DISPLAY ENVIRONMENT END"), "END lines printed by two calls");
  check(1, count_matches(buf, "_OPENMP") >= 2, "_OPENMP lines printed (%d)", count_matches(buf, "_OPENMP"));
  int cnt = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    cnt++;
  }
  check(3, cnt, "team size after omp_display_env");
  return failures != 0;
}
