#!/usr/bin/env python3
"""Task-overhead microbenchmarks (issues 2, 15): weft against libgomp, LLVM
libomp and the native-API peers oneTBB and StarPU.

Runs, for every configuration (pattern x deps x threads), micro_weft, micro_omp
under libgomp, the same micro_omp binary under LLVM libomp (LD_PRELOAD),
micro_tbb and micro_starpu, one after the other (so that noise hits all of them
alike), checks every run, prints a table with the weft / best-OpenMP ratio,
weft / oneTBB and weft / StarPU, whether the issues' targets hold, and writes
<build>/results/micro.json. micro_tbb and micro_starpu are built only when
oneTBB / StarPU are installed; when one is missing and --runtimes does not name
it, it is left out with a note.

    python3 bench/run_micro.py --build build [--quick]

Exit status: 0 when every benchmark run worked (targets missed or not; misses
are printed), 1 when a binary crashed, hung, printed a wrong result or the
libomp preload did not take over, 2 on bad usage. See docs/benchmarks.md.
Python 3 standard library only.
"""

import argparse
import os
import sys

import benchlib

RUNTIMES = ["weft", "libgomp", "libomp", "tbb", "starpu"]
NATIVE_PEERS = benchlib.NATIVE_PEERS

# Issue 2's targets, checked on the 2-thread rows only.
TARGET_THREADS = 2
TARGET_RATIO = 0.2     # weft / min(libgomp, libomp)
TARGET_1DEP_NS = 100.0  # weft ns/task on rows with 1 dependence

# Issue 15's native-API targets, on the 2-thread rows: weft / oneTBB on the
# independent rows (task-free, task-chain 0), weft / StarPU on the dependent
# ones (task-chain with deps, emptytask).
TARGET_TBB_RATIO = 0.5
TARGET_STARPU_RATIO = 0.1


def dependent(pattern, deps):
    return pattern == "emptytask" or (pattern == "task-chain" and deps > 0)


def target_verdict(threads, pattern, deps, weft, best, peers):
    """'-' (no target on this row), 'ok', or 'MISS (...)'. peers: runtime ->
    ns/task of the native peers measured on this row."""
    if threads != TARGET_THREADS:
        return "-"
    if weft is None or best is None:
        return "n/a"
    misses = []
    ratio = weft / best
    if ratio > TARGET_RATIO:
        misses.append("ratio %.2f > %.1f" % (ratio, TARGET_RATIO))
    peer, limit = ("starpu", TARGET_STARPU_RATIO) if dependent(pattern, deps) \
        else ("tbb", TARGET_TBB_RATIO)
    if peers.get(peer) and weft / peers[peer] > limit:
        misses.append("weft/%s %.2f > %.1f" % (peer, weft / peers[peer], limit))
    if deps == 1 and weft > TARGET_1DEP_NS:
        misses.append("%.0f ns > %.0f ns" % (weft, TARGET_1DEP_NS))
    return "MISS (%s)" % "; ".join(misses) if misses else "ok"


def print_neighbour_table(configs, runtimes, quiet, busy):
    """ns/task beside a busy neighbour and each runtime's slowdown."""
    table = []
    for (pattern, deps, threads) in configs:
        per_runtime = {}
        for r in runtimes:
            q = quiet.get((pattern, deps, threads, r))
            b = busy.get((pattern, deps, threads, r))
            per_runtime[r] = ("%.1f" % b["ns_per_task"],
                              b["ns_per_task"] / q["ns_per_task"]) \
                if q and b and q["ns_per_task"] > 0 else None
        table.append(([pattern, str(deps), str(threads)], per_runtime))
    benchlib.print_neighbour_table(
        ["pattern", "deps", "threads"] +
        ["%s busy ns (x)" % r for r in runtimes], table)


