/* Checks omp_display_env(0) and omp_display_env(1) run and print the OpenMP 5.1 display block (BEGIN/END lines and _OPENMP) to stdout or stderr, and that parallel regions still work afterwards. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

/* Reports a mismatch as "FAIL <file>: <what> expected <x> got <y>". */
__attribute__((format(printf, 3, 4), unused)) static void check(long long expected, long long got,
                                                                const char *what, ...)
{
  if (expected == got)
    return;
  if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) < 20) {
    char buf[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(buf, sizeof buf, what, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", __FILE_NAME__, buf, expected, got);
  }
}
#include <string.h>
#include <unistd.h>

static int count(const char *buf, const char *needle)
{
  int c = 0;
  for (const char *p = strstr(buf, needle); p; p = strstr(p + 1, needle))
    c++;
  return c;
}

int main(void)
{
  FILE *tmp = tmpfile();
  if (!tmp) {
    fprintf(stderr, "FAIL %s: tmpfile() failed\n", __FILE_NAME__);
    return 1;
  }
  fflush(NULL);
  int save1 = dup(1), save2 = dup(2);
  dup2(fileno(tmp), 1);
  dup2(fileno(tmp), 2);
  omp_display_env(0);
  omp_display_env(1);
  fflush(NULL);
  dup2(save1, 1);
  dup2(save2, 2);
  close(save1);
  close(save2);
  static char buf[1 << 16];
  rewind(tmp);
  size_t n = fread(buf, 1, sizeof buf - 1, tmp);
  buf[n] = 0;
  fclose(tmp);
  check(2, count(buf, "OPENMP DISPLAY ENVIRONMENT BEGIN"), "BEGIN lines printed by two calls");
  check(2, count(buf, "OPENMP DISPLAY ENVIRONMENT END"), "END lines printed by two calls");
  check(1, count(buf, "_OPENMP") >= 2, "_OPENMP lines printed (%d)", count(buf, "_OPENMP"));
  int cnt = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp atomic
    cnt++;
  }
  check(3, cnt, "team size after omp_display_env");
  return failures != 0;
}
