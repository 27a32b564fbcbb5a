// The co-simulation engines' server thread does not exist in a child of
// fork(). The runtime forgets its parent's runtime there (a fresh one, with
// a fresh engine and server, serves the child), so nothing should reach the
// parent's engine from the child; if something does, it must stop loudly
// instead of waiting forever for a server that is not there.
#pragma once

#include "base/error.hpp"

#include <atomic>
#include <mutex>
#include <pthread.h>

namespace weft::rtl {

class fork_guard {
public:
  // Call in the engine's constructor (the process that owns the server).
  fork_guard() {
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, on_child); });
    gen_ = forks().load(std::memory_order_relaxed);
  }
  // Fatal when called in a child of fork() of the owning process.
  void check(const char *engine) const {
    if (forks().load(std::memory_order_relaxed) != gen_)
      fatal("%s: called in a child of fork(); its server thread (and the "
            "simulated unit it clocks) stayed in the parent",
            engine);
  }

private:
  static std::atomic<unsigned> &forks() {
    static std::atomic<unsigned> n{0};
    return n;
  }
  static void on_child() { forks().fetch_add(1, std::memory_order_relaxed); }
  unsigned gen_;
};

} // namespace weft::rtl
