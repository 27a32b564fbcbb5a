#include "comm.hpp"

#include "at_split.hpp"
#include "base/backoff.hpp"
#include "base/futex.hpp"

#include <mpi.h>

#include <sched.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer's dynamic annotations (its runtime defines them).
extern "C" void AnnotateIgnoreReadsBegin(const char *file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char *file, int line);
#endif

namespace weft::dist {

namespace {
using clock = std::chrono::steady_clock;
constexpr int kTag = 0x5746;
constexpr auto kHeartbeat = std::chrono::milliseconds(500);
// The progress thread's idle policy: after its last message it spins, then
// yields (kProgressBackoff) for kSpinWindow, then naps, kIdleNapUs first,
// each nap twice the last up to kMaxIdleNapUs (a message to a rank whose
// threads all sleep waits that long at most; an idle rank wakes 1000 times
// a second);
// while another thread polls (and polled within kPolledNapUs: not one
// stuck in a long task) it naps kPolledNapUs (heartbeats, queued
// operations; an operation queued for it wakes it).
constexpr auto kSpinWindow = std::chrono::milliseconds(50);
// Payloads up to this many bytes go with MPI_Send from the sending thread
// in the MULTIPLE discipline (within Open MPI's shared-memory eager limit).
constexpr std::uint32_t kEagerPayload = 1024;
// The window's start, on every rank: Open MPI's MPI_Win_allocate returned
// bases 8 bytes past a page here, so every ring position was 8 bytes off
// the 64-byte alignment remote_at and graph_copy assume, every large
// array's put ran between addresses that differ modulo 64 (the slower
// `rep movsb`) and one position in 64 was page-aliased (docs/places.md,
// the 16 Ki and 64 Ki anomaly). The window is allocated kWindowAlign bytes
// larger and starts at its first page boundary.
constexpr std::uintptr_t kWindowAlign = 4096;
constexpr int kIdleNapUs = 100, kMaxIdleNapUs = 1000, kPolledNapUs = 1000;
constexpr backoff_policy kProgressBackoff{63, backoff_policy::kForever, 8};
// The seq of a message of handler 0 that is a finalize notice (a
// heartbeat's is 0).
constexpr std::uint64_t kFinishNotice = 1;
// Receives posted at a time (comm::impl::init_receives).
constexpr int kReceives = 2;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             clock::now().time_since_epoch())
      .count();
}

// An operation a caller hands to the progress thread.
struct op {
  enum kind {
    send,
    track,
    fetch_add,
    publish,
    put_send,
    get,
    barrier,
    ibarrier
  } k;
  void *dst = nullptr; // get
  int to = 0;
  std::vector<char> msg; // header + payload (send, put_send)
  const void *src = nullptr;
  std::size_t bytes = 0, disp = 0;
  const put_part *parts = nullptr; // put_send
  std::size_t nparts = 0;
  std::uint64_t value = 0, result = 0;
  void (*on_done)(void *) = nullptr; // ibarrier
  void *arg = nullptr;
  std::atomic<bool> done{false};
  bool owned = false;      // the progress thread deletes it when done
  void *request = nullptr; // track: an MPI_Request * sent by a caller
};

comm *g_comm = nullptr;
} // namespace

