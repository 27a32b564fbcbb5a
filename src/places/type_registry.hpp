// Registered object types: the pointer mask (2 bits a word, NEMESYS 4.3) and
// the segments the copy walks (runs of data or transient words, pointers,
// array descriptors).
#pragma once

#include <weft/places.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace weft::places {

// Header tags: the first header word of an object is kObjectTag | type id, of
// an array store kStoreTag | size in bytes.
inline constexpr std::uint64_t kTagMask = 0xffffull << 48;
inline constexpr std::uint64_t kObjectTag = 0x5746ull << 48; // "WF"
inline constexpr std::uint64_t kStoreTag = 0x5753ull << 48;  // "WS"
inline constexpr std::uint64_t kMaxStoreBytes = (1ull << 48) - 1;

struct object_header {
  std::uint64_t tag;
  // The transition structure (Algorithm 1), zero outside a copy.
  std::uint64_t parent_src;
  std::uint64_t parent_dst;
  std::uint64_t offset; // the segment being copied when we advanced
  std::uint64_t index;  // the array element being copied
};
static_assert(sizeof(object_header) == detail::kObjectHeaderBytes);

struct segment {
  detail::word_kind kind;
  detail::word_kind elem;  // arrays: kWordData or kWordPointer
  std::uint32_t word;      // first word
  std::uint32_t words;     // data/transient runs: how many
  std::uint32_t elem_size; // arrays: bytes per element
};

struct type_record {
  std::string name;
  std::uint32_t id = 0;
  std::size_t size = 0;           // payload bytes (a multiple of 8)
  std::size_t words = 0;          // payload words
  std::vector<std::uint8_t> mask; // 2 bits per word, word 0 in bits 0-1
  std::vector<segment> segments;
  // No pointer word and no array of pointers: the graph of such an object
  // is the object and its data array stores (a primitive array's wrapper),
  // copied without visited marks, copy map or transition state.
  bool leaf = false;
};

// The record of id, or nullptr (ids are never reused).
const type_record *find_type(std::uint64_t id);
// The records by id (a fixed-capacity table; entries never change once set).
extern const type_record *const *const g_type_table;
// The record of an id known to be registered (checked by the measure pass).
inline const type_record &type_at(std::uint32_t id) {
  return *g_type_table[id];
}

inline std::uint8_t mask_kind(const type_record &t, std::size_t word) {
  return (t.mask[word / 4] >> (2 * (word % 4))) & 3;
}

inline object_header *header_of(const void *payload) {
  return reinterpret_cast<object_header *>(
      const_cast<char *>(static_cast<const char *>(payload)) -
      sizeof(object_header));
}
inline std::size_t round8(std::size_t n) { return (n + 7) & ~std::size_t(7); }
inline std::size_t object_bytes(const type_record &t) {
  return sizeof(object_header) + t.size;
}
inline std::size_t store_bytes(std::uint64_t bytes) {
  return detail::kStoreHeaderBytes + round8(bytes);
}

} // namespace weft::places
