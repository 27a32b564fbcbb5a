/* CHECK(): the reporting macro of the worksharing programs.

   CHECK(exp, got, fmt, ...) compares two integers and on mismatch reports
     FAIL <file>: <what> expected <x> got <y>
   on stderr (the first 10 mismatches), counting them in `fails`; main
   returns fails != 0. <file> is the base name of the program's source file,
   also when CHECK is expanded inside another shared header.

   Works as C (gnu11) and C++ (gnu++20). */
#ifndef WEFT_WS_CHECK_H
#define WEFT_WS_CHECK_H

#include <stdio.h>

#include "source_name.h"

__attribute__((unused)) static int fails;
/* Compare integers; on mismatch report "FAIL <file>: <what> expected <x> got <y>". */
#define CHECK(exp, got, ...)                                                   \
  do {                                                                         \
    long long e_ = (long long)(exp), g_ = (long long)(got);                    \
    if (e_ != g_ && fails++ < 10) {                                            \
      char w_[160];                                                            \
      snprintf(w_, sizeof w_, __VA_ARGS__);                                    \
      fprintf(stderr, "FAIL %s: %s expected %lld got %lld\n",                  \
              omp_source_name(), w_, e_, g_);                                  \
    }                                                                          \
  } while (0)

#endif