struct comm::impl {
  comm &c;
  MPI_Comm net = MPI_COMM_NULL;
  MPI_Win win = MPI_WIN_NULL;
  std::thread progress, watchdog;
  std::mutex lock;
  std::deque<op *> queue;
  std::atomic<bool> queued{false};
  // The receiving side (poll_incoming, its handlers), the pending requests
  // (sends, barriers, heartbeat_busy) and the running of queued operations:
  // the progress thread's, or a polling thread's (comm::poll).
  std::mutex step_lock;
  bool closing = false; // step_lock: the final barrier passed
  // step_lock: the receives (init_receives), their buffers, the oldest
  // posted one, and whether the one before it waits to be posted again.
  std::array<std::vector<char>, kReceives> rbuf;
  std::array<MPI_Request, kReceives> rreq{};
  int rhead = 0;
  bool repost = false;
#if defined(__SANITIZE_THREAD__)
  std::vector<char> tsan_copy; // step_lock
#endif
  std::vector<op *> batch;    // step_lock
  bool skipped_tests = false; // step_lock: the last step skipped them
  // Threads polling (comm::polling), and the progress thread's nap: a
  // futex word bumped by whoever wants it awake.
  std::atomic<int> pollers{0};
  // Polls made (a poller's hint, not an exact count): one that is running a
  // long task does not poll, and the progress thread, which sees the count
  // stand still for kPolledNapUs, receives for it. A count, not a clock
  // stamp: a poll reads no clock.
  std::atomic<std::uint64_t> polls{0};
  std::atomic<std::uint32_t> nudge_word{0};
  std::atomic<bool> napping{false};
  am_handler handlers[kMaxHandlers] = {};
  struct pending_send {
    MPI_Request req;
    std::vector<char> buf;
    int heartbeat_to; // -1: not a heartbeat
  };
  std::vector<pending_send> sends;
  struct pending_barrier {
    MPI_Request req;
    void (*on_done)(void *);
    void *arg;
  };
  std::vector<pending_barrier> barriers;
  std::vector<char> heartbeat_busy; // per peer
  std::vector<std::atomic<std::int64_t>> last_heard;
  std::atomic<std::int64_t> loop_stamp{0};
  std::atomic<const char *> in_call{"startup"};
  std::atomic<bool> checking_peers{false}, stopping{false}, stopped{false};
  std::atomic<bool> finish_requested{false}, finished{false};
  // The finalize notice: a message of handler 0 with seq kFinishNotice,
  // sent to every peer when this rank enters finish; peers_in_finish counts
  // the peers whose notice came (step_lock writes it), peers_all_at the
  // time (now_ms) the last one came.
  bool notice_sent = false;         // the progress thread's
  std::vector<char> peer_in_finish; // step_lock
  std::atomic<int> peers_in_finish{0};
  std::atomic<std::int64_t> peers_all_at{0};
  // bound_before_finish: stuck is stored last (the watchdog runs already).
  std::atomic<bool (*)(void *)> stuck{nullptr};
  void (*stuck_describe)(void *, char *, std::size_t) = nullptr;
  void *stuck_arg = nullptr;
  double stuck_bound_s = 60;
  void (*on_barrier)(void *) = nullptr;
  void *barrier_arg = nullptr;
  bool (*quiet)(void *) = nullptr; // finish: this rank's own work is over
  // finish: what this rank's own work still is (for the bound's message).
  void (*describe)(void *, char *, std::size_t) = nullptr;
  double finish_bound_s = 60; // finish: steps (2) and (3) at most this long
  // The progress thread's: when step (1) ended, and the bound of (2)-(3).
  clock::time_point all_came_at{}, deadline{};
  std::int64_t timeout_ms = 6000;
  std::mutex ready_lock;
  std::condition_variable ready_cv;
  bool ready = false;
  std::string start_error;
  std::size_t want_bytes = 0;
  // Per rank: from the base MPI_Win_allocate gave it to the window's
  // (kWindowAlign) start, added to every displacement towards it.
  std::vector<std::size_t> shift;
  // The displacement of `disp` in rank's window as MPI addresses it (from
  // the base MPI_Win_allocate gave it): every MPI call on the window takes
  // its displacement from here.
  MPI_Aint win_disp(int rank, std::size_t disp) const {
    return MPI_Aint(disp + shift[std::size_t(rank)]);
  }
  // MPI_THREAD_MULTIPLE (and not WEFT_DIST_FUNNELED=1): callers make their
  // own sends, puts and atomics; the progress thread receives.
  bool direct = false;
  // Nothing of weft's own uses the window once the shutdown's last step
  // found this rank quiet (finish): a served call releases its graph after
  // its reply, but the shutdown waits for that (before, such late releases
  // ran on while finalize freed the window and the places' state: the
  // finalize/op_release race). A thread that still calls in (a task of the
  // program outliving places_mpi_finalize) ends the rank naming the call,
  // rather than touch a freed window; the progress thread waits for those
  // inside before it frees it.
  std::atomic<int> window_users{0};
  std::atomic<bool> window_closing{false};
  void enter_window(const char *call) {
    window_users.fetch_add(1, std::memory_order_seq_cst);
    if (window_closing.load(std::memory_order_seq_cst)) {
      window_users.fetch_sub(1, std::memory_order_seq_cst);
      c.die("%s after places_mpi_finalize closed the window (a task of the "
            "program outlived it)",
            call);
    }
  }
  void leave_window() { window_users.fetch_sub(1, std::memory_order_seq_cst); }
  bool funneled = false; // WEFT_DIST_FUNNELED
  // The window's memory model is MPI_WIN_UNIFIED: a load of its memory
  // sees what the RMA operations wrote (read_own).
  bool unified = false;

  explicit impl(comm &cc) : c(cc) {}

  void check(int rc, const char *what, int peer = -1) {
    if (rc == MPI_SUCCESS)
      return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    if (peer >= 0)
      c.die("%s with rank %d failed: %s", what, peer, text);
    c.die("%s failed: %s", what, text);
  }

