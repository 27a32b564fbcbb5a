/* The OpenMP 2.5 Fortran lock bindings (omp_*_lock_ at OMP_1.0, which
   gfortran 4.2 binaries call) for locks25.f90: Fortran cannot name a
   symbol version, so each f25_*_ here (an external procedure to gfortran)
   calls one binding at OMP_1.0 with the program's lock variable, as such a
   binary does. */
#include <stdint.h>

#define OMP_1_0(ret, local, name, fortran)                                     \
  ret local(void *);                                                           \
  __asm__(".symver " #local ", " #name "@OMP_1.0");                            \
  ret fortran(void *var);                                                      \
  ret fortran(void *var) { return local(var); }
OMP_1_0(void, init_lock_25, omp_init_lock_, f25_init_lock_)
OMP_1_0(void, destroy_lock_25, omp_destroy_lock_, f25_destroy_lock_)
OMP_1_0(void, set_lock_25, omp_set_lock_, f25_set_lock_)
OMP_1_0(void, unset_lock_25, omp_unset_lock_, f25_unset_lock_)
OMP_1_0(int32_t, test_lock_25, omp_test_lock_, f25_test_lock_)
OMP_1_0(void, init_nest_lock_25, omp_init_nest_lock_, f25_init_nest_lock_)
OMP_1_0(void, destroy_nest_lock_25, omp_destroy_nest_lock_,
        f25_destroy_nest_lock_)
OMP_1_0(void, set_nest_lock_25, omp_set_nest_lock_, f25_set_nest_lock_)
OMP_1_0(void, unset_nest_lock_25, omp_unset_nest_lock_, f25_unset_nest_lock_)
OMP_1_0(int32_t, test_nest_lock_25, omp_test_nest_lock_, f25_test_nest_lock_)
