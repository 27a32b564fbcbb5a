#!/usr/bin/env python3
"""The Myrmics paper's benchmarks with weft regions against their plain MPI
twins (issue 12, docs/regions.md): for each benchmark NAME,
bench/regions/NAME_regions at 1 and 2 workers (WEFT_NUM_THREADS) and
NAME_mpi under mpirun at 1 and 2 ranks, in interleaved repetitions; prints
the median time of the timed part with [min, max] and the weft/MPI ratio
of the medians, and writes the table as JSON. Where both programs also
print cpu_s= (the CPU seconds of the timed part, over all threads or
ranks: matmul), the table adds the ratio of the CPU medians, which a loaded
machine does not stretch as it does wall time. Every run of one benchmark
must print the same checksum (the programs' arithmetic is exact, so the
region version, the MPI version at any rank count and the serial check
agree bit for bit), else the driver fails naming the run.

With --trace DIR it also records each region version once at 2 workers
(WEFT_TRACE) and replays its timed section (`--phase timed`) with
`weft sim --model myrmics` when its
task graph holds the region dependences (built from the trace's region
records, docs/trace-format.md), and says so when it has none.

usage: run_regions.py [--build DIR] [--bench jacobi,matmul,...]
                      [--workers 1,2] [--reps R] [--quick | --small]
                      [--trace DIR] [--json FILE]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

# name: (full size, --quick size (make demo), --small size (the CMake
# smoke test)); arguments both programs take. "weft" adds arguments only
# the region version takes.
BENCHES = {
    "jacobi": {
        "full": ["--n", "1024", "--iters", "100"],
        "quick": ["--n", "512", "--iters", "50"],
        "small": ["--n", "256", "--iters", "10"],
        "weft": ["--blocks", "8"],
    },
    "matmul": {
        "full": ["--n", "768", "--regions", "2", "--tiles", "4"],
        "quick": ["--n", "384", "--regions", "2", "--tiles", "4"],
        "small": ["--n", "128", "--regions", "2", "--tiles", "2"],
        "weft": [],
    },
    "bitonic": {
        "full": ["--n", str(1 << 22), "--regions", "4", "--tiles", "64"],
        "quick": ["--n", str(1 << 20), "--regions", "4", "--tiles", "32"],
        "small": ["--n", str(1 << 14), "--regions", "2", "--tiles", "8"],
        "weft": [],
    },
    "kmeans": {
        "full": ["--points", str(1 << 20), "--clusters", "16", "--regions",
                 "4", "--tiles", "8", "--iters", "10"],
        "quick": ["--points", str(1 << 18), "--clusters", "16", "--regions",
                  "4", "--tiles", "8", "--iters", "5"],
        "small": ["--points", str(1 << 13), "--clusters", "8", "--regions",
                  "2", "--tiles", "4", "--iters", "3"],
        "weft": [],
    },
    "ray": {
        "full": ["--width", "1024", "--height", "768", "--regions", "4",
                 "--tiles", "8"],
        "quick": ["--width", "512", "--height", "384", "--regions", "4",
                  "--tiles", "8"],
        "small": ["--width", "96", "--height", "64", "--regions", "2",
                  "--tiles", "4"],
        "weft": [],
    },
    "barnes": {
        "full": ["--bodies", "8192", "--regions", "4", "--steps", "3"],
        "quick": ["--bodies", "4096", "--regions", "4", "--steps", "2"],
        "small": ["--bodies", "1024", "--regions", "2", "--steps", "2"],
        "weft": [],
    },
}

# A shared, loaded machine: ranks that spin in MPI calls lose their core to
# others for whole time slices (2 Jacobi ranks took 1.5-2.2 s against 0.5 s
# yielding), so they yield when idle and are not bound to a core.
MPI_EXTRA = ["--oversubscribe", "--bind-to", "none", "--mca",
             "mpi_yield_when_idle", "1"]


def parse_result(lines):
    for line in reversed(lines):
        m = re.search(r"time_s=([0-9.]+) checksum=(\S+)", line)
        if m:
            c = re.search(r"cpu_s=([0-9.]+)", line)
            return {"time_s": float(m.group(1)),
                    "checksum": m.group(2),
                    "cpu_s": float(c.group(1)) if c else None}, line
    raise ValueError("no result line")


def mpirun(ranks):
    cmd = ["mpirun"] + MPI_EXTRA
    env = dict(os.environ)
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return cmd + ["-np", str(ranks)], env


def trace_replay(a, name, args, runner):
    """Records NAME_regions at 2 workers (WEFT_TRACE) and replays it under
    weft sim's myrmics model if the trace's task graph holds the region
    dependences (every benchmark here has some); returns what happened."""
    os.makedirs(a.trace, exist_ok=True)
    trace = os.path.join(a.trace, "%s_regions.trace" % name)
    exe = os.path.join(a.build, "bin", "%s_regions" % name)
    env = dict(os.environ, WEFT_NUM_THREADS="2", WEFT_TRACE=trace)
    if runner.run_parsed("%s regions traced" % name, [exe] + args, env,
                         "WEFT_TRACE=%s %s" % (trace, " ".join([exe] + args)),
                         parse_result, "result line") is None:
        return "%s: recording failed" % name
    print("", file=sys.stderr)
    weft = os.path.join(a.build, "bin", "weft")
    p = subprocess.run([weft, "trace", "summary", trace], capture_output=True,
                       text=True, timeout=a.timeout)
    m = re.search(r"tasks\s+(\d+) explicit.*?(\d+) edges", p.stdout)
    if p.returncode != 0 or not m:
        return "%s: `weft trace summary %s` failed: %s" % (
            name, trace, (p.stdout + p.stderr).strip()[-300:])
    tasks, edges = int(m.group(1)), int(m.group(2))
    if edges == 0:
        return ("%s: %s: %d tasks, 0 edges: the trace's task graph has no "
                "region dependences (a trace without rtask_spawn records?), "
                "so weft sim cannot replay this region program" % (
                    name, trace, tasks))
    cmd = [weft, "sim", trace, "--phase", "timed", "--model", "myrmics",
           "--cores", "8,64,512", "-o", a.trace]
    p = subprocess.run(cmd, capture_output=True, text=True,
                       timeout=a.timeout)
    out = (p.stdout + p.stderr).strip().splitlines()
    if p.returncode != 0:
        return "%s: `%s` fails (%s): %s" % (
            name, " ".join(cmd), benchlib.describe_rc(p.returncode),
            out[-1] if out else "")
    return "%s: %d tasks, %d edges, replayed: %s" % (name, tasks, edges,
                                                     " ".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    benchlib.add_build_arguments(
        ap, "bin/NAME_regions and bin/NAME_mpi",
        "smaller sizes and 3 repetitions (make demo)")
    ap.add_argument("--small", action="store_true",
                    help="the smoke-test sizes (a second or two in all)")
    ap.add_argument("--bench", default=",".join(BENCHES),
                    help="comma-separated benchmarks (default: all: %s)"
                    % ",".join(BENCHES))
    ap.add_argument("--workers", default="1,2",
                    help="weft workers and MPI ranks (default 1,2)")
    ap.add_argument("--reps", type=int, default=None,
                    help="interleaved repetitions (default 5, --quick 3)")
    ap.add_argument("--trace", metavar="DIR",
                    help="also record each region version and try to replay "
                    "it with `weft sim --model myrmics`")
    ap.add_argument("--json", help="results file (default "
                    "<build>/results/regions.json)")
    benchlib.add_timeout_argument(ap, 600)
    a = ap.parse_args()
    benches = benchlib.subset(ap, "--bench", a.bench, list(BENCHES))
    workers = benchlib.int_list(ap, "--workers", a.workers)
    benchlib.quick_default(a, "reps", 5, 3)
    if a.reps < 1:
        ap.error("--reps: need at least 1, got %d" % a.reps)
    size = "small" if a.small else "quick" if a.quick else "full"
    names = ["%s_%s" % (b, v) for b in benches for v in ("regions", "mpi")]
    if benchlib.report_problems("run_regions",
                                benchlib.missing_programs(a.build, names)):
        return 2
    runner = benchlib.Runner(a.timeout)
    runner.total = a.reps * len(benches) * len(workers) * 2 + \
        (len(benches) if a.trace else 0)
    times, cpus, checks = {}, {}, {}
    load_start = benchlib.load_average()
    for _ in range(a.reps):
        for b in benches:
            args = BENCHES[b][size]
            for p in workers:
                weft_exe = os.path.join(a.build, "bin", b + "_regions")
                mpi_exe = os.path.join(a.build, "bin", b + "_mpi")
                run, env = mpirun(p)
                cases = [
                    ("weft", [weft_exe] + args + BENCHES[b]["weft"],
                     dict(os.environ, WEFT_NUM_THREADS=str(p))),
                    ("mpi", run + [mpi_exe] + args, env),
                ]
                for kind, cmd, e in cases:
                    what = "%s %s %d" % (b, kind, p)
                    shown = ("WEFT_NUM_THREADS=%d " % p if kind == "weft"
                             else "") + " ".join(cmd)
                    got = runner.run_parsed(what, cmd, e, shown,
                                            parse_result, "result line")
                    if got is None:
                        continue
                    rec = got[0]
                    print(" %.4f s" % rec["time_s"], file=sys.stderr)
                    first = checks.setdefault(b, (rec["checksum"], what))
                    if rec["checksum"] != first[0]:
                        runner.fail(what, shown, "checksum %s, but %s gave %s"
                                    % (rec["checksum"], first[1], first[0]))
                        continue
                    times.setdefault((b, kind, p), []).append(rec["time_s"])
                    if rec["cpu_s"] is not None:
                        cpus.setdefault((b, kind, p), []).append(rec["cpu_s"])
    load = benchlib.load_average()
    print("weft regions against MPI twins: %s sizes, %d interleaved "
          "repetitions, load average %.1f at the start and %.1f at the end; "
          "seconds: median [min, max]" % (size, a.reps, load_start, load))
    rows, results = [], []

    def cell(v):
        return "%.4f [%.4f, %.4f]" % (statistics.median(v), min(v), max(v)) \
            if v else "-"
    for b in benches:
        for p in workers:
            w, m = times.get((b, "weft", p)), times.get((b, "mpi", p))
            ratio = statistics.median(w) / statistics.median(m) \
                if w and m else None
            wc, mc = cpus.get((b, "weft", p)), cpus.get((b, "mpi", p))
            cpu_ratio = statistics.median(wc) / statistics.median(mc) \
                if wc and mc and statistics.median(mc) > 0 else None
            rows.append([b, str(p), cell(w), cell(m),
                         "%.2f" % ratio if ratio else "-",
                         "%.2f" % cpu_ratio if cpu_ratio else "-"])
            results.append({"bench": b, "workers": p, "size": size,
                            "args": BENCHES[b][size], "weft_s": w or [],
                            "mpi_s": m or [], "ratio": ratio,
                            "weft_cpu_s": wc or [], "mpi_cpu_s": mc or [],
                            "cpu_ratio": cpu_ratio,
                            "checksum": checks.get(b, (None,))[0],
                            "load_start": load_start, "load_end": load})
    benchlib.print_table(["bench", "workers/ranks", "weft regions", "MPI",
                          "weft/MPI", "CPU weft/MPI"], rows)
    over = ["%s (%.2f)" % (r["bench"], r["ratio"]) for r in results
            if r["workers"] == 2 and r["ratio"] and r["ratio"] > 1.3]
    if 2 in workers:
        print("target weft/MPI <= 1.3 at 2 workers (issue 12): %s" % (
            "medians above it: " + ", ".join(over) if over
            else "no median above it"))
    print("MPI: mpirun %s" % " ".join(MPI_EXTRA))
    path = a.json or os.path.join(a.build, "results", "regions.json")
    benchlib.write_json(path, results)
    print("results: %s" % path)
    if a.trace:
        print("\ntraces (%s):" % a.trace)
        for b in benches:
            print(trace_replay(a, b, BENCHES[b][size] + BENCHES[b]["weft"],
                               runner))
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
