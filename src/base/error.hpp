// Error reporting: a per-thread message naming the call and the value, and
// the exception behind the last WEFT_ETASK.
#pragma once

#include <exception>

namespace weft {

// Formats the message (printf-style), stores it for weft_last_error() and
// returns code.
int set_error(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *last_error();

void set_pending_exception(std::exception_ptr e);
std::exception_ptr take_pending_exception();

// For conditions that cannot be reported to a caller: print and abort.
[[noreturn]] void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

} // namespace weft
