/* Checks the allocate clause on parallel (GCC lowers non-default allocators to GOMP_alloc/GOMP_free): private and firstprivate copies placed with a user allocator having a 256-byte alignment trait, with predefined allocators and with the align() modifier are aligned, per thread, correctly initialised, and freed across 100 regions. */
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <stdint.h>

struct blob {
  long v[6];
};

int main(void)
{
  omp_set_dynamic(0);
  omp_alloctrait_t tr[1] = {{omp_atk_alignment, 256}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, tr);
  check(1, al != omp_null_allocator, "omp_init_allocator with alignment 256");
  for (int rep = 0; rep < 100; rep++) {
    int x = -5;
    double y[4] = {1.0, 2.0, 3.0, rep};
    struct blob b = {{rep, 1, 2, 3, 4, 5}};
    int misaligned = 0, badval = 0, cnt = 0, dup = 0;
    uintptr_t addrs[3] = {0, 0, 0};
#pragma omp parallel num_threads(3) private(x) firstprivate(y, b) allocate(al : x, y, b) \
    reduction(+ : misaligned, badval, cnt)
    {
      int t = omp_get_thread_num();
      cnt++;
      x = t * 7;
      misaligned += ((uintptr_t)&x % 256) != 0;
      misaligned += ((uintptr_t)y % 256) != 0;
      misaligned += ((uintptr_t)&b % 256) != 0;
      badval += y[0] != 1.0 || y[3] != rep || b.v[0] != rep || b.v[5] != 5;
      y[3] = -1.0;
      b.v[0] = -1;
      if (t < 3)
        addrs[t] = (uintptr_t)&x;
#pragma omp barrier
      badval += x != t * 7;
    }
    for (int i = 0; i < 3; i++)
      for (int j = i + 1; j < 3; j++)
        dup += addrs[i] == addrs[j];
    check(3, cnt, "rep %d: team size", rep);
    check(0, misaligned, "rep %d: privatised copies not 256-byte aligned", rep);
    check(0, badval, "rep %d: privatised copies with wrong values", rep);
    check(0, dup, "rep %d: threads sharing a private copy", rep);
    check(-5, x, "rep %d: original of private unchanged", rep);
    check(rep, (long long)y[3], "rep %d: original of firstprivate array unchanged", rep);
    check(rep, b.v[0], "rep %d: original of firstprivate struct unchanged", rep);
    int z = 0, zbad = 0;
    long w = 3;
#pragma omp parallel num_threads(3) private(z) firstprivate(w) \
    allocate(allocator(omp_high_bw_mem_alloc), align(128) : z) allocate(omp_low_lat_mem_alloc : w) reduction(+ : zbad)
    {
      z = omp_get_thread_num();
      zbad += ((uintptr_t)&z % 128) != 0;
      zbad += w != 3;
      w = z;
    }
    check(0, zbad, "rep %d: predefined-allocator copies misaligned or wrong", rep);
  }
  omp_destroy_allocator(al);
  return failures != 0;
}
