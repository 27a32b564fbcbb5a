#include "place_set.hpp"

#include "dist_seam.hpp"

#include "base/env.hpp"
#include "base/error.hpp"
#include "core/runtime.hpp"
#include "type_registry.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace weft::places {

namespace {
std::mutex g_lock;
std::atomic<place_set *> g_places{nullptr};
constexpr int kMaxPlaces = 1024;
constexpr std::size_t kDefaultPlaceBytes = std::size_t(8) << 30;
constexpr std::size_t kMinPlaceBytes = 1 << 16;

place_set *make_places(int n, std::size_t bytes) {
  auto s = std::make_unique<place_set>();
  for (int i = 0; i < n; ++i)
    s->arenas.push_back(std::make_unique<arena>(i, bytes));
  return s.release();
}

// -1: this process's home place (0, or the rank).
thread_local int tl_here = -1;
int g_home = 0;

std::atomic<const detail::dist_ops *> g_dist{nullptr};
} // namespace

place_set &current_places() {
  if (place_set *s = g_places.load(std::memory_order_acquire))
    return *s;
  std::lock_guard<std::mutex> lk(g_lock);
  if (place_set *s = g_places.load(std::memory_order_relaxed))
    return *s;
  int n = 1;
  std::size_t bytes = kDefaultPlaceBytes;
  env::reader r;
  r.integer("WEFT_PLACES", 1, kMaxPlaces, n, "a place count");
  r.integer("WEFT_PLACE_BYTES", kMinPlaceBytes, std::uint64_t(1) << 46, bytes,
            "a byte count");
  if (!r.ok())
    throw std::invalid_argument("weft places: " + r.error());
  place_set *s = make_places(n, bytes);
  g_places.store(s, std::memory_order_release);
  return *s;
}

arena &arena_of_place(const char *call, int p) {
  place_set &s = current_places();
  if (p < 0 || p >= int(s.arenas.size()))
    throw std::invalid_argument(std::string(call) + ": place " +
                                std::to_string(p) + " does not exist (" +
                                std::to_string(s.arenas.size()) +
                                " places: WEFT_PLACES)");
  if (!s.arenas[p])
    throw std::invalid_argument(std::string(call) + ": place " +
                                std::to_string(p) +
                                " is on another MPI rank (only at() and "
                                "async_at() reach it)");
  return *s.arenas[p];
}

arena *arena_holding(const void *ptr) {
  for (auto &a : current_places().arenas)
    if (a && a->contains(ptr))
      return a.get();
  return nullptr;
}

} // namespace weft::places

