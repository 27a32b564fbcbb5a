#!/usr/bin/env python3
"""Applications on the Nexus++ Task Maestro's RTL (WEFT_ENGINE=nexus-rtl):
RTL cycles per task beside the functional model's, from the same run.

Each row runs one bench/apps binary (small sizes) under

    WEFT_ENGINE=nexus-rtl WEFT_STATS=1 <build>/bin/weft run --threads N --
        <build>/bin/app_<name> <args>

where the verilated unit and the functional model (src/engines/nexus) see
the same operations in lockstep (docs/engines.md, nexus-rtl). From the
counters weft prints at exit it reports, per task inserted into the unit,
the RTL's cycles in insertions and in finishes beside the model's cost
table, and the co-simulation's speed (RTL cycles per second of simulation
wall time). The app's own check must pass.

    python3 bench/run_nexus_rtl.py --build build [--quick] [--threads 2]

Writes <build>/results/nexus_rtl.json. Exit status: 0 when every run
worked, 1 when one failed or a binary is missing, 2 on bad usage. See
docs/hardware.md. Python 3 standard library only.
"""

import argparse
import os
import re
import sys

import benchlib

# row, binary (app_<name>), arguments, --quick arguments
ROWS = [
    ("emptytask", "emptytask", ["--n", "100000"], ["--n", "20000"]),
    ("h264dec", "h264dec", ["--frames", "2"], ["--frames", "1"]),
    ("sparselu", "sparselu", ["--nb", "30"], ["--nb", "20"]),
]

COUNTERS = ["inserts", "finishes", "insert.rtl_cycles", "insert.model_cycles",
            "finish.rtl_cycles", "finish.model_cycles", "rtl_cycles",
            "sim_ns"]


def parse(lines):
    """The app's result line and the nexus_rtl.* counters."""
    stats = {}
    app = None
    for line in lines:
        m = re.match(r"weft stats:\s+nexus_rtl\.([\w.]+)=(\d+)", line)
        if m:
            stats[m.group(1)] = int(m.group(2))
        elif line.startswith("app="):
            app = line
    if app is None or "check=ok" not in app:
        raise ValueError("no passing app line")
    missing = [c for c in COUNTERS if c not in stats]
    if missing or stats["inserts"] == 0:
        raise ValueError("counters missing: %s" % ",".join(missing))
    return stats, app


def main():
    ap = argparse.ArgumentParser(
        description="Applications under nexus-rtl: RTL cycles per task "
        "beside the functional model's (docs/hardware.md).")
    benchlib.add_build_arguments(ap, "bin/app_* and bin/weft",
                                 "smaller sizes")
    ap.add_argument("--threads", type=int, default=2,
                    help="threads per run (default 2)")
    benchlib.add_weft_argument(ap)
    benchlib.add_timeout_argument(ap, 300)
    args = ap.parse_args()
    if args.threads < 1:
        ap.error("--threads must be >= 1, got %d" % args.threads)

    bindir = os.path.join(args.build, "bin")
    weft = args.weft or os.path.join(bindir, "weft")
    problems = []
    missing = benchlib.probe_weft(weft)
    if missing:
        problems.append("weft: " + missing)
    problems += benchlib.missing_programs(args.build,
                                          ["app_" + row[1] for row in ROWS])
    if benchlib.report_problems("run_nexus_rtl.py", problems):
        return 1

    runner = benchlib.Runner(args.timeout)
    runner.total = len(ROWS)
    env = dict(os.environ, WEFT_ENGINE="nexus-rtl", WEFT_STATS="1")
    print("nexus-rtl: the Task Maestro's RTL (Table I's sizes) and the "
          "functional model in lockstep, %d threads" % args.threads)
    table, results = [], []
    for name, binary, full, quick in ROWS:
        cmd = benchlib.weft_prefix(weft, args.threads) + [
            os.path.join(bindir, "app_" + binary)] + (quick if args.quick
                                                       else full)
        shown = "WEFT_ENGINE=nexus-rtl WEFT_STATS=1 " + " ".join(cmd)
        # weft prints its counters on stderr: read them with stdout.
        merged = ["sh", "-c", 'exec "$@" 2>&1', "sh"] + cmd
        got = runner.run_parsed(name, merged, env, shown,
                                lambda lines: parse(lines),
                                "passing app line and nexus_rtl counters")
        if got is None:
            continue
        s, line, wall = got
        print(" %.2f s" % wall, file=sys.stderr)
        n = s["inserts"]
        per = {k: s[k] / n for k in ["insert.rtl_cycles",
                                      "insert.model_cycles",
                                      "finish.rtl_cycles",
                                      "finish.model_cycles"]}
        rtl = per["insert.rtl_cycles"] + per["finish.rtl_cycles"]
        model = per["insert.model_cycles"] + per["finish.model_cycles"]
        speed = s["rtl_cycles"] / (s["sim_ns"] / 1e9) / 1e6 \
            if s["sim_ns"] else 0.0
        table.append([name, "%d" % n,
                      "%.1f" % per["insert.rtl_cycles"],
                      "%.1f" % per["insert.model_cycles"],
                      "%.1f" % per["finish.rtl_cycles"],
                      "%.1f" % per["finish.model_cycles"],
                      "%.1f" % rtl, "%.1f" % model,
                      "%.2f" % speed])
        results.append({"row": name, "command": shown, "app": line,
                        "threads": args.threads, "counters": s,
                        "rtl_cycles_per_task": rtl,
                        "model_cycles_per_task": model,
                        "cosim_mcycles_per_s": speed})
    print()
    benchlib.print_table(
        ["app", "tasks", "insert RTL", "insert model", "finish RTL",
         "finish model", "per task RTL", "per task model",
         "co-sim M cycles/s"], table)
    print("\ncycles per task inserted into the unit (the paper: ~37 per "
          "emptytask task for Nexus++ alone at 12.5 MHz)")
    benchlib.write_json(os.path.join(args.build, "results", "nexus_rtl.json"),
                        results)
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
