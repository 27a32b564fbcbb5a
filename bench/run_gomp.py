#!/usr/bin/env python3
"""GOMP ABI benchmarks: unmodified gcc -fopenmp binaries under libgomp, LLVM
libomp and weft.

Runs two benchmark binaries, each ONE binary (built by gcc -fopenmp, linked to
libgomp) under three runtimes in the same run:

    libgomp  as built
    libomp   LD_PRELOAD=<llvm>/lib/libomp.so.5 (as run_micro.py does)
    weft     <build>/bin/weft run --threads N -- <binary> <args>

(a) micro_omp, the task-overhead microbenchmarks (the patterns and
    dependence counts of run_micro.py; ns per task, the median of the
    binary's repetitions), and
(b) epcc_omp, the EPCC-style construct overheads (parallel, for, barrier,
    single, critical, lock, atomic, reduction, dynamic/guided chunks,
    sections, taskloop; us per construct, the median of --rounds runs, each
    the median of the binary's outer repetitions).

The runtimes run one after the other for each cell (rotating which goes
first), so that noise from other work hits all three alike. Prints a table
per part with the weft / best-of-(libgomp, libomp) ratio and writes
<build>/results/gomp-micro.json (the schema of run_micro.py's micro.json) and
<build>/results/gomp-epcc.json.

    python3 bench/run_gomp.py --build build [--quick] [--threads 2]

If <build>/bin/weft is missing or has no `run` subcommand yet, weft is
reported missing and the other two runtimes are still measured.

Exit status: 0 when every benchmark run worked (weft missing or not), 1 when
a binary crashed, hung, printed a wrong result, a runtime did not take over,
or a binary or libomp is missing, 2 on bad usage. See docs/benchmarks.md.
Python 3 standard library only.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

import benchlib

RUNTIMES = ["weft", "libgomp", "libomp"]
PARTS = ["micro", "epcc"]


class MicroRunner(benchlib.MicroRunner):
    """benchlib's micro runner, with weft = micro_omp under `weft run`."""

    def __init__(self, args, binaries, libomp, weft):
        super().__init__(args, binaries, libomp)
        self.weft = weft

    def command(self, runtime, pattern, deps, threads, tasks):
        if runtime != "weft":
            return super().command(runtime, pattern, deps, threads, tasks)
        cmd, env = super().command("libgomp", pattern, deps, threads, tasks)
        return benchlib.weft_prefix(self.weft, threads) + cmd, env

    def runtime_mismatch(self, runtime, rec):
        if runtime == "weft":
            return benchlib.weft_mismatch(rec)
        return super().runtime_mismatch(runtime, rec)


class EpccRunner(benchlib.Runner):
    def __init__(self, args, exe, libomp, weft):
        super().__init__(args.timeout)
        self.args = args
        self.exe = exe
        self.libomp = libomp
        self.weft = weft

    def command(self, runtime, construct, threads):
        cmd = [self.exe, "--construct", construct, "--threads", str(threads)]
        if self.args.quick:
            cmd.append("--quick")
        if runtime == "weft":
            cmd = benchlib.weft_prefix(self.weft, threads) + cmd
        return cmd, benchlib.omp_env(runtime, self.libomp)

    def run(self, runtime, construct, threads, rnd):
        """One run of one construct; its JSON record or None."""
        cmd, env = self.command(runtime, construct, threads)
        what = "%s %s threads %d round %d" % (runtime, construct, threads,
                                              rnd + 1)
        shown = benchlib.shown_command(runtime, cmd, self.libomp)
        got = self.run_json(what, cmd, env, shown, width=44)
        if got is None:
            return None
        rec, line, wall = got
        if rec.get("runtime") != runtime:
            why = weft_mismatch(rec) if runtime == "weft" else \
                benchlib.takeover_failure(runtime, rec, self.libomp,
                                          "epcc_omp")
            return self.fail(what, shown, why)
        for key, value in (("construct", construct), ("threads", threads)):
            if rec.get(key) != value:
                return self.fail(what, shown, "reports %s=%r, expected %r"
                                 % (key, rec.get(key), value))
        if not isinstance(rec.get("overhead_us"), (int, float)):
            return self.fail(what, shown, "malformed record", line)
        print(" %10.4f us/%s  (%.1f s)" % (rec["overhead_us"], rec.get("per"),
                                          wall), file=sys.stderr)
        return rec