  void init_mpi() {
    int provided = 0;
    in_call = "MPI_Init_thread";
    int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
    if (rc != MPI_SUCCESS) {
      start_error = "MPI_Init_thread failed";
      return;
    }
    if (provided < MPI_THREAD_FUNNELED) {
      start_error = "MPI provides no MPI_THREAD_FUNNELED";
      return;
    }
    c.level_ = provided;
    direct = provided == MPI_THREAD_MULTIPLE && !funneled;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check(MPI_Comm_dup(MPI_COMM_WORLD, &net), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(net, MPI_ERRORS_RETURN);
    MPI_Comm_rank(net, &c.rank_);
    at_split::set_rank(c.rank_);
    MPI_Comm_size(net, &c.world_);
    void *base = nullptr;
    in_call = "MPI_Win_allocate";
    check(MPI_Win_allocate(MPI_Aint(want_bytes + kWindowAlign), 1,
                           MPI_INFO_NULL, net, &base, &win),
          "MPI_Win_allocate");
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    c.remote_ = new std::uintptr_t[c.world_];
    auto mine = reinterpret_cast<std::uintptr_t>(base);
    in_call = "MPI_Allgather";
    check(
        MPI_Allgather(&mine, 1, MPI_UINT64_T, c.remote_, 1, MPI_UINT64_T, net),
        "MPI_Allgather of the window bases");
    // Every rank's window starts at its first page boundary (kWindowAlign).
    shift.resize(std::size_t(c.world_));
    for (int r = 0; r < c.world_; ++r) {
      shift[std::size_t(r)] = std::size_t(-c.remote_[r] & (kWindowAlign - 1));
      c.remote_[r] += shift[std::size_t(r)];
    }
    c.base_ = static_cast<char *>(base) + shift[std::size_t(c.rank_)];
    c.bytes_ = want_bytes;
    std::memset(c.base_, 0, std::min<std::size_t>(want_bytes, 256));
    int *model = nullptr, found = 0;
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &found);
    unified = found && model && *model == MPI_WIN_UNIFIED;
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win), "MPI_Win_lock_all");
    check(MPI_Barrier(net), "MPI_Barrier after the window's set-up");
    init_receives();
    heartbeat_busy.assign(c.world_, 0);
    peer_in_finish.assign(c.world_, 0);
    last_heard = std::vector<std::atomic<std::int64_t>>(c.world_);
    for (auto &t : last_heard)
      t = now_ms();
    in_call = nullptr;
  }

  void send_now(int to, std::vector<char> buf, int heartbeat_to) {
    sends.push_back({MPI_REQUEST_NULL, std::move(buf), heartbeat_to});
    pending_send &s = sends.back();
    check(MPI_Isend(s.buf.data(), int(s.buf.size()), MPI_BYTE, to, kTag, net,
                    &s.req),
          "MPI_Isend", to);
  }

  void run(op *o) {
    switch (o->k) {
    case op::send:
      send_now(o->to, std::move(o->msg), -1);
      break;
    case op::track: {
      auto *r = static_cast<MPI_Request *>(o->request);
      sends.push_back({*r, std::move(o->msg), -1});
      delete r;
      break;
    }
    case op::fetch_add: {
      o->result = fetch_add_now(o->to, o->disp, o->value);
      break;
    }
    case op::publish:
      publish_now(o->disp, o->value);
      break;
    case op::put_send:
      put_parts_now(o->to, o->parts, o->nparts, o->disp);
      send_now(o->to, std::move(o->msg), -1);
      break;
    case op::get:
      get_now(o->to, o->dst, o->bytes, o->disp);
      break;
    case op::barrier:
      in_call = "MPI_Barrier";
      check(MPI_Barrier(net), "MPI_Barrier");
      break;
    case op::ibarrier: {
      MPI_Request r;
      check(MPI_Ibarrier(net, &r), "MPI_Ibarrier");
      barriers.push_back({r, o->on_done, o->arg});
      break;
    }
    }
    in_call = nullptr;
    if (o->owned)
      delete o;
    else
      o->done.store(true, std::memory_order_release);
  }

  std::uint64_t fetch_add_now(int to, std::size_t disp, std::uint64_t v) {
    std::uint64_t result = 0;
    check(MPI_Fetch_and_op(&v, &result, MPI_UINT64_T, to, win_disp(to, disp),
                           v ? MPI_SUM : MPI_NO_OP, win),
          "MPI_Fetch_and_op", to);
    check(MPI_Win_flush(to, win), "MPI_Win_flush", to);
    c.stats_.atomics.fetch_add(1, std::memory_order_relaxed);
    return result;
  }

  void publish_now(std::size_t disp, std::uint64_t v) {
    check(MPI_Accumulate(&v, 1, MPI_UINT64_T, c.rank_, win_disp(c.rank_, disp),
                         1, MPI_UINT64_T, MPI_REPLACE, win),
          "MPI_Accumulate");
    check(MPI_Win_flush(c.rank_, win), "MPI_Win_flush");
  }

  // One MPI_Put per piece, each from its own contiguous source, then one
  // flush (stats: one put). Not one MPI_Put with an hindexed origin type:
  // Open MPI's non-contiguous origin path was measured 2-3x slower than the
  // pieces for a 512 KiB array (42-73 us against 21 us, load 8-9).
  void put_parts_now(int to, const put_part *parts, std::size_t n,
                     std::size_t disp) {
    if (n == 1) {
      put_now(to, parts[0].src, parts[0].bytes, disp);
      return;
    }
    const MPI_Aint at = win_disp(to, disp);
    std::size_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (parts[i].bytes >= (std::size_t(1) << 30) ||
          total + parts[i].bytes >= (std::size_t(1) << 30))
        c.die("a gathered put of more than 1 GiB to rank %d", to);
      if (parts[i].bytes)
        check(MPI_Put(parts[i].src, int(parts[i].bytes), MPI_BYTE, to,
                      at + MPI_Aint(total), int(parts[i].bytes), MPI_BYTE, win),
              "MPI_Put", to);
      total += parts[i].bytes;
    }
    c.stats_.puts.fetch_add(1, std::memory_order_relaxed);
    check(MPI_Win_flush(to, win), "MPI_Win_flush", to);
    c.stats_.put_bytes.fetch_add(total, std::memory_order_relaxed);
  }

  void get_now(int to, void *dst, std::size_t bytes, std::size_t disp) {
    const MPI_Aint at = win_disp(to, disp);
    char *p = static_cast<char *>(dst);
    for (std::size_t off = 0; off < bytes;) {
      std::size_t n = std::min<std::size_t>(bytes - off, 1u << 30);
      check(MPI_Get(p + off, int(n), MPI_BYTE, to, at + MPI_Aint(off), int(n),
                    MPI_BYTE, win),
            "MPI_Get", to);
      off += n;
    }
    check(MPI_Win_flush(to, win), "MPI_Win_flush", to);
    c.stats_.gets.fetch_add(1, std::memory_order_relaxed);
  }

  void put_now(int to, const void *src, std::size_t bytes, std::size_t disp) {
    const MPI_Aint at = win_disp(to, disp);
    const char *p = static_cast<const char *>(src);
    // One MPI_Put below 1 GiB (MPI counts are int).
    for (std::size_t off = 0; off < bytes;) {
      std::size_t n = std::min<std::size_t>(bytes - off, 1u << 30);
      check(MPI_Put(p + off, int(n), MPI_BYTE, to, at + MPI_Aint(off), int(n),
                    MPI_BYTE, win),
            "MPI_Put", to);
      c.stats_.puts.fetch_add(1, std::memory_order_relaxed);
      off += n;
    }
    check(MPI_Win_flush(to, win), "MPI_Win_flush", to);
    c.stats_.put_bytes.fetch_add(bytes, std::memory_order_relaxed);
  }

  // The receives: kReceives receives of any source, each into its own
  // buffer (a header and the largest payload), stay posted. An idle poll is
  // one MPI_Test, not a probe of the matching queues, and a message is
  // matched once, as it arrives. Matching follows the order of posting and
  // every receive matches any message, so a message completes the oldest
  // posted receive (rhead), and only that one is tested; it is posted again
  // after its message was handled, behind the others, which keeps the
  // messages in their order of arrival. The requests are persistent
  // (MPI_Recv_init once, MPI_Start per message): Open MPI then neither
  // allocates nor frees a request per message.
  void init_receives() {
    for (int i = 0; i < kReceives; ++i) {
      rbuf[i].resize(sizeof(am_header) + kMaxPayload);
      check(MPI_Recv_init(rbuf[i].data(), int(rbuf[i].size()), MPI_BYTE,
                          MPI_ANY_SOURCE, kTag, net, &rreq[i]),
            "MPI_Recv_init");
      check(MPI_Start(&rreq[i]), "MPI_Start of a receive");
    }
  }
  // Posts the receive whose message was handled last (rhead's
  // predecessor), if it waits.
  void post_pending_receive() {
    if (!repost)
      return;
    repost = false;
    check(MPI_Start(&rreq[(rhead + kReceives - 1) % kReceives]),
          "MPI_Start of a receive");
  }

  bool poll_incoming(bool polled) {
    bool any = false;
    post_pending_receive();
    for (int n = 0; n < 64; ++n) {
      int flag = 0;
      MPI_Status st;
      const std::uint64_t tested = at_split::now();
      check(MPI_Test(&rreq[rhead], &flag, &st), "MPI_Test of the receive");
      if (!flag) {
        at_split::receive_tested(tested, false, 0, 0);
        return any;
      }
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      const int from = st.MPI_SOURCE;
      const char *msg = rbuf[rhead].data();
#if defined(__SANITIZE_THREAD__)
      // Whichever thread drove Open MPI's progress (a worker's MPI_Send or
      // MPI_Win_flush, say) may have written the message into the buffer; Open
      // MPI hands it over with atomics of its own (not instrumented), which
      // TSan cannot see. So, under TSan only, the message is copied out
      // with TSan ignoring this one read, and the handler reads the copy:
      // weft's own accesses stay checked.
      tsan_copy.resize(std::size_t(count));
      AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
      std::memcpy(tsan_copy.data(), msg, std::size_t(count));
      AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
      msg = tsan_copy.data();
#endif
      last_heard[from].store(now_ms(), std::memory_order_relaxed);
      am_header h;
      if (std::size_t(count) < sizeof h)
        c.die("a message of %d bytes from rank %d (shorter than a header)",
              count, from);
      std::memcpy(&h, msg, sizeof h);
      at_split::receive_tested(tested, true, h.handler, h.seq);
      if (h.handler >= kMaxHandlers ||
          sizeof h + h.payload != std::size_t(count))
        c.die("a corrupt message from rank %d (handler %u, payload %u, %d "
              "bytes)",
              from, h.handler, h.payload, count);
      c.stats_.am_received[h.handler].fetch_add(1, std::memory_order_relaxed);
      if (polled)
        c.stats_.am_polled[h.handler].fetch_add(1, std::memory_order_relaxed);
      if (h.handler == 0 && h.seq == kFinishNotice && !peer_in_finish[from]) {
        peer_in_finish[from] = 1;
        if (peers_in_finish.fetch_add(1, std::memory_order_release) + 2 ==
            c.world_)
          peers_all_at.store(now_ms(), std::memory_order_release);
      }
      if (h.handler != 0) {
        any = true;
        am_handler fn = handlers[h.handler];
        if (!fn)
          c.die("a message from rank %d for handler %u, which is not set", from,
                h.handler);
        // Handlers do not poll (step_lock is held: comm::poll's try-lock
        // fails) and never wait for a message, so the buffer is theirs until
        // its receive is posted again.
        fn(from, h, msg + sizeof h);
      }
      rhead = (rhead + 1) % kReceives;
      repost = true;
      // A polling thread (a waiting worker) returns with the first message
      // handled: the call it may now run, or the reply it waits for, is
      // on its path; another test, or posting the receive again (an
      // MPI_Start, ~480 instructions), would come first. The next step
      // posts it; meanwhile the other receives take what arrives.
      if (polled && any)
        return any;
      post_pending_receive();
    }
    return any;
  }

  void test_sends() {
    for (std::size_t i = 0; i < sends.size();) {
      int flag = 0;
      check(MPI_Test(&sends[i].req, &flag, MPI_STATUS_IGNORE), "MPI_Test");
      if (!flag) {
        ++i;
        continue;
      }
      if (sends[i].heartbeat_to >= 0)
        heartbeat_busy[sends[i].heartbeat_to] = 0;
      sends[i] = std::move(sends.back());
      sends.pop_back();
    }
  }

  void test_barriers() {
    for (std::size_t i = 0; i < barriers.size();) {
      int flag = 0;
      const std::uint64_t tested = at_split::now();
      check(MPI_Test(&barriers[i].req, &flag, MPI_STATUS_IGNORE),
            "MPI_Test of a barrier");
      if (!flag) {
        at_split::barrier_tested(tested);
        ++i;
        continue;
      }
      barriers[i].on_done(barriers[i].arg);
      barriers.erase(barriers.begin() + std::ptrdiff_t(i));
    }
  }

  void heartbeats() {
    am_header h;
    for (int r = 0; r < c.world_; ++r) {
      if (r == c.rank_ || heartbeat_busy[r])
        continue;
      heartbeat_busy[r] = 1;
      std::vector<char> b(sizeof h);
      std::memcpy(b.data(), &h, sizeof h);
      c.stats_.am_sent[0].fetch_add(1, std::memory_order_relaxed);
      send_now(r, std::move(b), r);
    }
  }

  // Under step_lock: runs the queued operations, receives, completes
  // requests. Whether it did anything but complete requests.
  bool step(bool polled) {
    bool worked = false;
    if (queued.load(std::memory_order_acquire)) {
      {
        std::lock_guard<std::mutex> lk(lock);
        batch.assign(queue.begin(), queue.end());
        queue.clear();
        queued.store(false, std::memory_order_relaxed);
      }
      // (op::barrier, a blocking MPI_Barrier, is queued only while the
      // places are set up, when nobody polls.)
      for (op *o : batch)
        run(o);
      worked = !batch.empty();
    }
    const bool received = poll_incoming(polled);
    worked |= received;
    // A polling thread that received something returns to it at once
    // (the sends' and barriers' tests cost an opal_progress each, with
    // libnbc's progress while an MPI_Ibarrier is pending): every other
    // step at most, so a stream of messages cannot keep them untested.
    if (polled && received && !skipped_tests) {
      skipped_tests = true;
      return worked;
    }
    skipped_tests = false;
    test_sends();
    if (!barriers.empty())
      test_barriers();
    return worked;
  }

  // Sleeps up to us microseconds unless an operation is queued (submit and
  // finish wake it through nudge_word).
  void nap(int us) {
    std::uint32_t seen = nudge_word.load(std::memory_order_seq_cst);
    napping.store(true, std::memory_order_seq_cst);
    if (!queued.load(std::memory_order_seq_cst) &&
        !finish_requested.load(std::memory_order_seq_cst)) {
      c.stats_.naps.fetch_add(1, std::memory_order_relaxed);
      futex_wait_for(nudge_word, seen, us);
    }
    napping.store(false, std::memory_order_relaxed);
  }

  void nudge() {
    nudge_word.fetch_add(1, std::memory_order_seq_cst);
    if (napping.load(std::memory_order_seq_cst))
      futex_wake(nudge_word, 1);
  }

  void loop() {
    init_mpi();
    {
      std::lock_guard<std::mutex> lk(ready_lock);
      ready = true;
    }
    ready_cv.notify_all();
    if (!start_error.empty())
      return;
    checking_peers = true;
    auto last_beat = clock::now() - kHeartbeat;
    auto last_work = clock::now();
    MPI_Request barrier = MPI_REQUEST_NULL;
    // The shutdown (finish): none; in the first barrier (every rank called
    // finish); until this rank is quiet; in the second barrier (every rank
    // was quiet); until it is quiet again (the tails of calls it served
    // meanwhile). Messages are served and queued operations run throughout.
    enum { running, all_came, draining, all_quiet, settling } phase = running;
    backoff idle(kProgressBackoff);
    int idle_nap = kIdleNapUs;
    std::uint64_t seen_polls = 0; // polls when the count last moved
    auto polls_moved = clock::now() - std::chrono::hours(1);
    for (;;) {
      loop_stamp.store(now_ms(), std::memory_order_relaxed);
      bool worked = false;
      auto t = clock::now();
      if (std::uint64_t p = polls.load(std::memory_order_relaxed);
          p != seen_polls) {
        seen_polls = p;
        polls_moved = t;
      }
      // A polling thread holds the lock for a moment at a time.
      if (step_lock.try_lock()) {
        worked = step(false);
        if (t - last_beat >= kHeartbeat) {
          heartbeats();
          last_beat = t;
        }
        step_lock.unlock();
      }
      if (phase == running &&
          finish_requested.load(std::memory_order_acquire)) {
        if (!notice_sent) { // every peer learns that this rank is here
          std::lock_guard<std::mutex> lk(step_lock);
          am_header h;
          h.seq = kFinishNotice;
          for (int r = 0; r < c.world_; ++r) {
            if (r == c.rank_)
              continue;
            std::vector<char> b(sizeof h);
            std::memcpy(b.data(), &h, sizeof h);
            c.stats_.am_sent[0].fetch_add(1, std::memory_order_relaxed);
            send_now(r, std::move(b), -1);
          }
          notice_sent = true;
        }
        check(MPI_Ibarrier(net, &barrier), "MPI_Ibarrier");
        phase = all_came;
      }
      if (phase == all_came || phase == all_quiet) {
        int flag = 0;
        check(MPI_Test(&barrier, &flag, MPI_STATUS_IGNORE),
              "MPI_Test of a final barrier");
        if (flag) {
          if (phase == all_came) {
            all_came_at = clock::now();
            // finish set finish_bound_s before finish_requested.
            deadline = all_came_at +
                       std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(finish_bound_s));
          }
          phase = phase == all_came ? draining : settling;
        }
      }
      if (phase == draining || phase == settling) {
        // Under step_lock: no handler runs (on_call counts a served call,
        // on_reply ends a pending one), and once quiet in settling no poller
        // receives again (closing), so nothing starts after the check. An
        // operation still queued (a reply or a tail publish in FUNNELED,
        // queued before its call was counted over) runs first.
        std::lock_guard<std::mutex> lk(step_lock);
        if (!queued.load(std::memory_order_seq_cst) &&
            (!quiet || quiet(barrier_arg))) {
          if (phase == draining) {
            check(MPI_Ibarrier(net, &barrier), "MPI_Ibarrier");
            phase = all_quiet;
          } else {
            closing = true; // no poller calls MPI from here on
          }
        } else if (t > deadline) {
          die_unfinished(phase == draining
                             ? "its work not over (before the second barrier)"
                             : "its work not over (after the second barrier)");
        }
      } else if (phase == all_quiet && t > deadline) {
        // It was quiet; it may serve a call that came since from a rank
        // that is not (which the protocol allows): what is left, then.
        std::lock_guard<std::mutex> lk(step_lock);
        die_unfinished("still in the second barrier (this rank was quiet, "
                       "another rank is not)");
      }
      if (closing) {
        on_barrier(barrier_arg);
        break;
      }
      if (phase != running) {
        // Shutting down (a nap would return at once: finish_requested);
        // a served call's tail may need this core.
        if (worked)
          idle.reset();
        else
          idle.pause();
      } else if (worked) {
        last_work = t;
        idle.reset();
        idle_nap = kIdleNapUs;
      } else if (pollers.load(std::memory_order_relaxed) > 0 &&
                 t - polls_moved < std::chrono::microseconds(kPolledNapUs)) {
        nap(kPolledNapUs);
      } else if (t - last_work < kSpinWindow) {
        // Yields after a few spins: polling must not keep a woken weft
        // thread of this rank (or of a rank sharing the core) off the CPU.
        idle.pause();
      } else {
        nap(idle_nap);
        idle_nap = std::min(2 * idle_nap, kMaxIdleNapUs);
      }
    }
    // Every rank is here: no more user messages. Peers may exit now.
    checking_peers = false;
    for (auto &s : sends)
      if (s.heartbeat_to >= 0)
        MPI_Cancel(&s.req);
    for (auto &s : sends)
      MPI_Wait(&s.req, MPI_STATUS_IGNORE);
    sends.clear();
    post_pending_receive(); // every receive active: each can be cancelled
    for (MPI_Request &r : rreq) {
      MPI_Cancel(&r); // a message may complete it
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      MPI_Request_free(&r); // persistent: freed explicitly
    }
    window_closing.store(true, std::memory_order_seq_cst);
    for (backoff b(kProgressBackoff);
         window_users.load(std::memory_order_seq_cst) > 0;)
      b.pause();
    in_call = "MPI_Win_free";
    check(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
    check(MPI_Win_free(&win), "MPI_Win_free");
    MPI_Comm_free(&net);
    in_call = "MPI_Finalize";
    MPI_Finalize();
    in_call = nullptr;
    finished = true;
  }

  // Under step_lock, past finish's bound: ends the rank naming where it
  // waits (what), what is left of its work (describe) and what is queued.
  [[noreturn]] void die_unfinished(const char *what) {
    char left[320] = "";
    if (describe)
      describe(barrier_arg, left, sizeof left);
    std::size_t ops = 0;
    {
      std::lock_guard<std::mutex> lk(lock);
      ops = queue.size();
    }
    c.die("places_mpi_finalize: %s %.1f s after every rank called it "
          "(WEFT_DIST_FINALIZE_TIMEOUT=%g s): %s, operations queued for the "
          "progress thread: %zu",
          what,
          std::chrono::duration<double>(clock::now() - all_came_at).count(),
          finish_bound_s, left, ops);
  }

  // The watchdog's: since when (now_ms) stuck() has held without a break
  // while every peer was in finish and this rank was not; 0: it does not.
  std::int64_t stuck_since = 0;

  // The bound before the first barrier (bound_before_finish), on the
  // watchdog every 100 ms.
  void check_stuck(std::int64_t t) {
    bool (*fn)(void *) = stuck.load(std::memory_order_acquire);
    if (!fn || c.world_ < 2 ||
        peers_in_finish.load(std::memory_order_acquire) + 1 != c.world_ ||
        finish_requested.load(std::memory_order_acquire) || !fn(stuck_arg)) {
      stuck_since = 0;
      return;
    }
    if (!stuck_since)
      stuck_since = t;
    if (double(t - stuck_since) < stuck_bound_s * 1e3)
      return;
    char left[320] = "";
    if (stuck_describe)
      stuck_describe(stuck_arg, left, sizeof left);
    c.die("places_mpi_finalize not called: every other rank has been in it "
          "for %.1f s (WEFT_DIST_FINALIZE_TIMEOUT=%g s) while this rank "
          "serves calls that do not end, none of its own awaiting a reply: "
          "%s",
          double(t - peers_all_at.load(std::memory_order_acquire)) / 1e3,
          stuck_bound_s, left);
  }

  void watch() {
    while (!stopped.load(std::memory_order_acquire)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::int64_t t = now_ms();
      check_stuck(t);
      const char *call = in_call.load(std::memory_order_relaxed);
      std::int64_t stamp = loop_stamp.load(std::memory_order_relaxed);
      if (stamp && t - stamp > timeout_ms)
        c.die("the progress thread has been stuck %s for %.1f s",
              call ? call : "outside MPI", double(t - stamp) / 1e3);
      if (!checking_peers.load(std::memory_order_acquire))
        continue;
      for (int r = 0; r < c.world_; ++r)
        if (r != c.rank_ &&
            t - last_heard[r].load(std::memory_order_relaxed) > timeout_ms)
          c.die("heard nothing from rank %d for %.1f s (it died or hangs)", r,
                double(t - last_heard[r].load()) / 1e3);
    }
  }

  void submit(op *o) {
    if (window_closing.load(std::memory_order_seq_cst)) // nobody would run it
      c.die("an operation queued after places_mpi_finalize closed the "
            "window (a task of the program outlived it)");
    // Read before it is queued: an owned op may be run and freed at once.
    const bool wake = o->k != op::track;
    {
      std::lock_guard<std::mutex> lk(lock);
      queue.push_back(o);
      queued.store(true, std::memory_order_seq_cst);
    }
    // A send made by its caller only waits for completion: whoever steps
    // next completes it; every other operation wakes the progress thread.
    if (wake)
      nudge();
  }
  void wait(op *o) {
    for (int spin = 0; !o->done.load(std::memory_order_acquire); ++spin)
      if (spin > 64)
        sched_yield();
  }
};

