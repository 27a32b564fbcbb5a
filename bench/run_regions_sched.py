#!/usr/bin/env python3
"""Jacobi on weft regions under the flat scheduler and scheduler trees
(issue 12, docs/regions.md): bench/regions/jacobi_regions with
WEFT_SCHEDULERS set to each shape, at 1 and 2 workers, interleaved
repetitions (the shapes rotated each round); prints the median time of the
sweeps with [min, max] and the ratio of each shape's median to flat's at the
same worker count. Every run's checksum must equal the others', else the
driver fails naming the run.

usage: run_regions_sched.py [--build DIR] [--shapes flat,1x2,1x2x2] [--n N]
                            [--iters I] [--blocks B] [--reps R] [--quick]
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def parse(lines):
    m = re.search(r"time_s=([0-9.]+) checksum=(\S+)", lines[-1])
    if not m:
        raise ValueError
    return (float(m.group(1)), m.group(2)), lines[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--shapes", default="flat,1x2,1x4,1x2x2")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--blocks", type=int, default=64,
                    help="row blocks (regions, tasks per sweep)")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--quick", action="store_true",
                    help="256 x 256, 20 sweeps, 3 repetitions")
    a = ap.parse_args()
    if a.quick:
        a.n, a.iters, a.reps = 256, 20, 3
    shapes = a.shapes.split(",")
    threads = [int(t) for t in a.threads.split(",")]
    binary = os.path.join(a.build, "bin", "jacobi_regions")
    cmd = [binary, "--n", str(a.n), "--iters", str(a.iters), "--blocks",
           str(a.blocks)]
    runner = benchlib.Runner(timeout=600)
    runner.total = a.reps * len(shapes) * len(threads)
    times = {}
    checksum = None
    print("load average %.1f" % benchlib.load_average(), file=sys.stderr)
    for rep in range(a.reps):
        for t in threads:
            for shape in benchlib.rotate(shapes, rep):
                env = dict(os.environ, WEFT_NUM_THREADS=str(t),
                           WEFT_SCHEDULERS=shape)
                shown = "WEFT_NUM_THREADS=%d WEFT_SCHEDULERS=%s %s" % (
                    t, shape, " ".join(cmd))
                r = runner.run_parsed("%s t%d" % (shape, t), cmd, env, shown,
                                      parse, "time_s=... checksum=...")
                if r is None:
                    continue
                (secs, sums), _, _ = r
                print(" %.4f s" % secs, file=sys.stderr)
                if checksum is None:
                    checksum = sums
                elif sums != checksum:
                    runner.failures.append("%s: checksum %s, others %s" % (
                        shown, sums, checksum))
                times.setdefault((shape, t), []).append(secs)
    rows = []
    for t in threads:
        base = times.get(("flat", t)) if "flat" in shapes else None
        for shape in shapes:
            v = times.get((shape, t))
            if not v:
                continue
            med = statistics.median(v)
            ratio = "%.2f" % (med / statistics.median(base)) if base else "-"
            rows.append([shape, str(t), "%.4f [%.4f, %.4f]" % (
                med, min(v), max(v)), ratio])
    print("jacobi_regions n=%d iters=%d blocks=%d reps=%d, load average "
          "%.1f" % (a.n, a.iters, a.blocks, a.reps, benchlib.load_average()))
    benchlib.print_table(["schedulers", "workers", "seconds median [min, max]",
                          "vs flat"], rows)
    benchlib.report_problems("run_regions_sched", runner.failures)
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
