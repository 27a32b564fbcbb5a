#include "base/env.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

extern char **environ;

namespace weft::env {

const char *raw(const char *name) { return std::getenv(name); }

const char *get(const char *name) {
  const char *s = raw(name);
  return s && *s ? s : nullptr;
}

bool parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t &out) {
  int base = 10;
  const char *p = s;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
  }
  auto digit = [base](char c) {
    return (c >= '0' && c <= '9') ||
           (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
  };
  if (!digit(*p))
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(p, &end, base);
  if (errno || *end || v < lo || v > hi)
    return false;
  out = v;
  return true;
}

bool parse_number(const char *s, double lo, double hi, bool lo_open,
                  double &out) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  if (end == s || *end || errno || !std::isfinite(v))
    return false;
  if (lo_open ? !(v > lo) : !(v >= lo))
    return false;
  if (v > hi)
    return false;
  out = v;
  return true;
}

bool parse_flag(const char *s, bool &out) {
  static const char *const yes[] = {"1", "true", "yes", "on"};
  static const char *const no[] = {"0", "false", "no", "off"};
  for (const char *y : yes)
    if (strcasecmp(s, y) == 0)
      return out = true, true;
  for (const char *n : no)
    if (strcasecmp(s, n) == 0)
      return out = false, true;
  return false;
}

std::vector<std::string_view> split_list(std::string_view s) {
  std::vector<std::string_view> items;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ',' || s[i] == ' '))
      ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ',' && s[j] != ' ')
      ++j;
    if (j > i)
      items.push_back(s.substr(i, j - i));
    i = j;
  }
  return items;
}

void reader::fail(std::string message) {
  if (error_.empty())
    error_ = std::move(message);
}

bool reader::read_uint(const char *name, uint64_t lo, uint64_t hi,
                       uint64_t &out, const char *what) {
  const char *s = lookup_(name);
  if (!s)
    return false;
  if (parse_uint(s, lo, hi, out))
    return true;
  char msg[512];
  std::snprintf(msg, sizeof msg, "%s=%s: not %s in [%llu, %llu]%s", name, s,
                what, static_cast<unsigned long long>(lo),
                static_cast<unsigned long long>(hi), suffix_);
  fail(msg);
  return false;
}

bool reader::number(const char *name, double lo, double hi, bool lo_open,
                    double &out, const char *what) {
  const char *s = lookup_(name);
  if (!s)
    return false;
  if (parse_number(s, lo, hi, lo_open, out))
    return true;
  char msg[512];
  std::snprintf(msg, sizeof msg, "%s=%s: not %s in %c%g, %g]%s", name, s, what,
                lo_open ? '(' : '[', lo, hi, suffix_);
  fail(msg);
  return false;
}

bool reader::flag(const char *name, bool &out) {
  const char *s = lookup_(name);
  if (!s)
    return false;
  if (parse_flag(s, out))
    return true;
  fail(std::string(name) + "=" + s +
       ": not a flag (1/0, true/false, yes/no or on/off)" + suffix_);
  return false;
}

bool reader::choice(const char *name, const char *const *choices, int nchoices,
                    int &out) {
  const char *s = lookup_(name);
  if (!s)
    return false;
  std::string known;
  for (int i = 0; i < nchoices; ++i) {
    if (std::strcmp(s, choices[i]) == 0) {
      out = i;
      return true;
    }
    known += i == 0 ? "" : i + 1 == nchoices ? " or " : ", ";
    known += choices[i];
  }
  fail(std::string(name) + "=" + s + ": expected " + known + suffix_);
  return false;
}

bool reader::list(const char *name, std::vector<std::string> &out) {
  const char *s = lookup_(name);
  if (!s)
    return false;
  out.clear();
  for (std::string_view item : split_list(s))
    out.emplace_back(item);
  return true;
}

std::vector<const char *> with_prefix(const char *prefix) {
  std::vector<const char *> out;
  const std::size_t n = std::strlen(prefix);
  for (char **e = environ; e && *e; ++e)
    if (std::strncmp(*e, prefix, n) == 0)
      out.push_back(*e);
  return out;
}

std::string unknown_in_family(const char *prefix, const char *const *known,
                              int nknown, const char *owner) {
  const std::size_t plen = std::strlen(prefix);
  for (const char *e : with_prefix(prefix)) {
    const char *name = e + plen;
    const char *eq = std::strchr(name, '=');
    std::size_t len =
        eq ? static_cast<std::size_t>(eq - name) : std::strlen(name);
    bool ok = false;
    for (int i = 0; i < nknown; ++i)
      ok |= std::strlen(known[i]) == len &&
            std::strncmp(known[i], name, len) == 0;
    if (ok)
      continue;
    std::string msg =
        std::string(e) + ": unknown variable (" + owner + " reads " + prefix;
    for (int i = 0; i < nknown; ++i) {
      msg += i == 0 ? "" : i + 1 == nknown ? " and _" : ", _";
      msg += known[i];
    }
    return msg + ")";
  }
  return "";
}

bool list_has(const char *name, std::string_view what) {
  const char *s = get(name);
  if (!s)
    return false;
  for (std::string_view item : split_list(s))
    if (item == what)
      return true;
  return false;
}

} // namespace weft::env
