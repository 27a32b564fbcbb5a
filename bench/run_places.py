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

--imsuite N: the IMSuite kernels (leader_elect_lcr, mis, bfs_bellman_ford,
vertex_coloring, dijkstra_routing; --kernel K for one) under the three strategies (weft's copy, Boost.Serialization message
passing, the Pegasus-style walk), on 2 MPI ranks and over 2 places in one
process, N interleaved repetitions: build/results/places_imsuite.json and a
table of median run time, T_at, T_com and T_com / T_at per kernel, strategy
and setting (the paper's Figs. 9-10), with the load average.

--ring-ab N: the incoming ring's restart off and on (WEFT_DIST_RING_RESTART
0/1) in N alternating places_dist runs of 8 Ki, 64 Ki and 1 Mi doubles:
build/results/places_ring_ab.json (per setting and size, the median over the
runs of each run's median, their range, and the minor page faults per at()
on the caller (A, whose puts write the target's shared window) and on the
target (B)), with the load average before and after.
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


def places_dist(build, args, extra_env=None):
    """One mpirun -np 2 of bench/places_dist; its JSON, or None (not built)."""
    exe = os.path.join(build, "bin", "places_dist")
    if not os.path.exists(exe):
        print("places_dist not built (no Open MPI): skipped", file=sys.stderr)
        return None
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.setdefault("WEFT_NUM_THREADS", "1")
    env.update(extra_env or {})
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "--mca", "btl",
           "self,vader", "-np", "2", exe] + args
    print("running:", " ".join(cmd), extra_env or "", file=sys.stderr)
    p = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE,
                       text=True)
    return json.loads(p.stdout)


IMSUITE = [("leader_elect_lcr", 64, 32), ("mis", 2000, 2000),
           ("bfs_bellman_ford", 2000, 2000), ("vertex_coloring", 2000, 2000),
           ("dijkstra_routing", 128, 128)]
STRATEGIES = ["weft", "mp", "pegasus"]


