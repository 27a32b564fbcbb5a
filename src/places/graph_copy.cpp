// The measure pass and the graph copy by pointer reversal (NEMESYS 4.4.2,
// 4.4.3, Algorithm 1 of 4.6), direct or through an intermediate buffer whose
// pointers are pre-adjusted to the final destination (4.2).
#include "arena.hpp"
#include "base/check.hpp"
#include "copy_map.hpp"
#include "dist_seam.hpp"
#include "place_set.hpp"
#include "type_registry.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace weft::places {

namespace {

std::string hex(const void *p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}

// Where a pointer was found, for error messages.
struct referrer {
  const void *object = nullptr; // nullptr: the root
  const type_record *type = nullptr;
  std::size_t word = 0;
  std::int64_t element = -1;
};

std::string where(const char *call, const referrer &r) {
  if (!r.object)
    return std::string(call) + ": root ";
  std::string s =
      std::string(call) + ": pointer at word " + std::to_string(r.word);
  if (r.element >= 0)
    s += " element " + std::to_string(r.element);
  return s + " of object " + hex(r.object) + " (" + r.type->name + ") ";
}

// Validates an object pointer: inside an arena, at the start of a block
// that is an object of a registered type, the whole object inside the arena.
const type_record &check_object(const char *call, const void *p,
                                const referrer &r, arena *&last) {
  if (reinterpret_cast<std::uintptr_t>(p) % 8)
    throw std::invalid_argument(where(call, r) + hex(p) +
                                " is not word aligned");
  arena *a = last && last->contains(p) ? last : (last = arena_holding(p));
  if (!a)
    throw std::invalid_argument(where(call, r) + hex(p) +
                                " is outside every place's arena");
  const char *hdr = static_cast<const char *>(p) - sizeof(object_header);
  if (!a->contains(hdr) || !a->is_start(hdr))
    throw std::invalid_argument(where(call, r) + hex(p) +
                                " does not point at the start of an object "
                                "(into the middle of one, or freed memory)");
  std::uint64_t tag = reinterpret_cast<const object_header *>(hdr)->tag;
  if ((tag & kTagMask) != kObjectTag)
    throw std::invalid_argument(where(call, r) + hex(p) + " is " +
                                ((tag & kTagMask) == kStoreTag
                                     ? "an array store, not an object"
                                     : "not an object (corrupt header)"));
  const type_record *t = find_type(tag & ~kTagMask);
  if (!t) {
    char b[32];
    std::snprintf(b, sizeof b, "%" PRIu64, tag & ~kTagMask);
    throw std::invalid_argument(where(call, r) + hex(p) + " has type id " + b +
                                ", which is not registered");
  }
  if (!a->contains(static_cast<const char *>(p) + t->size - 1))
    throw std::invalid_argument(where(call, r) + hex(p) + " (" + t->name +
                                ") extends past its arena");
  return *t;
}

void check_store(const char *call, const void *obj, const type_record &t,
                 const segment &s, const std::uint64_t *desc) {
  referrer r{obj, &t, s.word, -1};
  const void *data = reinterpret_cast<const void *>(desc[0]);
  std::uint64_t len = desc[1], bytes = desc[2];
  if (!data) {
    if (len || bytes)
      throw std::invalid_argument(
          where(call, r) + "array has no store but length " +
          std::to_string(len) + ", " + std::to_string(bytes) + " bytes");
    return;
  }
  if (len > kMaxStoreBytes / s.elem_size || len * s.elem_size != bytes)
    throw std::invalid_argument(where(call, r) + "array length " +
                                std::to_string(len) + " with " +
                                std::to_string(s.elem_size) +
                                "-byte elements does not match its size of " +
                                std::to_string(bytes) + " bytes");
  arena *a = arena_holding(data);
  if (!a)
    throw std::invalid_argument(where(call, r) + "array store " + hex(data) +
                                " is outside every place's arena");
  const char *hdr = static_cast<const char *>(data) - 8;
  std::uint64_t tag;
  if (!a->contains(hdr) || !a->is_start(hdr) ||
      (std::memcpy(&tag, hdr, 8), (tag & kTagMask) != kStoreTag))
    throw std::invalid_argument(where(call, r) + "array store " + hex(data) +
                                " does not point at the start of a store");
  if ((tag & ~kTagMask) < bytes)
    throw std::invalid_argument(where(call, r) + "array of " +
                                std::to_string(bytes) + " bytes at " +
                                hex(data) + " is larger than its store (" +
                                std::to_string(tag & ~kTagMask) + " bytes)");
}

} // namespace

