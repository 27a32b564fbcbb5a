#!/usr/bin/env python3
"""Strong scaling of the six region benchmarks on modelled Myrmics
hierarchies (issue 12 item 6, the paper's Fig. 8 a-f; docs/validation.md):
records each bench/regions/NAME_regions once at a size with enough tasks
per step to feed 512 workers (WEFT_TRACE, one worker, three times: a replay takes each work step's
minimum over the recordings, which removes OS preemption), replays its timed
section (`weft sim --phase timed --model myrmics`) at 1 and 8-512 modelled
workers under a flat scheduler, two levels (1xL: the paper's L = 2 up to 32
workers, 4 at 64, 7 from 128) and three levels (1x2xK, the same leaves as
near as two mid-level schedulers allow), and prints each speedup over the
flat single-worker replay.

Each trace is replayed at two time scales: `x86` takes a trace ns as a
cycle at 1 GHz (weft's task sizes on this machine against the paper's
scheduler costs); `paper` stretches the task work so that the mean task is
1 M cycles, the paper's smallest task size (section VI-B), which keeps the
paper's ratio of task work to scheduler cost.

usage: run_regions_scaling.py [--build DIR] [--bench jacobi,...]
                              [--workers 8,16,...] [--scale x86,paper]
                              [--quick] [--json FILE] [--trace DIR]
"""
import argparse
import csv
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

# name: (full, --quick) arguments: at least about 2 tasks per worker per
# step at 512 workers where the benchmark's structure allows it.
SIZES = {
    "jacobi": (["--n", "4096", "--iters", "4", "--blocks", "1024"],
               ["--n", "1024", "--iters", "2", "--blocks", "256"]),
    "matmul": (["--n", "1024", "--regions", "4", "--tiles", "4"],
               ["--n", "384", "--regions", "2", "--tiles", "4"]),
    "bitonic": (["--n", str(1 << 22), "--regions", "16", "--tiles", "1024"],
                ["--n", str(1 << 18), "--regions", "4", "--tiles", "128"]),
    "kmeans": (["--points", str(1 << 20), "--clusters", "16", "--regions",
                "16", "--tiles", "64", "--iters", "3"],
               ["--points", str(1 << 16), "--clusters", "8", "--regions",
                "4", "--tiles", "32", "--iters", "2"]),
    "ray": (["--width", "512", "--height", "2048", "--regions", "16",
             "--tiles", "64"],
            ["--width", "128", "--height", "512", "--regions", "4",
             "--tiles", "32"]),
    "barnes": (["--bodies", "16384", "--regions", "64", "--steps", "2"],
               ["--bodies", "2048", "--regions", "16", "--steps", "1"]),
}

# The paper's leaf schedulers (Fig. 8 caption): L = 2 for 32 workers, 4
# for 64, 7 for 128-512; below 32 we keep 2.
def paper_leaves(n):
    return 2 if n <= 32 else 4 if n <= 64 else 7


def two_level(n):
    return "1x%d" % paper_leaves(n)


