// The recorder's direct writer (recorder.hpp: each hook encodes its compact
// record at once, holding only the tail that a later hook may merge) against
// a model of the recorder it replaced (format 8's 32-byte records merged in
// place in an unbounded buffer, then encoded by compact::encode): random
// hook sequences, shaped as the core calls them, give the same records, and
// in one chunk the same bytes; with chunks of every size from the smallest,
// the chunks decode to the same records and a record's dep records are in
// its chunk; at 1, 2 and 4 threads, each with its own log.
#include "trace/compact.hpp"
#include "trace/record/recorder.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace weft::trace {
namespace {

// ---- the model: the hooks of trace format 8/9's recorder (main at
// 3b12034), on an unbounded buffer, so without its buffer-edge cases;
// and version 10's task run in place with dependences (m_inline_begun_dep,
// m_inline_begun_deps).
struct model_log {
  std::vector<record> r;
  uint16_t thread = 0;
  uint64_t mark = 0, found = 0;
  std::size_t created_at = 0;
  // The dependence lists the hooks were given, in order (m_put_deps).
  std::vector<std::vector<weft_dep>> lists;

  void put(kind k, uint8_t sub, uint32_t count, uint64_t time, uint64_t task,
           uint64_t arg) {
    r.push_back(record{k, sub, thread, count, time, task, arg});
    mark = 0;
    found = 0;
  }
  record *last() { return r.empty() ? nullptr : &r.back(); }
};

void m_scheduled(model_log &l, uint32_t id, uint64_t to) {
  uint64_t from = l.mark && l.mark <= to ? l.mark : to;
  l.put(kind::overhead, static_cast<uint8_t>(overhead_kind::schedule), 0, from,
        id, to - from);
  l.found = to;
}
bool m_began_run(model_log &l, uint32_t id) {
  if (l.found && l.last() && l.last()->task == id) {
    record &x = *l.last();
    x.type = kind::task_run;
    x.arg = x.time;
    x.time = l.found;
    l.found = 0;
    return true;
  }
  return false;
}
void m_ended(model_log &l, uint32_t id, uint64_t at) {
  record *x = l.last();
  if (x && x->type == kind::task_run && x->task == id && at >= x->time &&
      at - x->time <= UINT32_MAX) {
    x->type = kind::task_exec;
    x->count = static_cast<uint32_t>(at - x->time);
    if (l.r.size() >= 2) {
      record *p = x - 1;
      if (p->type == kind::task_exec && x->arg == p->time + p->count &&
          p->time - p->arg <= kExec2Max && x->time - x->arg <= kExec2Max &&
          x->count <= kExec2Max) {
        p->type = kind::task_exec2;
        p->arg = exec2_arg(p->time - p->arg, x->time - x->arg, x->count);
        p->task |= uint64_t(id) << 32;
        l.r.pop_back();
      }
    }
  } else {
    l.put(kind::task_end, 0, 0, at, id, 0);
  }
}
void m_retired(model_log &l, uint32_t id, uint64_t at) {
  const record *x = l.last();
  if (x && (x->type == kind::task_exec2
                ? x->task >> 32 == id
                : x->task == id && (x->type == kind::task_exec ||
                                    x->type == kind::task_end)))
    l.mark = at;
}
// The dependences after a record, built one at a time (not as
// thread_log::emit_deps packs them, so that a packing error in the recorder
// is not repeated here): a single one is a dep record; more fill deps records
// in order, each dependence going into the last one while it holds fewer
// than three (its address in the next of time, task, arg; its mode in the
// next byte of count; sub counting them). The list itself goes into `lists`,
// for the check against the decoded records (unpacked()).
void m_put_deps(model_log &l, uint64_t id, uint64_t at, const weft_dep *deps,
                int ndeps) {
  l.lists.emplace_back(deps, deps + ndeps);
  if (ndeps == 1) {
    l.r.push_back(record{kind::dep, static_cast<uint8_t>(deps[0].mode),
                         l.thread, 0, at, id,
                         reinterpret_cast<uint64_t>(deps[0].addr)});
    return;
  }
  std::size_t first = l.r.size();
  for (int i = 0; i < ndeps; ++i) {
    if (l.r.size() == first || l.r.back().sub == 3)
      l.r.push_back(record{kind::deps, 0, l.thread, 0, 0, 0, 0});
    record &x = l.r.back();
    uint64_t *slot[3] = {&x.time, &x.task, &x.arg};
    *slot[x.sub] = reinterpret_cast<uint64_t>(deps[i].addr);
    x.count += uint32_t(static_cast<uint8_t>(deps[i].mode)) << (8 * x.sub);
    ++x.sub;
  }
}
void m_created(model_log &l, uint32_t id, uint32_t parent, const weft_dep *deps,
               int ndeps, uint8_t flags, uint64_t at) {
  l.created_at = l.r.size();
  l.put(kind::task_create, flags, static_cast<uint32_t>(ndeps), at, id, parent);
  m_put_deps(l, id, at, deps, ndeps);
}
void m_spawned(model_log &l, uint32_t id, uint64_t from, uint64_t to) {
  uint64_t d = to > from ? to - from : 0;
  std::size_t n = l.r.size();
  if (l.created_at < n && l.r[l.created_at].type == kind::task_create &&
      l.r[l.created_at].task == id && d <= UINT32_MAX) {
    record &x = l.r[l.created_at];
    x.arg |= d << 32;
    if (x.count == 1 && l.created_at + 2 == n && l.r.back().type == kind::dep) {
      const record dep = l.r.back();
      x.type = kind::task_spawn_dep;
      x.sub = static_cast<uint8_t>(x.sub | dep.sub << 4);
      x.count = static_cast<uint32_t>(dep.arg >> 32);
      x.task = id | (dep.arg << 32);
      l.r.pop_back();
    } else {
      x.type = kind::task_spawn;
    }
  } else {
    l.put(kind::overhead, static_cast<uint8_t>(overhead_kind::spawn), 0, from,
          id, d);
  }
}
void m_inline_begun(model_log &l, uint32_t id, uint32_t parent, uint8_t flags,
                    uint64_t at) {
  l.put(kind::task_inline, flags, 0, at, id, parent);
}
// Version 10: a task run in place with one dependence is one
// task_inline_dep, laid out here field by field from the format's
// description (trace_format.hpp): sub = flags | mode << 4, task = id | the
// address's low half << 32, count = its high half, arg = parent (its end,
// when it comes inside, adds the body's length << 32 and kInlineEnded).
void m_inline_begun_dep(model_log &l, uint32_t id, uint32_t parent,
                        const weft_dep &d, uint8_t flags, uint64_t at) {
  l.lists.push_back({d});
  const uint64_t addr = reinterpret_cast<uint64_t>(d.addr);
  l.put(kind::task_inline_dep,
        static_cast<uint8_t>(flags + 16 * static_cast<unsigned>(d.mode)),
        static_cast<uint32_t>(addr / (uint64_t(1) << 32)), at,
        id + (addr % (uint64_t(1) << 32)) * (uint64_t(1) << 32), parent);
}
// More than one dependence: task_create, its dependences, task_begin.
void m_inline_begun_deps(model_log &l, uint32_t id, uint32_t parent,
                         const weft_dep *deps, int ndeps, uint8_t flags,
                         uint64_t at) {
  l.put(kind::task_create, flags, static_cast<uint32_t>(ndeps), at, id, parent);
  m_put_deps(l, id, at, deps, ndeps);
  l.put(kind::task_begin, 0, 0, at, id, 0);
}
void m_inline_ended(model_log &l, uint32_t id, uint64_t at) {
  record *x = l.last();
  if (x && x->type == kind::task_inline && x->task == id &&
      !(x->sub & kInlineEnded) && at >= x->time && at - x->time <= UINT32_MAX) {
    x->sub = static_cast<uint8_t>(x->sub | kInlineEnded);
    x->count = static_cast<uint32_t>(at - x->time);
  } else if (x && x->type == kind::task_inline_dep &&
             x->task % (uint64_t(1) << 32) == id && !(x->sub & kInlineEnded) &&
             at >= x->time && at - x->time <= UINT32_MAX) {
    x->sub = static_cast<uint8_t>(x->sub | kInlineEnded);
    x->arg += (at - x->time) * (uint64_t(1) << 32);
  } else {
    l.put(kind::task_end, 0, 0, at, id, 0);
  }
}

// ---- both, driven by one random program --------------------------------
struct chunks {
  std::mutex lock;
  struct chunk {
    uint16_t thread;
    std::size_t records;
    std::vector<uint8_t> bytes;
  };
  std::vector<chunk> got;
  static void sink(void *ctx, uint16_t thread, std::size_t records,
                   const uint8_t *data, std::size_t bytes) {
    auto *c = static_cast<chunks *>(ctx);
    std::lock_guard<std::mutex> lk(c->lock);
    c->got.push_back(
        {thread, records, std::vector<uint8_t>(data, data + bytes)});
  }
};

struct driver {
  std::mt19937_64 rng;
  thread_log &l;
  model_log m;
  uint64_t now = 1000;
  uint32_t next_id = 1;
  std::vector<weft_dep> deps;

