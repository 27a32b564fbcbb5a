// FNV-1a, the places layer's one hash of bytes for what ranks compare
// (remote handler ids, the type table's and the builds' digests): the same
// value on every rank of one build, nothing more is asked of it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::detail {

inline constexpr std::uint64_t kFnv1aStart = 1469598103934665603ull;

// Folds the n bytes at p into h.
inline void fnv1a_mix(std::uint64_t &h, const void *p, std::size_t n) {
  const auto *b = static_cast<const unsigned char *>(p);
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ b[i]) * 1099511628211ull;
}

} // namespace weft::detail
