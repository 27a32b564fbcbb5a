// Format 9's compact chunk payload (docs/trace-format.md, "Compact
// records"): a chunk's records, as the recorder holds them (trace_format.hpp's
// 32-byte `record`, times in ticks), are written as a kind byte, an optional
// sub byte and a few LEB128 varints per record: times as deltas from the
// thread's previous time in the chunk, task ids as deltas from the previous
// id, a segment's end or start as its length, a parent as its distance from
// the child, addresses as deltas from the previous address. The thread is the
// chunk's. Each chunk starts from zero, so chunks decode independently.
// encode() runs when a worker's buffer is written (the recording side, in
// libweft); decode() in the readers. Every record round-trips exactly
// (deltas are modulo 2^64).
#pragma once

#include "trace/trace_format.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace weft::trace::compact {

// The kind byte: the kind in bits 0-5; bit 7: a sub byte follows (the
// varint forms); bit 6: the record's short form (fixed-width fields, for
// the common kinds when their values fit).
inline constexpr uint8_t kHasSub = 0x80;
inline constexpr uint8_t kShort = 0x40;
inline constexpr uint8_t kKindBits = 0x3f;
// The most bytes one record encodes to: kind, sub and seven 9-byte varints;
// an encoding buffer has kSlack bytes more (put() stores 8 bytes at a time).
inline constexpr std::size_t kMaxRecordBytes = 2 + 7 * 9;
inline constexpr std::size_t kSlack = 8;

inline uint64_t zig(uint64_t d) {
  return (d << 1) ^ static_cast<uint64_t>(static_cast<int64_t>(d) >> 63);
}
inline uint64_t unzig(uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }

// A prefix varint: a value under 2^56 in n = 1-8 bytes, the first byte's
// n-1 low bits 0 and bit n-1 set, the value in the bits above (little-endian
// in the n bytes); a larger one as a 0 byte and 8 bytes. As short as LEB128,
// and written with one store and no loop (the buffer has 8 bytes to spare).
inline uint8_t *put(uint8_t *p, uint64_t v) {
  if (__builtin_expect(v < (uint64_t(1) << 56), 1)) {
    // n - 1 = b / 7 for the top bit b (0..55), as b * 37 >> 8 (exact for
    // every b under 64): a multiply and a shift, not the division's six.
    const unsigned b = 63u ^ static_cast<unsigned>(__builtin_clzll(v | 1));
    unsigned n = 1 + (b * 37 >> 8);
    uint64_t w = v << n | uint64_t(1) << (n - 1);
    std::memcpy(p, &w, 8);
    return p + n;
  }
  *p = 0;
  std::memcpy(p + 1, &v, 8);
  return p + 9;
}

// The running values a chunk's records are deltas from.
struct state {
  uint64_t time = 0, task = 0, addr = 0;
  uint64_t parent = 0; // of the last record naming one
  uint64_t run = 0;    // the last task of a task_exec or task_exec2
};

inline void st16(uint8_t *p, uint64_t v) {
  uint16_t x = static_cast<uint16_t>(v);
  std::memcpy(p, &x, 2);
}
inline uint64_t ld16(const uint8_t *p) {
  uint16_t x;
  std::memcpy(&x, p, 2);
  return x;
}

// The short forms: a kind byte with kShort, then fixed-width fields (u8 id
// deltas, u16 the rest), when the parent is the last one named and the
// values fit; else the varint form. Returns the new end, or nullptr. The
// ids of task_exec and task_exec2 are deltas (zigzag) from the last such
// record's (a thread runs tasks in about the order they were created, but
// behind its own spawns).
// The short task_exec and task_exec2 have sub kExecSub.
// task_exec (8 bytes): time delta, id delta, schedule length, body length.
// task_exec2 (13): time delta, first id delta, second id - first (both
// zigzag), first schedule, first body, second schedule, second body.
// task_spawn_dep (9): sub, time delta, id delta, spawn length, address
// delta (zigzag). task_inline_dep (9): the same, the body's length in place
// of the spawn length.
// task_spawn (7): sub, time delta, id delta, spawn length (no dependences).
// task_inline (7): sub, time delta, id delta, body length (count).
// The sub of the task_exec and task_exec2 the recorder writes (their
// schedule segment's overhead kind), which their short forms imply.
inline constexpr uint8_t kExecSub =
    static_cast<uint8_t>(overhead_kind::schedule);

