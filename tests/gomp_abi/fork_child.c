/* A child of fork() runs OpenMP again after its parent did: weft forgets the
   parent's runtime in the child (whose other threads do not exist) and
   starts its own. GCC 12's libgomp hangs on this program, so it runs under
   weft only. */
#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int count_team(int nthreads) {
  int n = 0;
#pragma omp parallel num_threads(nthreads)
  {
#pragma omp atomic
    n++;
  }
  return n;
}

int main(void) {
  int parent = count_team(2);
  pid_t pid = fork();
  if (pid == 0) {
    int child = count_team(2) + count_team(3);
    _exit(child == 5 ? 0 : 1);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) {
    fprintf(stderr, "FAIL fork_child.c: waitpid\n");
    return 1;
  }
  int after = count_team(2);
  if (parent != 2 || after != 2 || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    fprintf(stderr,
            "FAIL fork_child.c: parent teams %d and %d (expected 2), child "
            "status %d (expected 0)\n",
            parent, after, WEXITSTATUS(status));
    return 1;
  }
  return 0;
}
