// What libweft exports to the distributed places (src/dist, library
// weft_dist): the place of this rank over its MPI window, and the graph copy
// into a caller's buffer. Not a public API.
#pragma once

#include "core/inbox.hpp"

#include <weft/places.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace weft::detail {

// Makes the places of a rank: num_places() == world, and place `rank` is an
// arena over [memory, memory + bytes) whose extent allocator uses the first
// `managed` bytes; the rest is the incoming heap filled by remote puts.
// Throws std::logic_error when places exist.
WEFT_API void places_adopt_window(int rank, int world, char *memory,
                                  std::size_t bytes, std::size_t managed);
// The measure pass (validating the graph; throws as at() documents).
WEFT_API graph_size measure_for(const char *call, const void *root);
// A primitive array store the copy left out of buf: its bytes belong at
// buf + offset and are still at src (unchanged until the graph is sent).
struct direct_store {
  std::size_t offset;
  const void *src;
  std::size_t bytes;
};
// Stores this large or larger are left out when the caller asks (below).
inline constexpr std::size_t kDirectStoreBytes = 16384;
// Copies the measured graph into buf with every pointer written as its
// address plus delta; returns the root's copy (in buf, without delta).
// With `direct`, the data of primitive array stores of kDirectStoreBytes or
// more is not copied: their ranges in buf are listed there in ascending
// offsets (buf holds everything else, the stores' headers and padding
// included), for a transfer that gathers them from their sources.
WEFT_API void *copy_graph_to(const char *call, const void *root,
                             const graph_size &g, char *buf,
                             std::intptr_t delta, copy_map map,
                             std::vector<direct_store> *direct = nullptr);
// Sets (clears) the block-start marks of a graph buffer laid out in this
// rank's place (after a remote put; on release).
WEFT_API void mark_graph(void *base, std::size_t bytes);
// unmark_graph walks the headers (objects and their stores) when the graph
// averages more than kUnmarkWalkBytes per object, else clears the bitmap.
inline constexpr std::size_t kUnmarkWalkBytes = 8192;
WEFT_API void unmark_graph(void *base, std::size_t bytes, std::size_t objects);
// The environment of the places across ranks, read through weft's one
// reader (base/env.hpp): WEFT_PLACE_BYTES (each rank's window: 0 when unset),
// WEFT_DIST_FUNNELED (a flag), WEFT_DIST_TIMEOUT (seconds),
// WEFT_DIST_FINALIZE_TIMEOUT (seconds: places_mpi_finalize's bound on the
// wait for quiet once every rank called it) and WEFT_DIST_RING_RESTART (a
// flag: 0 measures without the ring restart). lookup:
// the process environment when null (a table in a test). A bad value throws
// std::invalid_argument "weft::places_mpi_init: NAME=VALUE: not ...".
struct dist_env {
  std::size_t place_bytes = 0;
  bool funneled = false;
  double timeout_s = 6.0;
  double finalize_timeout_s = 60.0;
  bool ring_restart = true; // WEFT_DIST_RING_RESTART (a flag)
};
inline constexpr std::size_t kMinDistPlaceBytes = std::size_t(1) << 20;
inline constexpr std::size_t kMaxDistPlaceBytes = std::size_t(1) << 40;
WEFT_API dist_env read_dist_env(const char *(*lookup)(const char *) = nullptr);
// A digest of the registered types (names, sizes, masks, in id order):
// equal on ranks whose graphs can travel between them.
WEFT_API std::uint64_t type_table_digest();
// What places_mpi_init compares across ranks, which must run the same
// build: a digest of the GNU build-ids of the main program and of the
// objects holding the n code addresses (an object without an id adds only
// that), and the main program's id as hex ("none" without one).
struct build_identity {
  std::uint64_t digest;
  std::string main_id;
};
WEFT_API build_identity program_build_identity(const void *const *code,
                                               std::size_t n);
// From any thread (the progress thread): j runs once on a worker of the
// runtime's native team, the first that is idle (a sleeping one is woken);
// core/inbox.hpp says what a job may do. Ends the process, naming the job,
// when no runtime runs.
WEFT_API void submit_to_workers(inbox_job *j);

} // namespace weft::detail
