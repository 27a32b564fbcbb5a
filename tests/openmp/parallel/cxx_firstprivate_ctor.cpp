// Checks C++ private/firstprivate semantics with class types: firstprivate copies are copy-constructed from the original (same value, distinct addresses), private copies are default-constructed, and every constructed object is destroyed by the end of the region.
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "omp_check.h"

static int ctor_default, ctor_copy, dtor;

struct Obj {
  long tag;
  int magic;
  Obj() : tag(-1), magic(0xC0FFEE)
  {
#pragma omp atomic
    ctor_default++;
  }
  Obj(const Obj &o) : tag(o.tag), magic(o.magic)
  {
#pragma omp atomic
    ctor_copy++;
  }
  ~Obj()
  {
#pragma omp atomic
    dtor++;
  }
};

int main()
{
  omp_set_dynamic(0);
  const int T = 4;
  for (int rep = 0; rep < 50; rep++) {
    ctor_default = ctor_copy = dtor = 0;
    int bad = 0, addr_same = 0;
    {
      Obj orig;
      orig.tag = 1000 + rep;
      Obj *porig = &orig;
      Obj scratch;
#pragma omp parallel num_threads(T) firstprivate(orig) private(scratch) reduction(+ : bad, addr_same)
      {
        bad += orig.tag != 1000 + rep || orig.magic != 0xC0FFEE;
        bad += scratch.tag != -1 || scratch.magic != 0xC0FFEE;
        addr_same += &orig == porig;
        orig.tag = omp_get_thread_num();
      }
      check(1000 + rep, orig.tag, "rep %d: original unchanged by firstprivate copies", rep);
    }
    check(0, bad, "rep %d: firstprivate/private copies with wrong values", rep);
    check(0, addr_same, "rep %d: firstprivate copies sharing the original's address", rep);
    check(1, ctor_copy >= T, "rep %d: copy constructions >= team size (%d)", rep, ctor_copy);
    check(1, ctor_default >= T + 2, "rep %d: default constructions >= team size + 2 (%d)", rep, ctor_default);
    check(ctor_default + ctor_copy, dtor, "rep %d: destructions vs constructions", rep);
  }
  return failures != 0;
}