// Each short form from its fields (the recorder's hooks write them
// directly; encode_short below for a whole record): the new end, or nullptr
// when the values do not fit (then the varint form).
[[gnu::always_inline]] inline uint8_t *short_exec(state &s, uint64_t time,
                                                  uint64_t id, uint64_t sched,
                                                  uint64_t body, uint8_t *p) {
  uint64_t dt = time - s.time, di = zig(id - s.run);
  if (((dt | sched | body) >> 16) != 0 || di > 0xff)
    return nullptr;
  p[0] = static_cast<uint8_t>(kind::task_exec) | kShort;
  st16(p + 1, dt);
  p[3] = static_cast<uint8_t>(di);
  st16(p + 4, sched);
  st16(p + 6, body);
  s.time = time;
  s.run = id;
  return p + 8;
}
// sched1, body1, sched2, body2: the two tasks' schedule and body lengths.
[[gnu::always_inline]] inline uint8_t *
short_exec2(state &s, uint64_t time, uint64_t id1, uint64_t id2,
            uint64_t sched1, uint64_t body1, uint64_t sched2, uint64_t body2,
            uint8_t *p) {
  uint64_t dt = time - s.time, d1 = zig(id1 - s.run), d2 = zig(id2 - id1);
  if (((dt | body1 | sched1 | sched2 | body2) >> 16) != 0 ||
      ((d1 | d2) >> 8) != 0)
    return nullptr;
  p[0] = static_cast<uint8_t>(kind::task_exec2) | kShort;
  st16(p + 1, dt);
  p[3] = static_cast<uint8_t>(d1);
  p[4] = static_cast<uint8_t>(d2);
  st16(p + 5, sched1);
  st16(p + 7, body1);
  st16(p + 9, sched2);
  st16(p + 11, body2);
  s.time = time;
  s.run = id2;
  return p + 13;
}
// task_spawn_dep (len: the spawn length) or task_inline_dep (len: the
// body's length).
[[gnu::always_inline]] inline uint8_t *
short_spawn_dep(state &s, uint8_t sub, uint64_t time, uint64_t id,
                uint64_t parent, uint64_t len, uint64_t addr, uint8_t *p,
                kind k = kind::task_spawn_dep) {
  uint64_t dt = time - s.time, di = id - s.task, da = zig(addr - s.addr);
  if (parent != s.parent || ((dt | len | da) >> 16) != 0 || di > 0xff)
    return nullptr;
  p[0] = static_cast<uint8_t>(static_cast<uint8_t>(k) | kShort);
  p[1] = sub;
  st16(p + 2, dt);
  p[4] = static_cast<uint8_t>(di);
  st16(p + 5, len);
  st16(p + 7, da);
  s.time = time;
  s.task = id;
  s.addr = addr;
  return p + 9;
}
// task_spawn (x: the spawn length) or task_inline (x: the body length).
[[gnu::always_inline]] inline uint8_t *short_spawn(state &s, kind k,
                                                   uint8_t sub, uint64_t time,
                                                   uint64_t id, uint64_t parent,
                                                   uint64_t x, uint8_t *p) {
  uint64_t dt = time - s.time, di = id - s.task;
  if (parent != s.parent || ((dt | x) >> 16) != 0 || di > 0xff)
    return nullptr;
  p[0] = static_cast<uint8_t>(static_cast<uint8_t>(k) | kShort);
  p[1] = sub;
  st16(p + 2, dt);
  p[4] = static_cast<uint8_t>(di);
  st16(p + 5, x);
  s.time = time;
  s.task = id;
  return p + 7;
}