void comm::die(const char *fmt, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "weft dist: rank %d of %d: %s; exiting\n", rank_, world_,
               text);
  std::fflush(stderr);
  std::_Exit(70);
}

comm &comm::start(std::size_t window_bytes, const am_handler *handlers,
                  bool funneled, double timeout_s) {
  if (g_comm)
    throw std::logic_error("weft::places_mpi_init: called twice");
  auto *c = new comm;
  c->impl_ = new impl(*c);
  impl &m = *c->impl_;
  for (std::uint32_t i = 1; i < kMaxHandlers; ++i)
    m.handlers[i] = handlers[i];
  m.want_bytes = window_bytes;
  m.funneled = funneled;
  m.timeout_ms = std::int64_t(timeout_s * 1000);
  m.progress = std::thread([&m] { m.loop(); });
  {
    std::unique_lock<std::mutex> lk(m.ready_lock);
    m.ready_cv.wait(lk, [&m] { return m.ready; });
  }
  if (!m.start_error.empty()) {
    m.progress.join();
    throw std::runtime_error("weft::places_mpi_init: " + m.start_error);
  }
  m.watchdog = std::thread([&m] { m.watch(); });
  g_comm = c;
  return *c;
}

comm *comm::get() { return g_comm; }

bool comm::pollable() const { return impl_->direct; }