def imsuite(build, reps, only=None):
    """The kernels under the three strategies (see the module doc)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.setdefault("WEFT_NUM_THREADS", "1")
    cells = []
    for exe, n1, n2 in IMSUITE:
        if only and exe != only:
            continue
        for st in STRATEGIES:
            cells.append((exe, st, "1proc", n1))
            cells.append((exe, st, "2ranks", n2))
    runs = {}
    load0 = os.getloadavg()
    import random
    rng = random.Random(13)
    for _ in range(reps):
        order = cells[:]
        rng.shuffle(order)
        for exe, st, setting, n in order:
            path = os.path.join(build, "bin", exe)
            if setting == "2ranks":
                cmd = ["mpirun", "--oversubscribe", "--bind-to", "none",
                       "--mca", "btl", "self,vader", "-np", "2", path, "--mpi"]
                e = env
            else:
                cmd = [path]
                e = dict(env, WEFT_PLACES="2")
            cmd += ["--nodes", str(n), "--strategy", st]
            p = subprocess.run(cmd, env=e, check=True, stdout=subprocess.PIPE,
                               text=True)
            line = [l for l in p.stdout.splitlines() if l.startswith("{")][-1]
            d = json.loads(line)
            if not d["verified"]:
                sys.exit("not verified: %s" % line)
            runs.setdefault((exe, st, setting), []).append(d)
    load1 = os.getloadavg()
    rows = []
    for (exe, st, setting), ds in sorted(runs.items()):
        sec = [d["seconds"] for d in ds]
        tat = [d["t_at"] for d in ds]
        tcom = [d["t_com"] for d in ds]
        frac = [d["t_com_over_t_at"] for d in ds]
        rows.append({"kernel": exe, "strategy": st, "setting": setting,
                     "nodes": ds[0]["nodes"], "sends": ds[0]["sends"],
                     "seconds_median": statistics.median(sec),
                     "seconds_min": min(sec), "seconds_max": max(sec),
                     "t_at_median": statistics.median(tat),
                     "t_com_median": statistics.median(tcom),
                     "t_com_over_t_at_median": statistics.median(frac),
                     "wire_bytes": ds[0]["wire_bytes"]})
    out = {"reps": reps, "load_before": load0, "load_after": load1,
           "rows": rows}
    path = os.path.join(build, "results", "places_imsuite%s.json" %
                        ("_" + only if only else ""))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("IMSuite under three strategies, %d interleaved repetitions, "
          "load %.1f -> %.1f" % (reps, load0[0], load1[0]))
    print("| kernel | setting | strategy | run time ms (min-max) | vs weft "
          "| T_at ms | T_com ms | T_com / T_at |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    base = {(r["kernel"], r["setting"]): r["seconds_median"]
            for r in rows if r["strategy"] == "weft"}
    for r in sorted(rows, key=lambda r: (r["kernel"], r["setting"],
                                         STRATEGIES.index(r["strategy"]))):
        print("| %s | %s | %s | %.1f (%.1f-%.1f) | %.2f | %.1f | %.1f | %.2f |" % (
            r["kernel"], r["setting"], r["strategy"],
            r["seconds_median"] * 1e3, r["seconds_min"] * 1e3,
            r["seconds_max"] * 1e3,
            r["seconds_median"] / base[(r["kernel"], r["setting"])],
            r["t_at_median"] * 1e3, r["t_com_median"] * 1e3,
            r["t_com_over_t_at_median"]))
    print("results:", path)
    return out


def ring_ab(build, rounds, reps):
    """The ring restart off/on, alternating runs (see the module doc)."""
    sizes = ["8192", "65536", "1048576"]
    runs = {"0": [], "1": []}
    load0 = os.getloadavg()
    for i in range(rounds):
        for setting in (("0", "1") if i % 2 == 0 else ("1", "0")):
            res = places_dist(build, ["--reps", str(reps), "--sizes",
                                      ",".join(sizes)],
                              {"WEFT_DIST_RING_RESTART": setting})
            if res is None:
                return None
            runs[setting].append(res["results"])
    load1 = os.getloadavg()
    out = {"rounds": rounds, "reps": reps, "load_before": load0,
           "load_after": load1, "by_setting": {}}
    print("ring restart A/B, %d alternating runs each, load %.1f -> %.1f" %
          (rounds, load0[0], load1[0]))
    print("%-8s %9s %12s %18s %10s %8s %13s %13s" % (
        "restart", "elements", "at us", "range", "put us", "put/at",
        "faults/at A", "faults/at B"))
    for setting, rs in sorted(runs.items()):
        rows = {}
        for n in sizes:
            at = [r["at_array"][n]["median_us"] for r in rs]
            put = [r["mpi_put"][n]["median_us"] for r in rs]
            frac = [p / a for p, a in zip(put, at)]
            flt = [r["at_array"][n]["minor_faults_per_op_target"] for r in rs]
            flc = [r["at_array"][n]["minor_faults_per_op_caller"] for r in rs]
            rows[n] = {"at_median_us": statistics.median(at),
                       "at_min_us": min(at), "at_max_us": max(at),
                       "put_median_us": statistics.median(put),
                       "fraction_of_put_bandwidth": statistics.median(frac),
                       "fraction_min": min(frac), "fraction_max": max(frac),
                       "caller_minor_faults_per_at": statistics.median(flc),
                       "target_minor_faults_per_at": statistics.median(flt)}
            print("%-8s %9s %12.1f %8.1f-%-9.1f %10.2f %8.3f %13.1f %13.1f" % (
                setting, n, rows[n]["at_median_us"], min(at), max(at),
                rows[n]["put_median_us"], rows[n]["fraction_of_put_bandwidth"],
                rows[n]["caller_minor_faults_per_at"],
                rows[n]["target_minor_faults_per_at"]))
        out["by_setting"]["restart_" + ("on" if setting == "1" else "off")] = rows
    path = os.path.join(build, "results", "places_ring_ab.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("results:", path)
    return out


def strategy_table(r):
    """Arrays and lists across ranks under the three strategies."""
    print("| graph | elements | weft us | mp us | pegasus us | mp / weft "
          "| pegasus / weft |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = {}
    for shape in ("array", "list"):
        ns = sorted({int(n) for st in STRATEGIES
                     for n in r.get("%s_%s" % (shape, st), {})})
        for n in ns:
            v = {st: r["%s_%s" % (shape, st)][str(n)]["median_us"]
                 for st in STRATEGIES}
            rows["%s/%d" % (shape, n)] = v
            print("| %s | %d | %.1f | %.1f | %.1f | %.2f | %.2f |" % (
                shape, n, v["weft"], v["mp"], v["pegasus"],
                v["mp"] / v["weft"], v["pegasus"] / v["weft"]))
    return rows


def run_dist(build, reps, quick, strategies=False, empty_only=False,
             min_iters=1, sizes=None):
    """at() across two ranks against raw MPI (bench/places_dist.cpp)."""
    load0 = os.getloadavg()
    res = places_dist(build, ["--reps", str(reps)] +
                      (["--quick"] if quick else []) +
                      (["--sizes", sizes] if sizes else []) +
                      (["--strategies"] if strategies else []) +
                      (["--empty-only"] if empty_only else []) +
                      ["--min-iters", str(min_iters)])
    if res is None:
        return None
    r = res["results"]
    t = {"at_empty_over_mpi_pingpong":
         r["at_empty"]["0"]["median_us"] / r["mpi_pingpong"]["0"]["median_us"]}
    arrays = [n for n in sorted(r.get("at_array", {}), key=int)
              if int(n) >= 2048]
    # The literal ratio: a whole at() (reserve, put, call message,
    # task, reply) against a bare MPI_Put + flush of the bytes.
    t["array_fraction_of_mpi_put_bandwidth"] = {
        n: r["mpi_put"][n]["median_us"] / r["at_array"][n]["median_us"]
        for n in arrays}
    # The copy's bandwidth (the paper's 5.3): what the bytes add to an at()
    # over the empty one, against the bare put of the same bytes (null:
    # the array's median was not above the empty call's in this run).
    empty = r["at_empty"]["0"]["median_us"]
    t["array_bytes_fraction_of_mpi_put_bandwidth"] = {
        n: (r["mpi_put"][n]["median_us"] /
            (r["at_array"][n]["median_us"] - empty)
            if r["at_array"][n]["median_us"] > empty else None)
        for n in arrays}
    # The same against a put into the positions the ring gives an at()'s
    # graphs (mpi_put_ring), not the same hot bytes of the window each time.
    if "mpi_put_ring" in r:
        t["array_bytes_fraction_of_mpi_put_ring_bandwidth"] = {
            n: (r["mpi_put_ring"][n]["median_us"] /
                (r["at_array"][n]["median_us"] - empty)
                if r["at_array"][n]["median_us"] > empty else None)
            for n in arrays}
    # Like for like: raw MPI moving the bytes and telling the target, with
    # its answer (put + flush + ping-pong of the call's message).
    if "mpi_put_notify" in r:
        t["array_fraction_of_mpi_put_notify"] = {
            n: r["mpi_put_notify"][n]["median_us"] /
            r["at_array"][n]["median_us"]
            for n in arrays}
    res["targets"] = t
    res["load_before"] = load0
    res["load_average"] = os.getloadavg()
    out = os.path.join(build, "results", "places_dist.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    print("load %.1f -> %.1f" % (load0[0], res["load_average"][0]))
    print("%-14s %9s %12s %20s %15s %15s" % (
        "across ranks", "elements", "median us", "min-max",
        "vol. csw c/t", "invol. csw c/t"))
    for kind, by_n in sorted(r.items()):
        for n, v in sorted(by_n.items(), key=lambda kv: int(kv[0])):
            print("%-14s %9s %12.2f %9.2f-%-10.2f %7.2f/%-7.2f %7.2f/%-7.2f" % (
                kind, n, v["median_us"], v["min_us"], v["max_us"],
                v["voluntary_switches_per_op_caller"],
                v["voluntary_switches_per_op_target"],
                v["involuntary_switches_per_op_caller"],
                v["involuntary_switches_per_op_target"]))
    print(json.dumps(t, indent=1))
    if "comm" in res:
        print("messages received by a waiting thread (polled) / all:",
              json.dumps(res["comm"]))
    if strategies:
        res["strategies"] = strategy_table(r)
        with open(out, "w") as f:
            json.dump(res, f, indent=1)
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
    ap.add_argument("--ring-ab", type=int, metavar="N")
    ap.add_argument("--imsuite", type=int, metavar="N")
    ap.add_argument("--kernel", choices=[k for k, _, _ in IMSUITE],
                    help="with --imsuite: this kernel only")
    ap.add_argument("--empty-only", action="store_true",
                    help="with --dist-only: the empty at() and the MPI "
                    "ping-pong only")
    ap.add_argument("--min-iters", type=int, default=1,
                    help="with --dist-only: iterations per measurement at "
                    "least")
    ap.add_argument("--sizes", metavar="N,N,...",
                    help="with --dist-only: these array lengths (doubles) "
                    "only, e.g. 2048,65536,1048576")
    ap.add_argument("--strategies", action="store_true",
                    help="with --dist-only: arrays and lists under weft, mp "
                    "and pegasus too")
    a = ap.parse_args()
    if a.imsuite:
        imsuite(a.build, a.imsuite, a.kernel)
        return
    if a.ring_ab:
        ring_ab(a.build, a.ring_ab, a.reps)
        return
    if a.dist_only:
        run_dist(a.build, a.reps, a.quick, a.strategies, a.empty_only,
                 a.min_iters, a.sizes)
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
