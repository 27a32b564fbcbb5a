#!/usr/bin/env python3
"""The engines side by side (issue 4): the same native-API microbenchmarks
(micro_weft: Task-Free / Task-Chain with 0, 1 and 15 dependences, emptytask)
under each engine configuration, one after the other so that noise hits all
alike. For every cell: the measured ns per task (median of the repetitions),
its ratio to the sw engine (a model must stay within 3x), and what the model
says the hardware would have spent per task: modelled cycles and modelled
time (the unit's clock, plus PCIe for Nexus++). Writes
<build>/results/engines.json; docs/validation.md sets the figures beside the
papers'.

    python3 bench/run_engines.py --build build [--quick]

Exit status: 0 when every run worked (a model above 3x sw is printed as a
MISS, not an error), 1 when a run crashed, hung or printed a wrong result,
2 on bad usage. Python 3 standard library only.
"""

import argparse
import os
import sys

import benchlib

PATTERNS = [("task-free", 0), ("task-free", 1), ("task-free", 15),
            ("task-chain", 0), ("task-chain", 1), ("task-chain", 15),
            ("emptytask", 1)]

# name -> environment. "sw" first: the others are compared with it.
CONFIGS = {
    "sw": {"WEFT_ENGINE": "sw"},
    "nexus": {"WEFT_ENGINE": "nexus"},
    "nexus-thread": {"WEFT_ENGINE": "nexus", "WEFT_NEXUS_MODE": "thread"},
    "picos": {"WEFT_ENGINE": "picos"},
    "hwse-bins": {"WEFT_ENGINE": "sw", "WEFT_WS_ENGINE": "hwse"},
}
USABLE_RATIO = 3.0  # issue 4: a model's ns/task at most 3x the sw engine's


def modelled(rec):
    """(cycles per task, modelled ns per task) from a micro_weft record;
    the ns is the sum of the engine's counters named *.modelled_ns (picos,
    hwse), or *.unit_ns and *.pcie_ns (nexus: the unit at its clock and the
    PCIe words), None if it has none."""
    total = rec.get("tasks_total") or 0
    if total <= 0:
        return None, None
    # The dependency engine's cycles; a work-sharing engine's (the HWSE
    # model, another unit at another clock) are in its own counter.
    cycles = rec.get("modelled_cycles", 0) or sum(
        v for k, v in rec.get("counters", {}).items()
        if k.endswith(".modelled_cycles"))
    cycles /= total
    ns = [v for k, v in rec.get("counters", {}).items()
          if k.endswith((".modelled_ns", ".unit_ns", ".pcie_ns"))]
    return cycles, (sum(ns) / total if ns else None)