bool comm::poll() {
  impl &m = *impl_;
  if (!m.direct)
    return false;
  m.polls.store(m.polls.load(std::memory_order_relaxed) + 1,
                std::memory_order_relaxed);
  const std::uint64_t t0 = at_split::poll_begin();
  std::unique_lock<std::mutex> lk(m.step_lock, std::try_to_lock);
  if (!lk.owns_lock() || m.closing)
    return false;
  const bool any = m.step(true);
  at_split::poll_end(t0);
  return any;
}

void comm::polling(bool on, bool then_sleeps) {
  impl &m = *impl_;
  if (on) {
    m.pollers.fetch_add(1, std::memory_order_relaxed);
  } else if (m.pollers.fetch_sub(1, std::memory_order_relaxed) == 1 &&
             then_sleeps) {
    m.nudge(); // receiving is the progress thread's again, at once
  }
}

bool comm::on_progress_thread() const {
  return std::this_thread::get_id() == impl_->progress.get_id();
}

void comm::ibarrier(void (*on_done)(void *), void *arg) {
  auto *o = new op;
  o->k = op::ibarrier;
  o->on_done = on_done;
  o->arg = arg;
  o->owned = true;
  impl_->submit(o);
}

void comm::barrier() {
  op o;
  o.k = op::barrier;
  impl_->submit(&o);
  impl_->wait(&o);
}

