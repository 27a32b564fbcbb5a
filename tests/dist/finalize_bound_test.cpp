// places_mpi_finalize's bound (WEFT_DIST_FINALIZE_TIMEOUT): rank 0 drops
// the future of an async_at to rank 1 whose f never returns, then every
// rank calls places_mpi_finalize. Every rank passes the first barrier and
// none can become quiet (rank 1 serves f, rank 0 awaits its reply, the
// others wait in the second barrier): past the bound each must end naming
// what it waits for, never hang (run_mpi.py --expect-failure checks the
// message and the time from the line "fails at").
#include <weft/dist.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace {
struct cell {
  long v;
};
} // namespace
WEFT_TYPE(cell);

int main() {
  try {
    weft::places_mpi_init(std::size_t(16) << 20);
  } catch (const std::invalid_argument &e) {
    std::fprintf(stderr, "%s\n", e.what()); // dist.env.bad_finalize_timeout
    return 1;
  }
  const int me = weft::here().id;
  if (weft::num_places() < 2) {
    std::fprintf(stderr, "finalize_bound_test: needs 2 ranks or more\n");
    return 2;
  }
  if (me == 0) {
    cell *c = weft::make<cell>(weft::here(), 7);
    (void)weft::async_at(weft::place{1}, c, [](cell *x) {
      for (;;) // never returns
        std::this_thread::sleep_for(std::chrono::hours(1));
      return x->v;
    });
    // run_mpi.py times the ranks' exit from this line.
    double now = std::chrono::duration<double>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
    std::fprintf(stderr, "finalize_bound_test: rank 0 fails at %.3f\n", now);
    std::fflush(stderr);
  }
  weft::places_mpi_finalize();
  std::fprintf(stderr,
               "rank %d: places_mpi_finalize returned although "
               "rank 1 still serves a call\n",
               me);
  return 1;
}