namespace weft {

using places::arena;

int num_places() { return int(places::current_places().arenas.size()); }

place here() {
  return place{places::tl_here < 0 ? places::g_home : places::tl_here};
}

void places_init(int n, std::size_t bytes) {
  if (n < 1 || n > places::kMaxPlaces)
    throw std::invalid_argument("weft::places_init: " + std::to_string(n) +
                                " places (must be in [1, 1024])");
  if (bytes < places::kMinPlaceBytes)
    throw std::invalid_argument("weft::places_init: " + std::to_string(bytes) +
                                " bytes per place (at least 65536)");
  std::lock_guard<std::mutex> lk(places::g_lock);
  if (places::place_set *s = places::g_places.load(std::memory_order_relaxed)) {
    bool same = int(s->arenas.size()) == n &&
                s->arenas[0]->capacity() == (bytes & ~std::size_t(63));
    if (same)
      return;
    throw std::logic_error("weft::places_init(" + std::to_string(n) + ", " +
                           std::to_string(bytes) + "): places exist with " +
                           std::to_string(s->arenas.size()) +
                           " places; call places_shutdown first");
  }
  places::g_places.store(places::make_places(n, bytes),
                         std::memory_order_release);
}

void places_shutdown() {
  std::lock_guard<std::mutex> lk(places::g_lock);
  delete places::g_places.exchange(nullptr, std::memory_order_acq_rel);
  places::g_home = 0;
}

int place_of(const void *ptr) {
  places::arena *a = places::arena_holding(ptr);
  return a ? a->place() : -1;
}

worker_range place_workers(place p) {
  detail::check_place("weft::place_workers", p);
  runtime *rt = g_runtime.load(std::memory_order_acquire);
  if (detail::dist() || !rt)
    return {0, rt ? rt->initial_team().size() : 0};
  int T = rt->initial_team().size(), N = num_places();
  int first = int(std::int64_t(p.id) * T / N);
  int end = int(std::int64_t(p.id + 1) * T / N);
  return {first, std::max(1, end - first)};
}

std::size_t place_bytes_used(place p) {
  return places::arena_of_place("weft::place_bytes_used", p.id).used();
}

namespace detail {

void check_place(const char *call, place p) {
  places::place_set &s = places::current_places();
  if (p.id < 0 || p.id >= int(s.arenas.size()))
    (void)places::arena_of_place(call, p.id); // throws, naming p
}

dist_env read_dist_env(const char *(*lookup)(const char *)) {
  dist_env e;
  env::reader r(lookup ? lookup : env::get);
  r.integer("WEFT_PLACE_BYTES", kMinDistPlaceBytes, kMaxDistPlaceBytes,
            e.place_bytes, "a byte count per rank");
  r.flag("WEFT_DIST_FUNNELED", e.funneled);
  r.number("WEFT_DIST_TIMEOUT", 0.5, 3600, false, e.timeout_s, "seconds");
  r.number("WEFT_DIST_FINALIZE_TIMEOUT", 0.5, 86400, false,
           e.finalize_timeout_s, "seconds");
  r.flag("WEFT_DIST_RING_RESTART", e.ring_restart);
  if (!r.ok())
    throw std::invalid_argument("weft::places_mpi_init: " + r.error());
  return e;
}

void places_adopt_window(int rank, int world, char *memory, std::size_t bytes,
                         std::size_t managed) {
  std::lock_guard<std::mutex> lk(places::g_lock);
  if (places::g_places.load(std::memory_order_relaxed))
    throw std::logic_error("weft::places_mpi_init: places exist already (made "
                           "by places_init or a first use before it)");
  auto s = std::make_unique<places::place_set>();
  s->arenas.resize(world);
  s->arenas[rank] =
      std::make_unique<places::arena>(rank, memory, bytes, managed);
  places::g_home = rank;
  places::g_places.store(s.release(), std::memory_order_release);
}

const dist_ops *dist() {
  return places::g_dist.load(std::memory_order_acquire);
}

namespace {
bool idle_poll(worker &w, idle_poll_op op);
// Idle workers inside idle_poll (set_dist(nullptr) waits for them: the ops
// they call live in the comm state freed after it).
std::atomic<int> g_idle_pollers{0};
} // namespace

void set_dist(const dist_ops *ops) {
  places::g_dist.store(ops, std::memory_order_seq_cst);
  // With a pollable comm layer, idle workers poll it before they sleep
  // (core/idle.hpp's idle hook); without (FUNNELED: only the progress
  // thread calls MPI), arrived calls reach them through the inbox.
  g_idle_poll.store(ops && ops->poll ? idle_poll : nullptr,
                    std::memory_order_seq_cst);
  if (!ops) {
    // A Dekker pair with idle_poll: it counts itself in, then reads the
    // ops; here the ops are cleared, then the count read. Whoever is
    // inside now read the old ops and returns soon: after finish() no
    // message is received and no arrived call is left to run.
    backoff b(kUnitLockBackoff);
    while (g_idle_pollers.load(std::memory_order_seq_cst) != 0)
      b.pause();
  }
}

namespace {
// The call a waiting worker received itself while it polled (async_wait):
// it runs it when poll() returns (outside the comm layer's lock), on this
// thread, without the inbox's lock and wake-up. One at most: the others of
// the same poll go to the inbox at once, where other workers can take them
// (the first may run long, or wait for one of them).
struct received_call {
  bool collecting = false;
  inbox_job *job = nullptr;
};
thread_local received_call tl_received;
} // namespace

void submit_to_workers(inbox_job *j) {
  received_call &rc = tl_received;
  if (rc.collecting && !rc.job) {
    rc.job = j;
    return;
  }
  runtime *rt = g_runtime.load(std::memory_order_acquire);
  if (!rt)
    fatal("weft places: a remote call arrived (job %p) but the weft runtime "
          "is stopped (weft_shutdown before places_mpi_finalize?)",
          static_cast<void *>(j));
  rt->initial_team().external().submit(j);
}

namespace {
// Polls the comm layer on w's thread: a call received here runs on w once
// poll() returns (the first of this poll; the others went to the inbox);
// one under the tied-task constraint goes to the inbox too. Whether it
// handled anything.
bool poll_and_run(worker &w, const dist_ops &d) {
  received_call &rc = tl_received;
  rc.collecting = true;
  bool any = d.poll();
  rc.collecting = false;
  if (inbox_job *j = std::exchange(rc.job, nullptr)) {
    // Taken out first: a call that waits (a nested at) polls and collects
    // again.
    if (!w.run_job(j)) // the tied-task constraint
      submit_to_workers(j);
    any = true;
  }
  return any;
}

// Whether this thread told the comm layer it polls from an idle wait (once
// per thread: a nested wait's hook sees its outer wait's announcement).
thread_local bool tl_idle_polling = false;

// The idle hook (core/idle.hpp), set while a pollable comm layer runs: a
// worker with nothing to run receives what arrived and runs an arrived call
// itself (in its spins and yields, not once it sleeps). While it polls, the
// progress thread naps (comm::polling), or it would take nearly every
// message first (it polls without pause, the worker once per backoff round);
// when the worker sleeps, the progress thread receives again at once.
bool idle_poll(worker &w, idle_poll_op op) {
  g_idle_pollers.fetch_add(1, std::memory_order_seq_cst);
  const dist_ops *d = places::g_dist.load(std::memory_order_seq_cst);
  bool any = false;
  if (d && d->poll) {
    if (op == idle_poll_op::spin || op == idle_poll_op::yield) {
      // Spins and yields alike: the progress thread naps while this worker
      // polls (a worker off its core for a time slice stops the poll count,
      // and the progress thread receives again within 1 ms). Withdrawing
      // in the yields (tried) let the progress thread, polling without
      // pause, take every call that came after the ~63 spin rounds: 0 of
      // 200 in 2 of 10 runs of the test at 2 ranks.
      if (!tl_idle_polling) {
        tl_idle_polling = true;
        d->polling(true, false);
      }
      any = poll_and_run(w, *d);
    } else if (tl_idle_polling) {
      tl_idle_polling = false;
      d->polling(false, op == idle_poll_op::stop_to_sleep);
    }
  }
  g_idle_pollers.fetch_sub(1, std::memory_order_release);
  return any;
}
} // namespace

int swap_here(int p) {
  int old = places::tl_here;
  places::tl_here = p;
  return old;
}

void *alloc_object(int p, std::uint32_t type, std::size_t size) {
  const char *call = "weft::make";
  arena &a = places::arena_of_place(call, p);
  const places::type_record *t = places::find_type(type);
  if (!t || t->size != places::round8(size))
    throw std::invalid_argument(std::string(call) + ": type id " +
                                std::to_string(type) + " is not registered");
  char *mem = a.alloc_small(places::object_bytes(*t));
  if (!mem)
    throw std::length_error(std::string(call) + "<" + t->name + ">: place " +
                            std::to_string(p) + " is full (" +
                            std::to_string(a.capacity()) + " bytes)");
  auto *h = reinterpret_cast<places::object_header *>(mem);
  *h = {places::kObjectTag | type, 0, 0, 0, 0};
  a.mark_start(mem);
  return mem + sizeof(places::object_header);
}

void *alloc_store(int p, std::size_t bytes) {
  const char *call = "weft::make_array";
  arena &a = places::arena_of_place(call, p);
  if (bytes > places::kMaxStoreBytes)
    throw std::invalid_argument(std::string(call) + ": " +
                                std::to_string(bytes) + " bytes is too large");
  std::size_t total = places::store_bytes(bytes);
  char *mem = a.alloc_small(total);
  if (!mem)
    throw std::length_error(std::string(call) + ": place " + std::to_string(p) +
                            " cannot hold " + std::to_string(bytes) + " bytes");
  std::uint64_t tag = places::kStoreTag | bytes;
  std::memcpy(mem, &tag, sizeof tag);
  std::memset(mem + 8, 0, total - 8);
  a.mark_start(mem);
  return mem + 8;
}

int task_submit_at(void *handle, int p) {
  worker &w = *tl_worker;
  runtime &rt = w.rt();
  auto *t = static_cast<task *>(handle);
  team &home = rt.initial_team();
  // One place per process (across ranks, or WEFT_PLACES=1), or a worker
  // inside a nested team whose members are not the places' workers: any
  // worker.
  if (dist() || num_places() == 1 || w.current_team() != &home)
    return rt.spawn(w, t, nullptr, 0);
  worker_range r = place_workers(place{p});
  int member = w.id() - r.first;
  if (member < 0 || member >= r.count) {
    // Not one of p's workers: the next of them in turn.
    thread_local unsigned turn = 0;
    member = int(turn++ % unsigned(r.count));
  }
  return rt.spawn_to(w, t, r.first + member);
}

namespace {
// The arena and block of a made object or store at `payload` (its header
// `header` bytes before), or std::invalid_argument naming the call and the
// pointer.
arena &made_block(const char *call, const void *payload, std::size_t header,
                  const char *what) {
  auto bad = [&](const char *why) {
    char text[64];
    std::snprintf(text, sizeof text, "%p", payload);
    throw std::invalid_argument(std::string(call) + ": " + text + " " + why +
                                " (" + what + ")");
  };
  if (!payload)
    bad("is null");
  arena *a = places::arena_holding(payload);
  if (!a)
    bad("is outside every place's arena");
  if (a->in_remote_part(payload) ||
      reinterpret_cast<std::uintptr_t>(payload) % 8 != 0)
    bad("is not the start of a block made by make (it lies in a received "
        "graph, or is unaligned)");
  const char *block = static_cast<const char *>(payload) - header;
  if (a->in_graph(payload)) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "lies in a graph copied into place %d: a weft::graph owns "
                  "it; release the graph (weft::release(graph)), which frees "
                  "all its blocks",
                  a->place());
    bad(text);
  }
  if (!a->contains(block) || !a->is_start(block))
    bad("is not the start of a live block made by make (released already, "
        "or a pointer into the middle of one)");
  return *a;
}
} // namespace

