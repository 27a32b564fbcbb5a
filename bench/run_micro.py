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
from benchlib import find_libomp

PATTERNS = [("task-free", 0), ("task-free", 1), ("task-free", 15),
            ("task-chain", 0), ("task-chain", 1), ("task-chain", 15),
            ("emptytask", 1)]
RUNTIMES = ["weft", "libgomp", "libomp", "tbb", "starpu"]
NATIVE_PEERS = ("tbb", "starpu")  # each has its own binary, micro_<name>

# Issue 2's targets, checked on the 2-thread rows only.
TARGET_THREADS = 2
TARGET_RATIO = 0.2     # weft / min(libgomp, libomp)
TARGET_1DEP_NS = 100.0  # weft ns/task on rows with 1 dependence

# Cells where a runtime is so slow that the full task count would take minutes:
# (runtime, pattern, deps) -> largest task count (full run, --quick run).
# LLVM libomp's cost per task grows with the number of distinct addresses it
# has seen (about 3 us/task at 20000 tasks, 12-16 us at 200000 with 15 deps on
# 2 threads), so the capped number flatters libomp: the ratio is conservative.
TASK_CAPS = {("libomp", "task-free", 15): (20000, 10000)}
# StarPU costs 10-100 us per task on this machine (2 threads), and its
# task-free 15 registers tasks x 15 data handles (untimed, but memory and
# minutes), so it runs fewer tasks; its per-task cost does not fall with more.
for _p, _d in PATTERNS:
    TASK_CAPS[("starpu", _p, _d)] = (20000, 5000)
TASK_CAPS[("starpu", "task-free", 15)] = (5000, 2000)

# Issue 15's native-API targets, on the 2-thread rows: weft / oneTBB on the
# independent rows (task-free, task-chain 0), weft / StarPU on the dependent
# ones (task-chain with deps, emptytask).
TARGET_TBB_RATIO = 0.5
TARGET_STARPU_RATIO = 0.1


def dependent(pattern, deps):
    return pattern == "emptytask" or (pattern == "task-chain" and deps > 0)


class Runner(benchlib.Runner):
    def __init__(self, args, binaries, libomp):
        super().__init__(args.timeout)
        self.args = args
        self.binaries = binaries
        self.libomp = libomp

    def command(self, runtime, pattern, deps, threads, tasks):
        exe = self.binaries[runtime if runtime in ("weft",) + NATIVE_PEERS
                            else "omp"]
        cmd = [exe, "--pattern", pattern, "--deps", str(deps),
               "--tasks", str(tasks), "--reps", str(self.args.reps),
               "--threads", str(threads)]
        return cmd, benchlib.omp_env(runtime, self.libomp)

    def runtime_mismatch(self, runtime, rec):
        """Why the record names another runtime than the one asked for."""
        return benchlib.takeover_failure(runtime, rec, self.libomp,
                                         "micro_omp")

    def run(self, runtime, pattern, deps, threads):
        """One benchmark run; returns its JSON record or None (and records
        the failure)."""
        tasks = self.args.tasks
        cap = TASK_CAPS.get((runtime, pattern, deps))
        if cap:
            tasks = min(tasks, cap[1] if self.args.quick else cap[0])
        cmd, env = self.command(runtime, pattern, deps, threads, tasks)
        what = "%s %s deps %d threads %d" % (runtime, pattern, deps, threads)
        shown = benchlib.shown_command(runtime, cmd, self.libomp)
        got = self.run_json(what, cmd, env, shown)
        if got is None:
            return None
        rec, line, wall = got
        want = {"runtime": runtime, "pattern": pattern, "deps": deps,
                "threads": threads}
        for key, value in want.items():
            if rec.get(key) != value:
                if key == "runtime":
                    why = self.runtime_mismatch(runtime, rec)
                else:
                    why = "reports %s=%r, expected %r" % (key, rec.get(key),
                                                           value)
                return self.fail(what, shown, why)
        if not isinstance(rec.get("ns_per_task"), (int, float)) or \
                rec.get("tasks") != (tasks - tasks % 1000
                                     if pattern == "emptytask" else tasks):
            return self.fail(what, shown, "malformed record", line)
        print(" %10.1f ns/task  (%d tasks, %.1f s)"
              % (rec["ns_per_task"], rec["tasks"], wall), file=sys.stderr)
        return rec


