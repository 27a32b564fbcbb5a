// `weft run`: a gcc -fopenmp program with weft in libgomp's place.
#include "commands.hpp"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace weft::cli {
namespace {

struct run_options {
  std::string engine, ws_engine, trace;
  int threads = 0;
  bool stats = false;
  std::vector<std::string> command;
};

// Runs a program linked against libgomp with weft in libgomp's place: the
// dynamic linker finds weft's libgomp.so.1 first. Replaces this process,
// so the exit status is the program's.
int run(const run_options &o) {
  std::string dir = prefix_dir() + "/lib/gomp";
  struct stat st;
  if (stat((dir + "/libgomp.so.1").c_str(), &st) != 0) {
    std::fprintf(stderr,
                 "weft run: cannot find weft's libgomp.so.1 in %s (build "
                 "weft first)\n",
                 dir.c_str());
    return 127;
  }
  std::string path = dir;
  if (const char *old = std::getenv("LD_LIBRARY_PATH"); old && *old)
    path += std::string(":") + old;
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  if (o.threads > 0) {
    std::string n = std::to_string(o.threads);
    setenv("OMP_NUM_THREADS", n.c_str(), 1);
    setenv("WEFT_NUM_THREADS", n.c_str(), 1);
  }
  if (!o.engine.empty())
    setenv("WEFT_ENGINE", o.engine.c_str(), 1);
  if (!o.ws_engine.empty())
    setenv("WEFT_WS_ENGINE", o.ws_engine.c_str(), 1);
  if (o.stats)
    setenv("WEFT_STATS", "1", 1);
  if (!o.trace.empty())
    setenv("WEFT_TRACE", o.trace.c_str(), 1);
  std::vector<char *> argv;
  for (const std::string &a : o.command)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "weft run: cannot run %s: %s\n", argv[0],
               std::strerror(errno));
  return 127;
}

} // namespace

command add_run_command(CLI::App &app) {
  auto ro = std::make_shared<run_options>();
  CLI::App *sub = app.add_subcommand(
      "run", "Run a gcc -fopenmp program with weft in place of libgomp");
  sub->add_option("--engine", ro->engine,
                  "dependency engine (WEFT_ENGINE): sw, nexus or picos");
  sub->add_option("--ws-engine", ro->ws_engine,
                  "work-sharing engine (WEFT_WS_ENGINE): sw or hwse");
  sub->add_option("--threads", ro->threads,
                  "team size (OMP_NUM_THREADS and WEFT_NUM_THREADS)")
      ->check(CLI::Range(1, 16384));
  sub->add_flag("--stats", ro->stats, "print weft's counters at exit");
  sub->add_option("--trace", ro->trace,
                  "record a trace into this file (WEFT_TRACE; see weft trace)");
  sub->add_option("command", ro->command, "the program and its arguments")
      ->required();
  return {sub, [ro] { return run(*ro); }};
}

} // namespace weft::cli
