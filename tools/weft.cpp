// The `weft` command. Subcommands grow with the project (trace, sim and mtt
// come with their issues); today: info and run.
#include <weft/weft.h>

#include <CLI/CLI.hpp>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

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

// Where the libgomp.so.1 that is weft lives: <prefix>/lib/gomp next to
// <prefix>/bin/weft (the build tree and an installed tree alike).
std::string gomp_dir() {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return {};
  exe[n] = '\0';
  std::string dir(exe);
  dir = dir.substr(0, dir.rfind('/')); // .../bin
  dir = dir.substr(0, dir.rfind('/')); // ...
  return dir + "/lib/gomp";
}

struct run_options {
  std::string engine, ws_engine;
  int threads = 0;
  bool stats = false;
  std::vector<std::string> command;
};

// Runs a program linked against libgomp with weft in libgomp's place: the
// dynamic linker finds weft's libgomp.so.1 first. Replaces this process,
// so the exit status is the program's.
int run(const run_options &o) {
  std::string dir = gomp_dir();
  struct stat st;
  if (dir.empty() || stat((dir + "/libgomp.so.1").c_str(), &st) != 0) {
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

int main(int argc, char **argv) {
  CLI::App app{"weft: a task-dataflow runtime and its hardware engine models"};
  app.set_version_flag("--version", WEFT_VERSION);
  app.require_subcommand(1);
  CLI::App *info_cmd =
      app.add_subcommand("info", "Show the configuration weft would run with");
  run_options ro;
  CLI::App *run_cmd = app.add_subcommand(
      "run", "Run a gcc -fopenmp program with weft in place of libgomp");
  run_cmd->add_option("--engine", ro.engine,
                      "dependency engine (WEFT_ENGINE): sw, nexus or picos");
  run_cmd->add_option("--ws-engine", ro.ws_engine,
                      "work-sharing engine (WEFT_WS_ENGINE): sw or hwse");
  run_cmd->add_option("--threads", ro.threads,
                      "team size (OMP_NUM_THREADS and WEFT_NUM_THREADS)")
      ->check(CLI::Range(1, 16384));
  run_cmd->add_flag("--stats", ro.stats, "print weft's counters at exit");
  run_cmd->add_option("command", ro.command, "the program and its arguments")
      ->required();
  CLI11_PARSE(app, argc, argv);
  if (*info_cmd)
    return info();
  if (*run_cmd)
    return run(ro);
  return 0;
}
