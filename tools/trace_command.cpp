// `weft trace`: look at a trace that WEFT_TRACE recorded
// (docs/trace-format.md). `summary` prints totals; `export --perfetto`
// writes Perfetto's protobuf trace (perfetto_export.hpp), `export --chrome`
// Chrome trace-event JSON for chrome://tracing and small traces.
#include "commands.hpp"
#include "perfetto_export.hpp"
#include "progress_bar.hpp"

#include "trace/read/trace_graph.hpp"
#include "trace/read/trace_reader.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace weft::cli {
namespace {

using json = nlohmann::json;

struct trace_options {
  std::string file, out;
  bool chrome = false, perfetto = false;
};

struct loaded {
  trace::trace_data data;
  trace::task_graph graph;
};

// Reads and checks the trace; on error prints it naming the file.
bool load(const char *who, const std::string &file, loaded &l) {
  try {
    l.data = trace::read(file);
    l.graph = trace::build_graph(l.data);
    return true;
  } catch (const trace::error &e) {
    std::fprintf(stderr, "weft trace %s: %s: %s\n", who, file.c_str(),
                 e.what());
    return false;
  }
}

// A slice that a begin record opens and an end record closes on a thread.
struct interval {
  uint16_t thread;
  uint8_t sub;
  uint64_t task, begin, end;
};

// Waits (wait_begin .. wait_end) and regions (region_begin .. region_end).
void pair_up(const trace::trace_data &d, std::vector<interval> &waits,
             std::vector<interval> &regions) {
  std::map<uint64_t, std::vector<std::size_t>> open_wait, open_region;
  for (const trace::record &r : d.records) {
    switch (r.type) {
    case trace::kind::wait_begin:
      open_wait[r.task].push_back(waits.size());
      waits.push_back({r.thread, r.sub, r.task, r.time, r.time});
      break;
    case trace::kind::wait_end:
      if (auto &s = open_wait[r.task]; !s.empty()) {
        waits[s.back()].end = r.time;
        s.pop_back();
      }
      break;
    case trace::kind::region_begin:
      open_region[r.task].push_back(regions.size());
      regions.push_back({r.thread, 0, r.task, r.time, r.time});
      break;
    case trace::kind::region_end:
      if (auto &s = open_region[r.task]; !s.empty()) {
        regions[s.back()].end = r.time;
        s.pop_back();
      }
      break;
    default:
      break;
    }
  }
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

double us(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

json slice(const std::string &name, const char *cat, uint16_t tid,
           uint64_t begin, uint64_t end) {
  return {{"name", name},
          {"cat", cat},
          {"ph", "X"},
          {"pid", 1},
          {"tid", tid},
          {"ts", us(begin)},
          {"dur", us(end > begin ? end - begin : 0)}};
}

json chrome(const loaded &l) {
  const trace::trace_data &d = l.data;
  const trace::task_graph &g = l.graph;
  json ev = json::array();
  std::string process =
      std::string(d.header.program) + " (weft, engine " + d.header.engine + ")";
  ev.push_back({{"name", "process_name"},
                {"ph", "M"},
                {"pid", 1},
                {"args", {{"name", process}}}});
  std::map<uint16_t, bool> threads;
  for (const trace::record &r : d.records)
    threads[r.thread] = true;
  for (const auto &[t, unused] : threads)
    ev.push_back({{"name", "thread_name"},
                  {"ph", "M"},
                  {"pid", 1},
                  {"tid", t},
                  {"args", {{"name", "worker " + std::to_string(t)}}}});

  for (const trace::task_node &n : g.tasks) {
    json s = slice("task " + std::to_string(n.id),
                   (n.flags & trace::flag_implicit) ? "implicit" : "task",
                   n.worker, n.begin_ns, n.end_ns);
    json deps = json::array();
    for (uint32_t i = 0; i < n.ndeps; ++i) {
      const trace::dependence &dep = g.deps[n.first_dep + i];
      deps.push_back(std::string(trace::name(dep.mode)) + " " +
                     hex(dep.address));
    }
    s["args"] = {
        {"id", n.id},
        {"parent", n.parent == trace::kNone ? 0 : g.tasks[n.parent].id},
        {"created_us", us(n.create_ns)},
        {"creator_thread", n.creator_thread},
        {"deps", deps}};
    if (n.flags)
      s["args"]["flags"] = trace::flag_names(n.flags);
    ev.push_back(std::move(s));
  }

  std::vector<interval> waits, regions;
  pair_up(d, waits, regions);
  for (const interval &w : waits) {
    json s = slice(trace::name(static_cast<trace::wait_kind>(w.sub)), "wait",
                   w.thread, w.begin, w.end);
    s["args"] = {{"task", w.task}};
    ev.push_back(std::move(s));
  }
  for (const interval &r : regions) {
    json s = slice("parallel region", "region", r.thread, r.begin, r.end);
    s["args"] = {{"encountering_task", r.task}};
    ev.push_back(std::move(s));
  }

  for (const trace::record &r : d.records) {
    if (r.type == trace::kind::overhead) {
      json s = slice(trace::name(static_cast<trace::overhead_kind>(r.sub)),
                     "overhead", r.thread, r.time, r.time + r.arg);
      s["args"] = {{"task", r.task}};
      ev.push_back(std::move(s));
    } else if (r.type == trace::kind::counter) {
      auto c = static_cast<trace::counter_id>(r.sub);
      std::string series = c == trace::counter_id::ready
                               ? "worker " + std::to_string(r.thread)
                               : "value";
      ev.push_back({{"name", trace::name(c)},
                    {"ph", "C"},
                    {"pid", 1},
                    {"ts", us(r.time)},
                    {"args", {{series, r.arg}}}});
    }
  }

  // Dependences: an arrow from the end of each predecessor to the start of
  // its successor, each end bound to the slice that encloses it.
  uint64_t flow = 0;
  for (std::size_t p = 0; p < g.tasks.size(); ++p) {
    const trace::task_node &pred = g.tasks[p];
    for (uint32_t i = 0; i < pred.nsuccs; ++i) {
      const trace::task_node &succ = g.tasks[g.succs[pred.first_succ + i]];
      ++flow;
      uint64_t from =
          pred.end_ns > pred.begin_ns ? pred.end_ns - 1 : pred.end_ns;
      ev.push_back({{"name", "dependence"},
                    {"cat", "dep"},
                    {"ph", "s"},
                    {"id", flow},
                    {"pid", 1},
                    {"tid", pred.worker},
                    {"ts", us(from)},
                    {"args", {{"from", pred.id}, {"to", succ.id}}}});
      ev.push_back({{"name", "dependence"},
                    {"cat", "dep"},
                    {"ph", "f"},
                    {"bp", "e"},
                    {"id", flow},
                    {"pid", 1},
                    {"tid", succ.worker},
                    {"ts", us(succ.begin_ns)}});
    }
  }
  return {{"traceEvents", std::move(ev)},
          {"displayTimeUnit", "ns"},
          {"otherData",
           {{"program", d.header.program},
            {"engine", d.header.engine},
            {"threads", d.header.threads},
            {"start_unix_ns", d.header.start_unix_ns}}}};
}

// Above this, Perfetto's UI may fail to load a JSON trace: the browser
// gives it about 2 GB, and a trace takes several times its file size once
// loaded (perfetto.dev/docs/visualization/large-traces); chrome://tracing
// stops at 256 MB.
constexpr double kJsonLimitBytes = 500e6;

// The default output: the trace's name with `ext`, in the current folder.
std::string default_output(const std::string &trace, const char *ext) {
  return std::filesystem::path(trace).stem().string() + ext;
}

// The JSON's size from its event counts (bytes per event measured on
// traces of the OpenMP tests and the applications).
double json_estimate(const loaded &l) {
  double bytes = 0;
  for (const trace::record &r : l.data.records)
    if (r.type == trace::kind::overhead || r.type == trace::kind::counter ||
        r.type == trace::kind::wait_begin ||
        r.type == trace::kind::region_begin)
      bytes += 100;
  return bytes + 200.0 * double(l.graph.tasks.size()) +
         40.0 * double(l.graph.deps.size()) +
         230.0 * double(l.graph.succs.size());
}

int export_chrome(const trace_options &o) {
  loaded l;
  if (!load("export", o.file, l))
    return 1;
  std::string out = o.out.empty() ? default_output(o.file, ".json") : o.out;
  double estimate = json_estimate(l);
  std::fprintf(stderr,
               "weft trace export: about %.0f MB of JSON (%zu tasks, %zu "
               "dependence edges)\n",
               estimate / 1e6, l.graph.tasks.size(), l.graph.succs.size());
  if (estimate > kJsonLimitBytes)
    std::fprintf(stderr,
                 "weft trace export: JSON above %.0f MB may not load in "
                 "Perfetto's UI; `weft trace export --perfetto %s` writes "
                 "Perfetto's own format, which it loads more compactly, in "
                 "bounded memory\n",
                 kJsonLimitBytes / 1e6, o.file.c_str());
  json j = chrome(l);
  if (out == "-") {
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  std::ofstream f(out);
  f << j.dump() << '\n';
  f.close();
  if (!f) {
    std::fprintf(stderr, "weft trace export: cannot write %s\n", out.c_str());
    return 1;
  }
  std::printf("%s\n", out.c_str());
  return 0;
}

int export_perfetto_file(const trace_options &o) {
  std::string out =
      o.out.empty() ? default_output(o.file, ".perfetto-trace") : o.out;
  try {
    progress_bar bar("weft trace export", 1000);
    perfetto_counts c =
        export_perfetto(o.file, out, [&](uint64_t done, uint64_t total) {
          bar.update(total ? done * 1000 / total : 0, "");
        });
    bar.finish();
    std::fprintf(stderr,
                 "weft trace export: %" PRIu64 " tasks, %" PRIu64
                 " dependence flows, %" PRIu64 " counter samples, %" PRIu64
                 " packets\n",
                 c.tasks, c.flows, c.counters, c.packets);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "weft trace export: %s\n", e.what());
    if (out != "-")
      std::remove(out.c_str());
    return 1;
  }
  if (out != "-")
    std::printf("%s\n", out.c_str());
  return 0;
}

// The p-th percentile of v by nearest rank (the smallest value with at
// least p% of v at or below it), 0 for none; reorders v.
uint64_t nearest_rank(std::vector<uint64_t> &v, unsigned p) {
  if (v.empty())
    return 0;
  std::size_t rank = (v.size() * p + 99) / 100; // 1-based, rounded up
  auto nth = v.begin() + static_cast<std::ptrdiff_t>(rank ? rank - 1 : 0);
  std::nth_element(v.begin(), nth, v.end());
  return *nth;
}

int summary(const trace_options &o) {
  loaded l;
  if (!load("summary", o.file, l))
    return 1;
  const trace::trace_data &d = l.data;
  const trace::task_graph &g = l.graph;
  uint64_t first = d.records.empty() ? 0 : d.records.front().time;
  uint64_t last = d.records.empty() ? 0 : d.records.back().time;
  std::size_t implicit = 0, deps = g.deps.size(), edges = g.succs.size();
  uint64_t task_ns = 0, work_ns = 0;
  std::map<uint16_t, bool> threads;
  for (const trace::task_node &n : g.tasks) {
    threads[n.worker] = true;
    if (n.flags & trace::flag_implicit) {
      ++implicit;
      continue;
    }
    task_ns += n.end_ns - n.begin_ns;
    for (uint32_t s = 0; s < n.nsteps; ++s)
      if (g.steps[n.first_step + s].type == trace::step_kind::work)
        work_ns += g.steps[n.first_step + s].value;
  }
  // Each overhead kind's segment lengths: a mean alone hides the split
  // between cheap local spawns and the few that wait for another core.
  std::array<std::vector<uint64_t>, 4> ov;
  for (const trace::record &r : d.records)
    if (r.type == trace::kind::overhead && r.sub >= 1 && r.sub <= 3)
      ov[r.sub].push_back(r.arg);
  // Placement decisions per (handling scheduler, chosen leaf).
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> placed;
  uint64_t placements = 0;
  for (const trace::record &r : d.records)
    if (r.type == trace::kind::rplace) {
      ++placements;
      ++placed[{trace::rplace_from(r.arg), trace::rplace_leaf(r.arg)}];
    }
  std::vector<interval> waits, regions;
  pair_up(d, waits, regions);
  std::array<uint64_t, 5> wait_n{}, wait_ns{};
  for (const interval &w : waits)
    if (w.sub >= 1 && w.sub <= 4) {
      ++wait_n[w.sub];
      wait_ns[w.sub] += w.end - w.begin;
    }
  std::printf("trace     %s (program %s, engine %s, %u threads at start)\n",
              o.file.c_str(), d.header.program, d.header.engine,
              d.header.threads);
  std::printf("records   %zu\n", d.records.size());
  std::printf("tasks     %zu explicit, %zu implicit, %zu dependences, %zu "
              "edges, %zu parallel regions\n",
              g.tasks.size() - implicit, implicit, deps, edges,
              g.regions.size());
  std::printf("threads   %zu\n", threads.size());
  std::printf("span      %.3f ms\n", static_cast<double>(last - first) / 1e6);
  std::printf("task time %.3f ms (explicit tasks, begin to end), own work "
              "%.3f ms\n",
              static_cast<double>(task_ns) / 1e6,
              static_cast<double>(work_ns) / 1e6);
  for (int k = 1; k <= 3; ++k) {
    std::vector<uint64_t> &v = ov[k];
    uint64_t sum = 0;
    for (uint64_t x : v)
      sum += x;
    std::printf("overhead  %-9s %10zu segments %12.3f ms %9.1f ns mean "
                "%8" PRIu64 " median %8" PRIu64 " p90\n",
                trace::name(static_cast<trace::overhead_kind>(k)), v.size(),
                static_cast<double>(sum) / 1e6,
                v.empty() ? 0.0 : static_cast<double>(sum) / v.size(),
                nearest_rank(v, 50), nearest_rank(v, 90));
  }
  for (int k = 1; k <= 4; ++k)
    std::printf("wait      %-11s %8" PRIu64 " waits %15.3f ms\n",
                trace::name(static_cast<trace::wait_kind>(k)), wait_n[k],
                static_cast<double>(wait_ns[k]) / 1e6);
  if (placements) {
    std::printf("placed    %" PRIu64 " region tasks (scheduler -> leaf:",
                placements);
    for (const auto &[k, n] : placed)
      std::printf(" %u->%u %" PRIu64, k.first, k.second, n);
    std::printf(")\n");
  }
  return 0;
}

} // namespace

command add_trace_command(CLI::App &app) {
  auto to = std::make_shared<trace_options>();
  CLI::App *sub = app.add_subcommand(
      "trace", "Look at a trace recorded with WEFT_TRACE=path");
  sub->require_subcommand(1);
  CLI::App *sum = sub->add_subcommand(
      "summary", "Tasks, threads, time span, task time, overhead and waits");
  sum->add_option("trace", to->file, "the trace file")->required();
  CLI::App *exp = sub->add_subcommand(
      "export", "Convert a trace for a viewer (Perfetto, chrome://tracing)");
  CLI::Option *perfetto = exp->add_flag(
      "--perfetto", to->perfetto,
      "Perfetto's protobuf trace (ui.perfetto.dev), streamed: any size");
  CLI::Option *chrome = exp->add_flag(
      "--chrome", to->chrome,
      "Chrome trace-event JSON (chrome://tracing; built in memory)");
  perfetto->excludes(chrome);
  exp->add_option("trace", to->file, "the trace file")->required();
  exp->add_option("-o,--output", to->out,
                  "where to write (default: the trace's name with "
                  ".perfetto-trace or .json, in the current folder; - for "
                  "stdout)");
  return {sub, [to, sum] {
            if (*sum)
              return summary(*to);
            if (!to->perfetto && !to->chrome) {
              std::fprintf(stderr, "weft trace export: say which format: "
                                   "--perfetto or --chrome\n");
              return 2;
            }
            return to->perfetto ? export_perfetto_file(*to)
                                : export_chrome(*to);
          }};
}

} // namespace weft::cli
