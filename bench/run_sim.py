#!/usr/bin/env python3
"""Trace real applications under weft and replay them on 1-64 modelled cores
(the Nexus++ paper's Figure 6, for the programs weft runs).

For each traced run:

    WEFT_TRACE=<results>/trace-<name>.wtr weft run --threads P -- app_<x> ...
    weft sim <trace> --model ideal,nexus,nexus+rt,picos --cores 1,...,64

and the first trace is also exported for Perfetto (weft trace export
--chrome). Prints, per trace, the speedup over ideal on one core at each core
count under each model, then the paths of the CSVs, plots and the Chrome JSON.

    python3 bench/run_sim.py --build build [--quick] [--threads 2]

The runs: h264dec with taskwait on (taskwait depend) and with plain taskwait
(the paper's h264dec gap), and sparselu. Exit status 0 when every run, replay
and export worked, 1 otherwise. Python 3 standard library only; see
docs/simulator.md.
"""

import argparse
import os
import subprocess
import sys
import time

import benchlib

MODELS = "ideal,nexus,nexus+rt,picos"
CORES = "1,2,4,8,16,32,64"

# name, binary, arguments, --quick arguments
RUNS = [
    ("h264dec-on", "app_h264dec", ["--wait", "on", "--frames", "4"],
     ["--wait", "on", "--frames", "2"]),
    ("h264dec-all", "app_h264dec", ["--wait", "all", "--frames", "4"],
     ["--wait", "all", "--frames", "2"]),
    ("sparselu", "app_sparselu", ["--nb", "30"], ["--nb", "20"]),
]


def run(cmd, env=None, timeout=300):
    """Runs cmd; returns its stdout lines, or None after printing why not."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        print("run_sim: timed out after %d s: %s" % (timeout, " ".join(cmd)),
              file=sys.stderr)
        return None
    except OSError as e:
        print("run_sim: cannot run %s: %s" % (cmd[0], e), file=sys.stderr)
        return None
    if p.returncode != 0:
        print("run_sim: exit status %d (%.1f s): %s\n%s%s" %
              (p.returncode, time.time() - t0, " ".join(cmd), p.stdout,
               p.stderr), file=sys.stderr)
        return None
    return p.stdout.splitlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true",
                    help="smaller inputs (make demo)")
    args = ap.parse_args()

    bindir = os.path.join(args.build, "bin")
    weft = os.path.join(bindir, "weft")
    results = os.path.join(args.build, "results")
    os.makedirs(results, exist_ok=True)
    ok = True
    outputs = []
    print("\nTraced runs replayed on modelled cores (speedup over ideal on 1 "
          "core; weft sim, docs/simulator.md)")
    for i, (name, binary, full, quick) in enumerate(RUNS):
        trace = os.path.join(results, "trace-%s.wtr" % name)
        env = dict(os.environ, WEFT_TRACE=trace)
        cmd = [weft, "run", "--threads", str(args.threads), "--",
               os.path.join(bindir, binary)] + (quick if args.quick else full)
        if run(cmd, env) is None:
            ok = False
            continue
        out = run([weft, "sim", trace, "--model", MODELS, "--cores", CORES,
                   "--out", results])
        if out is None:
            ok = False
            continue
        paths = [l.strip() for l in out if l.strip().endswith((".csv", ".png"))]
        csv_path = next((p for p in paths if p.endswith(".csv")), None)
        if csv_path is None:
            print("run_sim: weft sim printed no CSV path for %s" % trace,
                  file=sys.stderr)
            ok = False
            continue
        outputs += paths
        table = benchlib.sim_speedups(csv_path)
        cores = sorted({c for m in table.values() for c in m})
        print("\n%s (%s %s)" % (name, binary, " ".join(quick if args.quick
                                                        else full)))
        print("  %-10s" % "model" + "".join("%8d" % c for c in cores))
        for model in MODELS.split(","):
            if model in table:
                print("  %-10s" % model + "".join(
                    "%8.2f" % table[model][c] if c in table[model] else
                    "%8s" % "-" for c in cores))
        if i == 0:
            viewable = os.path.join(results, "trace-%s.perfetto-trace" % name)
            if run([weft, "trace", "export", "--perfetto", trace, "-o",
                    viewable]) is None:
                ok = False
            else:
                outputs.append(viewable)
    print("\nSimulation results and plots:")
    for p in outputs:
        print("  " + p)
    print("  (the .perfetto-trace opens in https://ui.perfetto.dev)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
