/* require_env(): for programs with a sidecar <name>.env, checks that the
   harness applied it, reporting "FAIL <file>: environment <var> expected
   <value> got <value>" through omp_check.h's failure count otherwise.

   Works as C (gnu11) and C++ (gnu++20). */
#ifndef WEFT_OMP_ENV_H
#define WEFT_OMP_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_check.h"

/* The sidecar .env file sets these; a mismatch means the harness did not apply it. */
__attribute__((unused)) static void require_env(const char *name, const char *want)
{
  const char *v = getenv(name);
  if (!v || strcmp(v, want) != 0) {
    fprintf(stderr, "FAIL %s: environment %s expected %s got %s (sidecar .env not applied?)\n", omp_source_name(), name,
            want, v ? v : "(unset)");
    failures++;
  }
}

#endif
