// Format 9's compact records (src/trace/compact.hpp): every record kind
// round-trips exactly through encode and decode (random values, times that
// wrap or jump by 2^40 and more), the writer's chunks (several threads
// writing at once) decode to what each thread gave it, a random valid stream
// written as version 8 and as version 9 reads back as the same events
// through both readers (so a replay cannot tell them apart), and damage to a
// compact chunk is an error naming the file and the offset.
#include "trace/compact.hpp"
#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"
#include "trace/read/trace_stream.hpp"
#include "trace/record/trace_writer.hpp"

#include <weft/weft.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace wt = weft::trace;
using wt::kind;

namespace {

std::string temp_path(const char *name) {
  return std::string(::testing::TempDir()) + "weft_compact_" + name + "_" +
         std::to_string(getpid()) + ".wtr";
}

bool same(const wt::record &a, const wt::record &b) {
  return a.type == b.type && a.sub == b.sub && a.thread == b.thread &&
         a.count == b.count && a.time == b.time && a.task == b.task &&
         a.arg == b.arg;
}

std::string show(const wt::record &r) {
  return std::string(wt::name(r.type)) + " sub " + std::to_string(r.sub) +
         " thread " + std::to_string(r.thread) + " count " +
         std::to_string(r.count) + " time " + std::to_string(r.time) +
         " task " + std::to_string(r.task) + " arg " + std::to_string(r.arg);
}

// A value of the given width, sometimes at the edges.
uint64_t any(std::mt19937_64 &g, int bits) {
  uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  switch (g() % 6) {
  case 0:
    return 0;
  case 1:
    return mask;
  case 2:
    return g() % 300 & mask;
  default:
    return g() & mask;
  }
}

// A next time: usually a little after the last, sometimes far after (2^40
// and more), before (a read taken early) or wrapped past 2^64.
uint64_t next_time(std::mt19937_64 &g, uint64_t t) {
  switch (g() % 10) {
  case 0:
    return t + (uint64_t(1) << (40 + g() % 20));
  case 1:
    return t - g() % 1000;
  case 2:
    return ~uint64_t(0) - g() % 5;
  default:
    return t + g() % 5000;
  }
}

// Any record the file form can hold (not necessarily a meaningful one):
// 32-bit halves where the format splits task or arg.
wt::record random_record(std::mt19937_64 &g, uint16_t thread, uint64_t &t) {
  wt::record r{};
  r.type = static_cast<kind>(1 + g() % static_cast<int>(wt::kLastKind));
  r.sub = g() % 3 == 0 ? 0 : static_cast<uint8_t>(g());
  r.thread = thread;
  r.count = static_cast<uint32_t>(any(g, 32));
  t = next_time(g, t);
  r.time = t;
  r.task = any(g, g() % 4 == 0 ? 64 : 32);
  r.arg = any(g, 64);
  switch (r.type) {
  case kind::task_exec2:
    r.arg &= ~(uint64_t(1) << 63) | (g() % 2 ? ~uint64_t(0) : 0);
    break;
  case kind::task_create:
  case kind::task_spawn:
  case kind::task_inline:
  case kind::task_spawn_dep:
  case kind::task_inline_dep:
    r.task = r.type == kind::task_spawn_dep || r.type == kind::task_inline_dep
                 ? any(g, 64)
                 : any(g, 32);
    break;
  case kind::task_run:
  case kind::task_exec:
    r.arg = r.time - any(g, g() % 2 ? 16 : 64);
    break;
  default:
    break;
  }
  return r;
}

// A record near the last one (ids a few apart, the same parent, short
// lengths): what the short forms are for, with values at their edges.
wt::record near_record(std::mt19937_64 &g, uint16_t thread, uint64_t &t,
                       uint64_t &id, uint64_t &addr, uint32_t parent) {
  static const kind kinds[6] = {kind::task_exec,      kind::task_exec2,
                                kind::task_spawn_dep, kind::task_spawn,
                                kind::task_inline,    kind::task_inline_dep};
  auto small = [&](uint64_t limit) {
    return g() % 4 == 0 ? limit - g() % 2 : g() % limit;
  };
  wt::record r{};
  r.type = kinds[g() % 6];
  r.thread = thread;
  t += small(1 << 16);
  r.time = t;
  id += small(256);
  switch (r.type) {
  case kind::task_exec:
    r.sub = g() % 4 ? wt::compact::kExecSub : 0;
    r.task = id;
    r.arg = t - small(1 << 16);
    r.count = static_cast<uint32_t>(small(1 << 16));
    break;
  case kind::task_exec2: {
    uint64_t id1 = id;
    id += small(256);
    r.sub = g() % 4 ? wt::compact::kExecSub : 0;
    r.task = id1 | id << 32;
    r.count = static_cast<uint32_t>(small(1 << 16));
    r.arg = wt::exec2_arg(small(1 << 16), small(1 << 16), small(1 << 16));
    break;
  }
  case kind::task_spawn_dep:
  case kind::task_inline_dep:
    addr += (g() % 2 ? 1 : -1) * static_cast<int64_t>(small(1 << 15));
    r.sub = static_cast<uint8_t>(g());
    r.task = id | (addr & 0xffffffffu) << 32;
    r.count = static_cast<uint32_t>(addr >> 32);
    r.arg = parent | small(1 << 16) << 32;
    break;
  case kind::task_spawn:
    r.sub = static_cast<uint8_t>(g());
    r.task = id;
    r.arg = parent | small(1 << 16) << 32;
    break;
  default:
    r.sub = static_cast<uint8_t>(g());
    r.task = id;
    r.arg = parent;
    r.count = static_cast<uint32_t>(small(1 << 16));
    break;
  }
  return r;
}

} // namespace

