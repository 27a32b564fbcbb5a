// Where the rest of weft's tree is, seen from the `weft` executable.
#include "commands.hpp"

#include <climits>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace weft::cli {

std::string prefix_dir() {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    std::perror("weft: readlink /proc/self/exe");
    return ".";
  }
  exe[n] = '\0';
  std::string dir(exe);
  dir = dir.substr(0, dir.rfind('/')); // .../bin
  return dir.substr(0, dir.rfind('/'));
}

int run_plot(const char *who, const std::string &script,
             const std::vector<std::string> &args) {
  std::string path = prefix_dir() + "/share/weft/plots/" + script;
  if (access(path.c_str(), R_OK) != 0) {
    std::fprintf(stderr, "%s: plotting script %s not found\n", who,
                 path.c_str());
    return 1;
  }
#ifdef WEFT_PLOT_PYTHON
  std::vector<std::string> all{WEFT_PLOT_PYTHON, path};
#else
  std::vector<std::string> all{"python3", path};
#endif
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror(who);
    return 1;
  }
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::fprintf(stderr,
                 "%s: cannot run python3 for %s (scripts/deps installs "
                 "python3 and python3-matplotlib)\n",
                 who, script.c_str());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) {
    std::perror(who);
    return 1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace weft::cli
