// A child task that holds its engine entry until the test releases it: the
// back-pressure tests fill an engine with gates.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

namespace weft_test {

inline constexpr auto kPatience = std::chrono::seconds(10);

// Released by the test, or given up after kPatience (nobody went on to
// release it: the test then fails on timed_out).
struct gate {
  std::atomic<bool> started{false};
  std::atomic<bool> release{false};
  std::atomic<bool> timed_out{false};
};

// The gate's task body: holds until g->release.
inline void hold(void *p) {
  auto *g = static_cast<gate *>(p);
  g->started = true;
  auto until = std::chrono::steady_clock::now() + kPatience;
  while (!g->release.load()) {
    if (std::chrono::steady_clock::now() > until) {
      g->timed_out = true;
      return;
    }
    std::this_thread::yield();
  }
}

} // namespace weft_test