TEST(Compact, EveryKindRoundTripsExactly) {
  std::mt19937_64 g(9);
  std::vector<uint8_t> buf;
  std::size_t forms[2] = {0, 0}; // varint, short
  for (int round = 0; round < 200; ++round) {
    uint16_t thread = static_cast<uint16_t>(g());
    uint64_t t = any(g, 64);
    // Runs of records near each other (short forms, mostly) between
    // random ones (varint forms), parents named by the random ones.
    std::vector<wt::record> in(1 + g() % 300);
    uint64_t id = g() % 1000, addr = 0x7ffc00000000 + g() % 4096;
    uint32_t parent = static_cast<uint32_t>(g() % 100);
    for (wt::record &r : in) {
      if (g() % 3 == 0) {
        r = random_record(g, thread, t);
        if (r.type == kind::task_create)
          r.arg = parent;
      } else {
        r = near_record(g, thread, t, id, addr, parent);
      }
    }
    buf.assign(in.size() * wt::compact::kMaxRecordBytes + wt::compact::kSlack,
               0);
    wt::compact::state s;
    uint8_t *p = buf.data();
    for (const wt::record &r : in) {
      uint8_t *q = wt::compact::encode(s, r, p);
      ++forms[(*p & wt::compact::kShort) ? 1 : 0];
      ASSERT_LE(static_cast<std::size_t>(q - p), wt::compact::kMaxRecordBytes);
      p = q;
    }
    std::vector<wt::record> out;
    std::vector<uint32_t> at_of;
    std::size_t at = 0;
    ASSERT_EQ(wt::compact::decode(
                  buf.data(), static_cast<std::size_t>(p - buf.data()),
                  static_cast<uint32_t>(in.size()), thread, out, &at_of, &at),
              "");
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
      ASSERT_TRUE(same(in[i], out[i])) << "record " << i << ": " << show(in[i])
                                       << " came back as " << show(out[i]);
    ASSERT_EQ(at_of[0], 0u);
  }
  // Both forms were taken, many times.
  EXPECT_GT(forms[0], 5000u);
  EXPECT_GT(forms[1], 5000u);
}

