// The `weft` command: one subcommand per file (commands.hpp).
#include "commands.hpp"

#include <vector>

int main(int argc, char **argv) {
  using namespace weft::cli;
  CLI::App app{"weft: a task-dataflow runtime and its hardware engine models"};
  app.set_version_flag("--version", WEFT_VERSION);
  app.require_subcommand(1);
  std::vector<command> commands;
  commands.push_back(add_info_command(app));
  commands.push_back(add_run_command(app));
  commands.push_back(add_trace_command(app));
  commands.push_back(add_mtt_command(app));
  commands.push_back(add_calibrate_command(app));
  commands.push_back(add_sim_command(app));
  CLI11_PARSE(app, argc, argv);
  for (const command &c : commands)
    if (*c.sub)
      return c.run();
  return 0;
}
