// Checks sections constructs with 40 sections (in a region and as parallel sections), 50 instances each: every section runs exactly once per instance.
#include <omp.h>
#include <stdio.h>

static int fails;
/* Compare integers; on mismatch report "FAIL <file>: <what> expected <x> got <y>". */
#define CHECK(exp, got, ...)                                                   \
  do {                                                                         \
    long long e_ = (long long)(exp), g_ = (long long)(got);                    \
    if (e_ != g_ && fails++ < 10) {                                            \
      char w_[160];                                                            \
      snprintf(w_, sizeof w_, __VA_ARGS__);                                    \
      fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", __FILE_NAME__,  \
              w_, e_, g_);                                                     \
    }                                                                          \
  } while (0)

#define REPS 50
#define NS 40
static int hits[REPS][NS];

static void hit(int r, int s) {
#pragma omp atomic
  hits[r][s]++;
}

int main(void) {
#pragma omp parallel
  for (int r = 0; r < REPS; r++) {
#pragma omp sections
    {
#pragma omp section
      hit(r, 0);
#pragma omp section
      hit(r, 1);
#pragma omp section
      hit(r, 2);
#pragma omp section
      hit(r, 3);
#pragma omp section
      hit(r, 4);
#pragma omp section
      hit(r, 5);
#pragma omp section
      hit(r, 6);
#pragma omp section
      hit(r, 7);
#pragma omp section
      hit(r, 8);
#pragma omp section
      hit(r, 9);
#pragma omp section
      hit(r, 10);
#pragma omp section
      hit(r, 11);
#pragma omp section
      hit(r, 12);
#pragma omp section
      hit(r, 13);
#pragma omp section
      hit(r, 14);
#pragma omp section
      hit(r, 15);
#pragma omp section
      hit(r, 16);
#pragma omp section
      hit(r, 17);
#pragma omp section
      hit(r, 18);
#pragma omp section
      hit(r, 19);
#pragma omp section
      hit(r, 20);
#pragma omp section
      hit(r, 21);
#pragma omp section
      hit(r, 22);
#pragma omp section
      hit(r, 23);
#pragma omp section
      hit(r, 24);
#pragma omp section
      hit(r, 25);
#pragma omp section
      hit(r, 26);
#pragma omp section
      hit(r, 27);
#pragma omp section
      hit(r, 28);
#pragma omp section
      hit(r, 29);
#pragma omp section
      hit(r, 30);
#pragma omp section
      hit(r, 31);
#pragma omp section
      hit(r, 32);
#pragma omp section
      hit(r, 33);
#pragma omp section
      hit(r, 34);
#pragma omp section
      hit(r, 35);
#pragma omp section
      hit(r, 36);
#pragma omp section
      hit(r, 37);
#pragma omp section
      hit(r, 38);
#pragma omp section
      hit(r, 39);
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < NS; s++) {
      CHECK(1, hits[r][s], "instance %d section %d ran", r, s);
      hits[r][s] = 0;
    }

  for (int r = 0; r < REPS; r++) {
#pragma omp parallel sections
    {
#pragma omp section
    hit(r, 0);
#pragma omp section
    hit(r, 1);
#pragma omp section
    hit(r, 2);
#pragma omp section
    hit(r, 3);
#pragma omp section
    hit(r, 4);
#pragma omp section
    hit(r, 5);
#pragma omp section
    hit(r, 6);
#pragma omp section
    hit(r, 7);
#pragma omp section
    hit(r, 8);
#pragma omp section
    hit(r, 9);
#pragma omp section
    hit(r, 10);
#pragma omp section
    hit(r, 11);
#pragma omp section
    hit(r, 12);
#pragma omp section
    hit(r, 13);
#pragma omp section
    hit(r, 14);
#pragma omp section
    hit(r, 15);
#pragma omp section
    hit(r, 16);
#pragma omp section
    hit(r, 17);
#pragma omp section
    hit(r, 18);
#pragma omp section
    hit(r, 19);
#pragma omp section
    hit(r, 20);
#pragma omp section
    hit(r, 21);
#pragma omp section
    hit(r, 22);
#pragma omp section
    hit(r, 23);
#pragma omp section
    hit(r, 24);
#pragma omp section
    hit(r, 25);
#pragma omp section
    hit(r, 26);
#pragma omp section
    hit(r, 27);
#pragma omp section
    hit(r, 28);
#pragma omp section
    hit(r, 29);
#pragma omp section
    hit(r, 30);
#pragma omp section
    hit(r, 31);
#pragma omp section
    hit(r, 32);
#pragma omp section
    hit(r, 33);
#pragma omp section
    hit(r, 34);
#pragma omp section
    hit(r, 35);
#pragma omp section
    hit(r, 36);
#pragma omp section
    hit(r, 37);
#pragma omp section
    hit(r, 38);
#pragma omp section
    hit(r, 39);
    }
  }
  for (int r = 0; r < REPS; r++)
    for (int s = 0; s < NS; s++)
      CHECK(1, hits[r][s], "parallel sections instance %d section %d ran", r, s);
  return fails != 0;
}