void free_object(const char *call, void *obj, std::uint32_t type) {
  arena &a = made_block(call, obj, sizeof(places::object_header),
                        "an object made by weft::make");
  auto *h = places::header_of(obj);
  const places::type_record *t = places::find_type(type);
  if (!t || h->tag != (places::kObjectTag | type))
    throw std::invalid_argument(
        std::string(call) + ": the object's header says type " +
        std::to_string(h->tag & ~places::kTagMask) + ", not " +
        (t ? t->name : std::to_string(type)));
  a.free_small(reinterpret_cast<char *>(h), places::object_bytes(*t));
}

void free_store(const char *call, void *data) {
  arena &a = made_block(call, data, detail::kStoreHeaderBytes,
                        "an array store made by weft::make_array");
  char *block = static_cast<char *>(data) - detail::kStoreHeaderBytes;
  std::uint64_t tag;
  std::memcpy(&tag, block, sizeof tag);
  if ((tag & places::kTagMask) != places::kStoreTag)
    throw std::invalid_argument(std::string(call) +
                                ": the block before the store's data is not "
                                "an array store's header");
  a.free_small(block, places::store_bytes(tag & ~places::kTagMask));
}

namespace {
// waiter once async_complete no longer touches the state: async_wait
// returns only then (the state may live on the waiter's stack).
constexpr int kCompleted = -2;
// waiter when workers of more than one id wait on the state (a remote
// async_at's future: the task finish() waits for, spawned by async_at,
// and the caller's get() on another worker): async_complete wakes every
// worker, not one (a single id would lose the other's wake-up: issue 13's
// hang of the nested-call test).
constexpr int kMany = -3;

void wait_completed(async_state *s) {
  // A few instructions and a futex wake away (yields: the completer may
  // be preempted when threads outnumber cores).
  backoff b(backoff_policy{64, backoff_policy::kForever});
  while (s->waiter.load(std::memory_order_acquire) != kCompleted)
    b.pause();
}
} // namespace

