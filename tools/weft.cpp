// The `weft` command. Subcommands grow with the project (run, trace, sim,
// mtt come with their issues); today: info.
#include <weft/weft.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>

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

int main(int argc, char **argv) {
  CLI::App app{"weft: a task-dataflow runtime and its hardware engine models"};
  app.set_version_flag("--version", WEFT_VERSION);
  app.require_subcommand(1);
  CLI::App *info_cmd =
      app.add_subcommand("info", "Show the configuration weft would run with");
  CLI11_PARSE(app, argc, argv);
  if (*info_cmd)
    return info();
  return 0;
}
