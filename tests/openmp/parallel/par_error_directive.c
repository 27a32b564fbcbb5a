/* Checks the OpenMP 5.1 error directive: severity(warning) at(execution) prints its message once per encountering thread and execution continues (GOMP_warning); severity(fatal) at(execution) ends a child process unsuccessfully (GOMP_error). */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "captured_output.h"

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
  struct capture cap;
  if (capture_start(&cap))
    return 1;
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
  capture_stop(&cap);
  check(4, after, "statements executed after warning directives");
  rewind(cap.tmp);
  check(1, count_in_file(cap.tmp, "weft-corpus-seq-warning"), "sequential warning messages printed");
  rewind(cap.tmp);
  check(3, count_in_file(cap.tmp, "weft-corpus-par-warning"), "warning messages printed by a 3-thread team");
  fclose(cap.tmp);
  return failures != 0;
}
