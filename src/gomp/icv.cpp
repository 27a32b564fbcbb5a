// OpenMP's environment variables, read once when the library loads, and
// OMP_DISPLAY_ENV. A malformed value is reported and ignored, as libgomp
// does, so that a program keeps running with the default.
#include "gomp.hpp"

#include "base/env.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <string>
#include <unistd.h>

namespace weft::gomp {
namespace {

// Filled on first use (also from the load-time constructor below, which may
// run before this file's other static initialisers).
global_icvs &g_icv_ref();
#define g_icv g_icv_ref()

void bad(const char *var, const char *value) {
  std::fprintf(stderr, "weft: ignoring %s=%s: not a valid value\n", var, value);
}

bool parse_long(const char *&p, long *out) {
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (!std::isdigit(static_cast<unsigned char>(*p)) && *p != '-')
    return false;
  char *end;
  errno = 0;
  long v = std::strtol(p, &end, 10);
  if (errno || end == p)
    return false;
  p = end;
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  *out = v;
  return true;
}

bool ieq(const std::string &a, const char *b) {
  return strcasecmp(a.c_str(), b) == 0;
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

bool parse_bool(const char *var, bool *out) {
  const char *v = env::raw(var);
  if (!v)
    return false;
  std::string s = trim(v);
  if (ieq(s, "true"))
    *out = true;
  else if (ieq(s, "false"))
    *out = false;
  else {
    bad(var, v);
    return false;
  }
  return true;
}

void parse_int(const char *var, int lo, int *out) {
  const char *v = env::raw(var);
  if (!v)
    return;
  const char *p = v;
  long x;
  if (!parse_long(p, &x) || *p || x < lo || x > INT_MAX)
    bad(var, v);
  else
    *out = static_cast<int>(x);
}

void parse_num_threads() {
  const char *v = env::raw("OMP_NUM_THREADS");
  if (!v || !*v)
    return;
  std::vector<int> list;
  const char *p = v;
  for (;;) {
    long x;
    if (!parse_long(p, &x) || x < 1 || x > INT_MAX) {
      bad("OMP_NUM_THREADS", v);
      return;
    }
    list.push_back(static_cast<int>(x));
    if (*p == '\0')
      break;
    if (*p != ',') {
      bad("OMP_NUM_THREADS", v);
      return;
    }
    ++p;
  }
  g_icv.nthreads_list = list;
}

void parse_schedule() {
  const char *v = env::raw("OMP_SCHEDULE");
  if (!v)
    return;
  std::string s = trim(v);
  int monotonic = 0;
  if (auto colon = s.find(':'); colon != std::string::npos) {
    std::string mod = trim(s.substr(0, colon));
    if (ieq(mod, "monotonic"))
      monotonic = kSchedMonotonic;
    else if (!ieq(mod, "nonmonotonic")) {
      bad("OMP_SCHEDULE", v);
      return;
    }
    s = trim(s.substr(colon + 1));
  }
  std::string kind = s, chunk;
  if (auto comma = s.find(','); comma != std::string::npos) {
    kind = trim(s.substr(0, comma));
    chunk = trim(s.substr(comma + 1));
  }
  int k;
  if (ieq(kind, "static"))
    k = sched_static;
  else if (ieq(kind, "dynamic"))
    k = sched_dynamic;
  else if (ieq(kind, "guided"))
    k = sched_guided;
  else if (ieq(kind, "auto"))
    k = sched_auto;
  else {
    bad("OMP_SCHEDULE", v);
    return;
  }
  long c = k == sched_static ? 0 : 1;
  if (!chunk.empty()) {
    const char *p = chunk.c_str();
    if (!parse_long(p, &c) || *p || c < 1) {
      bad("OMP_SCHEDULE", v);
      return;
    }
  }
  g_icv.run_sched = k | monotonic;
  g_icv.run_chunk = c;
}

void parse_proc_bind() {
  const char *v = env::raw("OMP_PROC_BIND");
  if (!v)
    return;
  std::vector<int> list;
  std::string s = v;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t comma = s.find(',', pos);
    std::string item = trim(s.substr(
        pos, comma == std::string::npos ? std::string::npos : comma - pos));
    int b;
    if (ieq(item, "false"))
      b = 0;
    else if (ieq(item, "true"))
      b = 1;
    else if (ieq(item, "primary") || ieq(item, "master"))
      b = 2;
    else if (ieq(item, "close"))
      b = 3;
    else if (ieq(item, "spread"))
      b = 4;
    else {
      bad("OMP_PROC_BIND", v);
      return;
    }
    list.push_back(b);
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  g_icv.bind_list = list;
}

void parse_stacksize() {
  const char *v = env::raw("OMP_STACKSIZE");
  if (!v)
    v = env::raw("GOMP_STACKSIZE");
  if (!v)
    return;
  const char *p = v;
  long x;
  if (!parse_long(p, &x) || x < 1) {
    bad("OMP_STACKSIZE", v);
    return;
  }
  std::size_t unit = 1024;
  switch (std::toupper(static_cast<unsigned char>(*p))) {
  case 'B':
    unit = 1;
    ++p;
    break;
  case 'K':
    ++p;
    break;
  case 'M':
    unit = 1024 * 1024;
    ++p;
    break;
  case 'G':
    unit = 1024ull * 1024 * 1024;
    ++p;
    break;
  case '\0':
    break;
  default:
    bad("OMP_STACKSIZE", v);
    return;
  }
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (*p) {
    bad("OMP_STACKSIZE", v);
    return;
  }
  g_icv.stacksize = static_cast<std::size_t>(x) * unit;
}

int read_sysfs_int(int cpu, const char *what) {
  char path[128];
  std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s",
                cpu, what);
  std::FILE *f = std::fopen(path, "r");
  if (!f)
    return -1;
  int v = -1;
  if (std::fscanf(f, "%d", &v) != 1)
    v = -1;
  std::fclose(f);
  return v;
}

// OMP_PLACES: threads, cores, sockets (ll_caches and numa_domains as
// sockets), each with an optional (count), or an explicit list of
// {a,b,...} / {start:len[:stride]} places.
void parse_places(const char *v) {
  std::string s = trim(v);
  std::vector<std::vector<int>> places;
  std::string name = s;
  long limit = -1;
  if (auto paren = s.find('('); paren != std::string::npos) {
    name = trim(s.substr(0, paren));
    limit = std::strtol(s.c_str() + paren + 1, nullptr, 10);
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    for (int i = 0; i < g_icv.num_procs; ++i)
      CPU_SET(i, &set);
  if (ieq(name, "threads") || ieq(name, "cores") || ieq(name, "sockets") ||
      ieq(name, "ll_caches") || ieq(name, "numa_domains")) {
    std::vector<std::pair<long, int>> keyed;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (!CPU_ISSET(cpu, &set))
        continue;
      long key = cpu;
      if (ieq(name, "cores"))
        key = static_cast<long>(read_sysfs_int(cpu, "physical_package_id")) *
                  100000 +
              read_sysfs_int(cpu, "core_id");
      else if (!ieq(name, "threads"))
        key = read_sysfs_int(cpu, "physical_package_id");
      keyed.push_back({key, cpu});
    }
    std::vector<long> keys; // places in order of their first CPU
    for (auto &[key, cpu] : keyed) {
      auto it = std::find(keys.begin(), keys.end(), key);
      if (it == keys.end()) {
        keys.push_back(key);
        places.push_back({cpu});
      } else {
        places[static_cast<size_t>(it - keys.begin())].push_back(cpu);
      }
    }
  } else {
    // {a,b,c} or {start:len[:stride]}, comma-separated.
    const char *p = s.c_str();
    while (*p) {
      while (*p == ',' || std::isspace(static_cast<unsigned char>(*p)))
        ++p;
      if (!*p)
        break;
      if (*p != '{') {
        bad("OMP_PLACES", v);
        return;
      }
      ++p;
      std::vector<int> place;
      while (*p && *p != '}') {
        char *end;
        long a = std::strtol(p, &end, 10);
        if (end == p) {
          bad("OMP_PLACES", v);
          return;
        }
        p = end;
        long len = 1, stride = 1;
        if (*p == ':') {
          len = std::strtol(p + 1, &end, 10);
          p = end;
          if (*p == ':') {
            stride = std::strtol(p + 1, &end, 10);
            p = end;
          }
        }
        for (long i = 0; i < len; ++i)
          place.push_back(static_cast<int>(a + i * stride));
        while (*p == ',' || std::isspace(static_cast<unsigned char>(*p)))
          ++p;
      }
      if (*p != '}') {
        bad("OMP_PLACES", v);
        return;
      }
      ++p;
      places.push_back(place);
    }
  }
  if (limit > 0 && static_cast<size_t>(limit) < places.size())
    places.resize(static_cast<size_t>(limit));
  g_icv.place_list = places;
}

// GOMP_SPINCOUNT, as libgomp reads it: a count with an optional k, M, G or
// T (powers of 1000), or "infinite"/"infinity".
void parse_spincount() {
  const char *v = env::raw("GOMP_SPINCOUNT");
  if (!v)
    return;
  std::string s = trim(v);
  if (ieq(s, "infinite") || ieq(s, "infinity")) {
    g_icv.spin_count = INT64_MAX;
    return;
  }
  const char *p = s.c_str();
  long x;
  if (!parse_long(p, &x) || x < 0) {
    bad("GOMP_SPINCOUNT", v);
    return;
  }
  int64_t unit = 1;
  switch (*p) {
  case 'k':
  case 'K':
    unit = 1000;
    ++p;
    break;
  case 'M':
    unit = 1000000;
    ++p;
    break;
  case 'G':
    unit = 1000000000;
    ++p;
    break;
  case 'T':
    unit = 1000000000000;
    ++p;
    break;
  default:
    break;
  }
  while (std::isspace(static_cast<unsigned char>(*p)))
    ++p;
  if (*p) {
    bad("GOMP_SPINCOUNT", v);
    return;
  }
  g_icv.spin_count = x > INT64_MAX / unit ? INT64_MAX : x * unit;
}

void read_all() {
  cpu_set_t set;
  g_icv.num_procs = sched_getaffinity(0, sizeof set, &set) == 0
                        ? CPU_COUNT(&set)
                        : static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  if (g_icv.num_procs < 1)
    g_icv.num_procs = 1;
  // weft's own variable, when OpenMP's is not set.
  if (!env::raw("OMP_NUM_THREADS"))
    if (const char *w = env::raw("WEFT_NUM_THREADS")) {
      long x = std::strtol(w, nullptr, 10);
      if (x >= 1 && x <= INT_MAX)
        g_icv.nthreads_list = {static_cast<int>(x)};
    }
  parse_num_threads();
  parse_schedule();
  parse_bool("OMP_DYNAMIC", &g_icv.dyn);
  bool nested = false;
  int levels = -1;
  parse_int("OMP_MAX_ACTIVE_LEVELS", 0, &levels);
  if (levels >= 0) {
    g_icv.max_active_levels = levels;
  } else if (parse_bool("OMP_NESTED", &nested)) {
    g_icv.max_active_levels = nested ? INT_MAX : 1;
  } else if (g_icv.nthreads_list.size() > 1) {
    // A list of team sizes asks for nesting (OpenMP 5.0).
    g_icv.max_active_levels = static_cast<int>(g_icv.nthreads_list.size());
  }
  parse_int("OMP_THREAD_LIMIT", 1, &g_icv.thread_limit);
  parse_bool("OMP_CANCELLATION", &g_icv.cancellation);
  parse_int("OMP_MAX_TASK_PRIORITY", 0, &g_icv.max_task_priority);
  parse_int("OMP_DEFAULT_DEVICE", 0, &g_icv.default_device);
  parse_stacksize();
  parse_proc_bind();
  if (const char *v = env::raw("OMP_WAIT_POLICY")) {
    std::string s = trim(v);
    if (ieq(s, "active"))
      g_icv.wait_policy = 1;
    else if (ieq(s, "passive"))
      g_icv.wait_policy = 0;
    else
      bad("OMP_WAIT_POLICY", v);
    // Honoured by the idle workers of an OpenMP program (start_runtime
    // passes it to runtime::start over WEFT_WAIT_POLICY; core/idle.hpp).
    g_icv.wait_policy_from_omp = g_icv.wait_policy >= 0;
  } else if (const char *w = env::get("WEFT_WAIT_POLICY")) {
    // weft's own variable, when OpenMP's is not set (runtime::start reads
    // it, and rejects a bad value): shown by OMP_DISPLAY_ENV.
    if (std::strcmp(w, "active") == 0)
      g_icv.wait_policy = 1;
    else if (std::strcmp(w, "passive") == 0)
      g_icv.wait_policy = 0;
  }
  parse_spincount();
  if (const char *v = env::raw("OMP_PLACES")) {
    g_icv.places = v;
    parse_places(v);
  }
  parse_bool("OMP_DISPLAY_AFFINITY", &g_icv.display_affinity);
  if (const char *v = env::raw("OMP_AFFINITY_FORMAT"))
    g_icv.affinity_format = v;
  if (const char *v = env::raw("OMP_DISPLAY_ENV")) {
    std::string s = trim(v);
    if (ieq(s, "true"))
      g_icv.display_env = true;
    else if (ieq(s, "verbose"))
      g_icv.display_env = g_icv.display_verbose = true;
    else if (!ieq(s, "false"))
      bad("OMP_DISPLAY_ENV", v);
  }
}

const char *bind_name(int b) {
  static const char *names[] = {"FALSE", "TRUE", "PRIMARY", "CLOSE", "SPREAD"};
  return b >= 0 && b <= 4 ? names[b] : "?";
}

global_icvs &g_icv_ref() {
  static global_icvs *icv = [] {
    auto *p = new global_icvs; // never destroyed: used until the very end
    return p;
  }();
  return *icv;
}

std::atomic<bool> g_loaded{false};

// Before main: the values every later call sees. (Not std::call_once: its
// libstdc++ implementation costs a TLS lookup on every call.)
__attribute__((constructor)) void load() {
  static std::mutex lock;
  std::lock_guard<std::mutex> lk(lock);
  if (g_loaded.load(std::memory_order_relaxed))
    return;
  read_all();
  g_loaded.store(true, std::memory_order_release);
  if (g_icv.display_env)
    display_env(g_icv.display_verbose);
}

} // namespace

global_icvs &icv_global() {
  if (__builtin_expect(!g_loaded.load(std::memory_order_acquire), 0))
    load();
  return g_icv;
}

void display_env(bool verbose) {
  global_icvs &g = g_icv;
  std::FILE *f = stderr;
  std::fprintf(f, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  std::fprintf(f, "  _OPENMP = '201511'\n");
  std::fprintf(f, "  OMP_DYNAMIC = '%s'\n", g.dyn ? "TRUE" : "FALSE");
  std::fprintf(f, "  OMP_NESTED = '%s'\n",
               g.max_active_levels > 1 ? "TRUE" : "FALSE");
  std::fprintf(f, "  OMP_NUM_THREADS = '");
  if (g.nthreads_list.empty())
    std::fprintf(f, "%d", g.num_procs);
  for (std::size_t i = 0; i < g.nthreads_list.size(); ++i)
    std::fprintf(f, "%s%d", i ? "," : "", g.nthreads_list[i]);
  std::fprintf(f, "'\n");
  static const char *kinds[] = {"RUNTIME", "STATIC", "DYNAMIC", "GUIDED",
                                "AUTO"};
  int k = g.run_sched & ~kSchedMonotonic;
  std::fprintf(f, "  OMP_SCHEDULE = '%s%s,%ld'\n",
               (g.run_sched & kSchedMonotonic) ? "MONOTONIC:" : "",
               k >= 0 && k <= 4 ? kinds[k] : "?", g.run_chunk);
  std::fprintf(f, "  OMP_PROC_BIND = '");
  if (g.bind_list.empty())
    std::fprintf(f, "FALSE");
  for (std::size_t i = 0; i < g.bind_list.size(); ++i)
    std::fprintf(f, "%s%s", i ? "," : "", bind_name(g.bind_list[i]));
  std::fprintf(f, "'\n");
  std::fprintf(f, "  OMP_PLACES = '%s'\n", g.places.c_str());
  std::fprintf(f, "  OMP_STACKSIZE = '%zu'\n", g.stacksize);
  std::fprintf(f, "  OMP_WAIT_POLICY = '%s'\n",
               g.wait_policy == 1 ? "ACTIVE" : "PASSIVE");
  std::fprintf(f, "  OMP_THREAD_LIMIT = '%u'\n",
               static_cast<unsigned>(g.thread_limit));
  std::fprintf(f, "  OMP_MAX_ACTIVE_LEVELS = '%d'\n",
               g.max_active_levels.load());
  std::fprintf(f, "  OMP_CANCELLATION = '%s'\n",
               g.cancellation ? "TRUE" : "FALSE");
  std::fprintf(f, "  OMP_DEFAULT_DEVICE = '%d'\n", g.default_device);
  std::fprintf(f, "  OMP_MAX_TASK_PRIORITY = '%d'\n", g.max_task_priority);
  if (verbose) {
    if (g.spin_count >= 0)
      std::fprintf(f, "  GOMP_SPINCOUNT = '%lld'\n",
                   static_cast<long long>(g.spin_count));
    std::fprintf(f, "  WEFT_ENGINE = '%s'\n",
                 env::get("WEFT_ENGINE") ? env::get("WEFT_ENGINE") : "sw");
    std::fprintf(f, "  WEFT_WS_ENGINE = '%s'\n",
                 env::get("WEFT_WS_ENGINE") ? env::get("WEFT_WS_ENGINE")
                                            : "sw");
  }
  std::fprintf(f, "OPENMP DISPLAY ENVIRONMENT END\n");
}

} // namespace weft::gomp
