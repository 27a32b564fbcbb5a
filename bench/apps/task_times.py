#!/usr/bin/env python3
"""Per-worker busy time, the tail and the order tasks ran, for one run of an
application (issue 15 item 1).

Two sources, one analysis:
  task_times.py --weft-trace RUN.wtr [--weft build/bin/weft]
      a WEFT_TRACE recording, read through `weft trace export --chrome` (the
      runtime's own reader); the last parallel region is analysed and the
      tasks are numbered in creation order;
  task_times.py --app-times FILE
      the file an application writes with APP_TASK_TIMES=FILE
      (bench/apps/app_common.h): works under any runtime (libgomp too).

Prints, for the timed region: its span; per worker the tasks it ran, its busy
time (sum of task durations) and busy share (busy / span); the tail (from the
moment the first worker ran its last task to the end of the last task) and
tail / span; the imbalance (max busy / mean busy); and the order: the share of
each worker's consecutive tasks that ran in creation order (1 = FIFO, 0 =
LIFO) and the mean creation rank of each worker's tasks. With --json the same
as one JSON object.

  task_times.py --app NAME --rounds N [--build build] [--arm L=W ...]
                [-- APP ARGS]
      runs build/bin/app_NAME under weft (`weft run`) and libgomp (or the
      arms given: L=path/to/weft or L=libgomp), interleaved,
      N rounds, 2 threads, with APP_TASK_TIMES, and prints per runtime the
      medians [range] of: parallel time / serial time of the same process,
      team busy share (task time / (threads x span)), tail / span, and task
      inflation (task time / the serial reference's time: how much longer the
      same kernels took inside tasks). Python 3 standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def from_weft_trace(path, weft):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.json")
        subprocess.run([weft, "trace", "export", "--chrome", path, "-o", out],
                       check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            data = json.load(f)
    ev = data["traceEvents"] if isinstance(data, dict) else data
    regions = [e for e in ev if e.get("cat") == "region" and e.get("ph") == "X"]
    if not regions:
        sys.exit(f"task_times.py: {path}: no parallel region in the trace")
    r = max(regions, key=lambda e: e["ts"])
    r0, r1 = r["ts"], r["ts"] + r["dur"]
    tasks = [e for e in ev if e.get("cat") == "task" and e.get("ph") == "X"
             and r0 <= e["ts"] <= r1]
    tasks.sort(key=lambda e: e["args"]["created_us"])
    rows = [(i, e["tid"], e["ts"] / 1e6, (e["ts"] + e["dur"]) / 1e6)
            for i, e in enumerate(tasks)]
    return r0 / 1e6, r1 / 1e6, rows


def from_app_times(path):
    rows, r0, r1 = [], None, None
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p or p[0].startswith("#"):
                continue
            if p[0] == "region":
                r0, r1 = float(p[1]), float(p[2])
            else:
                rows.append((int(p[0]), int(p[1]), float(p[2]), float(p[3])))
    if r0 is None:
        sys.exit(f"task_times.py: {path}: no 'region' line")
    # Every rank recorded once, inside the region (an unrecorded slot reads 0).
    for i, _, start, end in rows:
        if not r0 <= start <= end <= r1:
            sys.exit(f"task_times.py: {path}: task {i} ran [{start}, {end}], "
                     f"not inside the region [{r0}, {r1}] (not recorded?)")
    return r0, r1, rows


def analyse(r0, r1, rows):
    span = r1 - r0
    workers = sorted({w for _, w, _, _ in rows})
    per = {}
    for w in workers:
        mine = sorted((r for r in rows if r[1] == w), key=lambda r: r[2])
        busy = sum(e - s for _, _, s, e in mine)
        inorder = sum(1 for a, b in zip(mine, mine[1:]) if b[0] > a[0])
        per[w] = {
            "tasks": len(mine),
            "busy_s": busy,
            "busy_share": busy / span if span > 0 else 0.0,
            "last_end_s": max(e for _, _, _, e in mine) - r0,
            "fifo_share": inorder / (len(mine) - 1) if len(mine) > 1 else 1.0,
            "mean_rank": sum(i for i, _, _, _ in mine) / len(mine) / len(rows),
        }
    last = max(e for _, _, _, e in rows)
    first_out = min(p["last_end_s"] for p in per.values()) + r0
    busy = [p["busy_s"] for p in per.values()]
    # the tasks that ran in the tail: started after first_out or spanning it
    tail_tasks = [r for r in rows if r[3] > first_out]
    return {
        "span_s": span,
        "tasks": len(rows),
        "tail_s": last - first_out,
        "tail_share": (last - first_out) / span if span > 0 else 0.0,
        "imbalance": max(busy) / (sum(busy) / len(busy)),
        "after_last_task_s": r1 - last,
        "tail_tasks": [(i, w, round(e - s, 6)) for i, w, s, e in tail_tasks],
        "mean_task_s": sum(e - s for _, _, s, e in rows) / len(rows),
        "workers": per,
    }


def run_rounds(o, app_args):
    exe = os.path.join(o.build, "bin", "app_" + o.app)
    weft = os.path.join(o.build, "bin", "weft")
    if not os.path.exists(exe):
        sys.exit(f"task_times.py: --app {o.app}: no {exe}")
    arms = {}
    for spec in o.arm or ["weft=" + weft, "libgomp=libgomp"]:
        label, _, launcher = spec.partition("=")
        arms[label] = [exe] if launcher == "libgomp" else [
            launcher, "run", "--threads", str(o.threads), "--", exe]
    got = {k: [] for k in arms}
    with tempfile.TemporaryDirectory() as d:
        times = os.path.join(d, "times.txt")
        for rnd in range(o.rounds):
            for name, cmd in arms.items():
                env = dict(os.environ, APP_TASK_TIMES=times,
                           OMP_NUM_THREADS=str(o.threads))
                out = subprocess.run(cmd + app_args, env=env, check=True,
                                     capture_output=True, text=True).stdout
                kv = dict(f.split("=", 1) for f in out.split() if "=" in f)
                want = "libgomp" if len(cmd) == 1 else "weft"
                if kv.get("runtime") != want:
                    sys.exit(f"task_times.py: {name} arm ran under "
                             f"{kv.get('runtime')}")
                res = analyse(*from_app_times(times))
                busy = sum(p["busy_s"] for p in res["workers"].values())
                serial = float(kv["serial_s"])
                got[name].append({
                    "par/serial": float(kv["time_s"]) / serial,
                    "team busy": busy / (o.threads * res["span_s"]),
                    "tail/span": res["tail_share"],
                    "inflation": busy / serial,
                })
            load = os.getloadavg()[0]
            print(f"round {rnd + 1}: load {load:.1f}", file=sys.stderr)
    print(f"{o.app} {' '.join(app_args)}: {o.rounds} interleaved rounds, "
          f"{o.threads} threads, medians [range]")
    for name, runs in got.items():
        cells = []
        for key in runs[0]:
            v = sorted(r[key] for r in runs)
            cells.append(f"{key} {v[len(v) // 2]:.4f} [{v[0]:.4f}, "
                         f"{v[-1]:.4f}]")
        print(f"  {name:8s} " + "; ".join(cells))


def main():
    argv = sys.argv[1:]
    app_args = []
    if "--" in argv:
        app_args = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--weft-trace")
    src.add_argument("--app-times")
    src.add_argument("--app")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--arm", action="append",
                    help="with --app: LABEL=WEFT_LAUNCHER or LABEL=libgomp "
                    "(repeat; default weft=BUILD/bin/weft and libgomp)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--build", default="build")
    ap.add_argument("--weft", default="build/bin/weft")
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args(argv)
    if o.app:
        run_rounds(o, app_args)
        return
    if o.weft_trace:
        res = analyse(*from_weft_trace(o.weft_trace, o.weft))
    else:
        res = analyse(*from_app_times(o.app_times))
    if o.json:
        print(json.dumps(res))
        return
    print(f"span {res['span_s'] * 1e3:.1f} ms, {res['tasks']} tasks, mean "
          f"{res['mean_task_s'] * 1e6:.0f} us; tail {res['tail_s'] * 1e3:.2f} "
          f"ms = {res['tail_share']:.4f} of the span ({len(res['tail_tasks'])} "
          f"tasks in it); imbalance {res['imbalance']:.4f}; after the last "
          f"task {res['after_last_task_s'] * 1e3:.2f} ms")
    for w, p in res["workers"].items():
        print(f"  worker {w}: {p['tasks']} tasks, busy {p['busy_s'] * 1e3:.1f} "
              f"ms ({p['busy_share']:.3f} of the span), last end "
              f"{p['last_end_s'] * 1e3:.1f} ms, in creation order "
              f"{p['fifo_share']:.2f}, mean rank {p['mean_rank']:.2f}")


if __name__ == "__main__":
    main()