namespace {

// Visited marks of the measure pass: each running pass owns one bit of the
// source headers' `index` transition word (unused in a source: the copy keeps
// its state in the destination's). The pass clears its bits before it
// returns, so concurrent copies of a shared graph never see each other's.
std::atomic<std::uint64_t> g_mark_bits{0};

int take_mark_bit() {
  std::uint64_t used = g_mark_bits.load(std::memory_order_relaxed);
  while (~used) {
    int b = std::countr_one(used);
    if (g_mark_bits.compare_exchange_weak(used, used | (1ull << b),
                                          std::memory_order_acquire))
      return b;
  }
  return -1;
}

class marks {
public:
  marks() : bit_(take_mark_bit()), marked_(marked_list()) {
    if (bit_ < 0)
      fallback_.emplace();
    else
      marked_.clear();
  }
  ~marks() {
    if (bit_ < 0)
      return;
    for (const void *o : marked_)
      word(o).fetch_and(~(1ull << bit_), std::memory_order_relaxed);
    g_mark_bits.fetch_and(~(1ull << bit_), std::memory_order_release);
  }
  // Whether o (a validated object) was not yet visited; marks it.
  bool visit(const void *o) {
    if (bit_ < 0)
      return fallback_->insert(reinterpret_cast<std::uintptr_t>(o));
    std::uint64_t m = 1ull << bit_;
    if (word(o).fetch_or(m, std::memory_order_relaxed) & m)
      return false;
    marked_.push_back(o);
    return true;
  }

private:
  static std::atomic_ref<std::uint64_t> word(const void *o) {
    return std::atomic_ref<std::uint64_t>(header_of(o)->index);
  }
  static std::vector<const void *> &marked_list() {
    thread_local std::vector<const void *> list;
    return list;
  }
  int bit_;
  std::vector<const void *> &marked_;
  std::optional<visited_set> fallback_;
};

} // namespace

// memcpy for the copy's bulk moves. glibc copies 4 KiB - 4 MiB with rep
// movsb, which runs over 10x slower on this machine when the destination is
// less than 64 bytes past the source modulo 4 KiB (measured); such copies go
// in pieces of 2 KiB, which take glibc's vector loop instead.
void bulk_copy(void *dst, const void *src, std::size_t n) {
  constexpr std::size_t kPiece = 2048, kLarge = std::size_t(4) << 20;
  auto dist = (reinterpret_cast<std::uintptr_t>(dst) -
               reinterpret_cast<std::uintptr_t>(src)) &
              4095;
  if (n <= kPiece || n >= kLarge || dist == 0 || dist >= 64) {
    std::memcpy(dst, src, n);
    return;
  }
  auto *d = static_cast<char *>(dst);
  const auto *s = static_cast<const char *>(src);
  for (std::size_t o = 0; o < n; o += kPiece)
    std::memcpy(d + o, s + o, std::min(kPiece, n - o));
}

namespace {

// rep movsb (glibc's memcpy from 4 KiB) ran 8-10% slower here between
// buffers whose addresses differ modulo 64 (32 KiB: 610-620 ns against
// 566, whatever the destination's own alignment). A leaf graph's data
// store of kAlignStoreBytes or more is therefore placed so that its data
// lie at its source's address modulo 64, relative to the buffer's start
// (extents, intermediate buffers and ring positions are 64-byte aligned):
// the bytes before it (a multiple of 8) are a filler block, an empty store
// header whose size covers them, so that the buffer's blocks still lie
// back to back for mark_blocks and clear_blocks.
constexpr std::size_t kAlignStoreBytes = 4096;

std::size_t store_pad(std::size_t at, std::uint64_t src, std::uint64_t bytes) {
  if (bytes < kAlignStoreBytes)
    return 0;
  return std::size_t(src - (at + detail::kStoreHeaderBytes)) & 63;
}

// The source graph changed between the measure pass and the copy;
// `how_far`: what the copy found.
[[noreturn]] void graph_changed(const char *call, const std::string &how_far) {
  throw std::runtime_error(std::string(call) +
                           ": the graph changed between the measure pass "
                           "and the copy (" +
                           how_far + ")");
}

// Starts an object with this header tag at `at`: its header with the
// transition words zeroed (a block start in mark, if any). Returns the
// object's first word.
char *start_object(char *at, decltype(object_header::tag) tag, arena *mark) {
  auto *h = reinterpret_cast<object_header *>(at);
  *h = {tag, 0, 0, 0, 0};
  if (mark)
    mark->mark_start(at);
  return reinterpret_cast<char *>(h + 1);
}

// Starts a data store of `bytes` at `at`: its header (a block start in mark,
// if any) and its last word's padding zeroed. Returns where its data go.
char *start_store(char *at, std::uint64_t bytes, arena *mark) {
  std::uint64_t tag = kStoreTag | bytes;
  std::memcpy(at, &tag, 8);
  if (mark)
    mark->mark_start(at);
  char *data = at + detail::kStoreHeaderBytes;
  if (round8(bytes) != bytes)
    std::memset(data + round8(bytes) - 8, 0, 8);
  return data;
}

} // namespace

