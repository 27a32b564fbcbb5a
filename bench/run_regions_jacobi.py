#!/usr/bin/env python3
"""Jacobi with weft regions against its plain MPI twin (issue 12,
docs/regions.md): bench/regions/jacobi_regions at 1 and 2 workers
(WEFT_NUM_THREADS) and bench/regions/jacobi_mpi under mpirun at 1 and 2
ranks, interleaved repetitions; prints the median time of the sweeps with
[min, max] and the weft/MPI ratio of the medians. Every run's checksum must
equal the others' (the same sweeps in the same order per element), else the
driver fails naming the run.

usage: run_regions_jacobi.py [--build DIR] [--n N] [--iters I]
                             [--blocks B] [--reps R] [--quick]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env,
                       timeout=600)
    m = re.search(r"time_s=([0-9.]+) checksum=(\S+)", p.stdout)
    if p.returncode != 0 or not m:
        sys.exit("run_regions_jacobi: %s failed (%s):\n%s%s" % (
            " ".join(cmd), benchlib.describe_rc(p.returncode), p.stdout,
            p.stderr))
    return float(m.group(1)), m.group(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--blocks", type=int, default=8,
                    help="row blocks of the weft version (tasks per sweep)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true",
                    help="512 x 512, 50 sweeps, 3 repetitions (make demo)")
    a = ap.parse_args()
    if a.quick:
        a.n, a.iters, a.reps = 512, 50, 3
    binary = os.path.join(a.build, "bin")
    size = ["--n", str(a.n), "--iters", str(a.iters)]
    mpirun = ["mpirun", "-np"]
    # A shared, loaded machine: ranks that spin in MPI_Sendrecv lose their
    # core to others for whole time slices (2 ranks took 1.5-2.2 s against
    # 0.5 s yielding), so they yield when idle and are not bound to a core.
    extra = ["--oversubscribe", "--bind-to", "none", "--mca",
             "mpi_yield_when_idle", "1"]
    if os.geteuid() == 0:
        extra.insert(0, "--allow-run-as-root")
    times = {}
    checksum = None
    for _ in range(a.reps):
        for p in (1, 2):
            env = dict(os.environ, WEFT_NUM_THREADS=str(p))
            cases = [
                ("weft", [os.path.join(binary, "jacobi_regions"), *size,
                          "--blocks", str(a.blocks)], env),
                ("mpi", mpirun[:1] + extra + [mpirun[1], str(p),
                        os.path.join(binary, "jacobi_mpi"), *size], None),
            ]
            for name, cmd, e in cases:
                t, c = run(cmd, e)
                if checksum is None:
                    checksum = c
                elif c != checksum:
                    sys.exit("run_regions_jacobi: %s at %d gives checksum %s, "
                             "others %s" % (name, p, c, checksum))
                times.setdefault((name, p), []).append(t)
    print("Jacobi %dx%d, %d sweeps, weft: %d blocks; %d interleaved "
          "repetitions, load average %.1f; seconds: median [min, max]" % (
              a.n, a.n, a.iters, a.blocks, a.reps, benchlib.load_average()))
    rows = []
    for p in (1, 2):
        w, m = times[("weft", p)], times[("mpi", p)]
        rows.append([str(p),
                     "%.4f [%.4f, %.4f]" % (statistics.median(w), min(w),
                                            max(w)),
                     "%.4f [%.4f, %.4f]" % (statistics.median(m), min(m),
                                            max(m)),
                     "%.2f" % (statistics.median(w) / statistics.median(m))])
    benchlib.print_table(["workers/ranks", "weft regions", "MPI",
                          "weft/MPI"], rows)
    print("checksum %s (all runs); MPI: mpirun %s" % (checksum,
                                                     " ".join(extra)))


if __name__ == "__main__":
    main()
