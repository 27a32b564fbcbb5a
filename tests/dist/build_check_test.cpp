// Built twice, as weft_dist_build_check_a and _b (WEFT_BUILD_VARIANT 1 and
// 2): the same program but for one constant, so the two have different GNU
// build-ids. Run on 2 ranks of one build, places_mpi_init passes; run as one
// job of the two builds (mpirun -np 1 a : -np 1 b), rank 1 must end it
// naming "another build" (places_mpi_init compares the ranks' build digests:
// closures and types are matched by name, which another build would map to
// its own code).
#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <cstdio>

#ifndef WEFT_BUILD_VARIANT
#error "WEFT_BUILD_VARIANT must be defined"
#endif

int main() {
  weft::places_mpi_init();
  std::printf("rank %d of %d (build variant %d): places_mpi_init passed\n",
              weft::here().id, weft::num_places(), WEFT_BUILD_VARIANT);
  weft::places_mpi_finalize();
  return 0;
}
