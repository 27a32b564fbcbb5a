// The shutdown's bound before the first barrier (the finalize notice): rank
// 0 drops the future of an async_at to rank 1 whose f never returns and
// calls places_mpi_finalize, where its only worker serves rank 1's call.
// Rank 1's only worker (its main thread) waits meanwhile for that call's
// reply (at() to rank 0, 300 ms long) and serves rank 0's call under its
// wait: f runs above the finished wait, so rank 1 never reaches finalize
// and every other rank waits in the first barrier. Once every other rank
// has announced finalize, rank 1, serving with none of its own calls
// awaiting a reply, must end past WEFT_DIST_FINALIZE_TIMEOUT naming that,
// never hang (run_mpi.py --expect-failure checks the message and the time
// from the line "fails at"). Run with WEFT_NUM_THREADS=1.
#include <weft/dist.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

namespace {
struct cell {
  long v;
};
} // namespace
WEFT_TYPE(cell);

int main() {
  weft::places_mpi_init(std::size_t(16) << 20);
  const int me = weft::here().id;
  if (weft::num_places() < 2) {
    std::fprintf(stderr, "finalize_notice_test: needs 2 ranks or more\n");
    return 2;
  }
  cell *c = weft::make<cell>(weft::here(), 7);
  if (me == 0) {
    (void)weft::async_at(weft::place{1}, c, [](cell *x) {
      for (;;) // never returns
        std::this_thread::sleep_for(std::chrono::hours(1));
      return x->v;
    });
    double now = std::chrono::duration<double>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
    std::fprintf(stderr, "finalize_notice_test: rank 0 fails at %.3f\n", now);
    std::fflush(stderr);
  } else if (me == 1) {
    long v = weft::at(weft::place{0}, c, [](cell *x) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      return x->v;
    });
    std::fprintf(stderr,
                 "rank 1: its at() returned %ld (rank 0's call did not reach "
                 "this thread's wait, or returned)\n",
                 v);
  }
  weft::places_mpi_finalize();
  std::fprintf(stderr, "rank %d: places_mpi_finalize returned\n", me);
  return 1;
}