// The prefix varint at every width (compact::put): a value whose top bit is
// b takes 1 + b / 7 bytes (from 2^56 on, a 0 byte and 8), the first byte's
// lowest set bit says how many, and the bytes give the value back.
TEST(Compact, VarintTakesOneByteMorePerSevenBits) {
  for (unsigned b = 0; b < 64; ++b) {
    const uint64_t top = uint64_t(1) << b;
    // The least and the most with that top bit, and 0 (as 1: one byte).
    for (uint64_t v : {top, top | (top - 1), b == 0 ? uint64_t(0) : top + 1}) {
      uint8_t buf[9 + wt::compact::kSlack] = {};
      const std::size_t n =
          static_cast<std::size_t>(wt::compact::put(buf, v) - buf);
      if (b >= 56) {
        EXPECT_EQ(n, 9u) << "value " << v;
        EXPECT_EQ(buf[0], 0u) << "value " << v;
        uint64_t w;
        std::memcpy(&w, buf + 1, 8);
        EXPECT_EQ(w, v);
        continue;
      }
      ASSERT_EQ(n, 1 + b / 7) << "value " << v << ", top bit " << b;
      ASSERT_EQ(static_cast<std::size_t>(__builtin_ctz(buf[0])) + 1, n)
          << "value " << v;
      uint64_t w = 0;
      std::memcpy(&w, buf, n);
      EXPECT_EQ(w >> n, v) << "value " << v;
    }
  }
}

// Several threads write chunks of their own records at once (the writer's
// scratch space is per thread): each chunk decodes to what its thread gave.
// Version 10's task_inline_dep in its short form, packed here byte by byte
// from the format's description (docs/trace-format.md): kind 28 | kShort,
// sub, time delta (u16), id delta (u8), body length (u16), address delta
// (u16, zigzag), all from a chunk's start (time, id, parent, address 0);
// then a second one 3 ids on with the address 8 bytes back; then one too
// far for the short form (a 17-bit body) in the varint form.
TEST(Compact, InlineDepShortFormIsItsNineBytes) {
  const uint64_t base = 0x1234;
  std::vector<wt::record> in = {
      // task_create (parent 0) first: the short form needs the parent named.
      wt::record{kind::task_create, 0, 0, 0, 10, 1, 0},
      wt::record{kind::task_inline_dep,
                 static_cast<uint8_t>(wt::kInlineEnded | 3 << 4 | 1), 0, 0, 300,
                 2 | base << 32, 0 | uint64_t(500) << 32},
      wt::record{kind::task_inline_dep,
                 static_cast<uint8_t>(wt::kInlineEnded | 1 << 4), 0, 0,
                 300 + 0x0102, 5 | (base - 8) << 32, 0 | uint64_t(7) << 32},
      wt::record{kind::task_inline_dep, static_cast<uint8_t>(2 << 4), 0, 0,
                 1000, 6 | (base - 8) << 32, uint64_t(1) << (32 + 17)},
  };
  std::vector<uint8_t> buf(in.size() * wt::compact::kMaxRecordBytes +
                           wt::compact::kSlack);
  wt::compact::state s;
  uint8_t *p = buf.data();
  for (const wt::record &r : in)
    p = wt::compact::encode(s, r, p);
  buf.resize(static_cast<std::size_t>(p - buf.data()));
  // The first record's varint form: kind, count 0, time 10 (zigzag 20),
  // task 1 (2), id - parent 1 (2), arg's high half 0: 1-byte prefix
  // varints (value << 1 | 1).
  const std::vector<uint8_t> want_head = {1, 1, 41, 5, 5, 1};
  ASSERT_GE(buf.size(), want_head.size() + 18);
  EXPECT_EQ(std::vector<uint8_t>(buf.begin(), buf.begin() + 6), want_head);
  const std::vector<uint8_t> want_short = {
      28 | 0x40, 0x80 | 0x30 | 1, 0x22, 0x01, 1, 0xf4, 0x01, 0x68, 0x24,
      28 | 0x40, 0x80 | 0x10,     0x02, 0x01, 3, 7,    0,    15,   0};
  EXPECT_EQ(std::vector<uint8_t>(buf.begin() + 6, buf.begin() + 24),
            want_short);
  // The third: no short form (its body needs 17 bits).
  EXPECT_EQ(buf[24], 28 | wt::compact::kHasSub);
  std::vector<wt::record> out;
  std::size_t at = 0;
  ASSERT_EQ(wt::compact::decode(buf.data(), buf.size(),
                                static_cast<uint32_t>(in.size()), 0, out,
                                nullptr, &at),
            "");
  ASSERT_EQ(out.size(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i].type, in[i].type) << i;
    EXPECT_EQ(out[i].sub, in[i].sub) << i;
    EXPECT_EQ(out[i].count, in[i].count) << i;
    EXPECT_EQ(out[i].time, in[i].time) << i;
    EXPECT_EQ(out[i].task, in[i].task) << i;
    EXPECT_EQ(out[i].arg, in[i].arg) << i;
  }
}