def epcc_constructs(exe):
    """The constructs epcc_omp measures, in its order (epcc_omp --list)."""
    proc = subprocess.run([exe, "--list"], capture_output=True, text=True,
                          timeout=60)
    if proc.returncode != 0:
        raise OSError("%s --list: %s" % (exe, benchlib.describe_rc(
            proc.returncode)))
    return [l.split()[0] for l in proc.stdout.splitlines() if l.strip()]


def fmt_rtt(ns):
    """A cache-line round trip: ns, or ms for a thread that had no CPU."""
    return "%.0f" % ns if ns < 1e5 else "%.0fms" % (ns / 1e6)


def ratio_cell(weft, others):
    """weft / best of the others, when both are there and best > 0."""
    best = min(others) if others else None
    if weft is None or best is None or best <= 0:
        return "-"
    return "%.2f" % (weft / best)


def run_micro_part(args, runtimes, threads_list, binaries, libomp, weft,
                   weft_missing):
    margs = argparse.Namespace(tasks=args.tasks, reps=args.reps,
                               quick=args.quick, timeout=args.timeout)
    runner = MicroRunner(margs, binaries, libomp, weft)
    configs = [(p, d, t) for (p, d) in benchlib.PATTERNS
               for t in threads_list]
    runner.total = len(configs) * len(runtimes)
    print("\n(a) micro_omp, task overheads: %d tasks x %d reps (+1 warm-up)"
          % (args.tasks, args.reps), file=sys.stderr)
    results, table = [], {}
    for i, (pattern, deps, threads) in enumerate(configs):
        for runtime in benchlib.rotate(runtimes, i):
            rec = runner.run(runtime, pattern, deps, threads)
            table[(pattern, deps, threads, runtime)] = rec
            if rec is not None:
                results.append(rec)
    out = os.path.join(args.build, "results", "gomp-micro.json")
    benchlib.write_json(out, results)

    head = ["pattern", "deps", "threads", "weft ns", "libgomp ns",
            "libomp ns", "weft/best"]
    rows = []
    for (pattern, deps, threads) in configs:
        recs = {r: table.get((pattern, deps, threads, r)) for r in RUNTIMES}
        cells = []
        for r in RUNTIMES:
            if r == "weft" and weft_missing:
                cells.append("missing")
            elif r not in runtimes:
                cells.append("")
            else:
                cells.append(benchlib.fmt_ns(recs[r], args.tasks))
        weft_ns = recs["weft"]["ns_per_task"] if recs["weft"] else None
        others = [recs[r]["ns_per_task"] for r in ("libgomp", "libomp")
                  if recs[r]]
        rows.append([pattern, str(deps), str(threads)] + cells +
                    [ratio_cell(weft_ns, others)])
    print("\n(a) task overheads, micro_omp (ns per task; weft/best: below 1 "
          "weft is faster)")
    benchlib.print_table(head, rows, left=(0,))
    if any(c.endswith("*") for row in rows for c in row):
        print("* fewer tasks for this runtime (its per-task cost grows with "
              "the task count; see the JSON's \"tasks\")")
    print("results: %s" % out)
    return runner.failures


