// at() across ranks on the comm layer (docs/places.md, the wire protocol):
// the incoming heap of each rank's window (a ring reserved by a remote
// fetch-and-add on its top, freed out of order, its tail published for the
// reservers), the call and reply messages, and places_mpi_init/finalize.
#include "at_split.hpp"
#include "block_cache.hpp"
#include "comm.hpp"
#include "ring_index.hpp"

#include "places/dist_seam.hpp"

#include <weft/dist.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace weft {

namespace {

using detail::dist_ops;
using detail::graph_buffer;
using dist::am_header;
using dist::comm;

constexpr std::uint32_t kCall = 1, kReply = 2, kForfeit = 3, kHoles = 4;
constexpr std::uint64_t kReplyValue = 0, kReplyGraph = 1, kReplyError = 2,
                        kReplyKindMask = 63;
// Window layout: [0, 8) the incoming heap's top, [8, 16) its tail, [16, 24)
// the digest of the registered types, [24, 48 + 16 kMaxPins) the holes
// (below: a version word, the tail past the pinned graphs, their count and
// [start, end) positions), [256, 256 + managed) this place's own objects,
// then the incoming ring of `ring` bytes and `slack` bytes past it (a graph
// never wraps: one that starts near the ring's end runs on into the slack).
constexpr std::size_t kTopDisp = 0, kTailDisp = 8, kTypesDisp = 16,
                      kHolesVersionDisp = 24, kHolesDisp = 32, kBuildDisp = 176,
                      kArenaDisp = 256;
// Holes: graphs still live at the tail (a long-running call's) that senders
// may reserve around, at most this many at a time.
constexpr std::size_t kMaxPins = 8;
static_assert(kHolesDisp + 16 + 16 * kMaxPins <= kBuildDisp &&
              kBuildDisp + 8 <= kArenaDisp);
constexpr std::size_t kDefaultBytes = std::size_t(256) << 20;
// The ring restarts once drained past this (restart_if_drained): graphs of
// up to this size cycle over at most twice as much, which stays in a 1 MiB
// L2 cache; a larger one restarts after each call and lands where the last
// did. With 16 MiB, a 512 KiB array's put took 97-171 us (its destination
// cold) against 21 us with the ring's first pages warm, and an MPI_Put of
// the same bytes to one place 12-13 us (load 8). Defined in weft/dist.hpp
// (bench/places_dist mirrors the ring with it).
constexpr std::size_t kRestartPast = detail::kRingRestartPast;

std::size_t round64(std::size_t n) { return (n + 63) & ~std::size_t(63); }

// A call that arrived, for the workers: the waiting worker that received it
// runs it when its poll returns, else the team's inbox hands it to the first
// idle one. Captures up to kInlineCaptures bytes are kept in the job itself;
// the job's block comes from the receiving thread's block_cache (no
// allocation per call once a thread has run calls).
constexpr std::size_t kInlineCaptures = 64;
struct arrived : inbox_job {
  int from = 0;
  std::uint64_t seq = 0;
  detail::remote_serve_fn fn = nullptr;
  void *root = nullptr;
  graph_buffer graph;
  std::size_t ncaptures = 0;
  alignas(16) char small[kInlineCaptures];
  std::unique_ptr<char[]> large;
  const char *captures() const { return large ? large.get() : small; }
};
using arrived_blocks = dist::block_cache<sizeof(arrived), 8>;
static_assert(alignof(arrived) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
struct arrived_free {
  void operator()(arrived *a) const {
    a->~arrived();
    arrived_blocks::give(a);
  }
};
using arrived_ptr = std::unique_ptr<arrived, arrived_free>;

struct pending {
  void *ctx;
  detail::remote_done_fn done;
  int target = -1; // the rank called (places_mpi_finalize's bound names it)
};

// The pending calls of this rank: the call with sequence number s owns slot
// s % kCallSlots while it waits (taken by a compare-and-swap from free, its
// reply frees it), so a call and its reply take no lock; a call whose slot
// is still taken (one kCallSlots calls older is still pending) goes to the
// overflow map under a mutex.
constexpr std::uint64_t kCallSlots = 1024, kSlotFree = 0,
                        kSlotFilling = ~std::uint64_t(0);
struct call_slot {
  // kSlotFree, kSlotFilling (being written), or the owner's sequence
  // number (released after ctx and done are written).
  std::atomic<std::uint64_t> seq{kSlotFree};
  pending p{};
  // p.target, readable by the finalize bound's report while p is written.
  std::atomic<int> target{-1};
};

struct state {
  comm *c = nullptr;
  std::size_t managed = 0, incoming = 0, ring = 0, slack = 0;
  std::int64_t full_timeout_ms = 5000;
  bool restart = true; // WEFT_DIST_RING_RESTART (for the before/after figures)
  std::size_t restart_past = 0; // restart_if_drained
  // This rank's incoming heap (heap_lock): the blocks past the tail, graphs
  // that arrived and are not released yet (live) and released ranges, by
  // position in a flat table (ring_index.hpp: O(1); a graph may lie more
  // than a lap past the tail when the tail waits behind a pinned one).
  std::mutex heap_lock;
  std::unique_ptr<dist::ring_index> blocks;
  // The holes last published (heap_lock): the tail past the pinned graphs
  // and those graphs; none published: empty pins.
  std::uint64_t holes_tail = 0, holes_version = 0;
  bool holes_wanted = false; // a sender found the ring full (kHoles)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pins;
  std::atomic<std::uint64_t> holes_published{0}, pinned_skips{0};
  // Written under heap_lock; read without it for the replies.
  std::atomic<std::uint64_t> tail{0};
  // The tail in the window (heap_lock; publish_tail_locked): what it last
  // published, and until where every move is published (a sender asked).
  std::uint64_t tail_published = 0, tail_wanted_until = 0;
  std::uint64_t tail_publish_every = 0; // ring / 16
  bool restarting = false; // a worker is restarting the ring (heap_lock)
  std::atomic<std::uint64_t> restarts{0}, restarts_lost{0}, straddles{0};
  // Arrays staged in the intermediate buffer (page_aliased).
  std::atomic<std::uint64_t> puts_staged{0};
  // Result graphs left in the ring because the arena had no room for them.
  std::atomic<std::uint64_t> results_kept_in_ring{0};
  // What this rank last read of each target's tail.
  std::unique_ptr<std::atomic<std::uint64_t>[]> tails;
  std::unique_ptr<call_slot[]> slots{new call_slot[kCallSlots]};
  std::mutex calls_lock; // calls: the overflow of slots
  std::unordered_map<std::uint64_t, pending> calls;
  std::atomic<std::uint64_t> calls_overflowed{0};
  std::atomic<std::uint64_t> next_seq{1};
  // Calls that arrived and are not over: counted on arrival (on_call) and
  // uncounted when start_arrived has done with everything, the graph's
  // release after the reply included. places_mpi_finalize waits for 0.
  std::atomic<std::uint64_t> serving{0};
  double finalize_timeout_s = 60; // WEFT_DIST_FINALIZE_TIMEOUT
  dist_ops ops{};
};
state *g = nullptr;

char *incoming_at(std::uint64_t pos) {
  return g->c->window() + g->incoming + pos % g->ring;
}

// Under heap_lock: the holes (docs/places.md, memory reclamation). Past
// the tail, released ranges and up to kMaxPins graphs still live (pinned)
// lead to the tail past the pinned graphs; a sender whose range reaches
// beyond a lap past the tail reads them (read_holes) and takes its range
// when it stays within a lap past that tail and off the pinned graphs'
// memory. Published under a version word (odd while written) once a sender
// asked (kHoles: it found the ring full), until no graph is pinned (a ring
// that does not fill publishes nothing but its tail).
void publish_holes_locked() {
  if (!g->holes_wanted)
    return;
  std::uint64_t t = g->tail.load(std::memory_order_relaxed);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pins;
  for (;;) {
    const dist::ring_index::block b = g->blocks->find(t);
    if (b.k == dist::ring_index::kind::released) {
      t = b.end;
      continue;
    }
    if (b.k != dist::ring_index::kind::live || pins.size() == kMaxPins)
      break;
    pins.emplace_back(b.start, b.end);
    t = b.end;
  }
  if (pins.empty() && g->pins.empty()) {
    g->holes_wanted = false;
    return;
  }
  if (pins == g->pins && t == g->holes_tail)
    return;
  g->c->publish(kHolesVersionDisp, ++g->holes_version); // odd: being written
  g->c->publish(kHolesDisp, t);
  g->c->publish(kHolesDisp + 8, pins.size());
  for (std::size_t i = 0; i < pins.size(); ++i) {
    g->c->publish(kHolesDisp + 16 + 16 * i, pins[i].first);
    g->c->publish(kHolesDisp + 24 + 16 * i, pins[i].second);
  }
  g->c->publish(kHolesVersionDisp, ++g->holes_version);
  if (pins.empty())
    g->holes_wanted = false; // until a sender finds the ring full again
  g->holes_tail = t;
  g->pins = std::move(pins);
  g->holes_published.fetch_add(1, std::memory_order_relaxed);
}

// Under heap_lock: writes the tail into the window (an MPI_Accumulate and
// a flush on this rank's own window, about 1 000 instructions; in order:
// publications are queued under the lock).
void publish_tail_locked() {
  const std::uint64_t t = g->tail.load(std::memory_order_relaxed);
  if (t == g->tail_published)
    return;
  g->c->publish(kTailDisp, t);
  g->tail_published = t;
}

// Under heap_lock: frees [start, end) and moves the tail. The window's tail
// is read only by senders that find the ring full (reserve: the replies
// carry the tail to the others), so it is published lazily: once it moved
// ring / 16 past the last publication, and at every move while a sender
// asked (kHoles, sent as soon as it finds the ring full and every ~5 ms
// while it waits: on_holes publishes at once, and every move for a lap
// after). A stale tail only makes a sender wait, never overwrite.
void release_locked(std::uint64_t start, std::uint64_t end) {
  const std::uint64_t before = g->tail.load(std::memory_order_relaxed);
  const std::uint64_t t = g->blocks->release(start, end, before);
  if (t != before) {
    g->tail.store(t, std::memory_order_relaxed);
    if (t < g->tail_wanted_until ||
        t - g->tail_published >= g->tail_publish_every)
      publish_tail_locked();
  }
  publish_holes_locked();
}

// What a sender read of rank to's holes.
struct holes_view {
  std::uint64_t tail = 0;
  std::uint64_t n = 0;
  std::uint64_t pins[kMaxPins][2] = {};
};

// Reads rank to's holes consistently (the version word before and after,
// even and equal); false when it kept changing.
bool read_holes(int to, holes_view &v) {
  for (int tries = 0; tries < 64; ++tries) {
    std::uint64_t v1 = g->c->fetch_add(to, kHolesVersionDisp, 0);
    if (v1 & 1)
      continue;
    g->c->get(to, kHolesDisp, &v, sizeof v);
    std::uint64_t v2 = g->c->fetch_add(to, kHolesVersionDisp, 0);
    if (v1 == v2 && v.n <= kMaxPins)
      return true;
  }
  return false;
}

// The ring restart (docs/places.md, the incoming heap). When every graph the
// ring took is released, the next would land past them, on pages not
// touched since the window was mapped (a first-touch fault per page until
// the ring wraps). So the owner reserves the rest of the lap with the
// fetch-and-add on top that the senders use, and releases it at once: the
// tail moves to the lap's end and the next graph lands on the ring's first,
// warm pages. Drained means top == tail, read just before; a sender that
// reserves between that read and the add makes the owner's range one past
// the sender's, released all the same (a lost restart: the range is skipped,
// never written, and until the sender's graph is released the ring holds
// only what lies before the drained position, or what a sender that finds
// it full reserves around the graph through the holes). Hence only once
// drained past restart_past = min(ring / 2, kRestartPast): a lost restart
// leaves at least that much usable, and graphs cycle over the ring's first
// restart_past bytes (plus one graph) of warm pages, small enough to stay in
// the cache (kRestartPast). On a
// worker that released a graph, outside heap_lock: in the FUNNELED
// discipline the atomics wait for the progress thread, which takes
// heap_lock for forfeits.
void restart_if_drained() {
  std::uint64_t t;
  {
    std::lock_guard<std::mutex> lk(g->heap_lock);
    t = g->tail.load(std::memory_order_relaxed);
    if (g->restarting || g->blocks->released() != 0 ||
        t % g->ring < g->restart_past)
      return;
    g->restarting = true;
  }
  const int me = g->c->rank();
  const std::uint64_t rest = g->ring - t % g->ring;
  // A hint (a local load: the senders' adds are atomics on this memory);
  // the add below decides (got == t), and a stale hint only loses a restart.
  const bool drained = g->c->read_own(kTopDisp) == t;
  std::uint64_t got = 0;
  if (drained)
    got = g->c->fetch_add(me, kTopDisp, rest);
  std::lock_guard<std::mutex> lk(g->heap_lock);
  if (drained) {
    (got == t ? g->restarts : g->restarts_lost)
        .fetch_add(1, std::memory_order_relaxed);
    release_locked(got, got + rest);
  }
  g->restarting = false;
}

// Raises what this rank knows of rank r's tail to t (a reply carries it).
void saw_tail(int r, std::uint64_t t) {
  std::atomic<std::uint64_t> &known = g->tails[r];
  std::uint64_t k = known.load(std::memory_order_relaxed);
  while (k < t &&
         !known.compare_exchange_weak(k, t, std::memory_order_relaxed)) {
  }
}

void release_interval(std::uint64_t start, std::uint64_t end) {
  std::lock_guard<std::mutex> lk(g->heap_lock);
  release_locked(start, end);
}

void forfeit(int to, std::uint64_t pos, std::uint64_t n) {
  am_header h;
  h.handler = kForfeit;
  h.a[0] = pos;
  h.a[1] = n;
  g->c->send(to, h, nullptr);
}

// Reserves n bytes (a multiple of kRingGranule) of rank to's incoming heap;
// returns the position (monotonic; the address is its remainder modulo the
// ring).
std::uint64_t reserve(const char *call, int to, std::size_t n) {
  std::uint64_t pos = g->c->fetch_add(to, kTopDisp, n);
  std::atomic<std::uint64_t> &tail = g->tails[to];
  if (pos + n - tail.load(std::memory_order_relaxed) <= g->ring)
    return pos;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(g->full_timeout_ms);
  for (int round = 0;; ++round) {
    if (round % 100 == 0) { // about every 5 ms: publish your holes
      am_header h;
      h.handler = kHoles;
      g->c->send(to, h, nullptr);
    }
    std::uint64_t t = g->c->fetch_add(to, kTailDisp, 0);
    tail.store(t, std::memory_order_relaxed);
    if (pos + n - t <= g->ring)
      return pos;
    // The tail may wait behind graphs still live (a long call's): reserve
    // around them when the holes past them make room.
    holes_view v;
    if (read_holes(to, v) && v.n && v.tail > t && pos + n - v.tail <= g->ring) {
      const std::uint64_t at = pos % g->ring;
      bool over = false;
      for (std::uint64_t i = 0; i < v.n && !over; ++i) {
        std::uint64_t a = v.pins[i][0] % g->ring;
        over = at < a + (v.pins[i][1] - v.pins[i][0]) && a < at + n;
      }
      if (!over) {
        g->pinned_skips.fetch_add(1, std::memory_order_relaxed);
        return pos;
      }
      // Over a pinned graph's memory: give the range back, take the next.
      forfeit(to, pos, n);
      pos = g->c->fetch_add(to, kTopDisp, n);
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      forfeit(to, pos, n);
      throw std::length_error(
          std::string(call) + ": the incoming heap of rank " +
          std::to_string(to) + " stayed full for " +
          std::to_string(g->full_timeout_ms / 1000) + " s (" +
          std::to_string(pos + n - t) + " of " + std::to_string(g->ring) +
          " bytes needed live: release the graphs it holds, or raise "
          "WEFT_PLACE_BYTES)");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// The 16 Ki and 64 Ki anomaly (docs/places.md): glibc's memcpy (the
// MPI_Put into a window on this node, and copy_into's) copies 2 KiB to
// 1 MiB with `rep movsb`, which on AMD Zen 4 (glibc 2.36) ran 16 times
// slower when the destination lies 1-15 bytes past the source modulo a
// page (37.4 us against 2.3 us for 128 KiB; 1.7 times at 33-63 bytes for
// some alignments). Pairs closer than this are staged. A leaf graph's
// arrays never are: they lie at their source's address modulo 64
// (graph_copy.cpp, store_pad) and the window starts on a page
// (comm.cpp, kWindowAlign); a graph copied by pointer reversal's may.
constexpr std::uintptr_t kAliasBytes = 64, kPage = 4096;
bool page_aliased(std::uintptr_t dst, const void *src) {
  const std::uintptr_t d =
      (dst - reinterpret_cast<std::uintptr_t>(src)) & (kPage - 1);
  return d != 0 && d < kAliasBytes;
}

// The intermediate buffer of this thread (64-byte aligned, grows).
char *scratch(std::size_t n) {
  struct buffer {
    char *p = nullptr;
    std::size_t n = 0;
    ~buffer() { ::operator delete[](p, std::align_val_t(64)); }
  };
  thread_local buffer b;
  if (n > b.n) {
    ::operator delete[](b.p, std::align_val_t(64));
    b.n = std::max(n, 2 * b.n);
    b.p = static_cast<char *>(::operator new[](b.n, std::align_val_t(64)));
  }
  return b.p;
}

// Bodies up to this size (with the 8-byte object count: comm's eager
// limit, 1 KiB) are built on the stack.
constexpr std::size_t kSmallBody = 1024 - 8;

// Sends h (+ [objects][payload]) to `to`, with root's graph copied into to's
// incoming heap first when root is not null: measured, a range reserved,
// copied into the intermediate buffer with pointers pre-adjusted to that
// range, moved with one MPI_Put.
void send_with_graph(const char *call, int to, am_header h, const void *root,
                     copy_map map, const void *payload, std::size_t n) {
  if (!root && n <= kSmallBody) {
    // The empty path (a call's captures, a value reply): the body on the
    // stack, no thread-local vector to find and resize.
    alignas(16) char small[8 + kSmallBody];
    std::memset(small, 0, 8);
    if (n)
      std::memcpy(small + 8, payload, n);
    h.payload = std::uint32_t(8 + n);
    g->c->send(to, h, small);
    return;
  }
  thread_local std::vector<char> body; // no allocation once grown
  body.resize(8 + n);
  if (n)
    std::memcpy(body.data() + 8, payload, n);
  h.payload = std::uint32_t(body.size());
  if (!root) {
    std::memset(body.data(), 0, 8);
    g->c->send(to, h, body.data());
    return;
  }
  graph_size gs = detail::measure_for(call, root);
  std::size_t need = detail::ring_bytes(gs.bytes);
  if (need > g->slack)
    throw std::length_error(
        std::string(call) + ": the graph of " + std::to_string(gs.objects) +
        " objects (" + std::to_string(gs.bytes) +
        " bytes) is larger than the largest graph rank " + std::to_string(to) +
        " takes (" + std::to_string(g->slack) + " bytes: WEFT_PLACE_BYTES/4)");
  std::uint64_t pos = reserve(call, to, need);
  std::size_t disp = g->incoming + pos % g->ring;
  std::uintptr_t final_addr = g->c->remote_window(to) + disp;
  // buf lies half a page off the graph's destination modulo a page: its
  // put, and a staged array's copy into it, are never page-aliased.
  char *buf = scratch(gs.bytes + kPage);
  buf += (final_addr + kPage / 2 - reinterpret_cast<std::uintptr_t>(buf)) &
         (kPage - 1);
  void *mid;
  // Large primitive arrays go from their sources straight into the target's
  // window (one copy, as the paper's unit moves them), the rest from buf.
  thread_local std::vector<detail::direct_store> direct;
  thread_local std::vector<dist::put_part> parts;
  const bool gather = gs.bytes < (std::size_t(1) << 30);
  try {
    mid = detail::copy_graph_to(
        call, root, gs, buf,
        std::intptr_t(final_addr - reinterpret_cast<std::uintptr_t>(buf)), map,
        gather ? &direct : nullptr);
  } catch (...) {
    forfeit(to, pos, need);
    throw;
  }
  parts.clear();
  std::size_t from = 0;
  if (gather)
    for (const detail::direct_store &d : direct) {
      if (page_aliased(final_addr + d.offset, d.src)) {
        // Staged: one more copy (2.3 us per 128 KiB) instead of the slow
        // one (37 us); the bytes go with buf's part.
        std::memcpy(buf + d.offset, d.src, d.bytes);
        g->puts_staged.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      if (d.offset > from)
        parts.push_back({buf + from, d.offset - from});
      parts.push_back({d.src, d.bytes});
      from = d.offset + d.bytes;
    }
  if (gs.bytes > from)
    parts.push_back({buf + from, gs.bytes - from});
  std::uint64_t objects = gs.objects;
  std::memcpy(body.data(), &objects, 8);
  h.a[1] = final_addr + std::uint64_t(static_cast<char *>(mid) - buf);
  h.a[2] = pos;
  h.a[3] = gs.bytes;
  g->c->put_then_send(to, parts.data(), parts.size(), disp, h, body.data());
}

// A graph that arrived in this rank's incoming heap.
graph_buffer arrived_graph(const am_header &h, const char *body) {
  graph_buffer b;
  if (!h.a[1])
    return b;
  std::uint64_t objects;
  std::memcpy(&objects, body, 8);
  b.place = g->c->rank();
  b.base = incoming_at(h.a[2]);
  if (h.a[2] % g->ring + h.a[3] > g->ring)
    g->straddles.fetch_add(1, std::memory_order_relaxed);
  b.bytes = h.a[3];
  b.objects = objects;
  b.remote = true;
  detail::mark_graph(b.base, b.bytes);
  {
    std::lock_guard<std::mutex> lk(g->heap_lock);
    g->blocks->arrive(h.a[2], h.a[2] + detail::ring_bytes(b.bytes));
    publish_holes_locked();
  }
  return b;
}

void op_reply_error(int to, std::uint64_t seq, const char *what);
void op_release(graph_buffer *b);

// On a worker: spawns the call's task (serve_remote), or answers an error.
void start_arrived(inbox_job *j) {
  // Uncounted last (after a is freed): the call's tail (its graph released
  // after a pointer result's or an error's reply) is over.
  struct over {
    ~over() { g->serving.fetch_sub(1, std::memory_order_release); }
  } counted;
  arrived_ptr a(static_cast<arrived *>(j));
  if (!a->fn) {
    if (a->graph.base)
      op_release(&a->graph);
    op_reply_error(a->from, a->seq,
                   "weft::at: the target rank has no handler for this "
                   "closure (do all ranks run the same binary?)");
    return;
  }
  dist::at_split::stamp(dist::at_split::kFnBegin, 0, a->seq);
  a->fn(a->from, a->seq, a->root, a->graph, a->captures(), a->ncaptures);
}

// The handler of id (the registry takes a mutex): the last one looked up
// on this thread, else the registry's.
detail::remote_serve_fn handler_of(std::uint64_t id) {
  thread_local std::uint64_t last_id = 0;
  thread_local detail::remote_serve_fn last_fn = nullptr;
  if (id != last_id || !last_fn) {
    last_fn = detail::find_remote(id);
    last_id = id;
  }
  return last_fn;
}

void on_call(int from, const am_header &h, const char *body) {
  g->serving.fetch_add(1, std::memory_order_relaxed); // under step_lock
  arrived_ptr a(::new (arrived_blocks::take()) arrived);
  a->run = start_arrived;
  a->from = from;
  a->seq = h.seq;
  a->fn = handler_of(h.a[0]);
  a->root = reinterpret_cast<void *>(h.a[1]);
  a->graph = arrived_graph(h, body);
  a->ncaptures = h.payload - 8;
  if (a->ncaptures > kInlineCaptures) {
    a->large.reset(new char[a->ncaptures]);
    std::memcpy(a->large.get(), body + 8, a->ncaptures);
  } else if (a->ncaptures) {
    std::memcpy(a->small, body + 8, a->ncaptures);
  }
  detail::submit_to_workers(a.release());
}

void on_reply(int from, const am_header &h, const char *body) {
  pending p;
  call_slot &slot = g->slots[h.seq % kCallSlots];
  if (h.seq != kSlotFree && h.seq != kSlotFilling &&
      slot.seq.load(std::memory_order_acquire) == h.seq) {
    p = slot.p;
    slot.seq.store(kSlotFree, std::memory_order_release);
  } else {
    std::lock_guard<std::mutex> lk(g->calls_lock);
    auto it = g->calls.find(h.seq);
    if (it == g->calls.end())
      g->c->die("a reply from rank %d to call %llu, which is not pending", from,
                static_cast<unsigned long long>(h.seq));
    p = it->second;
    g->calls.erase(it);
  }
  saw_tail(from, h.a[0] & ~kReplyKindMask);
  const std::uint64_t kind = h.a[0] & kReplyKindMask;
  detail::remote_reply r;
  std::string copy_error;
  if (kind == kReplyGraph) {
    // A result graph may be held for as long as the caller likes: it is
    // copied out of the incoming ring into this place's own arena and its
    // ring range released at once, so that a long-held result never pins
    // the ring's tail (calls' graphs are released when their f returns).
    graph_buffer in_ring = arrived_graph(h, body);
    r.root = reinterpret_cast<void *>(h.a[1]);
    // When the arena has no room for it, it stays in the ring (as before).
    if (in_ring.base) {
      try {
        r.root = detail::copy_graph("weft::at (the result graph)", g->c->rank(),
                                    r.root, {}, &r.graph);
        op_release(&in_ring);
      } catch (const std::length_error &) {
        r.graph = in_ring;
        g->results_kept_in_ring.fetch_add(1, std::memory_order_relaxed);
      } catch (const std::exception &e) {
        op_release(&in_ring);
        copy_error = e.what();
        r.error = true;
        r.root = nullptr;
        r.value = copy_error.data();
        r.value_bytes = copy_error.size();
      }
    }
  } else {
    r.error = kind == kReplyError;
    r.value = body + 8;
    r.value_bytes = h.payload - 8;
  }
  p.done(p.ctx, r);
  dist::at_split::stamp(dist::at_split::kReplyDone, 0, h.seq);
}

void on_forfeit(int, const am_header &h, const char *) {
  release_interval(h.a[0], h.a[0] + h.a[1]);
}

void on_holes(int, const am_header &, const char *) {
  std::lock_guard<std::mutex> lk(g->heap_lock);
  publish_tail_locked();
  g->tail_wanted_until = g->tail.load(std::memory_order_relaxed) + g->ring;
  g->holes_wanted = true;
  publish_holes_locked();
}

void op_call(const char *call, int target, std::uint64_t handler,
             const void *root, const copy_options &opt, const void *captures,
             std::size_t n, void *ctx, detail::remote_done_fn done) {
  am_header h;
  h.handler = kCall;
  h.seq = g->next_seq.fetch_add(1, std::memory_order_relaxed);
  dist::at_split::stamp(dist::at_split::kCallBegin, 0, h.seq);
  h.a[0] = handler;
  call_slot &slot = g->slots[h.seq % kCallSlots];
  std::uint64_t free = kSlotFree;
  const bool in_slot = slot.seq.compare_exchange_strong(
      free, kSlotFilling, std::memory_order_acquire, std::memory_order_relaxed);
  if (in_slot) {
    slot.p = pending{ctx, done, target};
    slot.target.store(target, std::memory_order_relaxed);
    slot.seq.store(h.seq, std::memory_order_release);
  } else {
    g->calls_overflowed.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lk(g->calls_lock);
    g->calls.emplace(h.seq, pending{ctx, done, target});
  }
  try {
    send_with_graph(call, target, h, root, opt.map, captures, n);
  } catch (...) {
    if (in_slot) {
      slot.seq.store(kSlotFree, std::memory_order_release);
    } else {
      std::lock_guard<std::mutex> lk(g->calls_lock);
      g->calls.erase(h.seq);
    }
    throw;
  }
}

// a0: the kind in the low 6 bits, this rank's tail (a multiple of 64) above:
// the caller learns how far its last graphs here were released, so it need
// not read the tail again after a restart moved it.
am_header reply_header(std::uint64_t seq, std::uint64_t kind) {
  am_header h;
  h.handler = kReply;
  h.seq = seq;
  h.a[0] = kind | g->tail.load(std::memory_order_relaxed);
  return h;
}

void op_reply_value(int to, std::uint64_t seq, const void *v, std::size_t n) {
  send_with_graph("weft::at", to, reply_header(seq, kReplyValue), nullptr,
                  copy_map::automatic, v, n);
}

void op_reply_error(int to, std::uint64_t seq, const char *what) {
  std::size_t n = std::min<std::size_t>(std::strlen(what), 4096);
  send_with_graph("weft::at", to, reply_header(seq, kReplyError), nullptr,
                  copy_map::automatic, what, n);
}

void op_reply_graph(int to, std::uint64_t seq, const void *root) {
  try {
    send_with_graph("weft::at (the result)", to, reply_header(seq, kReplyGraph),
                    root, copy_map::automatic, nullptr, 0);
  } catch (const std::exception &e) {
    op_reply_error(to, seq, e.what());
  }
}

void op_release(graph_buffer *b) {
  char *ring0 = g->c->window() + g->incoming;
  auto off = std::uint64_t(static_cast<char *>(b->base) - ring0);
  std::size_t n = detail::ring_bytes(b->bytes);
  detail::unmark_graph(b->base, b->bytes, b->objects);
  {
    std::lock_guard<std::mutex> lk(g->heap_lock);
    // Throws (naming the offset) when no graph is live there: released
    // twice, or never arrived.
    const std::uint64_t pos = g->blocks->live_at(off).start;
    release_locked(pos, pos + n);
  }
  // Not on the progress thread (a future dropped before its reply came
  // frees the result graph there): in FUNNELED its atomics would wait for
  // itself. The next release on a worker restarts the ring.
  if (g->restart && !g->c->on_progress_thread())
    restart_if_drained();
}

// Whether none of this rank's calls awaits a reply (its slot taken, or in
// the overflow map).
bool none_awaiting_reply() {
  for (std::uint64_t i = 0; i < kCallSlots; ++i)
    if (g->slots[i].seq.load(std::memory_order_acquire) != kSlotFree)
      return false;
  std::lock_guard<std::mutex> lk(g->calls_lock);
  return g->calls.empty();
}

// On the progress thread under the comm layer's receiving lock (no on_call
// or on_reply runs meanwhile): whether this rank's own work is over: no
// call that arrived is still served or in its tail (serving), and none of
// its calls awaits a reply (its slot taken, or in the overflow map), a
// future dropped before its reply included (the reply is still handled).
bool quiet() {
  return g->serving.load(std::memory_order_acquire) == 0 &&
         none_awaiting_reply();
}

// As quiet, when places_mpi_finalize's bound has passed: what this rank's
// own work still is, e.g. "served calls not over: 0 (...), its calls
// awaiting a reply: 2 (from rank 1: 2)". (Which f a served call runs is
// not kept: the closure's hash, which names no function, came with it.)
void describe_unfinished(char *out, std::size_t n) {
  const int world = g->c->world();
  std::vector<std::uint64_t> from(std::size_t(world) + 1, 0); // [world]: ?
  std::uint64_t waiting = 0;
  for (std::uint64_t i = 0; i < kCallSlots; ++i) {
    std::uint64_t seq = g->slots[i].seq.load(std::memory_order_acquire);
    if (seq == kSlotFree)
      continue;
    int t = seq == kSlotFilling
                ? -1
                : g->slots[i].target.load(std::memory_order_relaxed);
    ++from[t >= 0 && t < world ? std::size_t(t) : std::size_t(world)];
    ++waiting;
  }
  {
    std::lock_guard<std::mutex> lk(g->calls_lock);
    for (const auto &c : g->calls) {
      int t = c.second.target;
      ++from[t >= 0 && t < world ? std::size_t(t) : std::size_t(world)];
      ++waiting;
    }
  }
  const auto serving = g->serving.load(std::memory_order_acquire);
  int k = std::snprintf(out, n,
                        "served calls not over: %llu (f still running, or "
                        "its graph not yet released), its calls awaiting a "
                        "reply: %llu",
                        static_cast<unsigned long long>(serving),
                        static_cast<unsigned long long>(waiting));
  const char *sep = " (from ";
  for (int r = 0; r <= world && k > 0 && std::size_t(k) < n; ++r) {
    if (!from[std::size_t(r)])
      continue;
    if (r < world)
      k += std::snprintf(out + k, n - std::size_t(k), "%srank %d: %llu", sep, r,
                         static_cast<unsigned long long>(from[r]));
    else
      k += std::snprintf(out + k, n - std::size_t(k), "%sbeing made: %llu", sep,
                         static_cast<unsigned long long>(from[r]));
    sep = ", ";
  }
  if (waiting && k > 0 && std::size_t(k) < n)
    std::snprintf(out + k, n - std::size_t(k), ")");
}

// On the watchdog, while every other rank is in places_mpi_finalize and
// this one is not (comm::bound_before_finish): whether this rank's own work
// is blocked by the calls it serves for them: it serves calls and none of
// its own awaits a reply. Those calls came from dropped futures (a call
// whose caller waits keeps that caller out of finalize) or from calls such
// calls made, so a thread of this rank that serves one under its own wait
// holds the rank out of finalize for as long as f runs. A rank that drives
// (its own calls pending, or none served) is not stuck.
bool stuck_in_served() {
  return g->serving.load(std::memory_order_acquire) != 0 &&
         none_awaiting_reply();
}

} // namespace

void places_mpi_init(std::size_t bytes) {
  if (g)
    throw std::logic_error("weft::places_mpi_init: called twice");
  const detail::dist_env env = detail::read_dist_env();
  if (bytes == 0) {
    bytes = env.place_bytes ? env.place_bytes : kDefaultBytes;
  } else if (bytes < detail::kMinDistPlaceBytes ||
             bytes > detail::kMaxDistPlaceBytes) {
    throw std::invalid_argument(
        "weft::places_mpi_init: " + std::to_string(bytes) +
        " bytes per rank (from 1 MiB to 1 TiB)");
  }
  bytes &= ~std::size_t(4095);
  (void)weft::num_threads(); // this thread becomes weft's thread 0
  auto s = std::make_unique<state>();
  s->managed = round64(bytes / 4);
  s->incoming = kArenaDisp + s->managed;
  s->slack = round64(bytes / 4);
  s->restart = env.ring_restart;
  s->finalize_timeout_s = env.finalize_timeout_s;
  s->ring = (bytes - s->incoming - s->slack) & ~(detail::kRingGranule - 1);
  s->restart_past = std::min(s->ring / 2, kRestartPast);
  s->blocks = std::make_unique<dist::ring_index>(s->ring);
  s->tail_publish_every = s->ring / 16;
  g = s.get();
  dist::am_handler handlers[dist::kMaxHandlers] = {};
  handlers[kCall] = on_call;
  handlers[kReply] = on_reply;
  handlers[kForfeit] = on_forfeit;
  handlers[kHoles] = on_holes;
  comm &c = comm::start(bytes, handlers, env.funneled, env.timeout_s);
  s->c = &c;
  s->tails.reset(new std::atomic<std::uint64_t>[c.world()]());
  detail::places_adopt_window(c.rank(), c.world(), c.window() + kArenaDisp,
                              bytes - kArenaDisp, s->managed);
  s->ops = dist_ops{c.rank(),       c.world(),      op_call,   op_reply_value,
                    op_reply_graph, op_reply_error, op_release};
  if (c.pollable()) {
    s->ops.poll = [] { return g->c->poll(); };
    s->ops.polling = [](bool on, bool then_sleeps) {
      g->c->polling(on, then_sleeps);
    };
  }
  detail::set_dist(&s->ops);
  s.release();
  std::uint64_t types = detail::type_table_digest();
  c.publish(kTypesDisp, types);
  // Closures and types are found on the target by names and hashes, which
  // another build of the program would map to its own code: the main
  // program, libweft and libweft_dist must be the same builds everywhere.
  const void *code[] = {reinterpret_cast<const void *>(&places_mpi_init),
                        reinterpret_cast<const void *>(&detail::measure_for)};
  const detail::build_identity build =
      detail::program_build_identity(code, std::size(code));
  c.publish(kBuildDisp, build.digest);
  c.bound_before_finish(
      [](void *) { return stuck_in_served(); },
      [](void *, char *text, std::size_t n) { describe_unfinished(text, n); },
      nullptr, g->finalize_timeout_s);
  c.barrier(); // every rank can take calls from here on
  // Type ids travel in object headers: every rank must have registered the
  // same types in the same order (the same binary).
  if (c.rank() != 0) {
    std::uint64_t root_build = c.fetch_add(0, kBuildDisp, 0);
    if (root_build != build.digest)
      c.die("weft::places_mpi_init: this rank runs another build of the "
            "program or of weft than rank 0 (build digest %016llx, rank 0's "
            "%016llx; this rank's program has build-id %s): every rank must "
            "run the same binary",
            static_cast<unsigned long long>(build.digest),
            static_cast<unsigned long long>(root_build), build.main_id.c_str());
    std::uint64_t root_types = c.fetch_add(0, kTypesDisp, 0);
    if (root_types != types)
      c.die("its registered types (digest %016llx) differ from rank 0's "
            "(%016llx): every rank must run the same binary",
            static_cast<unsigned long long>(types),
            static_cast<unsigned long long>(root_types));
  }
}

void places_mpi_finalize() {
  if (!g)
    throw std::logic_error("weft::places_mpi_finalize: places_mpi_init was "
                           "not called");
  // The order (docs/places.md, the comm layer): serve until every rank is
  // here; serve until this rank's own work is over (quiet: no call served
  // or in its tail, none of its calls awaiting a reply); a second barrier;
  // quiet again; only then the window, the places and g are freed. The
  // last three steps are bounded (WEFT_DIST_FINALIZE_TIMEOUT, 60 s): past
  // it the rank ends naming what it still waits for (describe_unfinished).
  detail::async_state done;
  g->c->finish(
      [](void *a) {
        detail::async_complete(static_cast<detail::async_state *>(a));
      },
      &done,
      [](void *a) {
        detail::async_wait(static_cast<detail::async_state *>(a));
      },
      [](void *) { return quiet(); },
      [](void *, char *text, std::size_t n) { describe_unfinished(text, n); },
      g->finalize_timeout_s);
  detail::set_dist(nullptr);
  places_shutdown();
  delete g;
  g = nullptr;
}

void places_mpi_barrier() {
  if (!g)
    throw std::logic_error("weft::places_mpi_barrier: places_mpi_init was "
                           "not called");
  detail::async_state done;
  g->c->ibarrier(
      [](void *a) {
        detail::async_complete(static_cast<detail::async_state *>(a));
      },
      &done);
  detail::async_wait(&done);
}

dist_stats places_mpi_stats() {
  dist_stats s;
  if (!g)
    return s;
  dist::comm_stats &c = g->c->stats();
  s.calls_sent = c.am_sent[kCall];
  s.calls_received = c.am_received[kCall];
  s.calls_polled = c.am_polled[kCall];
  s.replies_polled = c.am_polled[kReply];
  s.progress_naps = c.naps;
  s.replies_sent = c.am_sent[kReply];
  s.replies_received = c.am_received[kReply];
  s.control_sent = c.am_sent[kForfeit] + c.am_sent[kHoles];
  s.ring_pinned_skips = g->pinned_skips.load(std::memory_order_relaxed);
  s.ring_holes_published = g->holes_published.load(std::memory_order_relaxed);
  s.heartbeats_sent = c.am_sent[0];
  s.puts = c.puts;
  s.put_bytes = c.put_bytes;
  s.atomics = c.atomics;
  s.gets = c.gets;
  s.ring_restarts = g->restarts.load(std::memory_order_relaxed);
  s.ring_restarts_lost = g->restarts_lost.load(std::memory_order_relaxed);
  s.ring_straddles = g->straddles.load(std::memory_order_relaxed);
  s.puts_staged = g->puts_staged.load(std::memory_order_relaxed);
  s.results_kept_in_ring =
      g->results_kept_in_ring.load(std::memory_order_relaxed);
  return s;
}

void places_mpi_get(int rank, const void *remote, void *dst,
                    std::size_t bytes) {
  if (!g)
    throw std::logic_error("weft::places_mpi_get: places_mpi_init was not "
                           "called");
  if (rank < 0 || rank >= g->c->world())
    throw std::invalid_argument("weft::places_mpi_get: rank " +
                                std::to_string(rank) + " does not exist (" +
                                std::to_string(g->c->world()) + " ranks)");
  auto a = reinterpret_cast<std::uintptr_t>(remote);
  std::uintptr_t base = g->c->remote_window(rank);
  if (a < base + kArenaDisp || bytes > g->c->window_bytes() ||
      a - base > g->c->window_bytes() - bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%p", remote);
    throw std::invalid_argument(std::string("weft::places_mpi_get: ") +
                                std::to_string(bytes) + " bytes at " + text +
                                " are not inside rank " + std::to_string(rank) +
                                "'s place");
  }
  if (bytes)
    g->c->get(rank, std::size_t(a - base), dst, bytes);
}

int places_mpi_thread_level() { return g ? g->c->thread_level() : 0; }

} // namespace weft
