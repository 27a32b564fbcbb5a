// Checks omp locks behind C++ RAII: a Lockable wrapper (lock/unlock/try_lock over omp_lock_t) used with std::lock_guard and with std::scoped_lock on two locks (std::lock's try-and-back-off algorithm uses omp_test_lock), and a recursive wrapper over omp_nest_lock_t with std::lock_guard.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

#include <mutex>

class OmpMutex {
  omp_lock_t l_;

public:
  OmpMutex() { omp_init_lock(&l_); }
  ~OmpMutex() { omp_destroy_lock(&l_); }
  OmpMutex(const OmpMutex &) = delete;
  OmpMutex &operator=(const OmpMutex &) = delete;
  void lock() { omp_set_lock(&l_); }
  void unlock() { omp_unset_lock(&l_); }
  bool try_lock() { return omp_test_lock(&l_) != 0; }
};

class OmpRecursiveMutex {
  omp_nest_lock_t l_;

public:
  OmpRecursiveMutex() { omp_init_nest_lock(&l_); }
  ~OmpRecursiveMutex() { omp_destroy_nest_lock(&l_); }
  OmpRecursiveMutex(const OmpRecursiveMutex &) = delete;
  OmpRecursiveMutex &operator=(const OmpRecursiveMutex &) = delete;
  void lock() { omp_set_nest_lock(&l_); }
  void unlock() { omp_unset_nest_lock(&l_); }
};

static OmpRecursiveMutex rm;
static long rec_counter;

static void recurse(int d)
{
  std::lock_guard<OmpRecursiveMutex> g(rm);
  rec_counter++;
  if (d > 0)
    recurse(d - 1);
}

int main()
{
  omp_set_dynamic(0);
  const int T = 4, N = 1500;
  OmpMutex a, b;
  long ca = 0, cb = 0, cab = 0;
  long occ = 0, overlaps = 0;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < N; i++) {
      {
        std::lock_guard<OmpMutex> g(a);
        ca++;
      }
      {
        std::lock_guard<OmpMutex> g(b);
        cb++;
      }
      if ((t + i) % 2) {
        std::scoped_lock both(a, b);
        if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
          overlaps++;
        cab++;
        __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
      } else {
        std::scoped_lock both(b, a); /* opposite order: std::lock must avoid deadlock */
        if (__atomic_add_fetch(&occ, 1, __ATOMIC_RELAXED) != 1)
          overlaps++;
        cab++;
        __atomic_sub_fetch(&occ, 1, __ATOMIC_RELAXED);
      }
      if (i % 10 == 0)
        recurse(i % 4);
    }
  }
  check((long long)T * N, ca, "counter under lock_guard(a)");
  check((long long)T * N, cb, "counter under lock_guard(b)");
  check((long long)T * N, cab, "counter under scoped_lock(a, b)");
  check(0, overlaps, "overlapping holders of both locks");
  long er = 0;
  for (int i = 0; i < N; i += 10)
    er += i % 4 + 1;
  check(T * er, rec_counter, "counter under the recursive nest-lock wrapper");
  return failures != 0;
}