def run_epcc_part(args, runtimes, threads_list, exe, libomp, weft,
                  weft_missing):
    runner = EpccRunner(args, exe, libomp, weft)
    constructs = epcc_constructs(exe)
    configs = [(c, t) for c in constructs for t in threads_list]
    runner.total = len(configs) * args.rounds * len(runtimes)
    print("\n(b) epcc_omp, construct overheads: %d rounds per cell%s"
          % (args.rounds, ", --quick" if args.quick else ""), file=sys.stderr)
    results, table = [], {}
    k = 0
    for (construct, threads) in configs:
        runs = {r: [] for r in runtimes}
        for rnd in range(args.rounds):
            for runtime in benchlib.rotate(runtimes, k):
                rec = runner.run(runtime, construct, threads, rnd)
                if rec is not None:
                    runs[runtime].append(rec)
            k += 1
        for runtime in runtimes:
            recs = runs[runtime]
            if len(recs) != args.rounds:  # a failed round: no result
                continue
            values = [r["overhead_us"] for r in recs]
            med = statistics.median(values)
            # The median round's record (the closest, for an even count),
            # with the median over the rounds and every round's figure.
            rec = dict(min(recs, key=lambda r: abs(r["overhead_us"] - med)))
            rec["overhead_us"] = med
            rec["rounds_overhead_us"] = values
            rec["noisy_rounds"] = sum(1 for r in recs if r.get("noisy"))
            rec["rounds_line_rtt_ns"] = [r.get("line_rtt_ns") for r in recs]
            results.append(rec)
            table[(construct, threads, runtime)] = rec
    out = os.path.join(args.build, "results", "gomp-epcc.json")
    benchlib.write_json(out, results)

    head = ["construct", "per", "threads", "weft us", "libgomp us",
            "libomp us", "weft/best", "rtt ns"]
    rows = []
    noisy = False
    for (construct, threads) in configs:
        recs = {r: table.get((construct, threads, r)) for r in RUNTIMES}
        per = next((r["per"] for r in recs.values() if r), "")
        cells = []
        for r in RUNTIMES:
            if r == "weft" and weft_missing:
                cells.append("missing")
            elif r not in runtimes:
                cells.append("")
            elif not recs[r]:
                cells.append("-")
            else:
                cells.append("%.3f" % recs[r]["overhead_us"])
                if 2 * recs[r]["noisy_rounds"] > args.rounds:
                    cells[-1] += "?"
                    noisy = True
        weft_us = recs["weft"]["overhead_us"] if recs["weft"] else None
        others = [recs[r]["overhead_us"] for r in ("libgomp", "libomp")
                  if recs[r]]
        rtts = [x for r in recs.values() if r
                for x in r["rounds_line_rtt_ns"] if isinstance(x, (int, float))
                and x > 0]
        rtt = "-" if not rtts else fmt_rtt(min(rtts)) if \
            max(rtts) < 1.5 * min(rtts) else "%s-%s" % (fmt_rtt(min(rtts)),
                                                      fmt_rtt(max(rtts)))
        rows.append([construct, per, str(threads)] + cells +
                    [ratio_cell(weft_us, others), rtt])
    print("\n(b) construct overheads, epcc_omp (us per construct, chunk, "
          "section or task; median of %d round%s)" % (args.rounds, "" if args.rounds == 1 else "s"))
    benchlib.print_table(head, rows, left=(0, 1))
    print("rtt ns: round trip of a cache line between the team's first two "
          "threads in the row's runs; a range: the threads' CPUs were placed "
          "differently in different runs (contended rows depend on it); ms: "
          "a thread had no CPU of its own")
    if noisy:
        print("? most rounds were noisy: the process kept losing CPUs to other "
              "work (involuntary context switches in most timings); rerun on "
              "a quiet machine")
    print("results: %s" % out)
    return runner.failures


