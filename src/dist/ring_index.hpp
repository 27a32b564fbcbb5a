// The incoming ring's bookkeeping (docs/places.md, the incoming heap): the
// blocks past the tail of a rank's incoming ring, each live (a graph that
// arrived and is not released) or released (a graph released, a sender's
// forfeited range, a restart's rest of the lap), by position (monotonic; a
// block's memory is at its position modulo the ring). Arrival, release and
// the tail's advance over released blocks are O(1): a flat table of one
// entry per 64-byte granule of the ring, indexed by the block's start
// modulo the ring. A block whose granule holds another block (one a lap
// apart: only when senders reserve around a graph pinned at the tail, see
// the holes) goes to a small overflow map; its count is kept (overflowed).
//
// Errors (a bookkeeping that would lose a block or overwrite a live one)
// throw std::logic_error naming the call and the positions: a block
// arriving where one starts already, a release of a graph not in use (never
// arrived, or released already), a double release of a range, a release
// behind the tail.
//
// Not thread-safe: the caller holds its lock (remote_at.cpp's heap_lock).
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace weft::dist {

class ring_index {
public:
  enum class kind : std::uint8_t { none = 0, live = 1, released = 2 };
  struct block {
    std::uint64_t start = 0, end = 0;
    kind k = kind::none;
  };

  // ring: the ring's length in bytes, a positive multiple of 64. The table
  // (16 bytes per 64-byte granule: a quarter of the ring, e.g. 32 MiB for
  // the default 256 MiB place) is an anonymous mapping without swap
  // reservation: zero pages, touched only where blocks start (with the
  // ring's restart, its first ~256 KiB of granules).
  explicit ring_index(std::uint64_t ring) : ring_(ring) {
    if (ring == 0 || ring % 64)
      throw std::invalid_argument("weft::dist::ring_index: a ring of " +
                                  std::to_string(ring) +
                                  " bytes (a positive multiple of 64)");
    const std::size_t bytes = ring / 64 * sizeof(entry);
    void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    tab_ = static_cast<entry *>(p);
    tab_bytes_ = bytes;
  }
  ~ring_index() { ::munmap(tab_, tab_bytes_); }
  ring_index(const ring_index &) = delete;
  ring_index &operator=(const ring_index &) = delete;

  // The block starting at pos, or kind::none.
  block find(std::uint64_t pos) const {
    const entry &e = tab_[slot(pos)];
    if (e.tag && e.start == pos)
      return unpack(e);
    if (!over_.empty())
      if (auto it = over_.find(pos); it != over_.end())
        return unpack(it->second);
    return {};
  }

  // A graph of [start, end) arrived (live until released).
  void arrive(std::uint64_t start, std::uint64_t end) {
    check_range("arrive", start, end);
    if (find(start).k != kind::none)
      throw std::logic_error(
          "weft::dist::ring_index::arrive: a graph at position " +
          std::to_string(start) + " where a block starts already (" +
          describe(find(start)) + ")");
    put(start, end, kind::live);
  }

  // The start position of the live graph at ring offset off (the block's
  // address less the ring's). Throws when none is live there: a release of
  // a graph not in use (released already, or never arrived).
  block live_at(std::uint64_t off) const {
    if (off < ring_ && off % 64 == 0) {
      const entry &e = tab_[off / 64];
      if (e.tag && kind(e.tag & 3) == kind::live)
        return unpack(e);
      for (const auto &o : over_)
        if (kind(o.second.tag & 3) == kind::live &&
            o.second.start % ring_ == off)
          return unpack(o.second);
    }
    throw std::logic_error(
        "weft::dist::ring_index::live_at: a release of the graph at ring "
        "offset " +
        std::to_string(off) + " of " + std::to_string(ring_) +
        ", which is not in use (released already, or never arrived)");
  }

  // Releases [start, end): a live graph's (the same range) or a range not
  // recorded (a forfeit, a restart). Returns the tail moved past the
  // released blocks from tail on. Throws on a double release, on a range
  // that differs from the live graph's there, and on one behind the tail.
  std::uint64_t release(std::uint64_t start, std::uint64_t end,
                        std::uint64_t tail) {
    check_range("release", start, end);
    if (start < tail)
      throw std::logic_error("weft::dist::ring_index::release: [" +
                             std::to_string(start) + ", " +
                             std::to_string(end) + ") lies behind the tail " +
                             std::to_string(tail));
    block b = find(start);
    if (b.k == kind::released)
      throw std::logic_error(
          "weft::dist::ring_index::release: [" + std::to_string(start) + ", " +
          std::to_string(end) + ") released twice (" + describe(b) + ")");
    if (b.k == kind::live) {
      if (b.end != end)
        throw std::logic_error(
            "weft::dist::ring_index::release: [" + std::to_string(start) +
            ", " + std::to_string(end) + ") is not the live " + describe(b));
      set_kind(start, kind::released);
    } else {
      put(start, end, kind::released);
    }
    ++released_;
    while (true) {
      block t = find(tail);
      if (t.k != kind::released)
        break;
      erase(tail);
      --released_;
      tail = t.end;
    }
    return tail;
  }

  // Released blocks not yet passed by the tail (a hole behind a live one).
  std::size_t released() const { return released_; }
  // Blocks kept in the overflow map now, and ever.
  std::size_t overflowing() const { return over_.size(); }
  std::uint64_t overflowed() const { return overflowed_; }

private:
  struct entry {
    std::uint64_t start;
    std::uint64_t tag; // end | kind (end a multiple of 64); 0: empty
  };

  std::uint64_t slot(std::uint64_t pos) const { return (pos % ring_) / 64; }
  static block unpack(const entry &e) {
    return {e.start, e.tag & ~std::uint64_t(63), kind(e.tag & 3)};
  }
  static std::string describe(const block &b) {
    return std::string(b.k == kind::live ? "live" : "released") + " block [" +
           std::to_string(b.start) + ", " + std::to_string(b.end) + ")";
  }
  void check_range(const char *what, std::uint64_t start,
                   std::uint64_t end) const {
    if (start % 64 || end % 64 || end <= start)
      throw std::logic_error(std::string("weft::dist::ring_index::") + what +
                             ": [" + std::to_string(start) + ", " +
                             std::to_string(end) +
                             ") (positions: multiples of 64, end > start)");
  }
  void put(std::uint64_t start, std::uint64_t end, kind k) {
    entry &e = tab_[slot(start)];
    const entry n{start, end | std::uint64_t(k)};
    if (!e.tag) {
      e = n;
    } else {
      over_.emplace(start, n);
      ++overflowed_;
    }
  }
  void set_kind(std::uint64_t start, kind k) {
    entry &e = tab_[slot(start)];
    entry &t = e.tag && e.start == start ? e : over_.at(start);
    t.tag = (t.tag & ~std::uint64_t(3)) | std::uint64_t(k);
  }
  void erase(std::uint64_t start) {
    entry &e = tab_[slot(start)];
    if (e.tag && e.start == start)
      e = entry{0, 0};
    else
      over_.erase(start);
  }

  std::uint64_t ring_;
  entry *tab_ = nullptr;
  std::size_t tab_bytes_ = 0;
  std::unordered_map<std::uint64_t, entry> over_;
  std::size_t released_ = 0;
  std::uint64_t overflowed_ = 0;
};

} // namespace weft::dist
