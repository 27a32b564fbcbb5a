// The one reader of weft's environment. Every variable weft (and its OpenMP
// front end) reads goes through env::get, and every number, flag and list
// through the parsers below, so that a value is read the same way wherever it
// is used and a bad one is reported with the variable's name and its text.
//
// The parsers are exact: an integer is decimal digits or 0x and hex digits,
// with no sign, no spaces and nothing after it; a number is what strtod reads,
// finite, with nothing after it; a flag is 1/0, true/false, yes/no or on/off
// (any case); a list is items separated by commas or spaces.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace weft::env {

// The value of name in the process environment; nullptr when unset or empty.
const char *get(const char *name);
// As get, but an empty value is returned as such (the OpenMP variables, read
// as libgomp reads them).
const char *raw(const char *name);

// A lookup of variables by name (get, or a table in a test).
using lookup_fn = const char *(*)(const char *name);

bool parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t &out);
// A number in (lo, hi] when lo_open, else [lo, hi].
bool parse_number(const char *s, double lo, double hi, bool lo_open,
                  double &out);
bool parse_flag(const char *s, bool &out);
std::vector<std::string_view> split_list(std::string_view s);

// Reads variables through a lookup. Each read leaves its output alone when
// the variable is unset, stores the value when it parses and is in range,
// and otherwise records an error (the first one is kept) and returns false:
//   "NAME=VALUE: not <what> in [lo, hi]<suffix>".
// The caller decides what an error means (an error code, or fatal).
class reader {
public:
  // suffix follows every error message (e.g. " (nexus engine)").
  explicit reader(lookup_fn lookup = get, const char *suffix = "")
      : lookup_(lookup), suffix_(suffix) {}

  const char *text(const char *name) const { return lookup_(name); }

  template <class T>
  bool integer(const char *name, uint64_t lo, uint64_t hi, T &out,
               const char *what = "an integer") {
    uint64_t v;
    if (!read_uint(name, lo, hi, v, what))
      return false;
    out = static_cast<T>(v);
    return true;
  }
  bool number(const char *name, double lo, double hi, bool lo_open, double &out,
              const char *what = "a number");
  bool flag(const char *name, bool &out);
  // One of the names in choices (a list of nchoices); out is its index.
  bool choice(const char *name, const char *const *choices, int nchoices,
              int &out);
  bool list(const char *name, std::vector<std::string> &out);

  bool ok() const { return error_.empty(); }
  const std::string &error() const { return error_; }
  // Records an error of the caller's own (when error() is still empty).
  void fail(std::string message);

private:
  bool read_uint(const char *name, uint64_t lo, uint64_t hi, uint64_t &out,
                 const char *what);

  lookup_fn lookup_;
  const char *suffix_;
  std::string error_;
};

// Every "NAME=VALUE" entry of the process environment whose name starts with
// prefix (to report misspelt variables of a family).
std::vector<const char *> with_prefix(const char *prefix);

// A misspelt variable of a family (e.g. WEFT_PICOS_TASKS): "" when every
// variable of the process environment named prefix* is prefix followed by
// one of the nknown names, else "NAME=VALUE: unknown variable (<owner>
// reads <prefix><known[0]>, _<known[1]>, ... and _<known[n-1]>)".
std::string unknown_in_family(const char *prefix, const char *const *known,
                              int nknown, const char *owner);

// Whether the list in variable name (through get) has the item what.
bool list_has(const char *name, std::string_view what);

} // namespace weft::env
