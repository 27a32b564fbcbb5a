#include "base/fence.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {

bool g_membarrier = false;

namespace {
[[maybe_unused]] long membarrier(int cmd) {
  return syscall(__NR_membarrier, cmd, 0, 0);
}
} // namespace

void asymmetric_fence_init() {
#if !defined(__SANITIZE_THREAD__)
  if (g_membarrier)
    return;
  long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  if (cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
    g_membarrier = true;
#endif
}

void heavy_fence() {
#if !defined(__SANITIZE_THREAD__)
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (g_membarrier)
    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
#endif
}

} // namespace weft
