#!/usr/bin/env python3
"""Two builds of micro_weft, old and new, interleaved (the order alternates
each round, so that drift in the machine's load hits both alike): per cell
(pattern x deps x threads) the median ns/task of each, the median of the
per-round new/old ratios and their range. For checking that a change is no
slower (docs/benchmarks.md).

    python3 bench/run_ab.py OLD/bin/micro_weft NEW/bin/micro_weft [--rounds 7]
        [--cells task-free:0,task-free:15] [--count]

With --count, the one-thread cells instead run once each under valgrind's
cachegrind (branch and cache simulation; WEFT_THROTTLE_WINDOW=narrow and
WEFT_THROTTLE_GRAIN=fine unless the environment sets them) and the table
gives, per task, the
instructions, mispredicted branches and first-level data misses of each
build and their new/old ratios: counts that the machine's load does not
move, for a noisy machine where the timed ratios' range is wider than the
change. They say nothing of contention between threads.

Python 3 standard library only.
"""

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile

import benchlib


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--tasks", type=int, default=100000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--cells", default=None,
                    help="pattern:deps,... (default: the micro table's "
                    "cells), e.g. task-free:0,task-free:1,task-free:15")
    ap.add_argument("--count", action="store_true",
                    help="one-thread cells once under cachegrind: "
                    "instructions, mispredicts and D1 misses per task")
    benchlib.add_timeout_argument(ap, 600)
    args = ap.parse_args()
    args.cells = parse_cells(ap, args.cells)
    if args.count:
        return count(args)
    threads_list = benchlib.int_list(ap, "--threads", args.threads)
    cells = [(p, d, t) for (p, d) in args.cells for t in threads_list]
    runner = benchlib.Runner(args.timeout)
    ns = {c: {"old": [], "new": []} for c in cells}
    for r in range(args.rounds):
        for c in cells:
            order = [("old", args.old), ("new", args.new)]
            if r % 2:
                order.reverse()
            for name, exe in order:
                cmd = [exe, "--pattern", c[0], "--deps", str(c[1]),
                       "--tasks", str(args.tasks), "--reps", str(args.reps),
                       "--threads", str(c[2])]
                got = runner.run_json("%s %s deps %d threads %d"
                                      % (name, *c), cmd, None, " ".join(cmd))
                if got is not None:
                    ns[c][name].append(got[0]["ns_per_task"])
                    print(" %.1f ns/task" % got[0]["ns_per_task"],
                          file=sys.stderr)
    head = ["pattern", "deps", "threads", "old ns", "new ns", "new/old",
            "range"]
    rows = []
    for c in cells:
        old, new = ns[c]["old"], ns[c]["new"]
        ratios = [b / a for a, b in zip(old, new) if a > 0]
        rows.append([c[0], str(c[1]), str(c[2]),
                     "%.1f" % statistics.median(old) if old else "-",
                     "%.1f" % statistics.median(new) if new else "-",
                     "%.3f" % statistics.median(ratios) if ratios else "-",
                     "%.2f-%.2f" % (min(ratios), max(ratios))
                     if ratios else "-"])
    benchlib.print_table(head, rows, left=(0,))
    for t in threads_list:
        print_slope("ns/task, %d thread%s" % (t, "s" if t > 1 else ""),
                    {(p, d): statistics.median(ns[(p, d, t)][name])
                     for (p, d, tt) in cells if tt == t
                     for name in ["old"] if ns[(p, d, t)][name]},
                    {(p, d): statistics.median(ns[(p, d, t)][name])
                     for (p, d, tt) in cells if tt == t
                     for name in ["new"] if ns[(p, d, t)][name]})
    return benchlib.exit_status(runner.failures)


def parse_cells(ap, text):
    """--cells: "pattern:deps,..." (default benchlib.PATTERNS)."""
    if text is None:
        return list(benchlib.PATTERNS)
    cells = []
    for item in text.split(","):
        pattern, _, deps = item.partition(":")
        if pattern not in ("task-free", "task-chain", "emptytask") or \
                not deps.isdigit() or int(deps) > 15:
            ap.error("--cells: %r is not pattern:deps (pattern task-free, "
                     "task-chain or emptytask; deps 0..15)" % item)
        cells.append((pattern, int(deps)))
    return cells