// The measure pass (NEMESYS 4.4.2): iterative, an explicit stack of
// outstanding objects and visited marks; validates every object, pointer and
// array on the way.
graph_size measure_graph(const char *call, const void *root) {
  graph_size g;
  if (!root)
    return g;
  arena *last = nullptr;
  const type_record &rt = check_object(call, root, referrer{}, last);
  if (rt.leaf) {
    // The root and its data stores: nothing to mark, nothing to stack.
    g.objects = 1;
    g.bytes = object_bytes(rt);
    const auto *w = static_cast<const std::uint64_t *>(root);
    for (const segment &s : rt.segments) {
      if (s.kind != detail::kWordArray)
        continue;
      check_store(call, root, rt, s, w + s.word);
      if (w[s.word])
        g.bytes += store_pad(g.bytes, w[s.word], w[s.word + 2]) +
                   store_bytes(w[s.word + 2]);
    }
    return g;
  }
  thread_local std::vector<const void *> tl_stack;
  std::vector<const void *> &stack = tl_stack;
  stack.clear();
  marks seen;
  seen.visit(root);
  stack.push_back(root);
  while (!stack.empty()) {
    const void *o = stack.back();
    stack.pop_back();
    const type_record &t = type_at(std::uint32_t(header_of(o)->tag));
    ++g.objects;
    g.bytes += object_bytes(t);
    const auto *w = static_cast<const std::uint64_t *>(o);
    for (const segment &s : t.segments) {
      if (s.kind == detail::kWordPointer) {
        const void *p = reinterpret_cast<const void *>(w[s.word]);
        if (!p)
          continue;
        check_object(call, p, referrer{o, &t, s.word, -1}, last);
        if (seen.visit(p))
          stack.push_back(p);
      } else if (s.kind == detail::kWordArray) {
        check_store(call, o, t, s, w + s.word);
        if (!w[s.word])
          continue;
        g.bytes += store_bytes(w[s.word + 2]);
        if (s.elem != detail::kWordPointer)
          continue;
        const auto *e = reinterpret_cast<const void *const *>(w[s.word]);
        for (std::uint64_t i = 0; i < w[s.word + 1]; ++i) {
          if (!e[i])
            continue;
          check_object(call, e[i], referrer{o, &t, s.word, std::int64_t(i)},
                       last);
          if (seen.visit(e[i]))
            stack.push_back(e[i]);
        }
      }
    }
  }
  return g;
}

