// The `weft` subcommands. Each lives in its own file and registers itself
// on the app; main() runs the one the command line chose.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace weft::cli {

struct command {
  CLI::App *sub;            // the parsed subcommand
  std::function<int()> run; // its action; the return value is the exit status
};

// The tree this `weft` belongs to: <prefix>/bin/weft (the build tree and an
// installed tree alike); libgomp.so.1 is in <prefix>/lib/gomp, the plotting
// scripts in <prefix>/share/weft/plots.
std::string prefix_dir();

// Runs `python3 <prefix>/share/weft/plots/<script> args...` (the python3 with
// matplotlib that CMake found, WEFT_PLOT_PYTHON); its exit status,
// or an error on stderr naming `who` when python3 or matplotlib is missing.
int run_plot(const char *who, const std::string &script,
             const std::vector<std::string> &args);

command add_info_command(CLI::App &app);
command add_run_command(CLI::App &app);
command add_mtt_command(CLI::App &app);
command add_calibrate_command(CLI::App &app);
command add_sim_command(CLI::App &app);
command add_trace_command(CLI::App &app);

} // namespace weft::cli
