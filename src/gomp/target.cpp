// Offloading entry points with no device: target regions run on the host
// (libgomp's host fallback) and data movement has nothing to move.
#include "gomp.hpp"

using namespace weft;
using namespace weft::gomp;

extern "C" void GOMP_taskwait_depend(void **depend);

WEFT_GOMP_API void GOMP_target_ext(int, void (*fn)(void *), size_t,
                                   void **hostaddrs, size_t *, unsigned short *,
                                   unsigned, void **depend, void **) {
  if (depend)
    GOMP_taskwait_depend(depend);
  fn(hostaddrs);
}
WEFT_GOMP_API void GOMP_target(int, void (*fn)(void *), const void *, size_t,
                               void **hostaddrs, size_t *, unsigned char *) {
  fn(hostaddrs);
}
WEFT_GOMP_API void GOMP_target_data_ext(int, size_t, void **, size_t *,
                                        unsigned short *) {}
WEFT_GOMP_API void GOMP_target_data(int, const void *, size_t, void **,
                                    size_t *, unsigned char *) {}
WEFT_GOMP_API void GOMP_target_end_data(void) {}
WEFT_GOMP_API void GOMP_target_update_ext(int, size_t, void **, size_t *,
                                          unsigned short *, unsigned,
                                          void **depend) {
  if (depend)
    GOMP_taskwait_depend(depend);
}
WEFT_GOMP_API void GOMP_target_update(int, const void *, size_t, void **,
                                      size_t *, unsigned char *) {}
WEFT_GOMP_API void GOMP_target_enter_exit_data(int, size_t, void **, size_t *,
                                               unsigned short *, unsigned,
                                               void **depend) {
  if (depend)
    GOMP_taskwait_depend(depend);
}
WEFT_GOMP_API void GOMP_offload_register_ver(unsigned, const void *, int,
                                             const void *) {}
WEFT_GOMP_API void GOMP_offload_unregister_ver(unsigned, const void *, int,
                                               const void *) {}
WEFT_GOMP_API void GOMP_offload_register(const void *, int, const void *) {}
WEFT_GOMP_API void GOMP_offload_unregister(const void *, int, const void *) {}
