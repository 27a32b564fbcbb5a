// What every IMSuite kernel's main does: the options (--nodes, --seed,
// --mpi, --strategy), a place per MPI rank under --mpi, the kernel run and
// timed on place 0 and checked against its serial meaning there, and one
// JSON line with the timers of strategy.hpp summed over the places.
#pragma once

#include "strategy.hpp"

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
  std::string how = "weft";
  app.add_option("--nodes", n, k.nodes_help)
      ->check(CLI::Range(std::int64_t(2), k.max_nodes));
  app.add_option("--seed", seed, k.seed_help);
  app.add_flag("--mpi", mpi, "a place per MPI rank (under mpirun)");
  app.add_option("--strategy", how,
                 "how the data-carrying at() moves its graph: weft (weft's "
                 "copy), mp (Boost.Serialization archive) or pegasus (the "
                 "target walks the source graph)")
      ->check(CLI::IsMember({"weft", "mp", "pegasus"}));
  CLI11_PARSE(app, argc, argv);
  if (mpi)
    weft::places_mpi_init();
  int rc = 0;
  if (weft::num_places() > k.max_places) {
    std::fprintf(stderr, "%s: at most %d places, got %d\n", k.name,
                 k.max_places, weft::num_places());
    rc = 2;
  } else if (weft::here().id == 0) {
    const strategy chosen = how == "mp"        ? strategy::mp
                            : how == "pegasus" ? strategy::pegasus
                                               : strategy::weft;
    g_strategy = chosen;
    int places = weft::num_places();
    // Every place's strategy and timers (zero) before the run.
    weft::finish([&] {
      for (int p = 0; p < places; ++p)
        weft::async_at(weft::place{p}, static_cast<wire *>(nullptr),
                       [chosen](wire *) {
                         g_strategy = chosen;
                         timers &t = g_timers[weft::here().id];
                         t.at_ns = 0;
                         t.func_ns = 0;
                         t.calls = 0;
                         t.wire_bytes = 0;
                       });
    });
    auto t0 = std::chrono::steady_clock::now();
    auto result = run(n, seed);
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    outcome o = check(n, seed, result);
    struct sums {
      std::int64_t at_ns, func_ns, calls, wire_bytes;
    } total{0, 0, 0, 0};
    for (int p = 0; p < places; ++p) {
      sums one =
          weft::at(weft::place{p}, static_cast<wire *>(nullptr), [](wire *) {
            timers &t = g_timers[weft::here().id];
            return sums{t.at_ns.load(), t.func_ns.load(), t.calls.load(),
                        t.wire_bytes.load()};
          });
      total.at_ns += one.at_ns;
      total.func_ns += one.func_ns;
      total.calls += one.calls;
      total.wire_bytes += one.wire_bytes;
    }
    double t_at = double(total.at_ns) * 1e-9,
           t_func = double(total.func_ns) * 1e-9;
    std::printf(
        "{\"kernel\": \"%s\", \"nodes\": %lld, \"places\": %d, "
        "\"mpi\": %s, \"strategy\": \"%s\", %s, \"seconds\": %.6f, "
        "\"sends\": %lld, \"t_at\": %.6f, \"t_func\": %.6f, "
        "\"t_com\": %.6f, \"t_com_over_t_at\": %.4f, \"wire_bytes\": %lld, "
        "\"verified\": %s}\n",
        k.name, static_cast<long long>(n), weft::num_places(),
        mpi ? "true" : "false", how.c_str(), o.fields.c_str(), s,
        static_cast<long long>(total.calls), t_at, t_func, t_at - t_func,
        t_at > 0 ? (t_at - t_func) / t_at : 0.0,
        static_cast<long long>(total.wire_bytes),
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
