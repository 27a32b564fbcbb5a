// `weft info`: the configuration weft would run with.
#include "commands.hpp"

#include <weft/weft.h>

#include <cstdio>
#include <cstdlib>

namespace weft::cli {
namespace {

int info() {
  if (weft_init(0) != WEFT_OK) {
    std::fprintf(stderr, "weft info: %s\n", weft_last_error());
    return 1;
  }
  weft_stats s;
  weft_stats_get(&s);
  const char *engine = s.engine;
  std::printf("weft %s\n", WEFT_VERSION);
  std::printf("threads  %d (WEFT_NUM_THREADS, default: cores available)\n",
              weft_num_threads());
  std::printf("engine   %s (WEFT_ENGINE)\n", engine);
  std::printf("stats    %s (WEFT_STATS=1 prints counters at exit)\n",
              std::getenv("WEFT_STATS") ? std::getenv("WEFT_STATS") : "off");
  return weft_shutdown() == WEFT_OK ? 0 : 1;
}

} // namespace

command add_info_command(CLI::App &app) {
  CLI::App *sub =
      app.add_subcommand("info", "Show the configuration weft would run with");
  return {sub, [] { return info(); }};
}

} // namespace weft::cli