TEST(Compact, WriterChunksFromManyThreadsDecodeToTheirRecords) {
  std::string path = temp_path("threads");
  const int threads = 8, chunks = 20;
  std::vector<std::vector<std::vector<wt::record>>> given(threads);
  {
    wt::writer w(path, wt::make_header("sw", "p", threads, 0));
    std::vector<std::thread> ts;
    for (int th = 0; th < threads; ++th)
      ts.emplace_back([&, th] {
        std::mt19937_64 g(100 + th);
        uint64_t t = 0;
        for (int c = 0; c < chunks; ++c) {
          std::vector<wt::record> rs(1 + g() % 2000);
          for (wt::record &r : rs)
            r = random_record(g, static_cast<uint16_t>(th), t);
          w.write_chunk(static_cast<uint16_t>(th), rs.data(), rs.size());
          given[th].push_back(std::move(rs));
        }
      });
    for (std::thread &t : ts)
      t.join();
  }
  std::ifstream in(path, std::ios::binary);
  wt::file_header h;
  ASSERT_TRUE(in.read(reinterpret_cast<char *>(&h), sizeof h));
  EXPECT_EQ(h.version, wt::kVersion);
  std::vector<std::size_t> next(threads, 0);
  wt::chunk_header c;
  std::size_t seen = 0, records = 0, bytes = 0;
  while (in.read(reinterpret_cast<char *>(&c), sizeof c)) {
    ASSERT_EQ(c.magic, wt::kChunkMagic);
    ASSERT_LT(c.thread, threads);
    std::vector<uint8_t> b(c.bytes);
    ASSERT_TRUE(in.read(reinterpret_cast<char *>(b.data()), c.bytes));
    std::vector<wt::record> out;
    std::size_t at = 0;
    ASSERT_EQ(wt::compact::decode(b.data(), b.size(), c.records, c.thread, out,
                                  nullptr, &at),
              "");
    const std::vector<wt::record> &want = given[c.thread][next[c.thread]++];
    ASSERT_EQ(out.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      ASSERT_TRUE(same(out[i], want[i])) << show(want[i]);
    ++seen;
    records += c.records;
    bytes += c.bytes;
  }
  EXPECT_EQ(seen, std::size_t(threads * chunks));
  EXPECT_LT(bytes, records * sizeof(wt::record));
  std::remove(path.c_str());
}

namespace {

// A random valid stream of one thread (what the recorder writes: every kind
// the readers expand, dep records after their owners), times rising with
// jumps up to 2^40 ticks.
std::vector<wt::record> valid_stream(std::mt19937_64 &g, uint16_t th,
                                     uint32_t &id) {
  std::vector<wt::record> v;
  uint64_t t = 1000 + g() % 1000;
  auto add = [&](kind k, uint8_t sub, uint32_t count, uint64_t task,
                 uint64_t arg) {
    v.push_back(wt::record{k, sub, th, count, t, task, arg});
  };
  for (int i = 0; i < 400; ++i) {
    t += g() % 50 == 0 ? uint64_t(1) << (20 + g() % 21) : 1 + g() % 400;
    uint32_t parent = g() % 2 ? id - 1 : 0;
    uint64_t addr = 0x7f0000000000 + (g() % 64) * 64;
    switch (g() % 11) {
    case 0: // task_spawn, no dependences
      add(kind::task_spawn, g() % 16, 0, ++id, parent | (g() % 500) << 32);
      break;
    case 1:
      add(kind::task_spawn_dep,
          static_cast<uint8_t>(g() % 16 | (1 + g() % 5) << 4),
          static_cast<uint32_t>(addr >> 32), ++id | (addr & 0xffffffffu) << 32,
          parent | (g() % 500) << 32);
      break;
    case 2: { // a creation with n dependences (one dep record, or packed)
      uint32_t n = 1 + g() % 7;
      add(kind::task_create, 0, n, ++id, parent);
      if (n == 1) {
        add(kind::dep, 1 + g() % 5, 0, id, addr);
      } else {
        for (uint32_t j = 0; j < n; j += 3) {
          uint32_t k = n - j < 3 ? n - j : 3;
          uint64_t a[3] = {addr, k > 1 ? addr + 8 : 0, k > 2 ? addr + 16 : 0};
          v.push_back(wt::record{kind::deps, static_cast<uint8_t>(k), th,
                                 0x030201u & ((1u << (8 * k)) - 1), a[0], a[1],
                                 a[2]});
        }
      }
      break;
    }
    case 3:
      add(kind::task_exec, 0, static_cast<uint32_t>(g() % 3000), id,
          t - g() % 700);
      break;
    case 4: {
      uint64_t s1 = g() % 700, s2 = g() % 700, b2 = g() % 3000;
      add(kind::task_exec2, 0, static_cast<uint32_t>(g() % 3000),
          (id - 1) | uint64_t(id) << 32, wt::exec2_arg(s1, s2, b2));
      break;
    }
    case 5:
      add(kind::task_inline, static_cast<uint8_t>(g() % 4 | wt::kInlineEnded),
          1 + g() % 900, ++id, parent);
      break;
    case 6:
      add(kind::overhead, 1 + g() % 3, 0, id, g() % 2000);
      break;
    case 7:
      add(kind::counter, 1 + g() % 2, 0, 0, g() % 100000);
      break;
    case 8:
      add(kind::task_run, 0, 0, id, t - g() % 500);
      t += 1 + g() % 300;
      add(kind::task_done, 0, 0, id, t + g() % 500);
      break;
    case 9:
      add(kind::wait_begin, 1, 0, id, 0);
      t += g() % 10000;
      add(kind::wait_end, 1, 0, id, 0);
      break;
    default: {
      uint64_t arg = 0;
      uint32_t count = 0;
      wt::pack_phase_name("solve.1", arg, count);
      add(kind::phase, 1 + g() % 2, count, id, arg);
      break;
    }
    }
  }
  return v;
}

std::vector<wt::record> stream_all(const std::string &path) {
  wt::record_stream s(path);
  std::vector<wt::record> v;
  wt::record r;
  while (s.next(r))
    v.push_back(r);
  return v;
}

} // namespace

// The same records written as version 8 and as version 9 read back as the
// same events (trace::read and record_stream), with a rate other than 1;
// version 9 takes far fewer bytes.
TEST(Compact, Version8And9ReadAsTheSameEvents) {
  std::string p8 = temp_path("v8"), p9 = temp_path("v9");
  for (uint32_t version : {8u, 9u}) {
    std::mt19937_64 g(77);
    wt::writer w(version == 8 ? p8 : p9,
                 wt::make_header("sw", "p", 4, 0, 500, 0.37, version));
    for (uint16_t th = 0; th < 4; ++th) {
      uint32_t id = 100000u * (th + 1);
      for (int c = 0; c < 3; ++c) {
        std::vector<wt::record> rs = valid_stream(g, th, id);
        w.write_chunk(th, rs.data(), rs.size());
      }
    }
  }
  wt::trace_data a = wt::read(p8), b = wt::read(p9);
  EXPECT_EQ(a.header.version, 8u);
  EXPECT_EQ(b.header.version, 9u);
  ASSERT_GT(a.records.size(), 4000u);
  ASSERT_EQ(a.records.size(), b.records.size());
  for (std::size_t i = 0; i < a.records.size(); ++i)
    ASSERT_TRUE(same(a.records[i], b.records[i]))
        << i << ": " << show(a.records[i]) << " / " << show(b.records[i]);
  std::vector<wt::record> sa = stream_all(p8), sb = stream_all(p9);
  ASSERT_EQ(sa.size(), a.records.size());
  ASSERT_EQ(sb.size(), sa.size());
  for (std::size_t i = 0; i < sa.size(); ++i)
    ASSERT_TRUE(same(sa[i], sb[i])) << i;
  std::ifstream f8(p8, std::ios::ate), f9(p9, std::ios::ate);
  EXPECT_LT(f9.tellg() * 2, f8.tellg());
  std::remove(p8.c_str());
  std::remove(p9.c_str());
}

namespace {

std::vector<char> bytes_of(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::string &path, const std::vector<char> &b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

// Both readers' error on path ("" if both read it).
std::string read_error(const std::string &path) {
  std::string e1, e2;
  try {
    wt::read(path);
  } catch (const wt::error &e) {
    e1 = e.what();
  }
  try {
    stream_all(path);
  } catch (const wt::error &e) {
    e2 = e.what();
  }
  EXPECT_EQ(e1.empty(), e2.empty()) << e1 << " / " << e2;
  return e1;
}

} // namespace

TEST(Compact, DamageIsAnErrorNamingFileAndOffset) {
  std::string path = temp_path("damage");
  {
    wt::writer w(path, wt::make_header("sw", "p", 1, 0));
    std::vector<wt::record> a = {
        wt::record{kind::task_spawn, 0, 0, 0, 10, 1, uint64_t(5) << 32},
        // A body of 2^17 ticks: the varint form (the short one has 16 bits).
        wt::record{kind::task_exec, 0, 0, 1u << 17, 20, 1, 18}};
    w.write_chunk(0, a.data(), a.size());
  }
  std::vector<char> good = bytes_of(path);
  std::size_t first = sizeof(wt::file_header) + sizeof(wt::chunk_header);
  wt::chunk_header c;
  std::memcpy(&c, good.data() + sizeof(wt::file_header), sizeof c);
  ASSERT_EQ(c.records, 2u);
  ASSERT_EQ(good.size(), first + c.bytes);
  EXPECT_EQ(read_error(path), "");

  std::vector<char> b = good;
  b.resize(b.size() - 1);
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("truncated chunk of " +
                                  std::to_string(c.bytes) + " bytes"),
            std::string::npos);

  b = good;
  b[first] = 60; // the first record's kind
  write_bytes(path, b);
  std::string e = read_error(path);
  EXPECT_NE(e.find("unknown record kind 60"), std::string::npos) << e;
  EXPECT_NE(e.find("at byte " + std::to_string(first)), std::string::npos) << e;
  EXPECT_NE(e.find(path), std::string::npos) << e;

  // One record fewer than the payload holds: bytes left over.
  b = good;
  uint32_t one = 1;
  std::memcpy(b.data() + sizeof(wt::file_header) + 8, &one, 4);
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("bytes after the chunk's 1 records"),
            std::string::npos);

  // One more: the payload ends first.
  b = good;
  uint32_t three = 3;
  std::memcpy(b.data() + sizeof(wt::file_header) + 8, &three, 4);
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("payload ends after 2 of 3 records"),
            std::string::npos);

  // A varint cut by the payload's end.
  b = good;
  b.back() = char(0x80);
  write_bytes(path, b);
  EXPECT_NE(read_error(path).find("runs past the chunk's end"),
            std::string::npos);
  std::remove(path.c_str());
}

