/* Reporting helpers shared by the self-checking OpenMP programs.

   Every mismatch is reported on stderr as
     FAIL <file>: <what> expected <x> got <y>
   where <file> is NAME when the program defines it (before including this
   header), otherwise the base name of the program's source file.

   Two flavours, both counting into `failures` (main returns failures != 0):
     check(exp, got, fmt, ...)   reports the first 20 mismatches;
     EXPECT(exp, got, fmt, ...)  via fail(): reports the first 10.
   Plus spin() (busy work) and tick() (a global event counter) for the
   ordering checks.

   Works as C (gnu11) and C++ (gnu++20); everything is static and marked
   unused, so a program may use any subset under -Wall -Wextra -Werror. */
#ifndef WEFT_OMP_CHECK_H
#define WEFT_OMP_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#include "source_name.h"

__attribute__((unused)) static int failures;

/* Reports a mismatch as "FAIL <file>: <what> expected <x> got <y>" (first 20). */
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
    fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", omp_source_name(), buf, expected, got);
  }
}

/* Print "FAIL <file>: <what> expected <x> got <y>" (first 10 only) and remember the failure. */
__attribute__((format(printf, 3, 4), unused)) static void fail(long long exp, long long got,
                                                               const char *fmt, ...)
{
  int n;
#pragma omp atomic capture
  n = failures++;
  if (n >= 10)
    return;
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n", omp_source_name(), what, exp, got);
}

#define EXPECT(exp, got, ...)                                                                      \
  do {                                                                                             \
    long long e_ = (long long)(exp), g_ = (long long)(got);                                        \
    if (e_ != g_)                                                                                  \
      fail(e_, g_, __VA_ARGS__);                                                                   \
  } while (0)

/* Busy work to widen race windows; never used to decide pass/fail. */
__attribute__((unused)) static inline void spin(int n)
{
#ifdef __cplusplus
  for (int i = 0; i < n; i++)
    __asm__ __volatile__("" ::: "memory");
#else
  for (volatile int i = 0; i < n; i++) {
  }
#endif
}

/* Global event counter: ordering checks compare ticks (end of A < start of B). */
__attribute__((unused)) static long seq_counter;
__attribute__((unused)) static inline long tick(void)
{
  return __atomic_fetch_add(&seq_counter, 1, __ATOMIC_SEQ_CST);
}

#endif
