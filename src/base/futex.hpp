// Thin wrappers over the Linux futex system call (used only to sleep idle
// threads, never on the task path).
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft {

inline void futex_wait(std::atomic<uint32_t> &word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT_PRIVATE,
          expected, nullptr, nullptr, 0);
}

// As futex_wait, but returns after at most `us` microseconds.
inline void futex_wait_for(std::atomic<uint32_t> &word, uint32_t expected,
                           int us) {
  struct timespec ts {
    us / 1000000, (us % 1000000) * 1000L
  };
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT_PRIVATE,
          expected, &ts, nullptr, 0);
}

inline void futex_wake(std::atomic<uint32_t> &word, int n) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE_PRIVATE, n,
          nullptr, nullptr, 0);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

} // namespace weft
