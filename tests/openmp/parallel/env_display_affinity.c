/* Checks OMP_DISPLAY_AFFINITY=true with OMP_AFFINITY_FORMAT=weft-aff:%n/%N:end (see .env): on entering the first parallel region every thread's line is displayed; verified by re-running this program as a child with stdout/stderr captured. */
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
  if (argc > 1) { /* child */
    omp_set_dynamic(0);
    int cnt = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp atomic
      cnt++;
    }
    return cnt != 3;
  }
  require_env("OMP_DISPLAY_AFFINITY", "true");
  require_env("OMP_AFFINITY_FORMAT", "weft-aff:%n/%N:end");
  static const char *const env[] = {"OMP_DISPLAY_AFFINITY", "true", "OMP_AFFINITY_FORMAT", "weft-aff:%n/%N:end", NULL};
  static char buf[1 << 16];
  if (run_child("env_display_affinity", buf, sizeof buf, env))
    return 1;
  for (int t = 0; t < 3; t++) {
    char want[32];
    snprintf(want, sizeof want, "weft-aff:%d/3:end", t);
    check(1, strstr(buf, want) != NULL, "child displayed '%s'", want);
  }
  return failures != 0;
}