namespace {
std::vector<char> pack(const am_header &h, const void *payload) {
  if (h.payload > kMaxPayload)
    throw std::length_error("weft dist: a message payload of " +
                            std::to_string(h.payload) + " bytes (at most " +
                            std::to_string(kMaxPayload) + ")");
  std::vector<char> b(sizeof h + h.payload);
  std::memcpy(b.data(), &h, sizeof h);
  if (h.payload)
    std::memcpy(b.data() + sizeof h, payload, h.payload);
  return b;
}
} // namespace

void comm::send(int to, const am_header &h, const void *payload) {
  if (impl_->direct && h.payload <= kEagerPayload) {
    // Small: a blocking MPI_Send from this thread returns once the message
    // is in the target's queue (eager); no request for anybody to complete.
    // The message is built on the stack (no thread-local buffer to find).
    alignas(16) char b[sizeof h + kEagerPayload];
    std::memcpy(b, &h, sizeof h);
    if (h.payload)
      std::memcpy(b + sizeof h, payload, h.payload);
    stats_.am_sent[h.handler].fetch_add(1, std::memory_order_relaxed);
    at_split::stamp(at_split::kSendBegin, h.handler, h.seq);
    impl_->check(
        MPI_Send(b, int(sizeof h + h.payload), MPI_BYTE, to, kTag, impl_->net),
        "MPI_Send", to);
    at_split::stamp(at_split::kSendEnd, h.handler, h.seq);
    return;
  }
  auto *o = new op;
  o->to = to;
  o->msg = pack(h, payload);
  o->owned = true;
  stats_.am_sent[h.handler].fetch_add(1, std::memory_order_relaxed);
  if (impl_->direct) {
    // Sent from this thread; the progress thread completes the request.
    auto *r = new MPI_Request;
    impl_->check(MPI_Isend(o->msg.data(), int(o->msg.size()), MPI_BYTE, to,
                           kTag, impl_->net, r),
                 "MPI_Isend", to);
    o->k = op::track;
    o->request = r;
  } else {
    o->k = op::send;
  }
  impl_->submit(o);
}

