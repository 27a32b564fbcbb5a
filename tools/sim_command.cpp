// `weft sim`: replays a trace on N modelled cores under one or more models
// and writes a CSV and a speedup-versus-cores plot (docs/simulator.md).
#include "commands.hpp"
#include "progress_bar.hpp"

#include "myrmics.hpp"
#include "simulator.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace weft::cli {
namespace {

struct sim_options {
  std::string trace;
  std::vector<std::string> models;
  std::string cores = "1,2,4,8,16,32,64";
  std::vector<std::string> params;
  std::string out;
  std::string span = "tasks";
  std::string phase;
  std::vector<std::string> min_over;
  bool no_plot = false;
};

// The task graph of the trace at `path`. The reader's errors name the file
// and the byte; the builder's (an inconsistent trace: "trace: task 7: ...")
// get the file's name here: "trace FILE: task 7: ...".
trace::task_graph load_graph(const std::string &path) {
  trace::trace_data data = trace::read(path);
  try {
    return trace::build_graph(data);
  } catch (const trace::error &e) {
    std::string what = e.what();
    const std::string prefix = "trace: ";
    if (what.compare(0, prefix.size(), prefix) == 0)
      what.erase(0, prefix.size());
    throw trace::error("trace " + path + ": " + what);
  }
}

// g with each work step at its minimum over g and the graphs of the other
// recordings (the same program: the same tasks and steps, else an error
// naming the first difference): a task preempted by the OS in one
// recording keeps its work from another.
void take_minimum(trace::task_graph &g, const std::string &trace,
                  const std::string &other, const trace::task_graph &o) {
  auto differ = [&](const std::string &what) {
    throw sim::error("--min-over " + other +
                     ": not a recording of the same "
                     "task graph as " +
                     trace + ": " + what);
  };
  if (o.tasks.size() != g.tasks.size())
    differ(std::to_string(o.tasks.size()) + " tasks against " +
           std::to_string(g.tasks.size()));
  for (std::size_t k = 0; k < g.tasks.size(); ++k) {
    const trace::task_node &a = g.tasks[k], &b = o.tasks[k];
    if (a.nsuccs != b.nsuccs)
      differ("task " + std::to_string(k) + " (ids " + std::to_string(a.id) +
             ", " + std::to_string(b.id) + ") has " + std::to_string(b.nsuccs) +
             " successors against " + std::to_string(a.nsuccs));
    // Segment by segment (the work between two other steps: a recording
    // may split one stretch of work into several steps).
    uint32_t s = 0, t = 0;
    for (;;) {
      uint64_t wa = 0, wb = 0;
      trace::step *first = nullptr;
      for (; s < a.nsteps &&
             g.steps[a.first_step + s].type == trace::step_kind::work;
           ++s) {
        trace::step &x = g.steps[a.first_step + s];
        if (!first)
          first = &x;
        wa += x.value;
        x.value = 0;
      }
      for (; t < b.nsteps &&
             o.steps[b.first_step + t].type == trace::step_kind::work;
           ++t)
        wb += o.steps[b.first_step + t].value;
      if (first)
        first->value = std::min(wa, wb);
      if (s == a.nsteps || t == b.nsteps) {
        if (s != a.nsteps || t != b.nsteps)
          differ("task " + std::to_string(k) + " (ids " + std::to_string(a.id) +
                 ", " + std::to_string(b.id) +
                 ") has another sequence of waits and creates");
        break;
      }
      const trace::step &x = g.steps[a.first_step + s],
                        &y = o.steps[b.first_step + t];
      if (x.type != y.type ||
          (x.type == trace::step_kind::create && x.value != y.value))
        differ("task " + std::to_string(k) + " (ids " + std::to_string(a.id) +
               ", " + std::to_string(b.id) + "): a " + trace::name(y.type) +
               " step against a " + trace::name(x.type) + " step");
      ++s;
      ++t;
    }
  }
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> v;
  std::size_t at = 0;
  for (;;) {
    std::size_t comma = s.find(',', at);
    v.push_back(s.substr(at, comma - at));
    if (comma == std::string::npos)
      return v;
    at = comma + 1;
  }
}

// "1,2,4": increasing core counts in [1, 65536].
std::vector<uint32_t> parse_cores(const std::string &s) {
  std::vector<uint32_t> v;
  for (const std::string &item : split(s)) {
    bool digits = !item.empty() && item.size() <= 6 &&
                  item.find_first_not_of("0123456789") == std::string::npos;
    unsigned long n = digits ? std::stoul(item) : 0;
    if (n < 1 || n > 65536)
      throw sim::error("--cores " + s + ": '" + item +
                       "' is not a core count in [1, 65536]");
    if (!v.empty() && n <= v.back())
      throw sim::error("--cores " + s + ": counts must increase ('" + item +
                       "' after " + std::to_string(v.back()) + ")");
    v.push_back(static_cast<uint32_t>(n));
  }
  return v;
}

std::string base_name(const std::string &path) {
  std::string b = std::filesystem::path(path).filename().string();
  std::size_t dot = b.rfind('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
}

int run_sim(const sim_options &o) {
  std::vector<std::string> names;
  for (const std::string &m : o.models)
    for (const std::string &n : split(m))
      names.push_back(n);
  if (names.empty())
    names.push_back("ideal");
  std::vector<uint32_t> cores = parse_cores(o.cores);

  sim::params params(o.params);
  std::string all;
  bool wants_sw = false;
  for (const std::string &n : names) {
    all += (all.empty() ? "" : ",") + n;
    wants_sw |= n == "sw";
  }
  if (wants_sw && !params.has("calibration"))
    params.set("calibration", "calibration.json"); // weft calibrate's default
  // The myrmics model has its own replay (a scheduler tree): no model.
  std::vector<std::unique_ptr<sim::model>> models;
  std::unique_ptr<sim::myrmics_config> myrmics;
  for (const std::string &n : names) {
    if (n == "myrmics") {
      if (!myrmics)
        myrmics = std::make_unique<sim::myrmics_config>(
            sim::myrmics_config::from(params));
      models.push_back(nullptr);
    } else {
      models.push_back(sim::make_model(n, params));
    }
  }
  sim::params none;
  std::unique_ptr<sim::model> ideal = sim::make_model("ideal", none);
  params.check_all_used(all);

  // Reading and building the graph of a large trace takes seconds: say so
  // on a terminal, then clear the line.
  bool tty = isatty(2) != 0;
  if (tty)
    std::fprintf(stderr, "weft sim: reading %s", o.trace.c_str());
  trace::task_graph g = load_graph(o.trace);
  if (tty)
    std::fprintf(stderr, "\r%*s\r", static_cast<int>(o.trace.size() + 18), "");
  if (!o.phase.empty())
    g = trace::select_phase(g, o.phase);
  else if (o.span == "tasks")
    sim::trim_serial_ends(g);
  for (const std::string &other : o.min_over) {
    trace::task_graph h = load_graph(other);
    if (!o.phase.empty())
      h = trace::select_phase(h, o.phase);
    take_minimum(g, o.trace, other, h);
  }

  std::string dir = o.out.empty() ? "." : o.out;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw sim::error("--out " + dir + ": cannot create: " + ec.message());
  std::string stem =
      (std::filesystem::path(dir) / ("sim-" + base_name(o.trace))).string();
  std::string csv = stem + ".csv", png = stem + ".png";

  uint64_t per_run = g.tasks.size();
  progress_bar bar("weft sim", per_run * (1 + names.size() * cores.size()));
  uint64_t before = 0;
  auto run = [&](const sim::model &m, const std::string &name, uint32_t n) {
    std::string what = name + " on " + std::to_string(n) + " cores";
    sim::result r = sim::simulate(
        g, m, n, [&](uint64_t done) { bar.update(before + done, what); });
    before += per_run;
    bar.update(before, what);
    return r;
  };
  sim::result base = run(*ideal, "ideal", 1);
  if (base.makespan_ps == 0)
    throw sim::error(o.trace + ": the trace has no work to simulate");

  std::ofstream f(csv);
  if (!f)
    throw sim::error("cannot write " + csv);
  f << "model,cores,makespan_ns,speedup,utilisation\n";
  for (std::size_t i = 0; i < names.size(); ++i)
    for (uint32_t n : cores) {
      sim::result r;
      if (models[i]) {
        r = run(*models[i], names[i], n);
      } else {
        r = sim::simulate_myrmics(g, *myrmics, n).base;
        before += per_run;
        bar.update(before, "myrmics on " + std::to_string(n) + " workers");
      }
      char line[256];
      std::snprintf(line, sizeof line, "%s,%u,%.3f,%.6f,%.6f\n",
                    names[i].c_str(), n, r.makespan_ps / 1e3,
                    double(base.makespan_ps) / double(r.makespan_ps),
                    r.utilisation());
      f << line;
    }
  f.close();
  if (!f)
    throw sim::error("cannot write " + csv);
  bar.finish();
  std::printf("%s\n", csv.c_str());
  if (o.no_plot)
    return 0;
  int rc =
      run_plot("weft sim", "sim.py", {csv, png, "--title", base_name(o.trace)});
  if (rc != 0)
    return rc;
  std::printf("%s\n", png.c_str());
  return 0;
}

} // namespace

command add_sim_command(CLI::App &app) {
  auto so = std::make_shared<sim_options>();
  CLI::App *sub = app.add_subcommand(
      "sim", "Replay a trace on N modelled cores under scheduler models");
  sub->add_option("trace", so->trace, "the trace file (weft trace)")
      ->required();
  sub->add_option("--model", so->models,
                  "ideal, nexus, nexus+rt, picos, sw or myrmics; repeat or "
                  "comma-separate for several (default: ideal)")
      ->allow_extra_args(false);
  sub->add_option("--cores", so->cores,
                  "core counts, increasing (default: 1,2,4,8,16,32,64)");
  sub->add_option("--param", so->params,
                  "a model parameter key=value (docs/simulator.md); repeat")
      ->allow_extra_args(false);
  sub->add_option("--span", so->span,
                  "tasks (default): leave out the roots' serial work before "
                  "their first task or region and after their last wait; "
                  "program: replay all of it")
      ->check(CLI::IsMember({"tasks", "program"}));
  sub->add_option("--phase", so->phase,
                  "replay only phase NAME (weft_trace_phase_begin/_end): "
                  "the tasks created inside it, their dependences on earlier "
                  "tasks satisfied at its start (--span does not apply)");
  sub->add_option("--min-over", so->min_over,
                  "other recordings of the same program: each work step is "
                  "replayed at its minimum over all of them (removes OS "
                  "preemption on a loaded machine); repeat")
      ->allow_extra_args(false);
  sub->add_flag("--no-plot", so->no_plot, "write the CSV only");
  sub->add_option("-o,--out", so->out,
                  "folder for the CSV and the plot, created if needed "
                  "(default: the current folder)");
  return {sub, [so] {
            try {
              return run_sim(*so);
            } catch (const std::exception &e) {
              std::fprintf(stderr, "weft sim: %s\n", e.what());
              return 2;
            }
          }};
}

} // namespace weft::cli
