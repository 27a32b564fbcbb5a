/* Checks OMP_DISPLAY_AFFINITY=true with OMP_AFFINITY_FORMAT=weft-aff:%n/%N:end (see .env): on entering the first parallel region every thread's line is displayed; verified by re-running this program as a child with stdout/stderr captured. */
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

/* The sidecar .env file sets these; a mismatch means the harness did not apply it. */
static void require_env(const char *name, const char *want)
{
  const char *v = getenv(name);
  if (!v || strcmp(v, want) != 0) {
    fprintf(stderr, "FAIL %s: environment %s expected %s got %s (sidecar .env not applied?)\n", __FILE_NAME__, name,
            want, v ? v : "(unset)");
    failures++;
  }
}
#include <sys/wait.h>
#include <unistd.h>

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
  int fds[2];
  if (pipe(fds) != 0) {
    fprintf(stderr, "FAIL %s: pipe failed\n", __FILE_NAME__);
    return 1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    setenv("OMP_DISPLAY_AFFINITY", "true", 1);
    setenv("OMP_AFFINITY_FORMAT", "weft-aff:%n/%N:end", 1);
    execl("/proc/self/exe", "env_display_affinity", "child", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  static char buf[1 << 16];
  size_t n = 0;
  ssize_t r;
  while (n < sizeof buf - 1 && (r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
    n += (size_t)r;
  buf[n] = 0;
  close(fds[0]);
  int status = 0;
  check(pid, waitpid(pid, &status, 0), "waitpid");
  check(1, WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exited successfully (status %d)", status);
  for (int t = 0; t < 3; t++) {
    char want[32];
    snprintf(want, sizeof want, "weft-aff:%d/3:end", t);
    check(1, strstr(buf, want) != NULL, "child displayed '%s'", want);
  }
  return failures != 0;
}