def main():
    ap = argparse.ArgumentParser(
        description="micro_weft under each engine configuration "
        "(docs/validation.md)")
    benchlib.add_build_arguments(
        ap, "bin/micro_weft",
        "fewer tasks and repetitions (the demo)")
    ap.add_argument("--tasks", type=int,
                    help="tasks per repetition (default 100000, --quick "
                    "20000)")
    ap.add_argument("--reps", type=int,
                    help="timed repetitions per run (default 5, --quick 3)")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts (default 1,2)")
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help="comma-separated subset of %s" % ",".join(CONFIGS))
    ap.add_argument("--out", help="JSON results file "
                    "(default: <build>/results/engines.json)")
    benchlib.add_timeout_argument(ap, 600)
    args = ap.parse_args()
    benchlib.quick_default(args, "tasks", 100000, 20000)
    benchlib.quick_default(args, "reps", 5, 3)
    if args.tasks < 1000 or args.reps < 1:
        ap.error("--tasks must be >= 1000 and --reps >= 1")
    threads_list = benchlib.int_list(ap, "--threads", args.threads)
    configs = benchlib.subset(ap, "--configs", args.configs, list(CONFIGS))

    exe = os.path.join(args.build, "bin", "micro_weft")
    if not os.access(exe, os.X_OK):
        print("run_engines.py: %s not found (build first: make build)" % exe,
              file=sys.stderr)
        return 1

    runner = benchlib.Runner(args.timeout)
    cells = [(p, d, t) for (p, d) in PATTERNS for t in threads_list]
    runner.total = len(cells) * len(configs)
    print("engines: micro_weft, %d tasks x %d reps (+1 warm-up), threads %s, "
          "%d CPUs, load average %.2f at start"
          % (args.tasks, args.reps, args.threads, os.cpu_count() or 0,
             benchlib.load_average()), file=sys.stderr)

    results = []
    for pattern, deps, threads in cells:
        row = {"pattern": pattern, "deps": deps, "threads": threads}
        for name in configs:
            cmd = [exe, "--pattern", pattern, "--deps", str(deps),
                   "--tasks", str(args.tasks), "--reps", str(args.reps),
                   "--threads", str(threads)]
            env = dict(os.environ)
            for k in list(env):
                if k.startswith("WEFT_"):
                    del env[k]
            env.update(CONFIGS[name])
            what = "%s %s deps %d threads %d" % (name, pattern, deps, threads)
            shown = " ".join("%s=%s" % kv for kv in CONFIGS[name].items()) + \
                " " + " ".join(cmd)
            got = runner.run_json(what, cmd, env, shown)
            if got is None:
                continue
            rec, line, wall = got
            if rec.get("engine") != CONFIGS[name]["WEFT_ENGINE"] or \
                    not isinstance(rec.get("ns_per_task"), (int, float)):
                runner.fail(what, shown, "malformed record or wrong engine",
                            line)
                continue
            cyc, mns = modelled(rec)
            print(" %10.1f ns/task  %s  (%.1f s)"
                  % (rec["ns_per_task"],
                     "%.0f cycles/task" % cyc if cyc else "", wall),
                  file=sys.stderr)
            row[name] = {"ns_per_task": rec["ns_per_task"],
                         "reps_ns_per_task": rec["reps_ns_per_task"],
                         "modelled_cycles_per_task": cyc,
                         "modelled_ns_per_task": mns,
                         "serialized": rec.get("serialized", 0),
                         "counters": rec.get("counters", {})}
        results.append(row)

    head = ["pattern", "deps", "thr"]
    for name in configs:
        head += [name + " ns"]
        if name != "sw":
            head += ["/sw", "cyc/task", "model us"]
    rows, misses = [], []
    for r in results:
        cells_out = [r["pattern"], str(r["deps"]), str(r["threads"])]
        sw = r.get("sw", {}).get("ns_per_task")
        for name in configs:
            c = r.get(name)
            cells_out.append("%.1f" % c["ns_per_task"] if c else "-")
            if name == "sw":
                continue
            if c and sw:
                ratio = c["ns_per_task"] / sw
                cells_out.append("%.2f%s" % (ratio, "!" if ratio >
                                             USABLE_RATIO else ""))
                if ratio > USABLE_RATIO:
                    misses.append("%s %s/%d/%d: %.2fx sw" % (
                        name, r["pattern"], r["deps"], r["threads"], ratio))
            else:
                cells_out.append("-")
            cyc = c["modelled_cycles_per_task"] if c else None
            cells_out.append("%.0f" % cyc if cyc else "-")
            mns = c["modelled_ns_per_task"] if c else None
            cells_out.append("%.2f" % (mns / 1000.0) if mns else "-")
        rows.append(cells_out)
    print()
    benchlib.print_table(head, rows, left=(0,))
    print("\n/sw: measured ns/task over the sw engine's in the same run "
          "(usable: <= %.0fx; '!' marks a miss). cyc/task: the model's "
          "hardware cycles per task; model us: modelled time per task "
          "(clock, plus PCIe words for Nexus++)." % USABLE_RATIO)
    if misses:
        print("above %.0fx sw: %s" % (USABLE_RATIO, "; ".join(misses)))

    out = args.out or os.path.join(args.build, "results", "engines.json")
    benchlib.write_json(out, {"tasks": args.tasks, "reps": args.reps,
                              "configs": {k: CONFIGS[k] for k in configs},
                              "results": results})
    print("results: %s" % out)
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
