#include "copy_map.hpp"

#include <algorithm>
#include <random>

namespace weft::places {

h3_hash::h3_hash() {
  // A fixed matrix (the hardware's is fixed too): 64 random columns.
  std::mt19937_64 rng(0x4e454d4553595321ull);
  std::uint64_t col[64];
  for (auto &c : col)
    c = rng();
  for (int b = 0; b < 8; ++b)
    for (int v = 0; v < 256; ++v) {
      std::uint64_t h = 0;
      for (int bit = 0; bit < 8; ++bit)
        if (v >> bit & 1)
          h ^= col[8 * b + bit];
      t_[b][v] = h;
    }
}

const h3_hash &h3() {
  static const h3_hash h;
  return h;
}

std::vector<std::uintptr_t> &map_buffer() {
  thread_local std::vector<std::uintptr_t> buf;
  return buf;
}

namespace {
std::vector<std::uintptr_t> &visited_buffer() {
  thread_local std::vector<std::uintptr_t> buf;
  return buf;
}
constexpr std::size_t kVisitedStart = 64;
} // namespace

visited_set::visited_set()
    : buf_(visited_buffer()), h_(h3()), slots_(kVisitedStart) {
  if (buf_.size() < slots_)
    buf_.resize(slots_);
  keys_ = buf_.data();
  std::fill(keys_, keys_ + slots_, 0);
}

void visited_set::grow() {
  std::vector<std::uintptr_t> old(keys_, keys_ + slots_);
  slots_ *= 2;
  if (buf_.size() < slots_)
    buf_.resize(slots_);
  keys_ = buf_.data();
  std::fill(keys_, keys_ + slots_, 0);
  for (std::uintptr_t k : old) {
    if (!k)
      continue;
    std::size_t s = h_(k) & (slots_ - 1);
    while (keys_[s])
      s = (s + 1) & (slots_ - 1);
    keys_[s] = k;
  }
}

} // namespace weft::places