def main():
    ap = argparse.ArgumentParser(
        description="GOMP ABI benchmarks: one gcc -fopenmp binary under "
        "libgomp, LLVM libomp and `weft run` (docs/benchmarks.md).")
    benchlib.add_build_arguments(
        ap, "bin/micro_omp, bin/epcc_omp and bin/weft",
        "fewer tasks, repetitions and rounds")
    ap.add_argument("--threads", default="2",
                    help="comma-separated thread counts (default 2)")
    ap.add_argument("--parts", default=",".join(PARTS),
                    help="comma-separated subset of micro,epcc "
                    "(default: both)")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES),
                    help="comma-separated subset of weft,libgomp,libomp "
                    "(default: all three)")
    ap.add_argument("--tasks", type=int,
                    help="micro: tasks per repetition (default 200000, "
                    "--quick 50000)")
    ap.add_argument("--reps", type=int,
                    help="micro: timed repetitions per run (default 5, "
                    "--quick 3)")
    ap.add_argument("--rounds", type=int,
                    help="epcc: runs per cell, the median is reported "
                    "(default 5, --quick 3)")
    benchlib.add_weft_argument(ap)
    benchlib.add_libomp_argument(ap)
    benchlib.add_timeout_argument(ap, 600)
    args = ap.parse_args()

    benchlib.quick_default(args, "tasks", 200000, 50000)
    benchlib.quick_default(args, "reps", 5, 3)
    benchlib.quick_default(args, "rounds", 5, 3)
    if args.tasks < 1000 or args.reps < 1 or args.rounds < 1:
        ap.error("--tasks must be >= 1000 (emptytask chains), --reps and "
                 "--rounds >= 1")
    threads_list = benchlib.int_list(ap, "--threads", args.threads)
    parts = [p for p in args.parts.split(",") if p]
    if not parts or any(p not in PARTS for p in parts):
        ap.error("--parts: choose from %s" % ",".join(PARTS))
    runtimes = benchlib.subset(ap, "--runtimes", args.runtimes, RUNTIMES)

    bindir = os.path.join(args.build, "bin")
    weft = args.weft or os.path.join(bindir, "weft")
    weft_missing = None
    if "weft" in runtimes:
        weft_missing = benchlib.probe_weft(weft)
        if weft_missing:
            runtimes.remove("weft")
    binaries = {"micro": os.path.join(bindir, "micro_omp"),
                "epcc": os.path.join(bindir, "epcc_omp")}
    problems = ["%s not found (build first: make build)" % binaries[p]
                for p in parts if not os.access(binaries[p], os.X_OK)]
    libomp = benchlib.libomp_for(args, runtimes, problems)
    if not runtimes:
        problems.append("no runtime left to run (weft: %s)" % weft_missing)
    if benchlib.report_problems("run_gomp.py", problems):
        return 1

    print("GOMP ABI benchmarks: threads %s, runtimes %s, %d CPUs, load "
          "average %.2f at start%s"
          % (args.threads, ",".join(runtimes), os.cpu_count() or 0,
             benchlib.load_average(),
             ", libomp: " + libomp if libomp else ""), file=sys.stderr)
    busy = benchlib.busy_cpus()
    if busy is not None and busy > (os.cpu_count() or 1) - max(threads_list) \
            + 0.5:
        print("warning: other work keeps %.1f of %d CPUs busy: %d-thread "
              "numbers will be noisy (epcc marks them '?')"
              % (busy, os.cpu_count() or 0, max(threads_list)),
              file=sys.stderr)
    if weft_missing:
        print("weft: MISSING, %s; measuring %s only"
              % (weft_missing, " and ".join(runtimes)), file=sys.stderr)

    failures = []
    if "micro" in parts:
        failures += run_micro_part(args, runtimes, threads_list,
                                   {"omp": binaries["micro"]}, libomp, weft,
                                   weft_missing)
    if "epcc" in parts:
        try:
            failures += run_epcc_part(args, runtimes, threads_list,
                                      binaries["epcc"], libomp, weft,
                                      weft_missing)
        except (OSError, subprocess.TimeoutExpired) as e:
            failures.append("epcc_omp: %s" % e)

    if weft_missing:
        print("\nweft: MISSING (%s): the weft columns are empty" % weft_missing)
    return benchlib.exit_status(failures)


if __name__ == "__main__":
    sys.exit(main())