inline uint8_t *encode_short(state &s, const record &r, uint8_t *p) {
  switch (r.type) {
  case kind::task_exec:
    if (r.sub != kExecSub)
      return nullptr;
    return short_exec(s, r.time, r.task, r.time - r.arg, r.count, p);
  case kind::task_exec2:
    if (r.sub != kExecSub || (r.arg >> 63) != 0)
      return nullptr;
    return short_exec2(s, r.time, r.task & 0xffffffffu, r.task >> 32,
                       exec2_field(r.arg, 0), r.count, exec2_field(r.arg, 1),
                       exec2_field(r.arg, 2), p);
  case kind::task_spawn_dep:
  case kind::task_inline_dep:
    return short_spawn_dep(s, r.sub, r.time, r.task & 0xffffffffu,
                           r.arg & 0xffffffffu, r.arg >> 32,
                           uint64_t(r.count) << 32 | r.task >> 32, p, r.type);
  case kind::task_spawn:
    if (r.count != 0)
      return nullptr;
    return short_spawn(s, r.type, r.sub, r.time, r.task, r.arg & 0xffffffffu,
                       r.arg >> 32, p);
  case kind::task_inline:
    if ((r.arg >> 32) != 0)
      return nullptr;
    return short_spawn(s, r.type, r.sub, r.time, r.task, r.arg & 0xffffffffu,
                       r.count, p);
  default:
    return nullptr;
  }
}

// Appends r's encoding at p (kMaxRecordBytes + kSlack free); returns the
// new end.
[[gnu::always_inline]] inline uint8_t *encode(state &s, const record &r,
                                              uint8_t *p) {
  if (uint8_t *q = encode_short(s, r, p))
    return q;
  *p++ = static_cast<uint8_t>(static_cast<uint8_t>(r.type) |
                              (r.sub ? kHasSub : 0));
  if (r.sub)
    *p++ = r.sub;
  switch (r.type) {
  case kind::task_spawn_dep:
  case kind::task_inline_dep: {
    uint64_t id = r.task & 0xffffffffu;
    uint64_t addr = uint64_t(r.count) << 32 | r.task >> 32;
    p = put(p, zig(r.time - s.time));
    p = put(p, zig(id - s.task));
    p = put(p, zig(id - (r.arg & 0xffffffffu)));
    p = put(p, r.arg >> 32);
    p = put(p, zig(addr - s.addr));
    s.time = r.time;
    s.task = id;
    s.addr = addr;
    s.parent = r.arg & 0xffffffffu;
    return p;
  }
  case kind::task_exec2: {
    uint64_t id1 = r.task & 0xffffffffu, id2 = r.task >> 32;
    p = put(p, r.count);
    p = put(p, zig(r.time - s.time));
    p = put(p, zig(id1 - s.task));
    p = put(p, zig(id2 - id1));
    p = put(p, exec2_field(r.arg, 0));
    p = put(p, exec2_field(r.arg, 1));
    p = put(p, exec2_field(r.arg, 2) | (r.arg >> 63) << 21);
    s.time = r.time;
    s.task = id2;
    s.run = id2;
    return p;
  }
  case kind::deps:
    // Three addresses in time, task and arg.
    p = put(p, r.count);
    p = put(p, zig(r.time - s.addr));
    p = put(p, zig(r.task - r.time));
    p = put(p, zig(r.arg - r.task));
    s.addr = r.arg;
    return p;
  default:
    break;
  }
  p = put(p, r.count);
  p = put(p, zig(r.time - s.time));
  p = put(p, zig(r.task - s.task));
  switch (r.type) {
  case kind::task_run:
  case kind::task_exec:
    p = put(p, zig(r.time - r.arg));
    s.run = r.task;
    break;
  case kind::task_done:
    p = put(p, zig(r.arg - r.time));
    break;
  case kind::dep:
    p = put(p, zig(r.arg - s.addr));
    s.addr = r.arg;
    break;
  case kind::task_create:
  case kind::task_spawn:
  case kind::task_inline:
    p = put(p, zig((r.task & 0xffffffffu) - (r.arg & 0xffffffffu)));
    p = put(p, r.arg >> 32);
    s.parent = r.arg & 0xffffffffu;
    break;
  default:
    p = put(p, r.arg);
    break;
  }
  s.time = r.time;
  s.task = r.task;
  return p;
}