def slope(points):
    """Least-squares slope of [(deps, value)], None with fewer than 2."""
    if len(points) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def print_slope(what, old, new):
    """The cost per dependence (issue 15 item 5): the slope of task-free's
    cells against their number of dependences, for each build."""
    got = []
    for name, cells in [("old", old), ("new", new)]:
        k = slope(sorted((d, v) for (p, d), v in cells.items()
                         if p == "task-free"))
        if k is not None:
            got.append("%s %.1f" % (name, k))
    if got:
        print("task-free slope (%s per dependence): %s" % (what,
                                                           ", ".join(got)))


# cachegrind's summary lines: "I refs:", "D1  misses:" and "Mispredicts:".
COUNTS = [("instr", r"I\s+refs:\s+([\d,]+)"),
          ("mispred", r"Mispredicts:\s+([\d,]+)"),
          ("D1 miss", r"D1\s+misses:\s+([\d,]+)")]


def parse_counts(lines):
    text = "\n".join(lines)
    got = {}
    for name, pattern in COUNTS:
        m = re.search(pattern, text)
        if not m:
            raise ValueError(name)
        got[name] = int(m.group(1).replace(",", ""))
    return got, ""


def count(args):
    """The --count table: one run per build and one-thread cell."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        print("run_ab.py: --count needs valgrind (scripts/deps installs it)",
              file=sys.stderr)
        return 1
    cells = args.cells
    # The throttle's grain estimate reads the clock, and under valgrind every
    # task looks coarse: the window would go wide in some runs and not in
    # others, and no in-place interval would look too fine to hand off.
    # Pinned narrow and fine (what these fine tasks get on the machine) the
    # counts repeat and follow the native paths; WEFT_THROTTLE_WINDOW and
    # WEFT_THROTTLE_GRAIN in the environment override them (a build that
    # does not know WEFT_THROTTLE_GRAIN ignores it).
    pins = [v + "=" + d for v, d in [("WEFT_THROTTLE_WINDOW", "narrow"),
                                     ("WEFT_THROTTLE_GRAIN", "fine")]
            if v not in os.environ]
    env = ["env"] + pins if pins else []
    # Each run is the warm-up repetition and one timed one: 2 x tasks.
    ran = 2 * args.tasks
    runner = benchlib.Runner(args.timeout)
    runner.total = 2 * len(cells)
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        for c in cells:
            for name, exe in [("old", args.old), ("new", args.new)]:
                cmd = env + [valgrind, "--tool=cachegrind", "--cache-sim=yes",
                       "--branch-sim=yes", "--cachegrind-out-file=" +
                       os.path.join(tmp, "cg.out"), exe, "--pattern", c[0],
                       "--deps", str(c[1]), "--tasks", str(args.tasks),
                       "--reps", "1", "--threads", "1"]
                # cachegrind reports on stderr: read it as the output.
                shell = ["sh", "-c", '"$@" 2>&1 >/dev/null', "sh"] + cmd
                r = runner.run_parsed("%s %s deps %d" % (name, *c), shell,
                                      None, " ".join(cmd), parse_counts,
                                      "cachegrind summary")
                if r is not None:
                    got[(c, name)] = r[0]
                    print(" %.0f instr/task" % (r[0]["instr"] / ran),
                          file=sys.stderr)
    head = ["pattern", "deps"]
    for name, _ in COUNTS:
        head += ["old " + name, "new " + name, "new/old"]
    rows = []
    for c in cells:
        old, new = got.get((c, "old")), got.get((c, "new"))
        row = [c[0], str(c[1])]
        for name, _ in COUNTS:
            if old and new:
                row += ["%.1f" % (old[name] / ran),
                        "%.1f" % (new[name] / ran),
                        "%.3f" % (new[name] / old[name])
                        if old[name] else "-"]
            else:
                row += ["-", "-", "-"]
        rows.append(row)
    print("per task, one thread, %d tasks run (the warm-up repetition's "
          "included; start-up too)" % ran)
    benchlib.print_table(head, rows, left=(0,))
    print_slope("instructions",
                {c: got[(c, "old")]["instr"] / ran for c in cells
                 if (c, "old") in got},
                {c: got[(c, "new")]["instr"] / ran for c in cells
                 if (c, "new") in got})
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
