#include "type_registry.hpp"

#include "dist_seam.hpp"
#include "fnv1a.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace weft::places {

namespace {
// Records are never removed; readers index a fixed-capacity table (no lock
// on the copy path), writers append under the lock.
constexpr std::size_t kMaxTypes = 1 << 16;
std::mutex g_lock;
std::unique_ptr<const type_record *[]> g_types {
  new const type_record *[kMaxTypes]()
};
std::atomic<std::size_t> g_count{0};
} // namespace

const type_record *const *const g_type_table = g_types.get();

namespace {

const char *kind_name(unsigned k) {
  static const char *names[] = {"00 (data)", "01 (pointer)", "10 (transient)",
                                "11 (array)"};
  return names[k & 3];
}

[[noreturn]] void bad(const char *call, const char *name, const char *fmt,
                      std::size_t a, std::size_t b = 0, std::size_t c = 0,
                      std::size_t d = 0) {
  char what[256];
  std::snprintf(what, sizeof what, fmt, a, b, c, d);
  throw std::invalid_argument(std::string(call) + "(\"" + name +
                              "\"): " + what);
}
} // namespace

const type_record *find_type(std::uint64_t id) {
  if (id >= g_count.load(std::memory_order_acquire))
    return nullptr;
  return g_types[id];
}

} // namespace weft::places

namespace weft::detail {

using places::segment;
using places::type_record;

std::uint32_t register_type(const char *call, const char *name,
                            std::size_t size,
                            const std::vector<std::uint8_t> &kinds,
                            const std::vector<std::size_t> &elem_sizes) {
  if (!name || !*name)
    throw std::invalid_argument(std::string(call) + ": empty type name");
  std::size_t words = places::round8(size) / 8;
  if (size == 0)
    places::bad(call, name, "size is 0 bytes", 0);
  if (kinds.size() != words)
    places::bad(call, name, "mask has %zu words, the object %zu", kinds.size(),
                words);
  if (elem_sizes.size() != words)
    places::bad(call, name, "element sizes have %zu words, the object %zu",
                elem_sizes.size(), words);
  auto rec = std::make_unique<type_record>();
  rec->name = name;
  rec->size = words * 8;
  rec->words = words;
  rec->mask.assign((words + 3) / 4, 0);
  for (std::size_t w = 0; w < words; ++w) {
    if (kinds[w] > 3)
      places::bad(call, name, "word %zu has kind %zu (a kind is 2 bits)", w,
                  kinds[w]);
    rec->mask[w / 4] |= std::uint8_t(kinds[w] << (2 * (w % 4)));
  }
  for (std::size_t w = 0; w < words;) {
    unsigned k = kinds[w];
    if (k == kWordArray) {
      // 11 then the element kind twice: 00 00 (data) or 01 01 (pointers).
      if (w + 2 >= words)
        places::bad(call, name,
                    "array descriptor at word %zu needs words %zu-%zu, the "
                    "object has %zu",
                    w, w + 1, w + 2, words);
      unsigned e1 = kinds[w + 1], e2 = kinds[w + 2];
      if (e1 != e2 || (e1 != kWordData && e1 != kWordPointer))
        throw std::invalid_argument(
            std::string(call) + "(\"" + name +
            "\"): array descriptor at word " + std::to_string(w) +
            " is followed by " + places::kind_name(e1) + " " +
            places::kind_name(e2) +
            "; it must be 00 00 (data) or 01 01 (pointers)");
      std::size_t es = elem_sizes[w];
      if (e1 == kWordPointer && es != 8)
        places::bad(call, name,
                    "array of pointers at word %zu has %zu-byte elements", w,
                    es);
      if (es == 0 || es > (1u << 30))
        places::bad(call, name, "array at word %zu has %zu-byte elements", w,
                    es);
      rec->segments.push_back(
          {kWordArray, word_kind(e1), std::uint32_t(w), 3, std::uint32_t(es)});
      w += 3;
      continue;
    }
    if (k == kWordPointer) {
      rec->segments.push_back(
          {kWordPointer, kWordData, std::uint32_t(w), 1, 0});
      ++w;
      continue;
    }
    std::size_t e = w;
    while (e < words && kinds[e] == k)
      ++e;
    rec->segments.push_back(
        {word_kind(k), kWordData, std::uint32_t(w), std::uint32_t(e - w), 0});
    w = e;
  }
  rec->leaf = std::none_of(
      rec->segments.begin(), rec->segments.end(), [](const segment &s) {
        return s.kind == kWordPointer ||
               (s.kind == kWordArray && s.elem == kWordPointer);
      });
  std::lock_guard<std::mutex> lk(places::g_lock);
  std::size_t id = places::g_count.load(std::memory_order_relaxed);
  if (id >= places::kMaxTypes)
    places::bad(call, name, "more than %zu types registered",
                places::kMaxTypes);
  rec->id = std::uint32_t(id);
  places::g_types[id] = rec.release();
  places::g_count.store(id + 1, std::memory_order_release);
  return std::uint32_t(id);
}

std::vector<member_desc> type_layout(std::uint32_t id) {
  const places::type_record *t = places::find_type(id);
  if (!t)
    throw std::invalid_argument("weft::detail::type_layout: type id " +
                                std::to_string(id) + " is not registered");
  std::vector<member_desc> out;
  out.reserve(t->segments.size());
  for (const places::segment &s : t->segments)
    out.push_back({std::size_t(s.word) * 8, std::size_t(s.words) * 8, s.kind,
                   s.elem, s.elem_size});
  return out;
}

std::uint32_t register_members(const char *name, std::size_t size,
                               const member_desc *m, std::size_t n) {
  const char *call = "WEFT_TYPE";
  std::size_t words = places::round8(size) / 8;
  std::vector<std::uint8_t> kinds(words, kWordData);
  std::vector<std::size_t> elem(words, 0);
  std::vector<bool> listed(words, false);
  for (std::size_t i = 0; i < n; ++i) {
    const member_desc &d = m[i];
    if (d.offset % 8)
      places::bad(call, name,
                  "member %zu at byte offset %zu is not word aligned", i,
                  d.offset);
    std::size_t w0 = d.offset / 8, nw = places::round8(d.size) / 8;
    for (std::size_t w = w0; w < w0 + nw; ++w) {
      if (listed[w])
        places::bad(call, name, "word %zu is listed twice", w);
      listed[w] = true;
    }
    switch (d.kind) {
    case kWordPointer:
      kinds[w0] = kWordPointer;
      break;
    case kWordArray:
      kinds[w0] = kWordArray;
      kinds[w0 + 1] = kinds[w0 + 2] = d.elem;
      elem[w0] = d.elem_size;
      break;
    case kWordTransient:
      for (std::size_t w = w0; w < w0 + nw; ++w)
        kinds[w] = kWordTransient;
      break;
    default:
      places::bad(call, name,
                  "member %zu is data: list only pointer, array "
                  "and transient members",
                  i);
    }
  }
  return register_type(call, name, size, kinds, elem);
}

} // namespace weft::detail

namespace weft::detail {

std::uint64_t type_table_digest() {
  std::uint64_t h = kFnv1aStart;
  auto mix = [&h](const void *p, std::size_t n) { fnv1a_mix(h, p, n); };
  std::size_t n = places::g_count.load(std::memory_order_acquire);
  for (std::size_t id = 0; id < n; ++id) {
    const places::type_record *t = places::g_types[id];
    if (!t)
      continue;
    mix(t->name.data(), t->name.size());
    mix(&t->size, sizeof t->size);
    mix(t->mask.data(), t->mask.size());
  }
  return h;
}

} // namespace weft::detail
