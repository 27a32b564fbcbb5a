// Checks firstprivate capture at task creation for scalars of every size, long double, _Complex, structs of 1..4096 bytes, over-aligned structs and arrays, while the originals change after creation.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "task_firstprivate_sizes.c"

#include "omp_check.h"

struct s1 { char c; };
struct s3 { char c[3]; };
struct s7 { short a; char b[5]; };
struct s16 { long a; int b; short c; };
struct s100 { int v[25]; };
struct s4096 { long v[512]; };
struct al64 { _Alignas(64) int v[4]; };
struct al256 { _Alignas(256) char c; double d; };

#define ROUNDS 200

int main(void)
{
  int bad = 0;
#pragma omp parallel shared(bad)
#pragma omp single
  {
    char c = 0;
    short sh = 0;
    int i32 = 0;
    long long i64 = 0;
    float f = 0;
    double d = 0;
    long double ld = 0;
    _Complex double cd = 0;
    struct s1 a1 = {0};
    struct s3 a3 = {{0}};
    struct s7 a7 = {0, {0}};
    struct s16 a16 = {0, 0, 0};
    struct s100 a100;
    struct s4096 a4096;
    struct al64 b64;
    struct al256 b256;
    int arr[1000];
    memset(&a100, 0, sizeof a100);
    memset(&a4096, 0, sizeof a4096);
    memset(&b64, 0, sizeof b64);
    memset(&b256, 0, sizeof b256);
    memset(arr, 0, sizeof arr);
    for (int r = 0; r < ROUNDS; r++) {
      c = (char)r;
      sh = (short)(r * 3);
      i32 = r * 100003;
      i64 = (long long)r << 40;
      f = r * 0.5f;
      d = r * 0.25;
      ld = r * 0.125L;
      cd = r + 2.0 * r * __builtin_complex(0.0, 1.0);
      a1.c = (char)(r + 1);
      a3.c[2] = (char)(r + 2);
      a7.a = (short)r;
      a7.b[4] = (char)(r + 4);
      a16.a = r;
      a16.c = (short)(r + 16);
      for (int k = 0; k < 25; k++)
        a100.v[k] = r + k;
      for (int k = 0; k < 512; k++)
        a4096.v[k] = (long)r * k;
      b64.v[3] = r + 64;
      b256.c = (char)r;
      b256.d = r + 256.0;
      for (int k = 0; k < 1000; k++)
        arr[k] = r - k;
#pragma omp task firstprivate(r, c, sh, i32, i64, f, d, ld, cd, a1, a3, a7, a16, a100, a4096, b64, b256, arr) shared(bad)
      {
        int e = 0;
        e += c != (char)r;
        e += sh != (short)(r * 3);
        e += i32 != r * 100003;
        e += i64 != (long long)r << 40;
        e += f != r * 0.5f;
        e += d != r * 0.25;
        e += ld != r * 0.125L;
        e += __real__ cd != r || __imag__ cd != 2.0 * r;
        e += a1.c != (char)(r + 1);
        e += a3.c[2] != (char)(r + 2);
        e += a7.a != (short)r || a7.b[4] != (char)(r + 4);
        e += a16.a != r || a16.c != (short)(r + 16);
        for (int k = 0; k < 25; k++)
          e += a100.v[k] != r + k;
        for (int k = 0; k < 512; k++)
          e += a4096.v[k] != (long)r * k;
        e += b64.v[3] != r + 64;
        e += ((unsigned long)&b64 % 64) != 0;
        e += b256.c != (char)r || b256.d != r + 256.0;
        e += ((unsigned long)&b256 % 256) != 0;
        for (int k = 0; k < 1000; k++)
          e += arr[k] != r - k;
        /* modify the copies: must not affect the originals or other tasks */
        arr[0] = -1;
        a4096.v[0] = -1;
        if (e) {
#pragma omp atomic
          bad += e;
        }
      }
    }
#pragma omp taskwait
  }
  EXPECT(0, bad, "mismatching firstprivate values or misaligned copies");
  return failures != 0;
}
