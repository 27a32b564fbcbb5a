#!/usr/bin/env python3
"""A/B of region-task placement (issue 12, docs/regions.md "Placement"): the
region versions of jacobi, matmul and kmeans (bench/run_regions.py's full
sizes) at 2 workers under a scheduler tree, built from two trees of the
source (`--before DIR`: a build's bin/ and lib/, run with LD_LIBRARY_PATH
set to its lib/; `--after DIR`, default build/), in interleaved
repetitions (the order alternates every repetition). Prints per benchmark
and build the median time of the timed part with [min, max], the median
and range of the per-repetition ratio after/before, the load average
around the runs, and the medians of WEFT_STATS' placement counts:
on_chosen_worker (placed tasks that ran on the worker chosen for them) and,
where the build prints them, placed_on_producer / ran_on_producer (of the
tasks with bytes some worker produced last, those sent to / run on the
worker that produced most of them). Every run of a benchmark must print
the same checksum.

usage: placement_ab.py --before DIR [--after DIR] [--shapes 1x1,1x2]
                       [--bench jacobi,matmul,kmeans] [--reps R]
                       [--locality P]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_regions  # noqa: E402  (the benchmarks' sizes)


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run(build, name, shape, locality, is_before):
    b = run_regions.BENCHES[name]
    exe = os.path.join(build, "bin", name + "_regions")
    env = dict(os.environ, WEFT_NUM_THREADS="2", WEFT_SCHEDULERS=shape,
               WEFT_STATS="1")
    if locality is not None:
        env["WEFT_SCHED_LOCALITY"] = str(locality)
    if is_before:
        env["LD_LIBRARY_PATH"] = os.path.join(build, "lib")
    out = subprocess.run([exe] + b["full"] + b["weft"], env=env,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("%s (%s) failed: %s" % (exe, shape, out.stderr[-2000:]))
    text = out.stdout + out.stderr
    res, _ = run_regions.parse_result(text.splitlines())
    for key in ("on_chosen_worker", "placed_on_producer", "ran_on_producer"):
        m = re.search(key + r"=\d+ \(([0-9.]+)%\)", text)
        res[key] = float(m.group(1)) if m else None
    return res


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default="build")
    ap.add_argument("--shapes", default="1x1,1x2")
    ap.add_argument("--bench", default="jacobi,matmul,kmeans")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--locality", type=int, default=None)
    a = ap.parse_args()
    shapes = a.shapes.split(",")
    benches = a.bench.split(",")
    builds = [("before", a.before, True), ("after", a.after, False)]
    rows = {}
    loads = [load()]
    for rep in range(a.reps):
        order = builds if rep % 2 == 0 else builds[::-1]
        for shape in shapes:
            for name in benches:
                for label, build, is_before in order:
                    r = run(build, name, shape, a.locality, is_before)
                    rows.setdefault((shape, name, label), []).append(r)
                    loads.append(load())
    print("placement A/B at 2 workers, %d interleaved repetitions, load "
          "average %.1f-%.1f (median %.1f)" % (a.reps, min(loads),
                                             max(loads),
                                             statistics.median(loads)))
    print("%-6s %-7s %-7s %-26s %-22s %-9s %-9s %-9s" %
          ("shape", "bench", "build", "seconds", "after/before",
           "chosen%", "placed%", "ran%"))
    for shape in shapes:
        for name in benches:
            sums = set()
            for label, _, _ in builds:
                for r in rows[(shape, name, label)]:
                    sums.add(r["checksum"])
            if len(sums) != 1:
                sys.exit("%s %s: checksums differ: %s" % (shape, name, sums))
            bt = [r["time_s"] for r in rows[(shape, name, "before")]]
            at = [r["time_s"] for r in rows[(shape, name, "after")]]
            ratios = [x / y for x, y in zip(at, bt)]
            for label, _, _ in builds:
                rs = rows[(shape, name, label)]
                ts = [r["time_s"] for r in rs]
                ratio = ("%.2f [%.2f, %.2f]" % (statistics.median(ratios),
                                                min(ratios), max(ratios))
                         if label == "after" else "")
                cells = []
                for key in ("on_chosen_worker", "placed_on_producer",
                            "ran_on_producer"):
                    v = med([r[key] for r in rs])
                    cells.append("-" if v is None else "%.1f" % v)
                print("%-6s %-7s %-7s %-26s %-22s %-9s %-9s %-9s" %
                      (shape, name, label,
                       "%.3f [%.3f, %.3f]" % (statistics.median(ts),
                                              min(ts), max(ts)),
                       ratio, *cells))


if __name__ == "__main__":
    main()