  driver(uint64_t seed, thread_log &log) : rng(seed), l(log) {
    m.thread = l.thread;
  }
  uint64_t pick(uint64_t n) { return rng() % n; }
  // Time steps: mostly small (the short forms), sometimes past 16, 21 and
  // 32 bits (the varint forms, the unmerged records).
  uint64_t step() {
    switch (pick(40)) {
    case 0:
      return uint64_t(1) << 16 | pick(1000);
    case 1:
      return uint64_t(1) << 21 | pick(1000);
    case 2:
      return (uint64_t(1) << 32) + pick(1000);
    case 3:
      return 0;
    default:
      return 1 + pick(300);
    }
  }
  uint64_t tick() { return now += step(); }
  // The id the log's next fresh_id() gives (a block of one; the model is
  // told it).
  uint32_t fresh() {
    l.next_id = l.id_first = next_id;
    l.id_end = next_id + 1;
    return next_id++;
  }
  void make_deps(int n) {
    deps.resize(static_cast<std::size_t>(n));
    uint64_t base = 0x7f0000001000u + pick(64) * 64;
    for (weft_dep &d : deps) {
      base += pick(8) == 0 ? (uint64_t(1) << 40) : 64 * pick(4);
      d.addr = reinterpret_cast<void *>(base);
      d.mode = static_cast<weft_dep_mode>(1 + pick(5));
    }
  }
  void spawn(uint32_t parent) {
    int nd = pick(3) == 0   ? 0
             : pick(4) == 0 ? 2 + static_cast<int>(pick(20))
                            : 1;
    make_deps(nd);
    uint8_t flags = static_cast<uint8_t>(pick(4) == 0 ? flag_final : 0);
    uint64_t at = tick();
    uint32_t id = fresh();
    ASSERT_EQ(created(l, parent, deps.data(), nd, flags, at), id);
    m_created(m, id, parent, deps.data(), nd, flags, at);
    uint64_t to = at + step();
    now = to;
    spawned(l, id, at, to);
    m_spawned(m, id, at, to);
  }
  void other(uint32_t cur) {
    uint64_t at = tick();
    switch (pick(4)) {
    case 0: {
      int nd = static_cast<int>(pick(12));
      make_deps(nd);
      wait_begin_at(l, wait_kind::taskwait, cur, deps.data(), nd, at);
      m.put(kind::wait_begin, static_cast<uint8_t>(wait_kind::taskwait),
            uint32_t(nd), at, cur, 0);
      m_put_deps(m, cur, at, deps.data(), nd);
      break;
    }
    case 1: {
      uint64_t v = pick(100);
      l.put(kind::counter, 1, 0, at, 0, v);
      m.put(kind::counter, 1, 0, at, 0, v);
      break;
    }
    default: {
      uint64_t to = at + step();
      overhead(l, overhead_kind::finish, cur, at, to);
      m.put(kind::overhead, static_cast<uint8_t>(overhead_kind::finish), 0, at,
            cur, to - at);
      now = to;
      break;
    }
    }
  }
  // The body of task cur: spawns, tasks run in place, other records.
  void body(uint32_t cur, int depth) {
    int n = static_cast<int>(pick(4));
    for (int i = 0; i < n; ++i) {
      switch (pick(depth > 2 ? 2 : 4)) {
      case 0:
        spawn(cur);
        break;
      case 1:
        other(cur);
        break;
      case 2:
        run_inline(cur, depth + 1);
        break;
      default:
        run(depth + 1);
        break;
      }
    }
  }
  void run_inline(uint32_t parent, int depth) {
    uint64_t at = tick();
    uint8_t flags = static_cast<uint8_t>(pick(2) ? flag_undeferred : 0);
    uint32_t id = fresh();
    // Mostly no dependence or one (task_inline, task_inline_dep), sometimes
    // several (task_create, deps, task_begin).
    int nd = pick(3) == 0   ? 0
             : pick(5) == 0 ? 2 + static_cast<int>(pick(7))
                            : 1;
    make_deps(nd);
    if (nd == 0) {
      ASSERT_EQ(inline_begun(l, parent, flags, at), id);
      m_inline_begun(m, id, parent, flags, at);
    } else if (nd == 1) {
      ASSERT_EQ(inline_begun_dep(l, parent, deps[0], flags, at), id);
      m_inline_begun_dep(m, id, parent, deps[0], flags, at);
    } else {
      ASSERT_EQ(inline_begun_deps(l, parent, deps.data(), nd, flags, at), id);
      m_inline_begun_deps(m, id, parent, deps.data(), nd, flags, at);
    }
    if (pick(3) == 0)
      body(id, depth);
    uint64_t end = tick();
    inline_ended(l, id, end);
    m_inline_ended(m, id, end);
  }
  // A task found (as search_end or an immediate successor): schedule
  // segment, start, body, end, retirement.
  void run(int depth) {
    uint32_t id = 1 + static_cast<uint32_t>(pick(next_id + 3));
    if (pick(4) == 0) { // the search's start not at the last end
      l.mark = m.mark = pick(2) ? 0 : now;
    }
    uint64_t to = tick();
    scheduled_at(l, id, to);
    m_scheduled(m, id, to);
    if (pick(10) == 0) { // something between schedule and start
      other(id);
    }
    bool a = began_run(l, id);
    bool b = m_began_run(m, id);
    ASSERT_EQ(a, b);
    if (!a) {
      uint64_t at = tick();
      l.put(kind::task_begin, 0, 0, at, id, 0);
      m.put(kind::task_begin, 0, 0, at, id, 0);
    }
    if (pick(3) == 0)
      body(id, depth);
    uint64_t end = tick();
    ended(l, id, end);
    m_ended(m, id, end);
    if (pick(8) == 0)
      other(id);
    retired(l, id, end);
    m_retired(m, id, end);
    ASSERT_EQ(l.mark, m.mark) << "retired " << id;
  }
  void program(int steps) {
    for (int i = 0; i < steps && !::testing::Test::HasFatalFailure(); ++i) {
      switch (pick(5)) {
      case 0:
        spawn(1);
        break;
      case 1:
        run_inline(1, 1);
        break;
      case 2:
        other(1);
        break;
      default:
        run(0);
        break;
      }
    }
    l.settle();
  }
};

// The chunks of thread t decoded in order, checking each chunk's count, its
// bytes, and that a record's dep records are in its chunk.
std::vector<record> decoded(const chunks &c, uint16_t t) {
  std::vector<record> all, one;
  for (const chunks::chunk &k : c.got) {
    if (k.thread != t)
      continue;
    std::size_t at = 0;
    std::string why =
        compact::decode(k.bytes.data(), k.bytes.size(),
                        static_cast<uint32_t>(k.records), t, one, nullptr, &at);
    EXPECT_EQ(why, "") << "at byte " << at;
    std::size_t owed = 0; // dep records the chunk still owes
    for (const record &r : one) {
      if (r.type == kind::dep || r.type == kind::deps) {
        EXPECT_GT(owed, 0u) << "a dep record at a chunk's start";
        if (owed)
          --owed;
      } else {
        EXPECT_EQ(owed, 0u) << "dep records split across chunks";
        if (r.type == kind::task_create || r.type == kind::task_spawn ||
            r.type == kind::wait_begin)
          owed = deps_records(static_cast<int>(r.count));
      }
    }
    EXPECT_EQ(owed, 0u) << "dep records split across chunks";
    all.insert(all.end(), one.begin(), one.end());
  }
  return all;
}

// The dependence lists in decoded records, read back by the format
// (docs/trace-format.md): a task_spawn_dep's or task_inline_dep's one
// inside it; after a
// task_create, task_spawn or wait_begin of count n, one dep record when n is
// 1, else deps records of sub (1-3) dependences each, addresses in time,
// task, arg and modes in count's bytes from bit 0.
std::vector<std::vector<weft_dep>> unpacked(const std::vector<record> &rs) {
  auto dep = [](uint64_t addr, unsigned mode) {
    return weft_dep{reinterpret_cast<void *>(addr),
                    static_cast<weft_dep_mode>(mode)};
  };
  std::vector<std::vector<weft_dep>> out;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const record &r = rs[i];
    if (r.type == kind::task_spawn_dep || r.type == kind::task_inline_dep) {
      out.push_back(
          {dep(uint64_t(r.count) << 32 | r.task >> 32, (r.sub >> 4) & 7)});
      continue;
    }
    if (r.type != kind::task_create && r.type != kind::task_spawn &&
        r.type != kind::wait_begin)
      continue;
    std::vector<weft_dep> l;
    if (r.count == 1 && i + 1 < rs.size() && rs[i + 1].type == kind::dep) {
      ++i;
      l.push_back(dep(rs[i].arg, rs[i].sub));
    }
    while (l.size() < r.count && i + 1 < rs.size() &&
           rs[i + 1].type == kind::deps) {
      const record &d = rs[++i];
      const uint64_t addr[3] = {d.time, d.task, d.arg};
      for (unsigned j = 0; j < d.sub && j < 3; ++j)
        l.push_back(dep(addr[j], (d.count >> (8 * j)) & 0xff));
    }
    out.push_back(std::move(l));
  }
  return out;
}

