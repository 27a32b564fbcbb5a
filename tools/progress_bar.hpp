// A progress bar on stderr for the long-running subcommands: drawn only
// when stderr is a terminal and the work has taken a second, so that runs
// under scripts and tests stay quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace weft::cli {

class progress_bar {
public:
  // who: the subcommand ("weft sim"); total: units of work (0: no bar).
  progress_bar(std::string who, uint64_t total);
  ~progress_bar() { finish(); }
  progress_bar(const progress_bar &) = delete;
  progress_bar &operator=(const progress_bar &) = delete;
  // Redraws when the percentage or `what` changed.
  void update(uint64_t done, const std::string &what);
  // Clears the bar; later updates draw nothing.
  void finish();

private:
  std::string who_;
  uint64_t total_;
  bool tty_, shown_ = false;
  int percent_ = -1;
  std::string what_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace weft::cli
