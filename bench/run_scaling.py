#!/usr/bin/env python3
"""Where weft's own overheads would cap each application beyond two cores
(issue 15, item 8): every application row is traced under `weft run` at
--threads, then replayed with `weft sim` at 1-64 modelled cores under
`ideal` (free runtime) and `sw` (this runtime's per-operation costs from
`weft calibrate`, measured first on this machine --calibrations times; the
replay uses each key's median over the runs, the spread is printed). Prints per row the
speedup over ideal on one core under each model, sw's share of ideal at
each core count, and sw's cap: its best speedup and the fewest cores that
reach 95% of it.

    python3 bench/run_scaling.py --build build [--quick] [--sets apps,fine]
        [--only sparselu,emptytask] [--cores 1,2,4,8,16,32,64]
        [--calibrations 5]

Traces, the calibration and the CSVs go to <build>/results/scaling/.
Traces carry the task durations of this machine at the time: a loaded
machine stretches them, which makes the runtime's costs look smaller.
Exit status 0 when every trace and replay worked, 1 otherwise, 2 on bad
usage. Python 3 standard library only; see docs/benchmarks.md.
"""

import argparse
import json
import os
import statistics
import sys

import benchlib

SETS = ["apps", "fine"]
MODELS = ["ideal", "sw"]


def any_output(lines):
    return lines, ""


def csv_path_of(lines):
    path = next(l.strip() for l in lines if l.strip().endswith(".csv"))
    return path, path


def cap(curve):
    """sw's best speedup and the fewest cores reaching 95% of it."""
    best = max(curve.values())
    knee = min(c for c, s in curve.items() if s >= 0.95 * best)
    return best, knee


