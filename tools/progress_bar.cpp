#include "progress_bar.hpp"

#include <cstdio>
#include <unistd.h>
#include <utility>

namespace weft::cli {

progress_bar::progress_bar(std::string who, uint64_t total)
    : who_(std::move(who)), total_(total), tty_(isatty(2) != 0),
      start_(std::chrono::steady_clock::now()) {}

void progress_bar::finish() {
  if (shown_)
    std::fprintf(stderr, "\r%78s\r", "");
  shown_ = false;
  tty_ = false;
}

void progress_bar::update(uint64_t done, const std::string &what) {
  if (!tty_ || total_ == 0)
    return;
  auto now = std::chrono::steady_clock::now();
  if (!shown_ && now - start_ < std::chrono::seconds(1))
    return;
  if (done > total_)
    done = total_;
  int percent = static_cast<int>(100 * done / total_);
  if (shown_ && percent == percent_ && what == what_)
    return;
  shown_ = true;
  percent_ = percent;
  what_ = what;
  constexpr int kWidth = 30;
  int filled = static_cast<int>(kWidth * done / total_);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r%s: [%s] %3d%% %-22s", who_.c_str(), bar.c_str(),
               percent, what.c_str());
  std::fflush(stderr);
}

} // namespace weft::cli
