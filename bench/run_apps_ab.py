#!/usr/bin/env python3
"""Old against new weft on the applications (bench/apps): the same app
binaries, each run under two or more `weft run` launchers (or one launcher
with different WEFT_* settings), interleaved round after round on a loaded
machine, and per row the median ratio of each arm's time to the first
arm's, with its range over the rounds.

    python3 bench/run_apps_ab.py --build build \\
        --arm old=/work/wt/baseline/build/bin/weft \\
        --arm new=build/bin/weft \\
        --arm narrow=build/bin/weft:WEFT_THROTTLE_WINDOW=narrow \\
        [--rounds 15] [--threads 2] [--only jacobi,stream-deps] [--quick]

An arm is LABEL=LAUNCHER[:VAR=VALUE[,VAR=VALUE...]]; the first arm is the
reference. In every round each row runs once per arm, the arms' order
rotating from round to round, and the ratio of that round is arm/reference
(above 1: the arm is slower). Each run checks its result against the serial
run in the same process (run_apps.py's result line); a failed check, a crash
or a run served by another runtime than weft is a failure. The load average
is printed at the start and end of every row.

Writes <build>/results/apps_ab.json. Exit status: 0 when every run worked,
1 when one failed, 2 on bad usage. Python 3 standard library only.
"""

import argparse
import os
import statistics
import sys

import benchlib
import run_apps


def parse_arm(ap, text):
    label, sep, rest = text.partition("=")
    if not sep or not label or not rest:
        ap.error("--arm: expected LABEL=LAUNCHER[:VAR=VALUE,...], got %r"
                 % text)
    launcher, _, settings = rest.partition(":")
    env = {}
    for kv in [s for s in settings.split(",") if s]:
        var, sep, value = kv.partition("=")
        if not sep or not var:
            ap.error("--arm %s: expected VAR=VALUE, got %r" % (label, kv))
        env[var] = value
    return label, launcher, env


def main():
    ap = argparse.ArgumentParser(
        description="Interleaved A/B runs of the applications under several "
        "weft launchers or settings (docs/benchmarks.md).")
    benchlib.add_build_arguments(
        ap, "bin/app_*", "the rows' --quick sizes")
    ap.add_argument("--arm", action="append", required=True,
                    help="LABEL=LAUNCHER[:VAR=VALUE,...]; the first one is "
                    "the reference (give at least two)")
    ap.add_argument("--rounds", type=int, default=15,
                    help="interleaved rounds (default 15)")
    ap.add_argument("--threads", type=int, default=2,
                    help="team size (default 2)")
    ap.add_argument("--only", help="comma-separated row names")
    benchlib.add_timeout_argument(ap, 300)
    args = ap.parse_args()
    if args.rounds < 1 or args.threads < 1:
        ap.error("--rounds and --threads must be >= 1")
    arms = [parse_arm(ap, a) for a in args.arm]
    if len(arms) < 2:
        ap.error("--arm: give at least two (the first is the reference)")
    if len({a[0] for a in arms}) != len(arms):
        ap.error("--arm: the labels must differ")
    rows = run_apps.ROWS
    if args.only:
        rows = [rows[i] for i in range(len(rows)) if rows[i][0] in
                benchlib.subset(ap, "--only", args.only,
                                [r[0] for r in run_apps.ROWS])]

    problems = []
    for label, launcher, _ in arms:
        why = benchlib.probe_weft(launcher)
        if why:
            problems.append("arm %s: %s" % (label, why))
    problems += benchlib.missing_programs(
        args.build, ["app_" + r[2] for r in rows])
    if benchlib.report_problems("run_apps_ab.py", problems):
        return 1

    runner = run_apps.AppRunner(args.timeout, os.path.join(args.build, "bin"),
                                None, None)
    runner.total = len(rows) * len(arms) * args.rounds
    print("# %d rounds, %d threads, arms %s; load %.1f at the start"
          % (args.rounds, args.threads,
             ", ".join("%s=%s%s" % (l, w, "".join(
                 " %s=%s" % kv for kv in sorted(e.items())))
                       for l, w, e in arms),
             benchlib.load_average()))
    results = {}
    table = []
    for row in rows:
        name = row[0]
        row_args = row[4] if args.quick else row[3]
        load0 = benchlib.load_average()
        times = {a[0]: [] for a in arms}
        ratios = {a[0]: [] for a in arms[1:]}
        for k in range(args.rounds):
            got = {}
            for label, launcher, env in benchlib.rotate(arms, k):
                runner.weft = launcher
                saved = {v: os.environ.get(v) for v in env}
                os.environ.update(env)
                try:
                    rec = runner.run("weft", row, row_args, args.threads, k)
                finally:
                    for v, old in saved.items():
                        if old is None:
                            os.environ.pop(v, None)
                        else:
                            os.environ[v] = old
                if rec is not None:
                    got[label] = rec["time_s"]
                    times[label].append(rec["time_s"])
            ref = arms[0][0]
            for label in ratios:
                if ref in got and label in got and got[ref] > 0:
                    ratios[label].append(got[label] / got[ref])
        load1 = benchlib.load_average()
        results[name] = {"times": times, "ratios": ratios,
                         "load": [load0, load1]}
        cells = [name, "%.1f-%.1f" % (load0, load1)]
        for label, _, _ in arms:
            cells.append("%.4f" % statistics.median(times[label])
                         if times[label] else "-")
        for label in ratios:
            r = ratios[label]
            cells.append("%.3f [%.2f, %.2f]" % (statistics.median(r), min(r),
                                                max(r)) if r else "-")
        table.append(cells)

    print()
    head = ["row", "load"] + ["%s s" % a[0] for a in arms] + \
        ["%s/%s" % (a[0], arms[0][0]) for a in arms[1:]]
    benchlib.print_table(head, table, left=(0,))
    out = os.path.join(args.build, "results", "apps_ab.json")
    benchlib.write_json(out, {"threads": args.threads, "rounds": args.rounds,
                              "arms": [{"label": l, "weft": w, "env": e}
                                       for l, w, e in arms],
                              "rows": results})
    return benchlib.exit_status(runner.failures)


if __name__ == "__main__":
    sys.exit(main())