namespace {

// Algorithm 1. Objects are created by bump allocation in [buf, buf + bytes);
// `delta` is added to every pointer written into the copy (0 for a direct
// copy; final - intermediate for the inter-memory variant). The state lives
// in the copies' transition words (in intermediate-buffer addresses);
// offset holds the segment index at which the parent advanced.
template <class Map>
void *copy_by_pointer_reversal(const char *call, const void *root,
                               const graph_size &g, char *buf,
                               std::intptr_t delta, arena *mark,
                               std::vector<detail::direct_store> *direct) {
  Map map(g.objects);
  char *bump = buf, *const end = buf + g.bytes;
  auto overflow = [&] {
    graph_changed(call, "more than " + std::to_string(g.bytes) + " bytes");
  };
  auto create = [&](const void *src) -> char * {
    const object_header *sh = header_of(src);
    const type_record &t = type_at(std::uint32_t(sh->tag));
    std::size_t n = object_bytes(t);
    if (std::size_t(end - bump) < n)
      overflow();
    char *obj = start_object(bump, sh->tag, mark);
    bump += n;
    return obj;
  };
  auto create_store = [&](std::uint64_t bytes) -> char * {
    std::size_t n = store_bytes(bytes);
    if (std::size_t(end - bump) < n)
      overflow();
    char *data = start_store(bump, bytes, mark);
    bump += n;
    return data;
  };
  auto out = [delta](const void *p) {
    return std::uint64_t(reinterpret_cast<std::intptr_t>(p) + delta);
  };

  const char *o = static_cast<const char *>(root);
  char *od = create(root);
  void *root_copy = od;
  map.insert(reinterpret_cast<std::uintptr_t>(o),
             reinterpret_cast<std::uintptr_t>(od));
  // The second half of Advance: p's copy becomes the current object,
  // linked back to the one whose resume point the caller has just saved.
  auto descend = [&](const void *p) {
    char *pd = create(p);
    map.insert(reinterpret_cast<std::uintptr_t>(p),
               reinterpret_cast<std::uintptr_t>(pd));
    header_of(pd)->parent_src = reinterpret_cast<std::uintptr_t>(o);
    header_of(pd)->parent_dst = reinterpret_cast<std::uintptr_t>(od);
    o = static_cast<const char *>(p);
    od = pd;
  };
  std::size_t seg = 0;
  std::uint64_t i = 0;
  for (;;) {
    // CopyWord over the segments of o, from seg (element i of an array).
    const type_record &t = type_at(std::uint32_t(header_of(od)->tag));
    const auto *src = reinterpret_cast<const std::uint64_t *>(o);
    auto *dst = reinterpret_cast<std::uint64_t *>(od);
    bool advanced = false;
    for (; seg < t.segments.size() && !advanced; ++seg, i = 0) {
      const segment &s = t.segments[seg];
      switch (s.kind) {
      case detail::kWordData:
        bulk_copy(dst + s.word, src + s.word, 8 * std::size_t(s.words));
        break;
      case detail::kWordTransient:
        std::memset(dst + s.word, 0, 8 * std::size_t(s.words));
        break;
      case detail::kWordPointer: {
        const void *p = reinterpret_cast<const void *>(src[s.word]);
        if (!p) {
          dst[s.word] = 0;
          break;
        }
        if (std::uintptr_t c = map.find(reinterpret_cast<std::uintptr_t>(p))) {
          dst[s.word] = out(reinterpret_cast<void *>(c));
          break;
        }
        // Advance(o, od, p, seg, -)
        header_of(od)->offset = seg;
        descend(p);
        advanced = true;
        break;
      }
      case detail::kWordArray: {
        const std::uint64_t *d = src + s.word;
        if (i == 0) {
          if (!d[0]) {
            dst[s.word] = dst[s.word + 1] = dst[s.word + 2] = 0;
            break;
          }
          char *store = create_store(d[2]);
          dst[s.word] = out(store);
          dst[s.word + 1] = d[1];
          dst[s.word + 2] = d[2];
          if (s.elem == detail::kWordData) {
            if (direct && d[2] >= detail::kDirectStoreBytes)
              direct->push_back({std::size_t(store - buf),
                                 reinterpret_cast<const void *>(d[0]),
                                 std::size_t(d[2])});
            else
              bulk_copy(store, reinterpret_cast<const void *>(d[0]), d[2]);
            break;
          }
        }
        if (s.elem == detail::kWordData)
          break;
        const auto *se = reinterpret_cast<const void *const *>(d[0]);
        auto *de = reinterpret_cast<std::uint64_t *>(
            std::intptr_t(dst[s.word]) - delta);
        for (; i < d[1]; ++i) {
          const void *p = se[i];
          if (!p) {
            de[i] = 0;
            continue;
          }
          if (std::uintptr_t c =
                  map.find(reinterpret_cast<std::uintptr_t>(p))) {
            de[i] = out(reinterpret_cast<void *>(c));
            continue;
          }
          // Advance(o, od, p, seg, i)
          header_of(od)->offset = seg;
          header_of(od)->index = i;
          descend(p);
          advanced = true;
          break;
        }
        break;
      }
      }
    }
    if (advanced) {
      seg = 0;
      i = 0;
      continue;
    }
    // Retreat(od): back to the parent, storing od where it advanced from.
    object_header *h = header_of(od);
    auto *parent_src = reinterpret_cast<const char *>(h->parent_src);
    auto *parent_dst = reinterpret_cast<char *>(h->parent_dst);
    h->parent_src = h->parent_dst = h->offset = h->index = 0;
    if (!parent_dst)
      break; // the root: the whole graph is copied
    object_header *ph = header_of(parent_dst);
    const type_record &pt = type_at(std::uint32_t(ph->tag));
    seg = ph->offset;
    const segment &s = pt.segments[seg];
    auto *pw = reinterpret_cast<std::uint64_t *>(parent_dst);
    if (s.kind == detail::kWordArray) {
      auto *de =
          reinterpret_cast<std::uint64_t *>(std::intptr_t(pw[s.word]) - delta);
      de[ph->index] = out(od);
      i = ph->index + 1;
    } else {
      pw[s.word] = out(od);
      ++seg;
      i = 0;
    }
    o = parent_src;
    od = parent_dst;
  }
  if (bump != end)
    graph_changed(call, std::to_string(bump - buf) + " of " +
                            std::to_string(g.bytes) + " bytes");
  return root_copy;
}

// The copy of a leaf root (type_record::leaf): the object, then its data
// stores in segment order, as copy_by_pointer_reversal lays them out (a
// large store after a filler block that aligns it, store_pad); no
// copy map and no transition state (nothing is shared, nothing to return
// to). A data store goes straight to its place with one bulk copy.
void *copy_leaf(const char *call, const type_record &t, const void *root,
                const graph_size &g, char *buf, std::intptr_t delta,
                arena *mark, std::vector<detail::direct_store> *direct) {
  char *bump = buf, *const end = buf + g.bytes;
  auto overflow = [&] {
    graph_changed(call, "more than " + std::to_string(g.bytes) + " bytes");
  };
  const std::size_t n = object_bytes(t);
  if (std::size_t(end - bump) < n)
    overflow();
  auto *dst = reinterpret_cast<std::uint64_t *>(
      start_object(bump, header_of(root)->tag, mark));
  bump += n;
  const auto *src = static_cast<const std::uint64_t *>(root);
  for (const segment &s : t.segments) {
    switch (s.kind) {
    case detail::kWordData:
      std::memcpy(dst + s.word, src + s.word, 8 * std::size_t(s.words));
      break;
    case detail::kWordTransient:
      std::memset(dst + s.word, 0, 8 * std::size_t(s.words));
      break;
    case detail::kWordArray: {
      const std::uint64_t *d = src + s.word;
      if (!d[0]) {
        dst[s.word] = dst[s.word + 1] = dst[s.word + 2] = 0;
        break;
      }
      const std::size_t bytes = d[2], sb = store_bytes(bytes);
      const std::size_t pad = store_pad(std::size_t(bump - buf), d[0], bytes);
      if (std::size_t(end - bump) < pad + sb)
        overflow();
      if (pad) { // the filler block (store_pad): an empty store
        start_store(bump, pad - detail::kStoreHeaderBytes, mark);
        bump += pad;
      }
      char *data = start_store(bump, bytes, mark);
      bump += sb;
      dst[s.word] =
          std::uint64_t(reinterpret_cast<std::intptr_t>(data) + delta);
      dst[s.word + 1] = d[1];
      dst[s.word + 2] = bytes;
      if (direct && bytes >= detail::kDirectStoreBytes)
        direct->push_back({std::size_t(data - buf),
                           reinterpret_cast<const void *>(d[0]), bytes});
      else
        bulk_copy(data, reinterpret_cast<const void *>(d[0]), bytes);
      break;
    }
    default: // a leaf has no pointer words (type_record::leaf)
      check_failed("t.leaf", __FILE__, __LINE__,
                   "%s: copy_leaf reached a pointer word of %s", call,
                   t.name.c_str());
    }
  }
  if (bump != end)
    graph_changed(call, std::to_string(bump - buf) + " of " +
                            std::to_string(g.bytes) + " bytes");
  return dst;
}

} // namespace

