/* Checks the OpenMP memory-allocation API: omp_alloc/omp_free, omp_aligned_alloc, omp_calloc, omp_aligned_calloc, omp_realloc, an allocator with an alignment trait via omp_init_allocator, omp_set_default_allocator/omp_get_default_allocator, and concurrent allocations from a team. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <stdint.h>
#include <string.h>

int main(void)
{
  omp_set_dynamic(0);
  int *p = (int *)omp_alloc(100 * sizeof(int), omp_default_mem_alloc);
  check(1, p != NULL, "omp_alloc returned memory");
  if (!p)
    return 1;
  for (int i = 0; i < 100; i++)
    p[i] = i * 3;
  long s = 0;
  for (int i = 0; i < 100; i++)
    s += p[i];
  check(14850, s, "data stored in omp_alloc memory");
  p = (int *)omp_realloc(p, 1000 * sizeof(int), omp_default_mem_alloc, omp_default_mem_alloc);
  check(1, p != NULL, "omp_realloc returned memory");
  if (!p)
    return 1;
  for (int i = 0; i < 100; i++)
    check(i * 3, p[i], "omp_realloc kept element %d", i);
  omp_free(p, omp_default_mem_alloc);

  void *a = omp_aligned_alloc(256, 1000, omp_default_mem_alloc);
  check(1, a != NULL && ((uintptr_t)a % 256) == 0, "omp_aligned_alloc(256) alignment (addr %p)", a);
  omp_free(a, omp_default_mem_alloc);

  unsigned char *z = (unsigned char *)omp_calloc(333, 3, omp_default_mem_alloc);
  check(1, z != NULL, "omp_calloc returned memory");
  int nz = 0;
  for (int i = 0; z && i < 999; i++)
    nz += z[i] != 0;
  check(0, nz, "non-zero bytes from omp_calloc");
  omp_free(z, omp_default_mem_alloc);

  long *za = (long *)omp_aligned_calloc(128, 50, sizeof(long), omp_default_mem_alloc);
  check(1, za != NULL && ((uintptr_t)za % 128) == 0, "omp_aligned_calloc(128) alignment (addr %p)", (void *)za);
  nz = 0;
  for (int i = 0; za && i < 50; i++)
    nz += za[i] != 0;
  check(0, nz, "non-zero elements from omp_aligned_calloc");
  omp_free(za, omp_default_mem_alloc);

  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 128}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, traits);
  check(1, al != omp_null_allocator, "omp_init_allocator with an alignment trait");
  omp_allocator_handle_t old = omp_get_default_allocator();
  omp_set_default_allocator(al);
  check((long long)(uintptr_t)al, (long long)(uintptr_t)omp_get_default_allocator(), "default allocator round trip");
  void *b = omp_alloc(10, omp_null_allocator); /* uses the default allocator */
  check(1, b != NULL && ((uintptr_t)b % 128) == 0, "omp_alloc via the default allocator is 128-aligned (addr %p)", b);
  omp_free(b, omp_null_allocator);
  omp_set_default_allocator(old);
  int bad = 0;
#pragma omp parallel num_threads(4) reduction(+ : bad)
  {
    long *blocks[50];
    int t = omp_get_thread_num();
    for (int i = 0; i < 50; i++) {
      blocks[i] = (long *)omp_alloc(sizeof(long) * (size_t)(i + 1), al);
      if (!blocks[i] || ((uintptr_t)blocks[i] % 128) != 0) {
        bad++;
        continue;
      }
      for (int j = 0; j <= i; j++)
        blocks[i][j] = t * 100000L + i * 100 + j;
    }
    for (int i = 0; i < 50; i++) {
      if (!blocks[i])
        continue;
      for (int j = 0; j <= i; j++)
        bad += blocks[i][j] != t * 100000L + i * 100 + j;
      omp_free(blocks[i], al);
    }
  }
  check(0, bad, "bad or overlapping blocks from concurrent omp_alloc");
  omp_destroy_allocator(al);
  return failures != 0;
}
