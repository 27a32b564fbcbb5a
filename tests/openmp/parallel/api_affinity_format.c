/* Checks the affinity-format API: omp_set_affinity_format/omp_get_affinity_format round trip (returned length, truncation), omp_capture_affinity expands %n, %N, %L, %a and their long names in each thread of a 3-thread team, and omp_display_affinity prints one such line per thread. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "captured_output.h"

#include <string.h>
#include <unistd.h>

int main(void)
{
  omp_set_dynamic(0);
  const char *fmt = "T%n/%N@L%L";
  omp_set_affinity_format(fmt);
  char buf[64];
  size_t n = omp_get_affinity_format(buf, sizeof buf);
  check((long long)strlen(fmt), (long long)n, "omp_get_affinity_format() length");
  check(0, strcmp(buf, fmt), "omp_get_affinity_format() returned '%s'", buf);
  char small[4];
  n = omp_get_affinity_format(small, sizeof small);
  check((long long)strlen(fmt), (long long)n, "length returned with a small buffer");
  check(0, strncmp(small, fmt, 3) || small[3] != 0, "truncated copy '%.3s' is NUL-terminated", small);
  int bad = 0, lenbad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad, lenbad)
  {
    int t = omp_get_thread_num();
    char out[64], want[64];
    size_t len = omp_capture_affinity(out, sizeof out, NULL);
    snprintf(want, sizeof want, "T%d/3@L1", t);
    bad += strcmp(out, want) != 0;
    lenbad += len != strlen(want);
    char out2[64];
    size_t len2 = omp_capture_affinity(out2, sizeof out2, "%{thread_num}-%{num_threads}-%{nesting_level}-%a");
    snprintf(want, sizeof want, "%d-3-1-0", t);
    bad += strcmp(out2, want) != 0;
    lenbad += len2 != strlen(want);
  }
  check(0, bad, "threads whose captured affinity string was wrong");

  /* omp_display_affinity: capture stdout and stderr while each thread prints one line */
  struct capture cap;
  if (capture_start(&cap))
    return 1;
#pragma omp parallel num_threads(3)
  {
#pragma omp critical
    omp_display_affinity("weft-aff %{thread_num}of%{num_threads};");
  }
  capture_stop(&cap);
  static char out[4096];
  capture_read(&cap, out, sizeof out);
  for (int t = 0; t < 3; t++) {
    char want[32];
    snprintf(want, sizeof want, "weft-aff %dof3;", t);
    int c = 0;
    for (const char *p = strstr(out, want); p; p = strstr(p + 1, want))
      c++;
    check(1, c, "lines '%s' printed by omp_display_affinity", want);
  }
  check(0, lenbad, "threads whose omp_capture_affinity length was wrong");
  return failures != 0;
}