void async_complete(async_state *s) {
  s->done.store(true, std::memory_order_seq_cst);
  // The last access to s: its waiter may return and free it from here on.
  void *finish_task = s->finish_task;
  int w = s->waiter.exchange(kCompleted, std::memory_order_seq_cst);
  runtime *rt = g_runtime.load(std::memory_order_acquire);
  if (rt && finish_task)
    rt->fulfill(static_cast<task *>(finish_task));
  if (w == -1)
    return;
  if (rt) {
    if (w >= 0) {
      rt->wake(w);
    } else {
      for (int i = 0, n = rt->nthreads(); i < n; ++i)
        rt->wake(i);
    }
  }
}

namespace {
// A thread waiting across ranks between polls: spins, then yields (bounded
// by the 1 ms of inactivity after which it sleeps). One pause per spin
// round: a reply or call is seen sooner after it lands (an empty at() took
// 0.56-0.57 us against 0.61-0.64 with up to 8 pauses a round, the ping-pong
// 0.34-0.38; docs/places.md), at the price of polling Open MPI more often.
// 128 rounds: the spin phase lasts about as long as 63 rounds did (~20 us).
constexpr backoff_policy kRemoteWaitBackoff{128, backoff_policy::kForever, 1};
// How long a thread waiting across ranks polls after the last call or
// reply before it sleeps: the progress thread's own spin window (50 ms,
// src/dist/comm.cpp), during which it naps instead while this thread
// polls. So a call that comes within it, after a pause (an isolated call),
// is received and run by this thread, without the futex wake-up of a
// sleeping worker (2-3 context switches); the idle rank's CPU is the same
// one thread backing off for 50 ms as before, this one instead of the
// progress thread. (It was 1 ms.)
constexpr auto kRemotePollWindow = std::chrono::milliseconds(50);
} // namespace

