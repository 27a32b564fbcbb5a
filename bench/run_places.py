#!/usr/bin/env python3
"""Runs the graph-copy microbenchmarks (bench/places_copy, the NEMESYS
paper's 5.3) with interleaved repetitions, and reports per benchmark the
median CPU time per element with its spread (min-max over the repetitions),
the issue's targets as measured ratios, build/results/places.json and the
paper's Fig. 8 as build/results/places_fig8.png (time per element against
elements; log-log). Then, when weft_dist was built, at() between two MPI
ranks against a raw MPI ping-pong and MPI_Put in the same run
(bench/places_dist under mpirun): build/results/places_dist.json.

  python3 bench/run_places.py --build build [--reps 5] [--quick]
      [--dist-only | --no-dist]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(build, reps, quick):
    exe = os.path.join(build, "bin", "places_copy")
    out = os.path.join(build, "results", "places_raw.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [exe, "--benchmark_repetitions=%d" % reps,
           "--benchmark_enable_random_interleaving=true",
           "--benchmark_min_time=%s" % ("0.01" if quick else "0.05"),
           "--benchmark_out=" + out, "--benchmark_out_format=json",
           "--benchmark_format=console"]
    if quick:
        cmd.append("--benchmark_filter=/(1|64|1024|4096|16384|1048576)$")
    print("running:", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def per_element(raw):
    """{(family, n): [cpu ns per element, one per repetition]}"""
    runs = {}
    for b in raw["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b["run_name"] if "run_name" in b else b["name"]
        family, n = name.split("/")[0], int(name.split("/")[1])
        assert b["time_unit"] == "ns", b["time_unit"]
        runs.setdefault((family, n), []).append(b["cpu_time"] / n)
    return runs


def summary(runs):
    rows = {}
    for (family, n), v in sorted(runs.items()):
        rows.setdefault(family, {})[n] = {
            "ns_per_element": statistics.median(v),
            "min": min(v), "max": max(v), "reps": len(v)}
    return rows


def ratio(rows, a, b, n):
    if n in rows.get(a, {}) and n in rows.get(b, {}):
        return rows[b][n]["ns_per_element"] / rows[a][n]["ns_per_element"]
    return None


def targets(rows):
    t = {}
    arr = [n for n in rows.get("BM_prim_array_weft", {}) if n > 2048]
    t["prim_array_fraction_of_memcpy_bandwidth"] = {
        str(n): ratio(rows, "BM_prim_array_weft", "BM_prim_array_memcpy", n)
        for n in sorted(arr)}
    h = rows.get("BM_list_weft_hash", {})
    if 1024 in h and 1048576 in h:
        # total(1M) / (1000 x total(1k)) scaled to the sizes run (2^20, 2^10)
        t["list_hash_1M_over_1024x_1k"] = (
            h[1048576]["ns_per_element"] / h[1024]["ns_per_element"])
    for fam in ("list", "objarray"):
        t["%s_speedup_over_boost" % fam] = {
            str(n): ratio(rows, "BM_%s_weft_hash" % fam, "BM_%s_boost" % fam, n)
            for n in sorted(rows.get("BM_%s_boost" % fam, {}))}
        t["%s_speedup_over_pegasus" % fam] = {
            str(n): ratio(rows, "BM_%s_weft_hash" % fam,
                          "BM_%s_pegasus" % fam, n)
            for n in sorted(rows.get("BM_%s_pegasus" % fam, {}))}
    return t


def plot(rows, path, raw):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # The Debian python3 has matplotlib when this interpreter does not.
        if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
            subprocess.run(["/usr/bin/python3", __file__, "--plot-only", raw,
                            "--out", path], check=False)
        else:
            print("matplotlib missing: no plot", file=sys.stderr)
        return
    panels = [("single object [words]", "single_object"),
              ("primitive array [elements]", "prim_array"),
              ("doubly-linked list [elements]", "list"),
              ("array of objects [elements]", "objarray")]
    fig, axes = plt.subplots(1, 4, figsize=(18, 4.2))
    for ax, (title, key) in zip(axes, panels):
        for fam, pts in rows.items():
            if not fam.startswith("BM_" + key + "_"):
                continue
            ns = sorted(pts)
            med = [pts[n]["ns_per_element"] for n in ns]
            lo = [pts[n]["ns_per_element"] - pts[n]["min"] for n in ns]
            hi = [pts[n]["max"] - pts[n]["ns_per_element"] for n in ns]
            ax.errorbar(ns, med, yerr=[lo, hi], marker="o", ms=3,
                        label=fam[len("BM_" + key + "_"):], capsize=2)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(title)
        ax.set_ylabel("CPU ns per element (median)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("plot:", path)


def run_dist(build, reps, quick):
    """at() across two ranks against raw MPI (bench/places_dist.cpp)."""
    exe = os.path.join(build, "bin", "places_dist")
    if not os.path.exists(exe):
        print("places_dist not built (no Open MPI): skipped", file=sys.stderr)
        return None
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.setdefault("WEFT_NUM_THREADS", "1")
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "--mca", "btl",
           "self,vader", "-np", "2", exe, "--reps", str(reps)]
    if quick:
        cmd.append("--quick")
    print("running:", " ".join(cmd), file=sys.stderr)
    p = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE,
                       text=True)
    res = json.loads(p.stdout)
    r = res["results"]
    t = {"at_empty_over_mpi_pingpong":
         r["at_empty"]["0"]["median_us"] / r["mpi_pingpong"]["0"]["median_us"]}
    t["array_fraction_of_mpi_put_bandwidth"] = {
        n: r["mpi_put"][n]["median_us"] / r["at_array"][n]["median_us"]
        for n in sorted(r["at_array"], key=int) if int(n) > 2048}
    res["targets"] = t
    try:
        res["load_average"] = os.getloadavg()
    except OSError:
        pass
    out = os.path.join(build, "results", "places_dist.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    print("%-14s %9s %12s %20s" % ("across ranks", "elements", "median us",
                                  "min-max"))
    for kind, by_n in sorted(r.items()):
        for n, v in sorted(by_n.items(), key=lambda kv: int(kv[0])):
            print("%-14s %9s %12.2f %9.2f-%-10.2f" % (
                kind, n, v["median_us"], v["min_us"], v["max_us"]))
    print(json.dumps(t, indent=1))
    print("results:", out)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--plot-only", metavar="RAW_JSON")
    ap.add_argument("--out")
    ap.add_argument("--dist-only", action="store_true")
    ap.add_argument("--no-dist", action="store_true")
    a = ap.parse_args()
    if a.dist_only:
        run_dist(a.build, a.reps, a.quick)
        return
    if a.plot_only:
        with open(a.plot_only) as f:
            plot(summary(per_element(json.load(f))), a.out, a.plot_only)
        return
    raw = run(a.build, a.reps, a.quick)
    rows = summary(per_element(raw))
    res = {"context": raw.get("context", {}), "ns_per_element": rows,
           "targets": targets(rows)}
    out = os.path.join(a.build, "results", "places.json")
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    print("%-34s %9s %12s %12s" % ("benchmark", "elements", "ns/element",
                                   "min-max"))
    for fam, pts in rows.items():
        for n, r in sorted(pts.items()):
            print("%-34s %9d %12.2f %5.1f-%-6.1f" % (
                fam, n, r["ns_per_element"], r["min"], r["max"]))
    print(json.dumps(res["targets"], indent=1))
    print("results:", out)
    plot(rows, os.path.join(a.build, "results", "places_fig8.png"),
         os.path.join(a.build, "results", "places_raw.json"))
    if not a.no_dist:
        run_dist(a.build, a.reps, a.quick)


if __name__ == "__main__":
    main()