def merge_calibrations(runs, path, pick):
    """Writes each cost key's median (or minimum: pick) over the
    calibration runs to path; returns {key: (min, picked, max)}."""
    merged, spread = dict(runs[0]), {}
    for key, value in runs[0].items():
        if isinstance(value, float):
            vals = sorted(r[key] for r in runs)
            merged[key] = vals[0] if pick == "min" else \
                statistics.median(vals)
            spread[key] = (vals[0], merged[key], vals[-1])
    with open(path, "w") as f:
        json.dump(merged, f, indent=2)
        f.write("\n")
    return spread


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    benchlib.add_build_arguments(ap, "bin/app_* and bin/weft",
                                 "the applications' --quick sizes")
    ap.add_argument("--threads", type=int, default=2,
                    help="threads of the traced runs (default 2)")
    ap.add_argument("--sets", default=",".join(SETS),
                    help="comma-separated subset of apps,fine (default both)")
    ap.add_argument("--only", default="",
                    help="comma-separated row names (default: every row)")
    ap.add_argument("--cores", default="1,2,4,8,16,32,64",
                    help="modelled core counts, increasing, from 1 "
                    "(default 1,2,4,8,16,32,64)")
    ap.add_argument("--calibrations", type=int, default=5,
                    help="`weft calibrate` runs; the replay uses each "
                    "cost's median (default 5)")
    ap.add_argument("--pick", choices=["median", "min"], default="median",
                    help="which of the calibration runs' values the replay "
                    "uses per cost (default median; min when load makes "
                    "schedule_ns the OS's wake-up latency)")
    benchlib.add_timeout_argument(ap, 600)
    args = ap.parse_args()
    if args.threads < 1:
        ap.error("--threads must be >= 1, got %d" % args.threads)
    if args.calibrations < 1:
        ap.error("--calibrations must be >= 1, got %d" % args.calibrations)
    cores = benchlib.int_list(ap, "--cores", args.cores)
    if cores[0] != 1:
        ap.error("--cores must start at 1 (speedups are over one core), "
                 "got %s" % args.cores)
    sets = benchlib.subset(ap, "--sets", args.sets, SETS)
    rows = [r for r in benchlib.APP_ROWS if r[1] in sets]
    only = [o for o in args.only.split(",") if o]
    unknown = [o for o in only if o not in [r[0] for r in benchlib.APP_ROWS]]
    if unknown:
        ap.error("--only: unknown rows %s" % ",".join(unknown))
    if only:
        rows = [r for r in rows if r[0] in only]
    if not rows:
        ap.error("--only %s selects no row of --sets %s" % (args.only,
                                                            args.sets))

    bindir = os.path.join(args.build, "bin")
    weft = os.path.join(bindir, "weft")
    out = os.path.join(args.build, "results", "scaling")
    os.makedirs(out, exist_ok=True)
    problems = []
    missing = benchlib.probe_weft(weft)
    if missing:
        problems.append("weft: " + missing)
    problems += benchlib.missing_programs(args.build,
                                          ["app_" + r[2] for r in rows])
    if benchlib.report_problems("run_scaling.py", problems):
        return 1

    runner = benchlib.Runner(args.timeout)
    runner.total = args.calibrations + 2 * len(rows)
    runs = []
    for k in range(args.calibrations):
        folder = os.path.join(out, "calibration-%d" % (k + 1))
        calib = [weft, "calibrate", "--threads", str(args.threads), "-o",
                 folder]
        if runner.run_parsed("calibrate %d" % (k + 1), calib, None,
                             " ".join(calib), any_output, "output") is None:
            return benchlib.exit_status(runner.failures)
        print(" done", file=sys.stderr)
        with open(os.path.join(folder, "calibration.json")) as f:
            runs.append(json.load(f))
    spread = merge_calibrations(runs, os.path.join(out, "calibration.json"),
                                args.pick)

    results = []
    for name, _, binary, full, quick, _ in rows:
        trace = os.path.join(out, "trace-%s.wtr" % name)
        cmd = [weft, "run", "--threads", str(args.threads), "--",
               os.path.join(bindir, "app_" + binary)] + \
            (quick if args.quick else full)
        env = dict(os.environ, WEFT_TRACE=trace)
        shown = "WEFT_TRACE=%s %s" % (trace, " ".join(cmd))
        if runner.run_parsed("trace " + name, cmd, env, shown, any_output,
                             "output") is None:
            runner.done += 1
            continue
        print(" done", file=sys.stderr)
        sim = [weft, "sim", trace, "--model", ",".join(MODELS), "--cores",
               ",".join(map(str, cores)), "--param",
               "calibration=" + os.path.join(out, "calibration.json"),
               "--out", os.path.join(out, name)]
        got = runner.run_parsed("replay " + name, sim, None, " ".join(sim),
                                csv_path_of, "CSV path")
        if got is None:
            continue
        print(" done", file=sys.stderr)
        results.append((name, benchlib.sim_speedups(got[0])))

    print("\nSpeedup over ideal on one core, modelled cores (weft sim; "
          "traces at %d threads%s)" % (args.threads,
                                       ", --quick" if args.quick else ""))
    head = ["row", "model"] + [str(c) for c in cores] + ["sw cap",
                                                         "at cores"]
    table = []
    for name, t in results:
        best, knee = cap(t["sw"])
        for model in MODELS:
            table.append([name if model == "ideal" else "", model] +
                         ["%.2f" % t[model][c] for c in cores] +
                         (["%.1f" % best, str(knee)] if model == "sw"
                          else ["", ""]))
        table.append(["", "sw/ideal"] + ["%.2f" % (t["sw"][c] /
                                                   t["ideal"][c])
                                         for c in cores] + ["", ""])
    benchlib.print_table(head, table, left=(0, 1))
    print("\nCalibration (ns; %s of %d runs, the replay's, and the range):"
          % (args.pick, len(runs)))
    for key, (lo, med, hi) in spread.items():
        print("  %-18s %8.1f  [%.1f, %.1f]" % (key, med, lo, hi))
    wide = [k for k, (lo, _, hi) in spread.items() if hi > 3 * lo]
    if wide:
        print("warning: %s varied more than 3x between calibrations (the "
              "load: schedule_ns measures the OS's wake-up when the idle "
              "worker is off its CPU); rerun quieter, or --pick min"
              % ", ".join(wide))
    print("\nCalibration, traces and CSVs: %s" % out)
    print("load average during the run: %.1f" % benchlib.load_average())
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