void expect_same_lists(const std::vector<std::vector<weft_dep>> &got,
                       const std::vector<std::vector<weft_dep>> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].size(), want[i].size()) << "list " << i;
    for (std::size_t j = 0; j < got[i].size(); ++j) {
      EXPECT_EQ(got[i][j].addr, want[i][j].addr)
          << "list " << i << " dep " << j;
      EXPECT_EQ(got[i][j].mode, want[i][j].mode)
          << "list " << i << " dep " << j;
    }
  }
}

void expect_same(const std::vector<record> &got,
                 const std::vector<record> &want) {
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const record &a = got[i], &b = want[i];
    ASSERT_TRUE(a.type == b.type && a.sub == b.sub && a.count == b.count &&
                a.time == b.time && a.task == b.task && a.arg == b.arg)
        << "record " << i << ": kind " << int(a.type) << " / " << int(b.type)
        << ", time " << a.time << " / " << b.time << ", task " << a.task
        << " / " << b.task << ", arg " << a.arg << " / " << b.arg << ", count "
        << a.count << " / " << b.count;
  }
  ASSERT_EQ(got.size(), want.size());
}

// The model's records with thread t, encoded as one chunk.
std::vector<uint8_t> model_bytes(const model_log &m) {
  std::vector<uint8_t> out(m.r.size() * compact::kMaxRecordBytes +
                           compact::kSlack);
  compact::state s;
  uint8_t *p = out.data();
  for (const record &r : m.r)
    p = compact::encode(s, r, p);
  out.resize(static_cast<std::size_t>(p - out.data()));
  return out;
}

