// A rank that dies (SIGKILL) or hangs (SIGSTOP) while rank 0 calls it: the
// other ranks must exit with an error naming it, never hang (run_mpi.py
// --expect-failure checks the message and the time).
#include <weft/dist.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

namespace {
struct cell {
  long v;
};
} // namespace
WEFT_TYPE(cell);

int main(int argc, char **argv) {
  if (argc != 2 ||
      (std::strcmp(argv[1], "kill") && std::strcmp(argv[1], "stop"))) {
    std::fprintf(stderr, "usage: %s kill|stop\n", argv[0]);
    return 2;
  }
  weft::places_mpi_init(std::size_t(16) << 20);
  int me = weft::here().id, victim = weft::num_places() - 1;
  if (me == victim) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    // run_mpi.py times the others' exit from this line.
    double now = std::chrono::duration<double>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
    std::fprintf(stderr, "dead_rank_test: rank %d fails at %.3f\n", me, now);
    std::fflush(stderr);
    std::raise(std::strcmp(argv[1], "kill") == 0 ? SIGKILL : SIGSTOP);
  }
  if (me == 0) {
    cell *c = weft::make<cell>(weft::here(), 7);
    for (long i = 0;; ++i) {
      long v = weft::at(weft::place{victim}, c, [](cell *x) { return x->v; });
      if (v != 7) {
        std::fprintf(stderr, "wrong value %ld\n", v);
        return 1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  weft::places_mpi_finalize();
  std::fprintf(stderr, "rank %d: finalize returned although rank %d died\n", me,
               victim);
  return 1;
}