def fmt_ns(rec, tasks):
    if rec is None:
        return "-"
    text = "%.1f" % rec["ns_per_task"]
    full = tasks - tasks % 1000 if rec["pattern"] == "emptytask" else tasks
    if rec["tasks"] != full:
        text += "*"
    return text


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


def main():
    ap = argparse.ArgumentParser(
        description="Task-overhead microbenchmarks: weft vs libgomp vs "
        "LLVM libomp (docs/benchmarks.md).")
    ap.add_argument("--build", default="build",
                    help="build folder holding bin/micro_weft and "
                    "bin/micro_omp (default: build)")
    ap.add_argument("--quick", action="store_true",
                    help="fewer tasks and repetitions (the demo; about a "
                    "minute or less)")
    ap.add_argument("--tasks", type=int,
                    help="tasks per repetition (default 200000, --quick 50000)")
    ap.add_argument("--reps", type=int,
                    help="timed repetitions per run (default 5, --quick 3)")
    ap.add_argument("--threads", default="1,2",
                    help="comma-separated thread counts (default 1,2)")
    ap.add_argument("--runtimes",
                    help="comma-separated subset of %s (default: all; tbb "
                    "and starpu only when built)" % ",".join(RUNTIMES))
    ap.add_argument("--libomp", help="the LLVM libomp.so.5 to preload "
                    "(default: the newest /usr/lib/llvm-*/lib/libomp.so.5)")
    ap.add_argument("--out", help="JSON results file "
                    "(default: <build>/results/micro.json)")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds one benchmark run may take (default 600)")
    args = ap.parse_args()

    if args.tasks is None:
        args.tasks = 50000 if args.quick else 200000
    if args.reps is None:
        args.reps = 3 if args.quick else 5
    if args.tasks < 1000 or args.reps < 1:
        ap.error("--tasks must be >= 1000 (emptytask chains) and --reps >= 1")
    try:
        threads_list = [int(t) for t in args.threads.split(",") if t]
    except ValueError:
        ap.error("--threads: expected comma-separated integers, got %r"
                 % args.threads)
    if not threads_list or min(threads_list) < 1:
        ap.error("--threads: need at least one thread count >= 1")
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
    libomp = None
    if "libomp" in runtimes:
        libomp = find_libomp(args.libomp)
        if not libomp:
            problems.append(
                "LLVM libomp.so.5 not found (%s); install libomp-dev "
                "(scripts/deps) or pass --libomp PATH, or leave it out with "
                "--runtimes weft,libgomp"
                % (args.libomp or "looked in /usr/lib/llvm-*/lib"))
    if problems:
        for p in problems:
            print("run_micro.py: " + p, file=sys.stderr)
        return 1

    out_path = args.out or os.path.join(args.build, "results", "micro.json")
    configs = [(p, d, t) for (p, d) in PATTERNS for t in threads_list]
    runner = Runner(args, binaries, libomp)
    runner.total = len(configs) * len(runtimes)

    load = benchlib.load_average()
    print("task-overhead microbenchmarks: %d tasks x %d reps (+1 warm-up), "
          "threads %s, %d CPUs, load average %.2f at start%s"
          % (args.tasks, args.reps, args.threads, os.cpu_count() or 0, load,
             ", libomp: " + libomp if libomp else ""), file=sys.stderr)

    results = []
    table = {}
    for i, (pattern, deps, threads) in enumerate(configs):
        # Interleave the runtimes per configuration, rotating who goes first.
        k = i % len(runtimes)
        for runtime in runtimes[k:] + runtimes[:k]:
            rec = runner.run(runtime, pattern, deps, threads)
            table[(pattern, deps, threads, runtime)] = rec
            if rec is not None:
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
        cells = [fmt_ns(recs[r], args.tasks) for r in RUNTIMES]
        capped = capped or any(c.endswith("*") for c in cells)
        rows.append([pattern, str(deps), str(threads)] + cells +
                    [ratio] + peer_ratios + [verdict])
    benchlib.print_table(head, rows, left=(0, len(head) - 1))
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
    if runner.failures:
        print("\nBENCHMARK FAILURES (%d):" % len(runner.failures))
        for f in runner.failures:
            print("  " + f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