std::uint64_t comm::fetch_add(int to, std::size_t disp, std::uint64_t v) {
  if (impl_->direct) {
    impl_->enter_window("comm::fetch_add");
    std::uint64_t r = impl_->fetch_add_now(to, disp, v);
    impl_->leave_window();
    return r;
  }
  op o;
  o.k = op::fetch_add;
  o.to = to;
  o.disp = disp;
  o.value = v;
  impl_->submit(&o);
  impl_->wait(&o);
  return o.result;
}

std::uint64_t comm::read_own(std::size_t disp) {
  if (!impl_->unified)
    return fetch_add(rank_, disp, 0);
  impl_->enter_window("comm::read_own");
  std::uint64_t v;
  __atomic_load(reinterpret_cast<const std::uint64_t *>(base_ + disp), &v,
                __ATOMIC_ACQUIRE);
  impl_->leave_window();
  return v;
}

void comm::get(int to, std::size_t disp, void *dst, std::size_t bytes) {
  if (impl_->direct) {
    impl_->get_now(to, dst, bytes, disp);
    return;
  }
  op o;
  o.k = op::get;
  o.to = to;
  o.disp = disp;
  o.dst = dst;
  o.bytes = bytes;
  impl_->submit(&o);
  impl_->wait(&o);
}

void comm::publish(std::size_t disp, std::uint64_t v) {
  if (impl_->direct) {
    impl_->enter_window("comm::publish");
    impl_->publish_now(disp, v);
    impl_->leave_window();
    return;
  }
  auto *o = new op;
  o->k = op::publish;
  o->disp = disp;
  o->value = v;
  o->owned = true;
  impl_->submit(o);
}