def three_level(n):
    return "1x2x%d" % max(1, (paper_leaves(n) + 1) // 2)


def parse_result(lines):
    for line in reversed(lines):
        m = re.search(r"time_s=([0-9.]+) checksum=(\S+)", line)
        if m:
            return {"time_s": float(m.group(1))}, line
    raise ValueError("no result line")


def summary(weft, trace, timeout):
    """(explicit tasks, own work ns) of the whole trace."""
    p = subprocess.run([weft, "trace", "summary", trace], capture_output=True,
                       text=True, timeout=timeout)
    t = re.search(r"tasks\s+(\d+) explicit", p.stdout)
    w = re.search(r"own work ([0-9.]+) ms", p.stdout)
    if p.returncode != 0 or not t or not w:
        raise RuntimeError("`weft trace summary %s` failed: %s" % (
            trace, (p.stdout + p.stderr).strip()[-300:]))
    return int(t.group(1)), float(w.group(1)) * 1e6


def replay(weft, traces, out, schedulers, cores, mhz, timeout,
           model="myrmics"):
    """{workers: makespan ns} of `weft sim --phase timed --model myrmics`,
    each work step at its minimum over the recordings."""
    trace = traces[0]
    cmd = [weft, "sim", trace, "--phase", "timed", "--model", model,
           "--cores", ",".join(str(c) for c in cores), "-o", out,
           "--no-plot"]
    if model == "myrmics":
        cmd += ["--param", "schedulers=" + schedulers, "--param",
                "mhz=%g" % mhz]
    for other in traces[1:]:
        cmd += ["--min-over", other]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("`%s` fails (%s): %s" % (
            " ".join(cmd), benchlib.describe_rc(p.returncode),
            (p.stdout + p.stderr).strip()[-300:]))
    name = os.path.splitext(os.path.basename(trace))[0]
    with open(os.path.join(out, "sim-%s.csv" % name)) as f:
        return {int(r["cores"]): float(r["makespan_ns"])
                for r in csv.DictReader(f)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    benchlib.add_build_arguments(ap, "bin/NAME_regions and bin/weft",
                                 "small sizes (a few seconds in all)")
    ap.add_argument("--bench", default=",".join(SIZES),
                    help="comma-separated benchmarks (default: all)")
    ap.add_argument("--workers", default="8,16,32,64,128,256,512",
                    help="modelled workers (default 8,16,...,512)")
    ap.add_argument("--scale", default="x86,paper",
                    help="time scales: x86 (1 ns = 1 cycle), paper (mean "
                    "task = 1 M cycles); default both")
    ap.add_argument("--recordings", type=int, default=3,
                    help="recordings per benchmark; a replay takes each "
                    "work step's minimum over them (default 3)")
    ap.add_argument("--trace", metavar="DIR",
                    help="folder for the traces and CSVs (default "
                    "<build>/results/regions_scaling)")
    ap.add_argument("--json", help="results file (default "
                    "<build>/results/regions_scaling.json)")
    benchlib.add_timeout_argument(ap, 600)
    a = ap.parse_args()
    benches = benchlib.subset(ap, "--bench", a.bench, list(SIZES))
    workers = benchlib.int_list(ap, "--workers", a.workers)
    scales = benchlib.subset(ap, "--scale", a.scale, ["x86", "paper"])
    weft = os.path.join(a.build, "bin", "weft")
    names = ["%s_regions" % b for b in benches]
    if benchlib.report_problems(
            "run_regions_scaling",
            benchlib.missing_programs(a.build, names + ["weft"])):
        return 2
    out = a.trace or os.path.join(a.build, "results", "regions_scaling")
    os.makedirs(out, exist_ok=True)
    runner = benchlib.Runner(a.timeout)
    runner.total = len(benches) * a.recordings
    load_start = benchlib.load_average()
    results = []
    for b in benches:
        args = SIZES[b][1 if a.quick else 0]
        exe = os.path.join(a.build, "bin", "%s_regions" % b)
        traces, timed = [], []
        for k in range(a.recordings):
            trace = os.path.join(out, "%s_regions.%d.trace" % (b, k))
            env = dict(os.environ, WEFT_NUM_THREADS="1", WEFT_TRACE=trace)
            shown = "WEFT_NUM_THREADS=1 WEFT_TRACE=%s %s" % (
                trace, " ".join([exe] + args))
            got = runner.run_parsed("%s recording %d" % (b, k + 1),
                                    [exe] + args, env, shown, parse_result,
                                    "result line")
            if got is None:
                break
            print(" %.3f s timed" % got[0]["time_s"], file=sys.stderr)
            traces.append(trace)
            timed.append(got[0]["time_s"])
        if len(traces) < a.recordings:
            continue
        try:
            # The phase's work (an ideal replay on one core, each step at
            # its minimum) over the trace's tasks.
            tasks, _ = summary(weft, traces[0], a.timeout)
            work = replay(weft, traces, out, "", [1], 0, a.timeout,
                          "ideal")[1]
            mean = work / max(tasks, 1)
            for scale in scales:
                mhz = 1000.0 if scale == "x86" else 1e9 / mean
                flat = replay(weft, traces, out, "flat", [1] + workers, mhz,
                              a.timeout)
                base = flat[1]
                by_tree = {}
                for tree in (two_level, three_level):
                    for n in workers:
                        by_tree.setdefault(tree(n), []).append(n)
                speed = {}
                for t, ns in by_tree.items():
                    for n, ms in replay(weft, traces, out, t, ns, mhz,
                                        a.timeout).items():
                        speed[(t, n)] = base / ms
                rows = []
                for n in workers:
                    rows.append({"workers": n, "flat": base / flat[n],
                                 "two_level": speed[(two_level(n), n)],
                                 "two_level_tree": two_level(n),
                                 "three_level": speed[(three_level(n), n)],
                                 "three_level_tree": three_level(n)})
                results.append({"bench": b, "args": args, "scale": scale,
                                "mhz": mhz, "tasks": tasks,
                                "mean_task_ns": mean,
                                "timed_s": sorted(timed)[len(timed) // 2],
                                "flat_1_worker_ns": base, "rows": rows})
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            runner.failures.append("%s: %s" % (b, e))
    load = benchlib.load_average()
    print("Strong scaling of the region benchmarks' timed sections replayed "
          "under `weft sim --model myrmics` (speedup over the flat replay at "
          "1 worker); recorded at 1 worker, load average %.1f at the start "
          "and %.1f at the end. The paper (Fig. 8 a-f) gives these curves as "
          "plots only." % (load_start, load))
    for r in results:
        print("\n%s %s (%s): %d tasks, mean task %.1f us, scale %s (%.0f "
              "MHz: mean task %.0f k cycles)" % (
                  r["bench"], " ".join(r["args"]), "timed %.3f s" %
                  r["timed_s"], r["tasks"], r["mean_task_ns"] / 1e3,
                  r["scale"], r["mhz"], r["mean_task_ns"] * r["mhz"] / 1e6))
        benchlib.print_table(
            ["workers", "flat", "two-level", "tree", "three-level", "tree"],
            [[str(x["workers"]), "%.1f" % x["flat"], "%.1f" % x["two_level"],
              x["two_level_tree"], "%.1f" % x["three_level"],
              x["three_level_tree"]] for x in r["rows"]])
    path = a.json or os.path.join(a.build, "results",
                                  "regions_scaling.json")
    benchlib.write_json(path, {"load_start": load_start, "load_end": load,
                               "results": results})
    print("\n%s" % path)
    if runner.failures:
        print("\nFailures:\n" + "\n".join(runner.failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
