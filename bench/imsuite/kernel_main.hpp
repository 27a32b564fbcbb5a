// What every IMSuite kernel's main does: the options (--nodes, --seed,
// --mpi), a place per MPI rank under --mpi, the kernel run and timed on place
// 0 and checked against its serial meaning there, and one JSON line.
#pragma once

#include <weft/dist.hpp>
#include <weft/places.hpp>

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace imsuite {

struct kernel_info {
  const char *title;      // the --help line
  const char *name;       // "kernel" in the JSON line; prefixes errors
  const char *nodes_help; // what --nodes counts
  const char *seed_help;  // what --seed draws
  std::int64_t nodes;     // --nodes by default
  std::int64_t max_nodes;
  int max_places;
};

// What the check says of a run: whether it matches the serial meaning, and
// the kernel's own JSON fields ("\"rounds\": 4", ...).
struct outcome {
  bool verified;
  std::string fields;
};

// run(nodes, seed) returns the kernel's result; check(nodes, seed, result)
// returns its outcome (and says on stderr what differs). Exit status 0 when
// verified, 1 when not, 2 when there are too many places.
template <class Run, class Check>
int kernel_main(int argc, char **argv, const kernel_info &k, Run run,
                Check check) {
  CLI::App app{k.title};
  std::int64_t n = k.nodes;
  std::uint64_t seed = 1;
  bool mpi = false;
  app.add_option("--nodes", n, k.nodes_help)
      ->check(CLI::Range(std::int64_t(2), k.max_nodes));
  app.add_option("--seed", seed, k.seed_help);
  app.add_flag("--mpi", mpi, "a place per MPI rank (under mpirun)");
  CLI11_PARSE(app, argc, argv);
  if (mpi)
    weft::places_mpi_init();
  int rc = 0;
  if (weft::num_places() > k.max_places) {
    std::fprintf(stderr, "%s: at most %d places, got %d\n", k.name,
                 k.max_places, weft::num_places());
    rc = 2;
  } else if (weft::here().id == 0) {
    auto t0 = std::chrono::steady_clock::now();
    auto result = run(n, seed);
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    outcome o = check(n, seed, result);
    std::printf("{\"kernel\": \"%s\", \"nodes\": %lld, \"places\": %d, "
                "\"mpi\": %s, %s, \"seconds\": %.6f, \"verified\": %s}\n",
                k.name, static_cast<long long>(n), weft::num_places(),
                mpi ? "true" : "false", o.fields.c_str(), s,
                o.verified ? "true" : "false");
    rc = o.verified ? 0 : 1;
  }
  if (mpi)
    weft::places_mpi_finalize();
  return rc;
}

// One JSON field of an integer.
inline std::string field(const char *key, long long value) {
  return "\"" + std::string(key) + "\": " + std::to_string(value);
}

} // namespace imsuite