namespace {
void no_body(void *) {}
} // namespace

void add_finish_task(async_state *s) {
  worker *w = tl_worker;
  if (!w)
    return;
  // A detached task (as OpenMP's detach clause makes): it completes once its
  // (empty) body has run and async_complete fulfilled it, in whichever
  // order; the taskgroup it was spawned in counts it until then.
  task *t = w->alloc_task(no_body, nullptr);
  t->flags |= TASK_DETACH;
  t->detach_parts.store(2, std::memory_order_relaxed);
  s->finish_task = t;
  if (int rc = w->rt().spawn(*w, t, nullptr, 0); rc != WEFT_OK)
    fatal("weft::async_at: spawning the task finish() waits for failed "
          "(error %d)",
          rc);
}

void async_wait(async_state *s) {
  if (s->done.load(std::memory_order_acquire)) {
    wait_completed(s);
    return;
  }
  worker *w = tl_worker;
  if (!w) {
    while (!s->done.load(std::memory_order_acquire))
      std::this_thread::yield();
    wait_completed(s);
    return;
  }
  // Not over kCompleted: async_complete has then finished with s. A
  // second worker waiting makes it kMany (wake everyone); the same worker
  // again (a nested wait on its stack) leaves its id.
  for (int cur = s->waiter.load(std::memory_order_seq_cst);;) {
    if (cur == kCompleted)
      return;
    const int want = cur == -1 ? w->id() : cur == w->id() ? cur : kMany;
    if (want == cur ||
        s->waiter.compare_exchange_weak(cur, want, std::memory_order_seq_cst))
      break;
  }
  auto done = [s] { return s->done.load(std::memory_order_seq_cst); };
  if (const dist_ops *d = dist()) {
    // Across ranks, while calls or replies came within the last
    // kRemotePollWindow, poll (a round trip takes microseconds; a thread that
    // sleeps is woken by the progress thread, a futex wake that costs tens
    // of microseconds when the machine is quiet and a time slice when its
    // cores are oversubscribed): receive what arrived on this thread when
    // MPI allows it (the reply completes s here; a call to this rank
    // received here runs here as soon as poll() returns, not through the
    // team's inbox), run tasks and the calls that arrived through the
    // progress thread (the inbox), back off (spins, then yields); then
    // sleep until woken.
    // The clock is read once every kClockEvery idle rounds, not on each (a
    // read took 8-9% of a polling rank's samples): the window runs from the
    // first read after the last activity.
    using clk = std::chrono::steady_clock;
    constexpr std::uint32_t kClockEvery = 64;
    clk::time_point active{};
    std::uint32_t idle_rounds = 0;
    backoff idle(kRemoteWaitBackoff);
    if (d->polling)
      d->polling(true, false);
    while (!done()) {
      bool any = false;
      if (d->poll)
        any = poll_and_run(*w, *d);
      if (!any && !done())
        any = w->help_once() || w->run_external();
      if (any) {
        idle_rounds = 0;
        idle.reset();
      } else if (++idle_rounds % kClockEvery != 0) {
        idle.pause();
      } else if (idle_rounds == kClockEvery) {
        active = clk::now();
        idle.pause();
      } else if (clk::now() - active < kRemotePollWindow) {
        idle.pause();
      } else {
        break;
      }
    }
    if (d->polling)
      d->polling(false, !done());
  }
  w->wait_until(done);
  wait_completed(s);
}

} // namespace detail
} // namespace weft
