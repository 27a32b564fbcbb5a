/* Calls a libgomp entry point weft does not implement (the Fortran binding
   omp_get_num_threads_): weft must abort with a message naming it, never
   return a plausible value. The test passes when the message appears. */
#include <stdio.h>

extern int omp_get_num_threads_(void);

int main(void) {
  int n = omp_get_num_threads_();
  printf("returned %d instead of aborting\n", n);
  return 0;
}
