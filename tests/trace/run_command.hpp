// Runs a shell command line for the command-line tests: its exit status and
// its stdout + stderr.
#pragma once

#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace weft::trace_test {

struct command_result {
  int status; // the exit status, -1 if the command could not run or died
  std::string output;
};

inline command_result run_command(const std::string &cmd) {
  std::string out;
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p)
    return {-1, "popen failed"};
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

} // namespace weft::trace_test
