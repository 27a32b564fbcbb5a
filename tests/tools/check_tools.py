#!/usr/bin/env python3
"""Runs a `weft mtt` / `weft calibrate` command and checks what it wrote.

    check_tools.py mtt WEFT ENGINE DIR      a CSV with 32 positive Lo rows and
                                            MS(t) curves capped at the cores
    check_tools.py mtt-bad WEFT VALUE       fails, naming VALUE
    check_tools.py calibrate WEFT DIR       JSON with exactly the keys, > 0
Prints PASS or the first problem (exit status 1).
"""

import csv
import json
import re
import math
import os
import shutil
import subprocess
import sys

CAL_KEYS = ["engine", "threads", "spawn_base_ns", "spawn_per_dep_ns",
            "schedule_ns", "finish_base_ns", "finish_per_dep_ns",
            "taskwait_ns", "spawn_remote_ns"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=110)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    return p


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def check_mtt(weft, engine, folder):
    p = run([weft, "mtt", "--engine", engine, "--tasks", "2000", "--reps",
             "1", "--out", fresh(folder)])
    if p.returncode != 0:
        fail("weft mtt exited with %d" % p.returncode)
    path = os.path.join(folder, "mtt-%s.csv" % engine)
    if path not in p.stdout:
        fail("weft mtt did not print the path it wrote, %s" % path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    lo = [r for r in rows if r["table"] == "lo"]
    ms = [r for r in rows if r["table"] == "ms"]
    if len(lo) != 32:
        fail("%d Lo rows, expected 32" % len(lo))
    cells = sorted((r["benchmark"], int(r["deps"])) for r in lo)
    want = sorted((b, n) for b in ("task-free", "task-chain")
                  for n in range(16))
    if cells != want:
        fail("Lo rows are not task-free and task-chain x 0..15: %s" % cells)
    for r in lo:
        v = float(r["lo_ns"])
        if not (math.isfinite(v) and v > 0):
            fail("Lo %s %s deps is %s" % (r["benchmark"], r["deps"], v))
        if r["engine"] != engine:
            fail("engine column %s, expected %s" % (r["engine"], engine))
        if engine != "sw" and float(r["modelled_cycles_per_task"]) <= 0:
            fail("model engine %s: no modelled cycles for %s %s deps"
                 % (engine, r["benchmark"], r["deps"]))
    chain1 = [r for r in lo if r["benchmark"] == "task-chain"
              and r["deps"] == "1"][0]
    machine = os.cpu_count()
    curves = {}
    for r in ms:
        curves.setdefault((r["basis"], int(r["cores"])), []).append(r)
    if ("measured", 8) not in curves or ("measured", machine) not in curves:
        fail("MS curves %s lack 8 or %d cores" % (sorted(curves), machine))
    for (basis, cores), pts in curves.items():
        ts = [float(r["task_size_ns"]) for r in pts]
        if abs(min(ts) - 10) > 1e-6 or abs(max(ts) - 1e6) > 1e-3:
            fail("task sizes span %g..%g, expected 10..1e6 ns"
                 % (min(ts), max(ts)))
        for r in pts:
            t, lo_ns, s = (float(r["task_size_ns"]), float(r["lo_ns"]),
                           float(r["max_speedup"]))
            if basis == "measured" and lo_ns != float(chain1["lo_ns"]):
                fail("MS uses Lo %g, task-chain 1 dep is %s"
                     % (lo_ns, chain1["lo_ns"]))
            if s > cores + 1e-9:
                fail("MS(%g) = %g above %d cores" % (t, s, cores))
            if abs(s - min(t / lo_ns, cores)) > 1e-4 * max(1, s):
                fail("MS(%g) = %g, t/Lo capped is %g"
                     % (t, s, min(t / lo_ns, cores)))
        if float(pts[-1]["max_speedup"]) != cores:
            fail("MS(1 ms) with Lo %s is not capped at %d cores"
                 % (pts[-1]["lo_ns"], cores))
    for png in ("lo", "ms"):
        path = os.path.join(folder, "mtt-%s-%s.png" % (engine, png))
        with open(path, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail("%s is not a PNG" % path)


def check_mtt_bad(weft, value):
    p = run([weft, "mtt", "--engine", value, "--tasks", "10", "--reps", "1",
             "--out", fresh(os.path.join(os.getcwd(), "mtt-bad"))])
    if p.returncode == 0:
        fail("weft mtt --engine %s succeeded" % value)
    if value not in p.stderr:
        fail("the error does not name '%s'" % value)


def check_calibrate(weft, folder):
    out = os.path.join(fresh(folder), "sub")
    path = os.path.join(out, "calibration.json")
    p = run([weft, "calibrate", "-o", out])
    if p.returncode != 0:
        fail("weft calibrate exited with %d" % p.returncode)
    if path not in p.stdout:
        fail("weft calibrate did not print the path it wrote, %s" % path)
    # The sw model charges the deferred path: every task calibrate spawned
    # was deferred (it exits 1 naming the phase otherwise).
    m = re.search(r"^deferred tasks: (\d+) of (\d+) ", p.stdout, re.M)
    if not m or int(m.group(1)) != int(m.group(2)) or int(m.group(1)) == 0:
        fail("weft calibrate did not report every task deferred: %r"
             % (m.group(0) if m else p.stdout[-200:]))
    with open(path) as f:
        cal = json.load(f)
    if list(cal) != CAL_KEYS:
        fail("keys %s, expected exactly %s" % (list(cal), CAL_KEYS))
    if cal["engine"] != "sw":
        fail("engine %r" % cal["engine"])
    if not isinstance(cal["threads"], int) or cal["threads"] < 2:
        fail("threads %r" % cal["threads"])
    for k in CAL_KEYS[2:]:
        v = cal[k]
        if not (isinstance(v, float) and math.isfinite(v) and v > 0):
            fail("%s = %r is not a positive finite number" % (k, v))


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    {"mtt": check_mtt, "mtt-bad": check_mtt_bad,
     "calibrate": check_calibrate}[mode](*args)
    print("check_tools: PASS")


if __name__ == "__main__":
    main()
