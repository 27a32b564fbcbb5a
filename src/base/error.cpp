#include "base/error.hpp"

#include "base/check.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace weft {

namespace {
thread_local char tl_message[512];
thread_local std::exception_ptr tl_exception;
} // namespace

int set_error(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(tl_message, sizeof tl_message, fmt, ap);
  va_end(ap);
  return code;
}

const char *last_error() { return tl_message; }

void set_pending_exception(std::exception_ptr e) {
  tl_exception = std::move(e);
}

std::exception_ptr take_pending_exception() {
  std::exception_ptr e = std::move(tl_exception);
  tl_exception = nullptr;
  return e;
}

void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("weft: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  std::abort();
}

void check_failed(const char *cond, const char *file, int line, const char *fmt,
                  ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "weft: check failed: %s (%s:%d): ", cond, file, line);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  std::abort();
}

} // namespace weft