def main():
    ap = argparse.ArgumentParser(
        description="Task-overhead microbenchmarks: weft vs libgomp vs "
        "LLVM libomp (docs/benchmarks.md).")
    benchlib.add_build_arguments(
        ap, "bin/micro_weft, bin/micro_omp, bin/micro_tbb, bin/micro_starpu",
        "fewer tasks and repetitions (the demo; about a minute or less)")
    ap.add_argument("--tasks", type=int,
                    help="tasks per repetition (default 200000, --quick 50000)")
    ap.add_argument("--reps", type=int,
                    help="timed repetitions per run (default 5, --quick 3)")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts (default 1,2)")
    ap.add_argument("--runtimes",
                    help="comma-separated subset of %s (default: all; tbb "
                    "and starpu only when built)" % ",".join(RUNTIMES))
    benchlib.add_libomp_argument(ap)
    ap.add_argument("--out", help="JSON results file "
                    "(default: <build>/results/micro.json)")
    benchlib.add_timeout_argument(ap, 600)
    benchlib.add_neighbour_argument(ap)
    args = ap.parse_args()

    benchlib.quick_default(args, "tasks", 200000, 50000)
    benchlib.quick_default(args, "reps", 5, 3)
    if args.tasks < 1000 or args.reps < 1:
        ap.error("--tasks must be >= 1000 (emptytask chains) and --reps >= 1")
    threads_list = benchlib.int_list(ap, "--threads", args.threads)
    explicit = args.runtimes is not None
    runtimes = benchlib.subset(ap, "--runtimes",
                               args.runtimes or ",".join(RUNTIMES), RUNTIMES)
    bindir = os.path.join(args.build, "bin")
    explicit = args.runtimes is not None
    runtimes = [r for r in (args.runtimes or ",".join(RUNTIMES)).split(",")
                if r]
    bad = [r for r in runtimes if r not in RUNTIMES]
    if bad or not runtimes:
        ap.error("--runtimes: unknown %s (choose from %s)"
                 % (",".join(bad) or "(none)", ",".join(RUNTIMES)))
    runtimes = [r for r in RUNTIMES if r in runtimes]

    binaries = {"weft": os.path.join(bindir, "micro_weft"),
                "omp": os.path.join(bindir, "micro_omp")}
    for peer in NATIVE_PEERS:
        binaries[peer] = os.path.join(bindir, "micro_" + peer)
        if peer in runtimes and not explicit and \
                not os.access(binaries[peer], os.X_OK):
            print("run_micro.py: %s not built (package not found at "
                  "configure time): left out" % binaries[peer],
                  file=sys.stderr)
            runtimes.remove(peer)
    problems = []
    for name, path in binaries.items():
        needed = ("libgomp" in runtimes or "libomp" in runtimes) \
            if name == "omp" else name in runtimes
        if needed and not os.access(path, os.X_OK):
            problems.append("%s not found (build first: make build)" % path)
    libomp = benchlib.libomp_for(args, runtimes, problems)
    if benchlib.report_problems("run_micro.py", problems):
        return 1

    out_path = args.out or os.path.join(args.build, "results", "micro.json")
    configs = [(p, d, t) for (p, d) in benchlib.PATTERNS for t in threads_list]
    runner = benchlib.MicroRunner(args, binaries, libomp)
    runner.total = len(configs) * len(runtimes) * \
        len(benchlib.neighbour_modes(args))

    transfer_before = benchlib.line_transfer(bindir)
    load = benchlib.load_average()
    print("task-overhead microbenchmarks: %d tasks x %d reps (+1 warm-up), "
          "threads %s, %d CPUs, load average %.2f at start%s"
          % (args.tasks, args.reps, args.threads, os.cpu_count() or 0, load,
             ", libomp: " + libomp if libomp else ""), file=sys.stderr)

    results = []
    table = {}
    busy_table = {}
    for i, (pattern, deps, threads) in enumerate(configs):
        # Interleave the runtimes per configuration, rotating who goes first;
        # with --neighbour each runs quiet, then beside the busy neighbour.
        k = i % len(runtimes)
        for runtime in runtimes[k:] + runtimes[:k]:
            for busy in benchlib.neighbour_modes(args):
                with benchlib.Neighbour(busy):
                    rec = runner.run(runtime, pattern, deps, threads)
                (busy_table if busy else table)[
                    (pattern, deps, threads, runtime)] = rec
                if rec is not None:
                    rec["neighbour"] = busy
                    results.append(rec)

    benchlib.write_json(out_path, results)

    # The table.
    head = ["pattern", "deps", "threads", "weft ns", "libgomp ns",
            "libomp ns", "tbb ns", "starpu ns", "weft/best", "weft/tbb",
            "weft/starpu", "target (2 threads: weft/best<=0.2, 1 dep: "
            "weft<=100 ns, independent: weft/tbb<=0.5, dependent: "
            "weft/starpu<=0.1)"]
    rows = []
    misses = []
    capped = False
    for (pattern, deps, threads) in configs:
        recs = {r: table.get((pattern, deps, threads, r)) for r in RUNTIMES}
        weft = recs["weft"]["ns_per_task"] if recs["weft"] else None
        others = [recs[r]["ns_per_task"] for r in ("libgomp", "libomp")
                  if recs[r]]
        best = min(others) if others else None
        ratio = "%.2f" % (weft / best) if weft is not None and best else "-"
        peers = {r: recs[r]["ns_per_task"] for r in NATIVE_PEERS if recs[r]}
        peer_ratios = ["%.2f" % (weft / peers[r])
                       if weft is not None and peers.get(r) else "-"
                       for r in NATIVE_PEERS]
        verdict = target_verdict(threads, pattern, deps, weft, best, peers) \
            if "weft" in runtimes else "-"
        if verdict.startswith("MISS"):
            misses.append("%s deps %d threads %d: %s"
                          % (pattern, deps, threads, verdict[6:-1]))
        cells = [benchlib.fmt_ns(recs[r], args.tasks) for r in RUNTIMES]
        capped = capped or any(c.endswith("*") for c in cells)
        rows.append([pattern, str(deps), str(threads)] + cells +
                    [ratio] + peer_ratios + [verdict])
    benchlib.print_table(head, rows, left=(0, len(head) - 1))
    print(benchlib.line_transfer_note(transfer_before,
                                      benchlib.line_transfer(bindir)))
    if args.neighbour:
        print_neighbour_table(configs, runtimes, table, busy_table)
    if capped:
        print("* fewer tasks for this runtime (TASK_CAPS: libomp's per-task "
              "cost grows with the task count, StarPU's is 10-100 us; see the "
              "JSON's \"tasks\")")
    print("results: %s" % out_path)

    if misses:
        print("\nTARGETS MISSED (%d row%s):"
              % (len(misses), "" if len(misses) == 1 else "s"))
        for m in misses:
            print("  " + m)
    elif "weft" in runtimes and TARGET_THREADS in threads_list:
        print("\nall targets met")
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
