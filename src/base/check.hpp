// WEFT_CHECK(cond, fmt, ...): an invariant of weft's own (an ownership,
// reference-count or queue-state rule), not a check of the caller's input
// (that is an error code naming the call, base/error.hpp). Compiled in the
// debug, asan and tsan builds (WEFT_CHECKS defined), where a violation prints
// the condition, the place and the message, then aborts; in the release
// build the condition is not evaluated.
#pragma once

#include <pthread.h>

namespace weft {

[[noreturn]] void check_failed(const char *cond, const char *file, int line,
                               const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

} // namespace weft

#if defined(WEFT_CHECKS)
#define WEFT_CHECK(cond, ...)                                                  \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      ::weft::check_failed(#cond, __FILE__, __LINE__, __VA_ARGS__);            \
  } while (0)
#else
#define WEFT_CHECK(cond, ...)                                                  \
  do {                                                                         \
    (void)sizeof(!(cond));                                                     \
  } while (0)
#endif

namespace weft {

// The thread that owns a structure (the first one to use it), in the builds
// with checks; nothing in release.
class owner_check {
public:
#if defined(WEFT_CHECKS)
  bool is_owner() {
    pthread_t self = pthread_self();
    if (!bound_) {
      owner_ = self;
      bound_ = true;
    }
    return pthread_equal(owner_, self);
  }
  // A new owner (a structure handed to another thread while nobody uses it).
  void rebind() { bound_ = false; }

private:
  pthread_t owner_{};
  bool bound_ = false;
#else
  bool is_owner() { return true; }
  void rebind() {}
#endif
};

} // namespace weft
