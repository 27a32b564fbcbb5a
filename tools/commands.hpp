// The `weft` subcommands. Each lives in its own file and registers itself
// on the app; main() runs the one the command line chose.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace weft::cli {

struct command {
  CLI::App *sub;            // the parsed subcommand
  std::function<int()> run; // its action; the return value is the exit status
};

command add_info_command(CLI::App &app);
command add_run_command(CLI::App &app);

} // namespace weft::cli