namespace {

long g_cells[8];

void leaf(void *) {}

// A task that spawns dependent children and waits for them.
void parent_task(void *arg) {
  long k = reinterpret_cast<long>(arg);
  for (int i = 0; i < 20; ++i) {
    weft_dep d = {&g_cells[(k + i) % 8], i % 3 ? WEFT_INOUT : WEFT_IN};
    weft_spawn(leaf, nullptr, &d, 1);
  }
  weft_taskwait();
}

} // namespace

// What the recorder writes (format 9), rewritten as a version 8 file
// record for record, reads back as the same events and the same task graph:
// a replay of either is the same replay.
TEST(Compact, RecordedTraceReadsAsItsVersion8Copy) {
  for (int threads : {1, 2, 4}) {
    std::string p9 = temp_path("rec9"), p8 = temp_path("rec8");
    setenv("WEFT_TRACE", p9.c_str(), 1);
    ASSERT_EQ(weft_init(threads), WEFT_OK) << weft_last_error();
    for (long i = 0; i < 400; ++i) {
      weft_dep d = {&g_cells[i % 8], i % 4 ? WEFT_INOUT : WEFT_IN};
      ASSERT_EQ(
          i % 10 == 0
              ? weft_spawn(parent_task, reinterpret_cast<void *>(i), nullptr, 0)
              : weft_spawn(leaf, nullptr, &d, 1),
          WEFT_OK);
    }
    ASSERT_EQ(weft_taskwait(), WEFT_OK);
    ASSERT_EQ(weft_shutdown(), WEFT_OK);
    unsetenv("WEFT_TRACE");
    {
      std::ifstream in(p9, std::ios::binary);
      wt::file_header h;
      ASSERT_TRUE(in.read(reinterpret_cast<char *>(&h), sizeof h));
      ASSERT_EQ(h.version, wt::kVersion);
      wt::writer w(p8,
                   wt::make_header(h.engine, h.program, h.threads,
                                   h.start_unix_ns, h.tick0, h.ns_per_tick, 8));
      wt::chunk_header c;
      while (in.read(reinterpret_cast<char *>(&c), sizeof c)) {
        std::vector<uint8_t> b(c.bytes);
        ASSERT_TRUE(in.read(reinterpret_cast<char *>(b.data()), c.bytes));
        std::vector<wt::record> rs;
        std::size_t at = 0;
        ASSERT_EQ(wt::compact::decode(b.data(), b.size(), c.records, c.thread,
                                      rs, nullptr, &at),
                  "");
        w.write_chunk(c.thread, rs.data(), rs.size());
      }
    }
    wt::trace_data a = wt::read(p8), b = wt::read(p9);
    ASSERT_EQ(a.header.version, 8u);
    ASSERT_EQ(a.records.size(), b.records.size()) << threads;
    for (std::size_t i = 0; i < a.records.size(); ++i)
      ASSERT_TRUE(same(a.records[i], b.records[i])) << threads << " " << i;
    wt::task_graph ga = wt::build_graph(a), gb = wt::build_graph(b);
    EXPECT_EQ(ga.tasks.size(), gb.tasks.size());
    EXPECT_GE(gb.tasks.size(), 400u + 40u * 20u);
    EXPECT_EQ(ga.deps.size(), gb.deps.size());
    EXPECT_EQ(ga.succs, gb.succs);
    EXPECT_EQ(ga.steps.size(), gb.steps.size());
    std::ifstream f8(p8, std::ios::ate), f9(p9, std::ios::ate);
    EXPECT_LT(f9.tellg() * 2, f8.tellg()) << threads;
    std::remove(p8.c_str());
    std::remove(p9.c_str());
  }
}
