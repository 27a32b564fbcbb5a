/* Checks OMP_DISPLAY_ENV=true (see .env): the runtime prints the display block (BEGIN, _OPENMP, END) at start-up; verified by re-running this program as a child with its stdout/stderr captured. */
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

static int count(const char *buf, const char *needle)
{
  int c = 0;
  for (const char *p = strstr(buf, needle); p; p = strstr(p + 1, needle))
    c++;
  return c;
}

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
    setenv("OMP_DISPLAY_ENV", "true", 1);
    execl("/proc/self/exe", "env_display_env", "child", (char *)NULL);
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
  /* one block from the runtime; a preloaded runtime may leave the linked libgomp printing its own too */
  int nb = count(buf, "OPENMP DISPLAY ENVIRONMENT BEGIN");
  check(1, nb >= 1, "BEGIN lines printed by the child (%d)", nb);
  check(nb, count(buf, "OPENMP DISPLAY ENVIRONMENT END"), "END lines printed by the child");
  check(1, count(buf, "_OPENMP") >= 1, "_OPENMP lines printed (%d)", count(buf, "_OPENMP"));
  const char *b = strstr(buf, "OPENMP DISPLAY ENVIRONMENT BEGIN"), *e = strstr(buf, "OPENMP DISPLAY ENVIRONMENT END");
  check(1, b && e && b < e, "BEGIN comes before END");
  return failures != 0;
}
