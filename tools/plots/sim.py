#!/usr/bin/env python3
"""Speedup versus cores from a `weft sim` CSV, one line per model and the
ideal-scaling line (the Nexus++ paper's Figure 6 style).

usage: sim.py CSV PNG [--title TITLE]
"""
import argparse
import csv
import sys

try:
    import matplotlib
except ImportError:
    sys.exit(f"sim.py: {sys.executable} has no matplotlib (scripts/deps "
             "installs python3-matplotlib); the CSV is written, not the plot")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    lines = {}
    with open(a.csv, newline="") as f:
        for row in csv.DictReader(f):
            lines.setdefault(row["model"], []).append(
                (int(row["cores"]), float(row["speedup"])))
    if not lines:
        sys.exit(f"sim.py: {a.csv} has no rows")
    cores = sorted({c for pts in lines.values() for c, _ in pts})
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.plot(cores, cores, "--", color="black", linewidth=1,
            label="ideal scaling")
    markers = "os^vD<>ph"
    for i, (model, pts) in enumerate(lines.items()):
        pts.sort()
        ax.plot([c for c, _ in pts], [s for _, s in pts],
                marker=markers[i % len(markers)], label=model)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(cores)
    ax.set_xticklabels([str(c) for c in cores])
    ax.set_xlabel("cores")
    ax.set_ylabel("speedup over the no-overhead run on 1 core")
    ax.set_title(f"weft sim: {a.title}" if a.title else "weft sim")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.png, dpi=120)


if __name__ == "__main__":
    main()