void comm::put_then_send(int to, const put_part *parts, std::size_t n,
                         std::size_t disp, const am_header &h,
                         const void *payload) {
  if (impl_->direct) {
    impl_->put_parts_now(to, parts, n, disp);
    send(to, h, payload);
    return;
  }
  op o;
  o.k = op::put_send;
  o.to = to;
  o.parts = parts;
  o.nparts = n;
  o.disp = disp;
  o.msg = pack(h, payload);
  stats_.am_sent[h.handler].fetch_add(1, std::memory_order_relaxed);
  impl_->submit(&o);
  impl_->wait(&o);
}

void comm::bound_before_finish(bool (*stuck)(void *),
                               void (*describe)(void *, char *, std::size_t),
                               void *arg, double bound_s) {
  impl &m = *impl_;
  m.stuck_describe = describe;
  m.stuck_arg = arg;
  m.stuck_bound_s = bound_s;
  m.stuck.store(stuck, std::memory_order_release); // the watchdog reads it
}

bool comm::peers_finishing() const {
  return impl_->peers_in_finish.load(std::memory_order_acquire) + 1 == world_;
}

void comm::finish(void (*on_barrier)(void *), void *arg, void (*wait)(void *),
                  bool (*quiet)(void *),
                  void (*describe)(void *, char *, std::size_t),
                  double bound_s) {
  impl &m = *impl_;
  m.on_barrier = on_barrier;
  m.barrier_arg = arg;
  m.quiet = quiet;
  m.describe = describe;
  m.finish_bound_s = bound_s;
  m.finish_requested.store(true, std::memory_order_seq_cst);
  m.nudge();
  wait(arg);
  m.progress.join();
  m.stopped = true;
  m.watchdog.join();
  g_comm = nullptr;
}

} // namespace weft::dist
