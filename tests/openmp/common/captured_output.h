/* Capturing what the runtime prints, for programs that check it:
     capture_start()/capture_stop()  send this process's stdout and stderr
                                     to a temporary file for a while;
     capture_read()                  reads that file back and closes it;
     run_child()                     re-runs this program as "<name> child"
                                     with some environment settings and its
                                     stdout and stderr piped back;
     count_matches()                 counts a string's occurrences.

   Works as C (gnu11) and C++ (gnu++20); reports through omp_check.h. */
#ifndef WEFT_CAPTURED_OUTPUT_H
#define WEFT_CAPTURED_OUTPUT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omp_check.h"

struct capture {
  FILE *tmp;
  int save1, save2;
};

/* Sends stdout and stderr to a temporary file. Returns 0, or 1 (reported)
   if no temporary file could be made. */
__attribute__((unused)) static int capture_start(struct capture *c)
{
  c->tmp = tmpfile();
  if (!c->tmp) {
    fprintf(stderr, "FAIL %s: tmpfile() failed\n", omp_source_name());
    return 1;
  }
  fflush(NULL);
  c->save1 = dup(1);
  c->save2 = dup(2);
  dup2(fileno(c->tmp), 1);
  dup2(fileno(c->tmp), 2);
  return 0;
}

/* Restores stdout and stderr; what was printed meanwhile stays in c->tmp. */
__attribute__((unused)) static void capture_stop(struct capture *c)
{
  fflush(NULL);
  dup2(c->save1, 1);
  dup2(c->save2, 2);
  close(c->save1);
  close(c->save2);
}

/* Reads the captured output into buf (NUL-terminated; at most size - 1
   bytes) and closes the temporary file. */
__attribute__((unused)) static void capture_read(struct capture *c, char *buf, size_t size)
{
  rewind(c->tmp);
  size_t n = fread(buf, 1, size - 1, c->tmp);
  buf[n] = 0;
  fclose(c->tmp);
}

/* env: NULL-terminated NAME, VALUE pairs set in the child. Reads the child's
   output into buf (NUL-terminated; at most size - 1 bytes) and checks that it
   exited successfully. Returns 0, or 1 (reported) if the pipe failed. */
__attribute__((unused)) static int run_child(const char *name, char *buf, size_t size,
                                             const char *const *env)
{
  int fds[2];
  if (pipe(fds) != 0) {
    fprintf(stderr, "FAIL %s: pipe failed\n", omp_source_name());
    return 1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    for (const char *const *e = env; e[0] && e[1]; e += 2)
      setenv(e[0], e[1], 1);
    execl("/proc/self/exe", name, "child", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  size_t n = 0;
  ssize_t r;
  while (n < size - 1 && (r = read(fds[0], buf + n, size - 1 - n)) > 0)
    n += (size_t)r;
  buf[n] = 0;
  close(fds[0]);
  int status = 0;
  check(pid, waitpid(pid, &status, 0), "waitpid");
  check(1, WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exited successfully (status %d)", status);
  return 0;
}

/* How often needle occurs in buf (overlapping occurrences count). */
__attribute__((unused)) static int count_matches(const char *buf, const char *needle)
{
  int c = 0;
  for (const char *p = strstr(buf, needle); p; p = strstr(p + 1, needle))
    c++;
  return c;
}

#endif