// A short form's fields at data + i (the kind byte read, r.type set).
inline std::string decode_short(state &s, uint8_t kb, const uint8_t *data,
                                std::size_t bytes, std::size_t &i, record &r) {
  std::size_t n = 0;
  switch (r.type) {
  case kind::task_exec:
    n = 7;
    break;
  case kind::task_exec2:
    n = 12;
    break;
  case kind::task_spawn_dep:
  case kind::task_inline_dep:
    n = 8;
    break;
  case kind::task_spawn:
  case kind::task_inline:
    n = 6;
    break;
  default:
    return "short form of record kind " + std::to_string(kb & kKindBits) +
           ", which has none";
  }
  if (bytes - i < n)
    return "compact record runs past the chunk's end";
  const uint8_t *q = data + i;
  i += n;
  switch (r.type) {
  case kind::task_exec:
    r.sub = kExecSub;
    r.time = s.time + ld16(q);
    r.task = s.run + unzig(q[2]);
    r.arg = r.time - ld16(q + 3);
    r.count = static_cast<uint32_t>(ld16(q + 5));
    s.time = r.time;
    s.run = r.task;
    break;
  case kind::task_exec2: {
    uint64_t id1 = s.run + unzig(q[2]), id2 = id1 + unzig(q[3]);
    if (id1 > UINT32_MAX || id2 > UINT32_MAX)
      return "task id over 32 bits";
    r.sub = kExecSub;
    r.time = s.time + ld16(q);
    r.task = id1 | id2 << 32;
    r.arg = exec2_arg(ld16(q + 4), ld16(q + 8), ld16(q + 10));
    r.count = static_cast<uint32_t>(ld16(q + 6));
    s.time = r.time;
    s.run = id2;
    break;
  }
  case kind::task_spawn_dep:
  case kind::task_inline_dep: {
    uint64_t id = s.task + q[3];
    if (id > UINT32_MAX)
      return "task id over 32 bits";
    s.addr += unzig(ld16(q + 6));
    r.sub = q[0];
    r.time = s.time + ld16(q + 1);
    r.task = id | s.addr << 32;
    r.count = static_cast<uint32_t>(s.addr >> 32);
    r.arg = s.parent | ld16(q + 4) << 32;
    s.time = r.time;
    s.task = id;
    break;
  }
  default: // task_spawn, task_inline
    r.sub = q[0];
    r.time = s.time + ld16(q + 1);
    r.task = s.task + q[3];
    if (r.type == kind::task_spawn)
      r.arg = s.parent | ld16(q + 4) << 32;
    else {
      r.arg = s.parent;
      r.count = static_cast<uint32_t>(ld16(q + 4));
    }
    s.time = r.time;
    s.task = r.task;
    break;
  }
  return {};
}