TEST(DirectWriter, SameBytesAsTheModelInOneChunk) {
  // Every kind the hooks merge, and the unmerged ones, are exercised.
  std::vector<int> seen(static_cast<std::size_t>(kLastKind) + 1, 0);
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    chunks c;
    thread_log *l = thread_log::make(3, std::size_t(1) << 24, chunks::sink, &c);
    driver d(seed, *l);
    d.program(400);
    l->write_packed();
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "seed " << seed;
    ASSERT_EQ(c.got.size(), 1u);
    EXPECT_EQ(c.got[0].records, d.m.r.size()) << "seed " << seed;
    EXPECT_TRUE(c.got[0].bytes == model_bytes(d.m)) << "seed " << seed;
    std::vector<record> got = decoded(c, 3);
    expect_same(got, d.m.r);
    expect_same_lists(unpacked(got), d.m.lists);
    for (const record &r : d.m.r)
      ++seen[static_cast<std::size_t>(r.type)];
    thread_log::destroy(l);
  }
  for (kind k :
       {kind::task_create, kind::dep, kind::deps, kind::task_spawn,
        kind::task_spawn_dep, kind::overhead, kind::task_begin, kind::task_run,
        kind::task_end, kind::task_exec, kind::task_exec2, kind::task_inline,
        kind::task_inline_dep, kind::wait_begin})
    EXPECT_GT(seen[static_cast<std::size_t>(k)], 0) << "kind " << int(k);
}

