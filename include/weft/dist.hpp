// weft places across MPI ranks (library weft_dist; docs/places.md): a place
// per rank, at()/async_at()/finish() from weft/places.hpp reaching places on
// other ranks. Every rank runs the same binary under mpirun:
//
//   weft::places_mpi_init();             // collective
//   if (weft::here().id == 0)
//     long v = weft::at(weft::place{1}, root, [](node *c) { return c->v; });
//   weft::places_mpi_finalize();         // collective; serves until all came
//
// A call to another rank is started by a weft thread of that rank while it
// waits (in at(), future::get/wait, finish() or places_mpi_finalize): a rank
// that computes without waiting delays the calls sent to it.
//
// A rank that dies or hangs makes the others exit (code 70) with a message
// naming it within WEFT_DIST_TIMEOUT seconds (default 6).
#ifndef WEFT_DIST_HPP
#define WEFT_DIST_HPP

#include <weft/places.hpp>

#include <cstddef>
#include <cstdint>

namespace weft {

/// Initialises MPI (requesting MPI_THREAD_MULTIPLE), starts the progress
/// thread and allocates this rank's place in an MPI window of
/// bytes_per_rank (0: WEFT_PLACE_BYTES, default 256 MiB; a quarter for
/// objects made here, the rest for graphs arriving from other ranks).
/// Collective. Throws std::logic_error when places exist already.
void places_mpi_init(std::size_t bytes_per_rank = 0);
/// Collective: waits, serving calls from other ranks, until every rank has
/// called it; then, until the calls this rank serves and its calls'
/// replies (dropped futures') are over, at most WEFT_DIST_FINALIZE_TIMEOUT
/// seconds (default 60; past it the rank exits, code 70, naming them);
/// then finalises MPI and unmaps the places.
void places_mpi_finalize();

/// Collective: waits, serving calls from other ranks, until every rank has
/// called it (phases of an SPMD program).
void places_mpi_barrier();

/// What this rank's comm layer did since places_mpi_init.
struct dist_stats {
  std::uint64_t calls_sent = 0, calls_received = 0;
  std::uint64_t replies_sent = 0, replies_received = 0;
  // Of those received, the ones a polling thread received itself: a
  // thread waiting across ranks, or an idle worker polling before it sleeps
  // (core/idle.hpp's idle hook; the call ran, or the reply completed,
  // without passing through the progress thread); and the progress
  // thread's naps.
  std::uint64_t calls_polled = 0, replies_polled = 0, progress_naps = 0;
  // heap forfeits (error paths, ranges over a pinned graph) and requests
  // for a full ring's holes
  std::uint64_t control_sent = 0;
  std::uint64_t heartbeats_sent = 0;
  std::uint64_t puts = 0, put_bytes = 0, atomics = 0;
  std::uint64_t gets = 0; // places_mpi_get
  // This rank's incoming ring (docs/places.md): restarts at the lap's start
  // when it drained, restarts lost to a sender reserving meanwhile, and
  // graphs that arrived running past the lap's end into the slack.
  std::uint64_t ring_restarts = 0, ring_restarts_lost = 0, ring_straddles = 0;
  // Ranges this rank reserved in other ranks' rings around graphs still live
  // there (a long call's: the holes), and the holes this rank published.
  std::uint64_t ring_pinned_skips = 0, ring_holes_published = 0;
  // Result graphs (at() returning a pointer) are copied out of the ring into
  // this place's arena on arrival, so that holding one never pins the ring;
  // these stayed in the ring because the arena had no room for them.
  std::uint64_t results_kept_in_ring = 0;
  // Arrays copied into the intermediate buffer before their put because
  // their source and destination were page-aliased (docs/places.md, the 16
  // Ki and 64 Ki anomaly), on the sending rank.
  std::uint64_t puts_staged = 0;
};
dist_stats places_mpi_stats();
/// Reads `bytes` at address `remote` in rank's place (objects and array
/// stores made there with make/make_array) into dst with one MPI_Get, and
/// waits for them: a software walk of a graph on another rank, as the
/// Pegasus-style baseline does (bench/imsuite/strategy.hpp). Throws
/// std::invalid_argument when the range is not inside rank's place.
void places_mpi_get(int rank, const void *remote, void *dst, std::size_t bytes);
/// The thread level MPI provided (MPI_THREAD_*).
int places_mpi_thread_level();

namespace detail {
/// The incoming ring of a rank's place (src/dist/remote_at.cpp, one
/// definition for it and for bench/places_dist's mpi_put_ring): a graph of
/// measure(root).bytes takes ring_bytes(that) of the ring, and a drained
/// ring restarts at its start once its tail is past min(ring / 2,
/// kRingRestartPast).
inline constexpr std::size_t kRingGranule = 64;
inline constexpr std::size_t kRingRestartPast = std::size_t(256) << 10;
constexpr std::size_t ring_bytes(std::size_t graph_bytes) {
  return (graph_bytes + kRingGranule - 1) & ~(kRingGranule - 1);
}
} // namespace detail

} // namespace weft

#endif // WEFT_DIST_HPP
