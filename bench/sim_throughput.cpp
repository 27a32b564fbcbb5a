// The simulator's speed: generates a trace of --tasks tasks (a root creating
// them 100 ns apart, each inout on one of 1024 addresses and in on another,
// a taskwait every 4096 tasks, bodies of 1 to 1.6 us on 8 threads), writes
// it (--write FILE keeps it for `weft sim`), builds its graph and replays it
// under each model on 1..64 cores, printing simulated tasks per second.
#include "simulator.hpp"

#include "trace/read/trace_graph.hpp"
#include "trace/record/trace_writer.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <unistd.h>
#include <vector>

namespace wt = weft::trace;
namespace ws = weft::sim;

namespace {

constexpr uint16_t kThreads = 8;

class generator {
public:
  explicit generator(const std::string &path)
      : w_(path, wt::make_header("sw", "sim_throughput", kThreads + 1, 0)),
        buf_(kThreads + 1) {}

  void write(uint64_t tasks) {
    add(0, wt::kind::task_create, 0, 1, 0, 0, wt::flag_implicit);
    add(0, wt::kind::task_begin, 0, 1);
    std::vector<uint64_t> clock(kThreads + 1, 0);
    uint64_t t = 0, wait_end = 0; // the last body's end so far
    for (uint64_t i = 0; i < tasks; ++i) {
      uint64_t id = i + 2;
      t += 100;
      add(0, wt::kind::task_create, t, id, 1, 2);
      add(0, wt::kind::dep, t, id, (i % 1024) * 64, 0,
          uint8_t(wt::dep_mode::inout));
      add(0, wt::kind::dep, t, id, ((i * 7 + 3) % 1024) * 64 + 8, 0,
          uint8_t(wt::dep_mode::in));
      uint16_t th = static_cast<uint16_t>(1 + i % kThreads);
      uint64_t start = std::max(clock[th], t) + 10;
      uint64_t end = start + 1000 + (i % 7) * 100;
      add(th, wt::kind::task_begin, start, id);
      add(th, wt::kind::task_end, end, id);
      clock[th] = end;
      wait_end = std::max(wait_end, end);
      if ((i + 1) % 4096 == 0 || i + 1 == tasks) {
        add(0, wt::kind::wait_begin, t, 1, 0, 0,
            uint8_t(wt::wait_kind::taskwait));
        add(0, wt::kind::wait_end, wait_end + 1, 1, 0, 0,
            uint8_t(wt::wait_kind::taskwait));
        t = wait_end + 1;
      }
    }
    add(0, wt::kind::task_end, wait_end + 100, 1);
    for (uint16_t th = 0; th <= kThreads; ++th)
      flush(th);
    w_.close();
  }

private:
  void add(uint16_t th, wt::kind k, uint64_t time, uint64_t task,
           uint64_t arg = 0, uint32_t count = 0, uint8_t sub = 0) {
    wt::record r{};
    r.type = k;
    r.sub = sub;
    r.thread = th;
    r.count = count;
    r.time = time;
    r.task = task;
    r.arg = arg;
    std::vector<wt::record> &b = buf_[th];
    // A record and its deps stay in one chunk.
    if (b.size() >= 65536 && k != wt::kind::dep)
      flush(th);
    b.push_back(r);
  }
  void flush(uint16_t th) {
    w_.write_chunk(th, buf_[th].data(), buf_[th].size());
    buf_[th].clear();
  }

  wt::writer w_;
  std::vector<std::vector<wt::record>> buf_;
};

// This thread's CPU time: on a shared machine the wall clock also counts
// the time other processes held the core.
double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  uint64_t tasks = 1000000;
  std::string keep;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--tasks") && i + 1 < argc) {
      char *end = nullptr;
      tasks = std::strtoull(argv[++i], &end, 10);
      if (*end || tasks == 0) {
        std::fprintf(stderr, "sim_throughput: --tasks %s: not a count > 0\n",
                     argv[i]);
        return 2;
      }
    } else if (!std::strcmp(argv[i], "--write") && i + 1 < argc) {
      keep = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: sim_throughput [--tasks N] [--write FILE]\n");
      return 2;
    }
  }
  std::string path = keep.empty() ? "/tmp/weft_sim_throughput_" +
                                        std::to_string(getpid()) + ".wtr"
                                  : keep;
  auto t0 = std::chrono::steady_clock::now();
  generator(path).write(tasks);
  double gen_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  wt::trace_data td = wt::read(path);
  double read_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  wt::task_graph g = wt::build_graph(td);
  double graph_s = seconds_since(t0);
  if (keep.empty())
    std::remove(path.c_str());
  std::printf("tasks %zu: generate %.3f s, read %.3f s, build graph %.3f s "
              "(%.2f M tasks/s)\n",
              g.tasks.size(), gen_s, read_s, graph_s,
              g.tasks.size() / graph_s / 1e6);

  ws::params p;
  int status = 0;
  for (const char *name : {"ideal", "nexus", "nexus+rt", "picos"}) {
    std::unique_ptr<ws::model> m = ws::make_model(name, p);
    for (uint32_t cores : {1u, 4u, 16u, 64u}) {
      t0 = std::chrono::steady_clock::now();
      double c0 = cpu_seconds();
      ws::result r = ws::simulate(g, *m, cores);
      double s = seconds_since(t0), cpu = cpu_seconds() - c0;
      std::printf("%-9s %2u cores: makespan %.3f ms, %.3f s wall (%.2f M "
                  "tasks/s), %.3f s cpu (%.2f M tasks/s, %.2f M events/s)\n",
                  name, cores, r.makespan_ps / 1e9, s, r.tasks / s / 1e6, cpu,
                  r.tasks / cpu / 1e6, r.events / cpu / 1e6);
      if (r.tasks != g.tasks.size())
        status = 1;
    }
  }
  return status;
}
