// The copy map (NEMESYS 4.5): source object -> its copy. Linear search (keys
// in the first half of the buffer, values at the same offset in the second;
// no set-up, O(o) per lookup) or an H3 hash with linear probing over
// 2^(ceil(log2 o)+1) slots (zeroing them is the set-up). The hash keeps a
// slot's key and value side by side rather than in two halves: in software
// a probe then costs one cache miss, not two.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::places {

// H3 (Carter and Wegman): h(x) = XOR of the matrix columns M_i for the set
// bits x_i of x. Evaluated a byte at a time from 8 tables of 256 column
// combinations; a table of 2^k slots uses the low k bits. The matrix is
// fixed (see copy_map.cpp for its structure).
class h3_hash {
public:
  h3_hash();
  std::uint64_t operator()(std::uint64_t x) const {
    std::uint64_t h = 0;
    for (int b = 0; b < 8; ++b)
      h ^= t_[b][(x >> (8 * b)) & 0xff];
    return h;
  }

private:
  std::uint64_t t_[8][256];
};
const h3_hash &h3();

// A per-thread buffer the maps reuse across calls (huge pages when large).
class scratch {
public:
  ~scratch();
  // At least n words, contents unspecified.
  std::uintptr_t *words(std::size_t n) { return n <= n_ ? p_ : grow(n); }

private:
  std::uintptr_t *grow(std::size_t n);
  std::uintptr_t *p_ = nullptr;
  std::size_t n_ = 0, bytes_ = 0;
};
scratch &map_buffer();

class linear_map {
public:
  explicit linear_map(std::size_t objects) {
    keys_ = map_buffer().words(2 * objects);
    vals_ = keys_ + objects;
  }
  // The copy of key, or 0. Newest entries first.
  std::uintptr_t find(std::uintptr_t key) const {
    for (std::size_t i = n_; i-- > 0;)
      if (keys_[i] == key)
        return vals_[i];
    return 0;
  }
  void insert(std::uintptr_t key, std::uintptr_t val) {
    keys_[n_] = key;
    vals_[n_] = val;
    ++n_;
  }

private:
  std::uintptr_t *keys_, *vals_;
  std::size_t n_ = 0;
};

class hash_map {
public:
  explicit hash_map(std::size_t objects) : h_(h3()) {
    std::size_t o = objects < 1 ? 1 : objects;
    slots_ = std::size_t(1) << (std::bit_width(o - 1) + 1);
    mask_ = slots_ - 1;
    t_ = map_buffer().words(2 * slots_);
    std::fill(t_, t_ + 2 * slots_, 0);
  }
  std::size_t slots() const { return slots_; }
  std::uintptr_t find(std::uintptr_t key) const {
    for (std::size_t s = h_(key) & mask_;; s = (s + 1) & mask_) {
      if (t_[2 * s] == key)
        return t_[2 * s + 1];
      if (t_[2 * s] == 0)
        return 0;
    }
  }
  void insert(std::uintptr_t key, std::uintptr_t val) {
    std::size_t s = h_(key) & mask_;
    while (t_[2 * s] != 0)
      s = (s + 1) & mask_;
    t_[2 * s] = key;
    t_[2 * s + 1] = val;
  }

private:
  const h3_hash &h_;
  std::uintptr_t *t_; // key, value per slot
  std::size_t slots_, mask_;
};

// Visited marks for a measure pass that found no free mark bit (more than 64
// concurrent passes): a growing H3 set over the source addresses.
class visited_set {
public:
  visited_set();
  // Whether key was absent (and is now present).
  bool insert(std::uintptr_t key) {
    if (2 * (n_ + 1) > slots_)
      grow();
    for (std::size_t s = h_(key) & (slots_ - 1);; s = (s + 1) & (slots_ - 1)) {
      if (keys_[s] == key)
        return false;
      if (keys_[s] == 0) {
        keys_[s] = key;
        ++n_;
        return true;
      }
    }
  }
  std::size_t size() const { return n_; }

private:
  void grow();
  const h3_hash &h_;
  std::vector<std::uintptr_t> buf_;
  std::uintptr_t *keys_;
  std::size_t slots_, n_ = 0;
};

} // namespace weft::places