TEST(DirectWriter, ChunksOfEverySizeDecodeToTheModel) {
  std::size_t least = compact::kMaxRecordBytes + compact::kSlack;
  for (std::size_t extra = 0; extra < 160; ++extra) {
    chunks c;
    thread_log *l = thread_log::make(1, least + extra, chunks::sink, &c);
    driver d(1000 + extra, *l);
    d.program(150);
    l->write_packed();
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "extra " << extra;
    EXPECT_GT(c.got.size(), 1u);
    std::vector<record> got = decoded(c, 1);
    expect_same(got, d.m.r);
    expect_same_lists(unpacked(got), d.m.lists);
    if (::testing::Test::HasFailure())
      FAIL() << "chunk of " << least + extra << " bytes";
    thread_log::destroy(l);
  }
}

void threads_each_own_log(int threads) {
  chunks c;
  std::vector<thread_log *> logs;
  std::vector<model_log> models(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t)
    logs.push_back(
        thread_log::make(static_cast<uint16_t>(t), 4096, chunks::sink, &c));
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      driver d(77 + static_cast<uint64_t>(t), *logs[t]);
      d.program(3000);
      logs[t]->write_packed();
      models[t] = d.m;
    });
  for (std::thread &t : ts)
    t.join();
  for (int t = 0; t < threads; ++t) {
    std::vector<record> got = decoded(c, static_cast<uint16_t>(t));
    expect_same(got, models[t].r);
    expect_same_lists(unpacked(got), models[t].lists);
    thread_log::destroy(logs[t]);
  }
}

