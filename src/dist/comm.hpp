// The comm layer over MPI-3 (Open MPI): active messages and bulk puts into
// one MPI_Win_allocate window per rank, and one progress thread that
// initialises MPI and receives every message. With MPI_THREAD_MULTIPLE the
// calling threads make their own sends, puts and atomics; otherwise
// (FUNNELED, or WEFT_DIST_FUNNELED=1) they hand them to the progress thread,
// which then makes every MPI call. A peer silent for WEFT_DIST_TIMEOUT
// seconds (default 6; every rank sends a heartbeat every 0.5 s) or a
// progress thread stuck that long in MPI ends this rank with a message
// naming the rank and the cause (exit code 70): never a hang.
//
// Receiving is the progress thread's job, but with MPI_THREAD_MULTIPLE a
// thread waiting for a message (a reply, a call to serve), or an idle worker
// before it sleeps (core/idle.hpp's idle hook), receives and handles what
// arrived itself (poll), so that a round trip passes through no other
// thread; while one polls, the progress thread naps (1 ms) instead
// of spinning. Without pollers it spins and yields for 50 ms after its last
// message, then naps 100 us at a time (an idle rank costs no core).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace weft::dist {

// The fixed header of every active message; `payload` bytes follow it in the
// same MPI message.
struct am_header {
  std::uint32_t handler = 0;
  std::uint32_t payload = 0;
  std::uint64_t seq = 0;
  std::uint64_t a[4] = {0, 0, 0, 0};
};
static_assert(sizeof(am_header) == 48);

// Handler 0 is the heartbeat; handlers run on the progress thread and must
// not block on the network.
using am_handler = void (*)(int from, const am_header &h, const char *payload);
inline constexpr std::uint32_t kMaxHandlers = 16;
inline constexpr std::uint32_t kMaxPayload = 1 << 16;

// A piece of a put's origin: bytes at src.
struct put_part {
  const void *src;
  std::size_t bytes;
};

struct comm_stats {
  std::atomic<std::uint64_t> am_sent[kMaxHandlers] = {};
  std::atomic<std::uint64_t> am_received[kMaxHandlers] = {};
  // Of those, received by a polling thread (not the progress thread).
  std::atomic<std::uint64_t> am_polled[kMaxHandlers] = {};
  // The progress thread's naps (futex waits with a timeout).
  std::atomic<std::uint64_t> naps{0};
  std::atomic<std::uint64_t> puts{0}, put_bytes{0}, atomics{0}, gets{0};
};

class comm {
public:
  // Starts the progress thread, which initialises MPI (requesting
  // MPI_THREAD_MULTIPLE so that the program may call MPI too) and allocates
  // a window of `window_bytes` on every rank (its first 256 bytes zeroed);
  // handlers[1..] serve the active messages. funneled: the FUNNELED discipline
  // even when MPI gives MULTIPLE; timeout_s: the watchdog's (both from
  // detail::read_dist_env). Collective; once per process.
  static comm &start(std::size_t window_bytes, const am_handler *handlers,
                     bool funneled, double timeout_s);
  // The running comm, or nullptr.
  static comm *get();

  int rank() const { return rank_; }
  int world() const { return world_; }
  int thread_level() const { return level_; }
  // The window (page-aligned on every rank, whatever MPI_Win_allocate
  // returned) and its size; displacements count from its start.
  char *window() const { return base_; }
  std::size_t window_bytes() const { return bytes_; }
  // Rank r's window start (page-aligned) in r's address space.
  std::uintptr_t remote_window(int r) const { return remote_[r]; }
  comm_stats &stats() { return stats_; }

