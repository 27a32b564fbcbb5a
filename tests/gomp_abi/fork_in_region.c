/* fork() inside a parallel region: the child has only the forking thread,
   not the region's other members. weft gives the child a fresh runtime, so
   its own parallel regions work (here: teams of 2 and 3, a task, from the
   master and from another member of the parent's region), and it leaves
   with _exit. The parent's region goes on unchanged. Under weft only (GCC
   12's libgomp hangs on OpenMP in a child of fork). */
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

static int child_work(void) {
  int t = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task shared(t)
    t = 7;
#pragma omp taskwait
  }
  return count_team(2) + count_team(3) + t; /* 12 */
}

int main(void) {
  int bad = 0, members = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad, members)
  {
    members++;
    /* Each member forks in turn (a barrier between the two). */
    for (int who = 0; who < omp_get_num_threads(); who++) {
      if (omp_get_thread_num() == who) {
        pid_t pid = fork();
        if (pid == 0)
          _exit(child_work() == 12 ? 0 : 1);
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
          fprintf(stderr,
                  "FAIL fork_in_region.c: the child of member %d ended with "
                  "status %d\n",
                  who, status);
          bad++;
        }
      }
#pragma omp barrier
    }
  }
  int after = count_team(2);
  if (bad || members != 2 || after != 2) {
    fprintf(stderr,
            "FAIL fork_in_region.c: %d failed children, %d members (expected "
            "2), a later team of %d (expected 2)\n",
            bad, members, after);
    return 1;
  }
  return 0;
}