TEST(DirectWriter, OneThread) { threads_each_own_log(1); }
TEST(DirectWriter, TwoThreads) { threads_each_own_log(2); }
TEST(DirectWriter, FourThreads) { threads_each_own_log(4); }

// A record between a task's creation and its spawn segment's end (the core
// writes none there): the creation is written as it was (task_create and
// its dep record), and the segment as an overhead record.
TEST(DirectWriter, RecordBetweenCreationAndSpawnEnd) {
  chunks c;
  thread_log *l = thread_log::make(0, 4096, chunks::sink, &c);
  l->next_id = l->id_first = 5;
  l->id_end = 6;
  weft_dep dep{reinterpret_cast<void *>(0x1000), WEFT_INOUT};
  uint32_t id = created(*l, 2, &dep, 1, 0, 100);
  l->put(kind::counter, 1, 0, 110, 0, 7);
  spawned(*l, id, 100, 120);
  l->write_packed();
  std::vector<record> r = decoded(c, 0);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].type, kind::task_create);
  EXPECT_EQ(r[0].time, 100u);
  EXPECT_EQ(r[1].type, kind::dep);
  EXPECT_EQ(r[1].arg, 0x1000u);
  EXPECT_EQ(r[2].type, kind::counter);
  EXPECT_EQ(r[3].type, kind::overhead);
  EXPECT_EQ(r[3].sub, static_cast<uint8_t>(overhead_kind::spawn));
  EXPECT_EQ(r[3].arg, 20u);
  thread_log::destroy(l);
}

} // namespace
} // namespace weft::trace
