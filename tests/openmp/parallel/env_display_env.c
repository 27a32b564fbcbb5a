/* Checks OMP_DISPLAY_ENV=true (see .env): the runtime prints the display block (BEGIN, _OPENMP, END) at start-up; verified by re-running this program as a child with its stdout/stderr captured. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "captured_output.h"
#include "omp_env.h"

int main(int argc, char **argv)
{
  (void)argv;
  if (argc > 1) { /* child: just use the runtime */
    int cnt = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      cnt++;
    }
    return cnt != 2;
  }
  require_env("OMP_DISPLAY_ENV", "true");
  static const char *const env[] = {"OMP_DISPLAY_ENV", "true", NULL};
  static char buf[1 << 16];
  if (run_child("env_display_env", buf, sizeof buf, env))
    return 1;
  /* one block from the runtime; a preloaded runtime may leave the linked libgomp printing its own too */
  int nb = count_matches(buf, "OPENMP DISPLAY ENVIRONMENT BEGIN");
  check(1, nb >= 1, "BEGIN lines printed by the child (%d)", nb);
  check(nb, count_matches(buf, "OPENMP DISPLAY ENVIRONMENT END"), "END lines printed by the child");
  check(1, count_matches(buf, "_OPENMP") >= 1, "_OPENMP lines printed (%d)", count_matches(buf, "_OPENMP"));
  const char *b = strstr(buf, "OPENMP DISPLAY ENVIRONMENT BEGIN"), *e = strstr(buf, "OPENMP DISPLAY ENVIRONMENT END");
  check(1, b && e && b < e, "BEGIN comes before END");
  return failures != 0;
}