  // Collective: an MPI_Barrier on the progress thread (no messages are
  // served meanwhile: for set-up only).
  void barrier();
  // Collective: starts an MPI_Ibarrier; on_done(arg) runs on the progress
  // thread when every rank has started one (messages are served meanwhile).
  void ibarrier(void (*on_done)(void *), void *arg);
  // Sends an active message (payload copied); thread-safe, returns at once.
  void send(int to, const am_header &h, const void *payload);
  // An atomic fetch-and-add of v on the 64-bit word at byte `disp` of rank
  // to's window (MPI_Fetch_and_op, MPI_SUM); returns the old value. v == 0
  // reads the word (MPI_NO_OP). Blocks the caller until done. Called after
  // finish() closed the window, it ends the rank naming itself (as publish).
  std::uint64_t fetch_add(int to, std::size_t disp, std::uint64_t v);
  // Reads the 64-bit word at byte `disp` of this rank's own window: an
  // acquire load of its memory when the window's memory model is
  // MPI_WIN_UNIFIED (what Open MPI gives a window on one node), else
  // fetch_add(rank(), disp, 0). The word may change right after: for a
  // hint (restart_if_drained), not for a decision that needs the atomic.
  std::uint64_t read_own(std::size_t disp);
  // Whether the caller is the progress thread (which must not wait for
  // itself: get, fetch_add and barrier block on it in the FUNNELED
  // discipline).
  bool on_progress_thread() const;
  // Reads bytes at byte disp of rank to's window into dst (MPI_Get, then
  // MPI_Win_flush). Blocks the caller until they arrived.
  void get(int to, std::size_t disp, void *dst, std::size_t bytes);
  // Writes v to this rank's window word at disp (MPI_Accumulate, REPLACE).
  void publish(std::size_t disp, std::uint64_t v);
  // Puts [src, src + bytes) at byte disp of rank to's window with one
  // MPI_Put, completes it at the target (MPI_Win_flush), then sends h: the
  // target sees the data when the message arrives. Blocks until the put is
  // complete (src may be reused on return).
  void put_then_send(int to, const void *src, std::size_t bytes,
                     std::size_t disp, const am_header &h,
                     const void *payload) {
    put_part p{src, bytes};
    put_then_send(to, &p, 1, disp, h, payload);
  }
  // The same for parts gathered from several places, laid end to end from
  // disp: one contiguous MPI_Put per part, then one flush (below 1 GiB in
  // all).
  void put_then_send(int to, const put_part *parts, std::size_t n,
                     std::size_t disp, const am_header &h, const void *payload);
  // Collective: the shutdown. The progress thread keeps serving messages
  // and running queued operations through three steps: (1) a barrier, until
  // every rank has called finish; (2) until quiet(arg) holds on this rank,
  // then a second barrier, until it held on every rank; (3) until quiet(arg)
  // holds again. Then it calls on_barrier(arg), frees the window and
  // finalises MPI. quiet runs on the progress thread under the receiving
  // lock (no handler runs meanwhile); it says whether this rank's own work
  // (served calls with their tails, its calls awaiting replies) is over.
  // wait(arg) runs on the caller meanwhile (it must return once on_barrier
  // ran). Step (1) lasts as long as the slowest rank's program (the watchdog
  // ends it if a rank dies or its progress thread sticks; heartbeats go on
  // until step 3 ends). Steps (2) and (3) are bounded: bound_s seconds after
  // step (1) ended, a rank still in them ends (die, exit code 70) naming
  // what it waits for: describe(arg, text, n) writes the unfinished work
  // (called on the progress thread under the receiving lock, as quiet).
  void finish(void (*on_barrier)(void *), void *arg, void (*wait)(void *),
              bool (*quiet)(void *),
              void (*describe)(void *, char *, std::size_t), double bound_s);
  // The bound before the first barrier (the finalize notice). Each rank
  // tells every peer when it enters finish (a message of handler 0, sent by
  // the progress thread before its first barrier). Once every other rank
  // has, and this rank has not called finish, the watchdog calls
  // stuck(arg) every 100 ms (off the receiving lock: it reads atomics and
  // takes its own locks); once it has held for bound_s seconds without a
  // break, the rank ends (die, exit code 70) naming what it waits for:
  // describe(arg, text, n). stuck says whether this rank's own work is
  // blocked by the calls it serves for ranks that are in finish (it serves
  // calls and none of its own awaits a reply). Set once, before any rank
  // can call finish (places_mpi_init).
  void bound_before_finish(bool (*stuck)(void *),
                           void (*describe)(void *, char *, std::size_t),
                           void *arg, double bound_s);
  // Whether every other rank has entered finish (the notices came).
  bool peers_finishing() const;
  // Whether poll() can receive (MPI_THREAD_MULTIPLE without
  // WEFT_DIST_FUNNELED).
  bool pollable() const;
  // Any thread: receives and handles the messages that arrived (handlers
  // run on this thread), completes the sends, and runs the progress
  // thread's queued operations, unless another thread is doing so. Returns
  // whether it handled a message. Does nothing (false) when not pollable()
  // or once finish() has passed its barrier.
  bool poll();
  // The caller polls from now on (true), or stopped (false): while a thread
  // polls (and polled within 1 ms), the progress thread naps (1 ms at a
  // time); then_sleeps: the caller
  // stopped to sleep, so the progress thread is woken to receive in its
  // place (not when it stopped because its wait is over: the next wait
  // would find it woken for nothing).
  void polling(bool on, bool then_sleeps = false);
  // Ends the process with message (exit code 70), naming this rank.
  [[noreturn]] void die(const char *fmt, ...)
      __attribute__((format(printf, 2, 3)));

  struct impl;

private:
  comm() = default;
  int rank_ = 0, world_ = 1, level_ = 0;
  char *base_ = nullptr;
  std::size_t bytes_ = 0;
  std::uintptr_t *remote_ = nullptr;
  comm_stats stats_;
  impl *impl_ = nullptr;
};

} // namespace weft::dist
