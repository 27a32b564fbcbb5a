/* Checks the OpenMP 5.1 error directive: severity(warning) at(execution) prints its message once per encountering thread and execution continues (GOMP_warning); severity(fatal) at(execution) ends a child process unsuccessfully (GOMP_error). */
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
#include <sys/wait.h>
#include <unistd.h>

static int count_in_file(FILE *f, const char *needle)
{
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  int c = 0;
  for (char *p = strstr(buf, needle); p; p = strstr(p + 1, needle))
    c++;
  return c;
}

int main(void)
{
  /* fatal: in a child, before any parallel region of this process */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int devnull_ok = freopen("/dev/null", "w", stderr) != NULL;
    (void)devnull_ok;
#pragma omp error at(execution) severity(fatal) message("weft-corpus fatal error directive")
    _exit(0); /* must not be reached */
  }
  int status = 0;
  check(pid, waitpid(pid, &status, 0), "waitpid of the fatal child");
  check(1, !(WIFEXITED(status) && WEXITSTATUS(status) == 0), "fatal error directive ended the child unsuccessfully (status %d)", status);

  /* warning: capture stdout+stderr into a temporary file */
  FILE *tmp = tmpfile();
  if (!tmp) {
    fprintf(stderr, "FAIL %s: tmpfile() failed\n", __FILE_NAME__);
    return 1;
  }
  fflush(NULL);
  int save1 = dup(1), save2 = dup(2);
  dup2(fileno(tmp), 1);
  dup2(fileno(tmp), 2);
  int after = 0;
  omp_set_dynamic(0);
#pragma omp error at(execution) severity(warning) message("weft-corpus-seq-warning")
  after++;
#pragma omp parallel num_threads(3)
  {
#pragma omp error at(execution) severity(warning) message("weft-corpus-par-warning")
#pragma omp atomic
    after++;
  }
  fflush(NULL);
  dup2(save1, 1);
  dup2(save2, 2);
  close(save1);
  close(save2);
  check(4, after, "statements executed after warning directives");
  rewind(tmp);
  check(1, count_in_file(tmp, "weft-corpus-seq-warning"), "sequential warning messages printed");
  rewind(tmp);
  check(3, count_in_file(tmp, "weft-corpus-par-warning"), "warning messages printed by a 3-thread team");
  fclose(tmp);
  return failures != 0;
}
