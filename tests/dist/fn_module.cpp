// A function for Dist.FunctionPointerClosures* (dist_at_test.cpp), built
// twice as a shared object: weft_dist_fn_linked, which the test links (so
// every rank loads it, each at its own address), and weft_dist_fn_rank0,
// which only rank 0 opens with dlopen; and three times more for
// Dist.FunctionPointerClosuresOtherBuild (weft_dist_fn_build_{a,b,noid}:
// builds that differ, each rank loading another under one name). It reads
// the first word of the object it is given (pt::leaf's v) and adds the
// module's tag.
#include <cstdint>
#include <cstring>

extern "C" long WEFT_TEST_MODULE_FN(void *obj) {
  std::int64_t v;
  std::memcpy(&v, obj, sizeof v);
  return long(v) * 10 + WEFT_TEST_MODULE_TAG;
}
