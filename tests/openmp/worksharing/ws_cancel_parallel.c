// Checks worksharing loops and sections in a cancellable parallel region (GOMP_loop_end_cancel, GOMP_sections_end_cancel, GOMP_barrier_cancel) with OMP_CANCELLATION=true (.env): uncancelled constructs run fully; after cancel parallel no thread gets past the next barrier.
#include <omp.h>
#include <stdio.h>

#include "ws_check.h"

#define N 120
static int hits[N], late[N], sec[3], past_barrier, past_loop, past_sections;

int main(void) {
  CHECK(1, omp_get_cancellation(), "omp_get_cancellation with OMP_CANCELLATION=true");
  for (int rep = 0; rep < 20; rep++) {
    volatile int trigger = rep % 3; /* which construct sees the cancel */
    for (int i = 0; i < N; i++)
      hits[i] = 0, late[i] = 0;
    sec[0] = sec[1] = sec[2] = 0;
    past_barrier = past_loop = past_sections = 0;
    int nthr = 0;
#pragma omp parallel
    {
#pragma omp single
      nthr = omp_get_num_threads();
      /* No cancellation yet: these run fully. */
#pragma omp for schedule(dynamic, 4)
      for (int i = 0; i < N; i++)
#pragma omp atomic
        hits[i]++;
#pragma omp sections
      {
#pragma omp section
#pragma omp atomic
        sec[0]++;
#pragma omp section
#pragma omp atomic
        sec[1]++;
#pragma omp section
#pragma omp atomic
        sec[2]++;
      }
      if (trigger == 0) {
        /* Thread 0 cancels; it never reaches the barrier, so no thread may
           get past it. */
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp barrier
#pragma omp atomic
        past_barrier++;
      } else if (trigger == 1) {
        /* Thread 0 cancels and never reaches the loop: the others may run its
           iterations, but none gets past its end (a cancellation point). */
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp for schedule(dynamic)
        for (int i = 0; i < N; i++)
#pragma omp atomic
          late[i]++;
#pragma omp atomic
        past_loop++;
      } else {
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp sections
        {
#pragma omp section
#pragma omp atomic
          late[0]++;
#pragma omp section
#pragma omp atomic
          late[1]++;
        }
#pragma omp atomic
        past_sections++;
      }
    }
    for (int i = 0; i < N; i++)
      CHECK(1, hits[i], "rep %d loop before the cancel count[%d]", rep, i);
    for (int i = 0; i < N; i++)
      CHECK(1, late[i] <= 1, "rep %d construct after the cancel: count[%d] at most once", rep, i);
    for (int s = 0; s < 3; s++)
      CHECK(1, sec[s], "rep %d sections before the cancel: section %d", rep, s);
    CHECK(0, past_barrier, "rep %d threads past the barrier after cancel parallel (team %d)", rep, nthr);
    CHECK(0, past_loop, "rep %d threads past the loop end after cancel parallel (team %d)", rep, nthr);
    CHECK(0, past_sections, "rep %d threads past the sections end after cancel parallel (team %d)", rep, nthr);
  }
  return fails != 0;
}
