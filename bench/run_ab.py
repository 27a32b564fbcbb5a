#!/usr/bin/env python3
"""Two builds of micro_weft, old and new, interleaved (the order alternates
each round, so that drift in the machine's load hits both alike): per cell
(pattern x deps x threads) the median ns/task of each, the median of the
per-round new/old ratios and their range. For checking that a change is no
slower (docs/benchmarks.md).

    python3 bench/run_ab.py OLD/bin/micro_weft NEW/bin/micro_weft [--rounds 7]

Python 3 standard library only.
"""

import argparse
import statistics
import sys

import benchlib


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--tasks", type=int, default=100000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    benchlib.add_timeout_argument(ap, 600)
    args = ap.parse_args()
    threads_list = benchlib.int_list(ap, "--threads", args.threads)
    cells = [(p, d, t) for (p, d) in benchlib.PATTERNS for t in threads_list]
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
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