// Decodes a chunk's payload of `bytes` bytes holding `records` records of
// thread `thread` into out (replacing its contents); offsets, if given, gets
// each record's byte offset in the payload. Returns "" or what is wrong, and
// then *at is the offset in the payload where it is.
inline std::string decode(const uint8_t *data, std::size_t bytes,
                          uint32_t records, uint16_t thread,
                          std::vector<record> &out,
                          std::vector<uint32_t> *offsets, std::size_t *at) {
  out.clear();
  out.reserve(records);
  if (offsets) {
    offsets->clear();
    offsets->reserve(records);
  }
  state s;
  std::size_t i = 0;
  std::string why;
  auto get = [&](uint64_t &v) {
    if (i == bytes) {
      why = "compact record runs past the chunk's end";
      return false;
    }
    uint8_t b0 = data[i];
    std::size_t n = b0 ? static_cast<std::size_t>(__builtin_ctz(b0)) + 1 : 9;
    if (bytes - i < n) {
      why = "compact record runs past the chunk's end";
      return false;
    }
    if (n == 9) {
      std::memcpy(&v, data + i + 1, 8);
      if (v < (uint64_t(1) << 56)) {
        why = "9-byte varint of a value under 2^56";
        return false;
      }
    } else {
      uint64_t w = 0;
      std::memcpy(&w, data + i, n);
      v = w >> n;
    }
    i += n;
    return true;
  };
  auto get32 = [&](uint64_t &v, const char *what) {
    if (!get(v))
      return false;
    if (v > UINT32_MAX) {
      why = std::string(what) + " " + std::to_string(v) + " over 32 bits";
      return false;
    }
    return true;
  };
  for (uint32_t n = 0; n < records; ++n) {
    std::size_t start = i;
    *at = start;
    if (i == bytes)
      return "chunk's payload ends after " + std::to_string(n) + " of " +
             std::to_string(records) + " records";
    uint8_t kb = data[i++];
    record r{};
    r.type = static_cast<kind>(kb & kKindBits);
    r.thread = thread;
    if (r.type < kind::task_create || r.type > kLastKind)
      return "unknown record kind " + std::to_string(int(r.type));
    if (kb & kShort) {
      if (std::string why_short = decode_short(s, kb, data, bytes, i, r);
          !why_short.empty())
        return why_short;
      out.push_back(r);
      if (offsets)
        offsets->push_back(static_cast<uint32_t>(start));
      continue;
    }
    if (kb & kHasSub) {
      if (i == bytes)
        return "compact record runs past the chunk's end";
      r.sub = data[i++];
      if (r.sub == 0)
        return "compact record with a sub byte of 0";
    }
    uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0;
    switch (r.type) {
    case kind::task_spawn_dep:
    case kind::task_inline_dep:
      if (!get(a) || !get(b) || !get(c) || !get32(d, "spawn length") || !get(e))
        return why;
      r.time = s.time + unzig(a);
      s.task += unzig(b);
      if (s.task > UINT32_MAX)
        return "task id " + std::to_string(s.task) + " over 32 bits";
      s.addr += unzig(e);
      r.task = s.task | s.addr << 32;
      r.count = static_cast<uint32_t>(s.addr >> 32);
      r.arg = ((s.task - unzig(c)) & 0xffffffffu) | d << 32;
      s.time = r.time;
      s.parent = r.arg & 0xffffffffu;
      break;
    case kind::task_exec2: {
      if (!get32(a, "count") || !get(b) || !get(c) || !get(d) || !get(e) ||
          !get(f) || !get(g))
        return why;
      if (e > kExec2Max || f > kExec2Max || g > (kExec2Max << 1 | 1))
        return "task_exec2 length over 21 bits";
      uint64_t id1 = s.task + unzig(c), id2 = id1 + unzig(d);
      if (id1 > UINT32_MAX || id2 > UINT32_MAX)
        return "task id over 32 bits";
      r.count = static_cast<uint32_t>(a);
      r.time = s.time + unzig(b);
      r.task = id1 | id2 << 32;
      r.arg = exec2_arg(e, f, g & kExec2Max) | (g >> 21) << 63;
      s.time = r.time;
      s.task = id2;
      s.run = id2;
      break;
    }
    case kind::deps:
      if (!get32(a, "count") || !get(b) || !get(c) || !get(d))
        return why;
      r.count = static_cast<uint32_t>(a);
      r.time = s.addr + unzig(b);
      r.task = r.time + unzig(c);
      r.arg = r.task + unzig(d);
      s.addr = r.arg;
      break;
    default:
      if (!get32(a, "count") || !get(b) || !get(c) || !get(d))
        return why;
      r.count = static_cast<uint32_t>(a);
      r.time = s.time + unzig(b);
      r.task = s.task + unzig(c);
      switch (r.type) {
      case kind::task_run:
      case kind::task_exec:
        r.arg = r.time - unzig(d);
        s.run = r.task;
        break;
      case kind::task_done:
        r.arg = r.time + unzig(d);
        break;
      case kind::dep:
        r.arg = s.addr + unzig(d);
        s.addr = r.arg;
        break;
      case kind::task_create:
      case kind::task_spawn:
      case kind::task_inline:
        if (!get32(e, "arg's high half"))
          return why;
        r.arg = ((r.task - unzig(d)) & 0xffffffffu) | e << 32;
        s.parent = r.arg & 0xffffffffu;
        break;
      default:
        r.arg = d;
        break;
      }
      s.time = r.time;
      s.task = r.task;
      break;
    }
    out.push_back(r);
    if (offsets)
      offsets->push_back(static_cast<uint32_t>(start));
  }
  *at = i;
  if (i != bytes)
    return std::to_string(bytes - i) + " bytes after the chunk's " +
           std::to_string(records) + " records";
  return {};
}

} // namespace weft::trace::compact
