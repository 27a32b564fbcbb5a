#!/usr/bin/env python3
"""Primitive-array bandwidth of two builds of libweft, old and new, with the
same benchmark binaries (build/bin/places_copy, build/bin/places_dist) run
against each library directory by LD_LIBRARY_PATH (the binaries' RUNPATH
yields to it), in alternating rounds (the order flips each round, so that
drift in the machine's load hits both alike). Issue 13's bandwidth target.

In one process, per size: weft's copy (and the intermediate variant)
against memcpy of the same bytes in the same run, as the fraction of
memcpy's bandwidth (memcpy CPU time / weft CPU time, medians of the run's
repetitions). Across two ranks, per size: three fractions of one run's
medians (docs/places.md says why three):
  put/at          MPI_Put + flush against the whole at() (the literal ratio)
  put/(at-empty)  the bare put against what the bytes add to an empty at()
  notify/at       put + flush + ping-pong of the call's message against at()

    python3 bench/run_places_ab.py OLD_LIB_DIR NEW_LIB_DIR [--build build]
        [--rounds 5] [--sizes 2048,4096,16384,1048576]
        [--dist-sizes 2048,16384,65536,1048576] [--no-dist | --no-copy]

Run it at high priority (nice -n -10); the load is printed with each round.
Python 3 standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys


def copy_round(build, lib, sizes):
    exe = os.path.join(build, "bin", "places_copy")
    env = dict(os.environ, LD_LIBRARY_PATH=lib)
    flt = "BM_prim_array_(weft|weft_intermediate|memcpy)/(%s)$" % "|".join(
        str(n) for n in sizes)
    p = subprocess.run([exe, "--benchmark_filter=" + flt,
                        "--benchmark_repetitions=5",
                        "--benchmark_enable_random_interleaving=true",
                        "--benchmark_min_time=0.05",
                        "--benchmark_format=json"],
                       env=env, check=True, stdout=subprocess.PIPE, text=True)
    cpu = {}
    for b in json.loads(p.stdout)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name, n = b["run_name"].split("/")
        cpu.setdefault((name, int(n)), []).append(b["cpu_time"])
    out = {}
    for n in sizes:
        m = statistics.median(cpu[("BM_prim_array_memcpy", n)])
        out[n] = {k: m / statistics.median(cpu[("BM_prim_array_" + k, n)])
                  for k in ("weft", "weft_intermediate")}
    return out


def dist_round(build, lib, sizes):
    exe = os.path.join(build, "bin", "places_dist")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", LD_LIBRARY_PATH=lib)
    env.setdefault("WEFT_NUM_THREADS", "1")
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "--mca", "btl",
           "self,vader", "-x", "LD_LIBRARY_PATH", "-np", "2", exe,
           "--reps", "5", "--sizes", ",".join(str(n) for n in sizes)]
    p = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE,
                       text=True)
    r = json.loads(p.stdout)["results"]
    empty = r["at_empty"]["0"]["median_us"]
    out = {"empty_us": empty,
           "pingpong_us": r["mpi_pingpong"]["0"]["median_us"]}
    for n in sizes:
        k = str(n)
        at = r["at_array"][k]["median_us"]
        put = r["mpi_put"][k]["median_us"]
        out[n] = {"at_us": at, "put_us": put,
                  "put/at": put / at,
                  # inf: the at() with the bytes took no longer than the
                  # empty one in this run (noise larger than the bytes)
                  "put/(at-empty)": put / (at - empty) if at > empty
                  else float("inf"),
                  "notify/at": r["mpi_put_notify"][k]["median_us"] / at}
    return out


def summary(vals):
    return "%.0f%% (%.0f-%.0f)" % (100 * statistics.median(vals),
                                   100 * min(vals), 100 * max(vals))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sizes", default="2048,4096,16384,1048576")
    ap.add_argument("--dist-sizes", default="2048,16384,65536,1048576")
    ap.add_argument("--no-dist", action="store_true")
    ap.add_argument("--no-copy", action="store_true",
                    help="across ranks only (a change in src/dist)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    dsizes = [int(x) for x in a.dist_sizes.split(",")]
    libs = {"old": a.old, "new": a.new}
    runs = {"old": [], "new": []}
    loads = []
    for i in range(a.rounds):
        for which in (("old", "new") if i % 2 == 0 else ("new", "old")):
            load = os.getloadavg()[0]
            loads.append(load)
            res = {"copy": {} if a.no_copy else
                   copy_round(a.build, libs[which], sizes), "load": load}
            if not a.no_dist:
                res["dist"] = dist_round(a.build, libs[which], dsizes)
            runs[which].append(res)
            print("round %d %s load %.1f: %s" % (
                i, which, load, " ".join(
                    "%d:%.0f%%" % (n, 100 * res["copy"][n]["weft"])
                    for n in sizes if n in res["copy"])),
                file=sys.stderr, flush=True)
    print("%d rounds each, alternating; load %.1f-%.1f" % (
        a.rounds, min(loads), max(loads)))
    if not a.no_copy:
        print("\nIn one process, weft's copy as a fraction of memcpy's "
              "bandwidth (median over rounds, min-max):")
        print("| doubles | old | new | old, intermediate | new, intermediate |")
        print("| ---: | ---: | ---: | ---: | ---: |")
    for n in ([] if a.no_copy else sizes):
        cells = [summary([r["copy"][n][k] for r in runs[w]])
                 for k in ("weft",) for w in ("old", "new")]
        cells += [summary([r["copy"][n]["weft_intermediate"]
                           for r in runs[w]]) for w in ("old", "new")]
        print("| %d | %s |" % (n, " | ".join(cells)))
    if not a.no_dist:
        print("\nAcross two ranks (median over rounds, min-max):")
        print("| doubles | build | at us | put us | put/at | put/(at-empty) "
              "| notify/at |")
        print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
        for n in dsizes:
            for w in ("old", "new"):
                rs = [r["dist"][n] for r in runs[w]]
                print("| %d | %s | %.1f | %.1f | %s | %s | %s |" % (
                    n, w, statistics.median(x["at_us"] for x in rs),
                    statistics.median(x["put_us"] for x in rs),
                    summary([x["put/at"] for x in rs]),
                    summary([x["put/(at-empty)"] for x in rs]),
                    summary([x["notify/at"] for x in rs])))
        for w in ("old", "new"):
            rs = [r["dist"] for r in runs[w]]
            print("%s: empty at() %.1f us, ping-pong %.1f us (medians)" % (
                w, statistics.median(x["empty_us"] for x in rs),
                statistics.median(x["pingpong_us"] for x in rs)))
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"rounds": a.rounds, "loads": loads,
                       "runs": {w: [{"load": r["load"],
                                     "copy": {str(k): v for k, v in
                                              r["copy"].items()},
                                     "dist": {str(k): v for k, v in
                                              r.get("dist", {}).items()}}
                                    for r in rs]
                                for w, rs in runs.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