void *copy_into(const char *call, const void *root, const graph_size &g,
                char *buf, std::intptr_t delta, arena *mark, copy_map map,
                std::vector<detail::direct_store> *direct = nullptr) {
  const type_record &t = type_at(std::uint32_t(header_of(root)->tag));
  if (t.leaf && g.objects == 1)
    return copy_leaf(call, t, root, g, buf, delta, mark, direct);
  if (map == copy_map::automatic)
    map = g.objects <= kLinearMapMaxObjects ? copy_map::linear : copy_map::hash;
  if (map == copy_map::linear)
    return copy_by_pointer_reversal<linear_map>(call, root, g, buf, delta, mark,
                                                direct);
  return copy_by_pointer_reversal<hash_map>(call, root, g, buf, delta, mark,
                                            direct);
}

} // namespace weft::places

namespace weft {

graph_size measure(const void *root) {
  return places::measure_graph("weft::measure", root);
}

namespace detail {

void *copy_graph(const char *call, int p, const void *root,
                 const copy_options &opt, graph_buffer *out) {
  places::arena &dst = places::arena_of_place(call, p);
  graph_size g = places::measure_graph(call, root);
  char *buf = dst.alloc_extent(g.bytes);
  if (!buf)
    throw std::length_error(
        std::string(call) + ": the graph of " + std::to_string(g.objects) +
        " objects (" + std::to_string(g.bytes) +
        " bytes) does not fit in place " + std::to_string(p) + " (" +
        std::to_string(dst.free_bytes()) + " of " +
        std::to_string(dst.capacity()) + " bytes free)");
  void *r;
  try {
    if (!opt.intermediate) {
      r = places::copy_into(call, root, g, buf, 0, &dst, opt.map);
    } else {
      // G* in the source's partition, pointers adjusted to G', one bulk copy.
      places::arena *src = places::arena_holding(root);
      char *mid = src->alloc_extent(g.bytes);
      if (!mid)
        throw std::length_error(std::string(call) +
                                ": no room for the intermediate buffer of " +
                                std::to_string(g.bytes) + " bytes in place " +
                                std::to_string(src->place()));
      try {
        // Primitive array stores of kDirectStoreBytes or more are left out
        // of G* and copied from their sources straight into G' (one pass
        // over their bytes, not two), as across ranks.
        thread_local std::vector<direct_store> direct;
        direct.clear();
        void *rm = places::copy_into(call, root, g, mid, buf - mid, nullptr,
                                     opt.map, &direct);
        std::size_t from = 0;
        for (const direct_store &d : direct) {
          places::bulk_copy(buf + from, mid + from, d.offset - from);
          places::bulk_copy(buf + d.offset, d.src, d.bytes);
          from = d.offset + d.bytes;
        }
        places::bulk_copy(buf + from, mid + from, g.bytes - from);
        dst.mark_blocks(buf, g.bytes);
        r = static_cast<char *>(rm) + (buf - mid);
      } catch (...) {
        src->free_extent(mid, g.bytes, true); // G* was never marked
        throw;
      }
      src->free_extent(mid, g.bytes, true); // G* was never marked
    }
  } catch (...) {
    dst.free_extent(buf, g.bytes);
    throw;
  }
  dst.add_graph(buf, g.bytes); // its blocks are the graph's, not make's
  *out = {p, buf, g.bytes, g.objects};
  return r;
}

void release_graph(graph_buffer *b) {
  if (b->remote) {
    const dist_ops *d = dist();
    if (!d)
      throw std::logic_error("weft::graph::reset: a graph that arrived from "
                             "another rank outlived places_mpi_finalize");
    d->release(b);
    return;
  }
  places::arena &a = places::arena_of_place("weft::graph::reset", b->place);
  auto *base = static_cast<char *>(b->base);
  // A graph of a few large arrays: its block starts cleared by walking the
  // headers, not the bitmap over every byte (as unmark_graph).
  bool cleared = b->objects * kUnmarkWalkBytes < b->bytes &&
                 a.clear_blocks(base, b->bytes);
  a.free_graph(base, b->bytes, cleared);
}

graph_size measure_for(const char *call, const void *root) {
  return places::measure_graph(call, root);
}

void *copy_graph_to(const char *call, const void *root, const graph_size &g,
                    char *buf, std::intptr_t delta, copy_map map,
                    std::vector<direct_store> *direct) {
  if (direct)
    direct->clear();
  return places::copy_into(call, root, g, buf, delta, nullptr, map, direct);
}

void mark_graph(void *base, std::size_t bytes) {
  places::arena *a = places::arena_holding(base);
  if (!a || !a->contains(static_cast<char *>(base) + bytes - 1))
    throw std::logic_error("weft dist: a graph buffer outside this rank's "
                           "place");
  a->mark_blocks(static_cast<char *>(base), bytes);
}

void unmark_graph(void *base, std::size_t bytes, std::size_t objects) {
  places::arena *a = places::arena_holding(base);
  if (!a)
    throw std::logic_error("weft dist: a graph buffer outside this rank's "
                           "place");
  // Clearing the bitmap costs a word per 512 bytes, walking the headers a
  // read per block: a graph of a few large arrays (a 1 Mi-double array took
  // 22 us to clear, on the path of the reply) is walked.
  if (objects * kUnmarkWalkBytes < bytes &&
      a->clear_blocks(static_cast<const char *>(base), bytes))
    return;
  a->clear_starts(base, (bytes + 7) & ~std::size_t(7));
}

} // namespace detail
} // namespace weft
