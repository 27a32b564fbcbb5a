// An asymmetric Dekker fence. The task path (push a task, then look for a
// sleeper) pays only a compiler barrier; the rare path (a worker about to
// sleep: announce it, then look for work) pays membarrier(2), which runs a
// full barrier on every thread of the process. Either the pusher sees the
// sleeper or the sleeper sees the task. Without membarrier (old kernels,
// seccomp) both sides use seq_cst fences. ThreadSanitizer supports neither:
// there the paired operations themselves are seq_cst (kPublishOrder) and the
// fences do nothing.
#pragma once

#include <atomic>

namespace weft {

// Enables the membarrier mode if the kernel offers it; call once at start.
void asymmetric_fence_init();
extern bool g_membarrier;

#if defined(__SANITIZE_THREAD__)
inline constexpr std::memory_order kPublishOrder = std::memory_order_seq_cst;
#else
inline constexpr std::memory_order kPublishOrder = std::memory_order_release;
#endif

inline void light_fence() {
#if defined(__SANITIZE_THREAD__)
#else
  if (g_membarrier)
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

void heavy_fence();

} // namespace weft
