#!/usr/bin/env python3
"""Plots of `weft mtt`'s CSV: Lo versus dependences for Task-Free and
Task-Chain (the Picos paper's Figure 7 style) and the MTT-derived speedup
bound MS(t) (its Figure 6 style).

    python3 mtt.py MTT.csv LO.png MS.png
"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: mtt.py MTT.csv LO.png MS.png")
    path, lo_png, ms_png = sys.argv[1:]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    lo = [r for r in rows if r["table"] == "lo"]
    ms = [r for r in rows if r["table"] == "ms"]
    if not lo or not ms:
        sys.exit("mtt.py: %s has no lo or no ms rows" % path)
    engine, threads = lo[0]["engine"], lo[0]["threads"]

    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.4
    for i, bench in enumerate(("task-free", "task-chain")):
        cells = [r for r in lo if r["benchmark"] == bench]
        deps = [int(r["deps"]) for r in cells]
        ax.bar([d + (i - 0.5) * width for d in deps],
               [float(r["lo_ns"]) for r in cells], width,
               label="%s (measured)" % bench)
        model = [float(r["modelled_ns_per_task"]) for r in cells]
        if any(m > 0 for m in model):
            ax.plot(deps, model, marker="o", linestyle="--",
                    label="%s (modelled hardware ns)" % bench)
    ax.set_xlabel("dependences per task")
    ax.set_ylabel("lifetime overhead Lo (ns per task)")
    ax.set_xticks(range(16))
    ax.set_title("Lifetime overhead, engine %s, %s threads" % (engine, threads))
    ax.legend()
    fig.tight_layout()
    fig.savefig(lo_png, dpi=120)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    curves = sorted({(r["basis"], int(r["cores"])) for r in ms})
    for basis, cores in curves:
        pts = [r for r in ms if r["basis"] == basis and int(r["cores"]) == cores]
        ax.semilogx([float(r["task_size_ns"]) for r in pts],
                    [float(r["max_speedup"]) for r in pts],
                    label="%s Lo %.1f ns, %d cores" %
                    (basis, float(pts[0]["lo_ns"]), cores))
    ax.set_xlabel("task size t (ns)")
    ax.set_ylabel("maximum speedup MS(t) = min(t / Lo, cores)")
    ax.set_title("MTT-derived speedup bound, engine %s (Task-Chain, 1 dep)"
                 % engine)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(ms_png, dpi=120)


if __name__ == "__main__":
    main()
