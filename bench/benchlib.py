"""What the benchmark drivers share (run_micro.py, run_gomp.py,
run_apps.py, run_engines.py); each driver imports only this module.

Finding LLVM libomp, the environment of one OpenMP run, running one benchmark
command and reading the JSON line it prints (with progress on stderr and a
list of failures), the text table and the JSON results file. Python 3
standard library only. See docs/benchmarks.md.
"""

import glob
import csv
import json
import os
import re
import signal
import subprocess
import sys
import time


def find_libomp(explicit):
    """The LLVM libomp to preload: --libomp, else the newest
    /usr/lib/llvm-*/lib/libomp.so.5, else a libomp.so.5 in the usual places."""
    if explicit:
        return explicit if os.path.isfile(explicit) else None

    def llvm_version(path):
        m = re.search(r"llvm-(\d+)", path)
        return int(m.group(1)) if m else -1

    found = sorted(glob.glob("/usr/lib/llvm-*/lib/libomp.so.5"),
                   key=llvm_version, reverse=True)
    found += sorted(glob.glob("/usr/lib/*/libomp.so.5"))
    found += sorted(glob.glob("/usr/local/lib/libomp.so.5"))
    return found[0] if found else None


def describe_rc(rc):
    if rc < 0:
        try:
            return "killed by %s" % signal.Signals(-rc).name
        except ValueError:
            return "killed by signal %d" % -rc
    return "exit status %d" % rc


def omp_env(runtime, libomp):
    """The environment of one run: ours without LD_PRELOAD, plus
    LD_PRELOAD=libomp for the libomp runs."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    if runtime == "libomp":
        env["LD_PRELOAD"] = libomp
    return env


def shown_command(runtime, cmd, libomp):
    """The command as a user would retype it."""
    return ("LD_PRELOAD=%s " % libomp if runtime == "libomp" else "") + \
        " ".join(cmd)


def takeover_failure(runtime, rec, libomp, program):
    """Why a record names another runtime than the one asked for."""
    if runtime == "libomp":
        return ("LD_PRELOAD=%s did not take over: %s says OpenMP comes from "
                "%s (%s)" % (libomp, program, rec.get("runtime"),
                             rec.get("library")))
    return "reports %s=%r, expected %r" % ("runtime", rec.get("runtime"),
                                           runtime)


# The applications' rows (run_apps.py, run_scaling.py): name, row set,
# binary (bin/app_<binary>), default arguments, --quick arguments, and the
# target speedup of weft over the peers.
APP_ROWS = [
    ("c-ray", "apps", "c-ray", [], ["--width", "640", "--height", "480"], 1.0),
    ("rot-cc", "apps", "rot-cc", [], ["--frames", "2"], 1.0),
    ("sparselu", "apps", "sparselu", [], ["--nb", "30"], 1.0),
    ("h264dec-on", "apps", "h264dec", ["--wait", "on"],
     ["--wait", "on", "--frames", "1"], 1.0),
    ("h264dec-all", "apps", "h264dec", ["--wait", "all"],
     ["--wait", "all", "--frames", "1"], 1.0),
    ("streamcluster", "apps", "streamcluster", [], ["--iters", "20"], 1.0),
    ("blackscholes", "apps", "blackscholes", [], ["--runs", "2"], 1.0),
    ("jacobi", "apps", "jacobi", [], ["--iters", "50"], 1.0),
    ("stream-deps", "apps", "stream-deps", [], ["--iters", "10"], 1.0),
    ("stream-barr", "apps", "stream-barr", [], ["--iters", "10"], 1.0),
    ("kmeans", "apps", "kmeans", [], ["--iters", "8"], 1.0),
    ("bitonic", "apps", "bitonic", [], ["--n", "262144"], 1.0),
    ("matmul", "apps", "matmul", [], ["--n", "512"], 1.0),
    ("h264dec-fine-on", "fine", "h264dec",
     ["--wait", "on", "--work", "300", "--frames", "16"],
     ["--wait", "on", "--work", "300", "--frames", "4"], 1.5),
    ("h264dec-fine-all", "fine", "h264dec",
     ["--wait", "all", "--work", "300", "--frames", "16"],
     ["--wait", "all", "--work", "300", "--frames", "4"], 1.5),
    ("sparselu-fine", "fine", "sparselu", ["--nb", "80", "--bs", "8"],
     ["--nb", "50", "--bs", "8"], 1.5),
    ("emptytask", "fine", "emptytask", [], ["--n", "200000"], 1.5),
]


class Runner:
    """Runs benchmark commands one at a time: progress on stderr as
    "[k/total] what", the failures kept (with the command to reproduce) for
    the summary at the end."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.failures = []
        self.done = 0
        self.total = 0

    def run_json(self, what, cmd, env, shown, width=46):
        """Runs cmd; returns (record, its line, wall seconds) for the last
        JSON line on stdout, or None after recording the failure (crash, exit
        status other than 0, timeout, no JSON line). The caller checks the
        record and prints the rest of the progress line."""
        def last_json(lines):
            return json.loads(lines[-1]), lines[-1]
        return self.run_parsed(what, cmd, env, shown, last_json, "JSON line",
                               width)

    def run_parsed(self, what, cmd, env, shown, parse, expected, width=46):
        """run_json with another reader: parse(the non-empty stdout lines)
        returns (record, its line) or raises ValueError / IndexError, and
        the failure then says no `expected` was printed."""
        self.done += 1
        progress = "[%d/%d] %-*s" % (self.done, self.total, width, what)
        print(progress, end="", file=sys.stderr, flush=True)
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                  timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return self.fail(what, shown, "no result after %d s (hang?)"
                             % self.timeout)
        except OSError as e:
            return self.fail(what, shown, "cannot run: %s" % e)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            return self.fail(what, shown, describe_rc(proc.returncode),
                             proc.stderr)
        lines = [l for l in proc.stdout.splitlines() if l.strip()]
        try:
            rec, line = parse(lines)
        except (IndexError, ValueError):
            return self.fail(what, shown, "no %s on stdout" % expected,
                             proc.stdout + proc.stderr)
        return rec, line, wall

    def fail(self, what, shown, why, output=""):
        print(" FAILED: %s" % why, file=sys.stderr)
        tail = "\n".join(output.strip().splitlines()[-15:])
        if tail:
            print("    " + tail.replace("\n", "\n    "), file=sys.stderr)
        last = output.strip().splitlines()[-1:] if output.strip() else []
        if last:
            why += " -- " + last[0].strip()[:300]
        self.failures.append("%s: %s\n    command: %s" % (what, why, shown))
        return None


def print_table(head, rows, left=(0,)):
    """Columns two spaces apart, a dashed line under the head; the columns
    in left are left-aligned, the others right-aligned."""
    widths = [max(len(r[c]) for r in rows + [head]) for c in range(len(head))]
    for n, row in enumerate([head] + rows):
        print("  ".join(cell.ljust(widths[c]) if c in left
                        else cell.rjust(widths[c])
                        for c, cell in enumerate(row)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def write_json(path, results):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")


def load_average():
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def line_transfer(bindir):
    """bench/line_transfer's one-way cache-line transfer between the first
    two CPUs, ns (median of 5 x 100,000 round trips), or None where the
    program is missing or cannot measure (one CPU)."""
    prog = os.path.join(bindir, "line_transfer")
    try:
        out = subprocess.run([prog], capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for field in out.stdout.split():
        key, _, value = field.partition("=")
        if out.returncode == 0 and key == "line_transfer_ns":
            return float(value)
    return None


def line_transfer_note(before, after):
    """The line the drivers print under their tables: the transfer time
    before and after the runs (line_transfer), which tells the development
    VM's two modes apart (docs/benchmarks.md, "Two machines in one")."""
    def ns(v):
        return "%.1f ns" % v if v is not None else "not measured"
    return ("cache-line transfer between two CPUs: %s before the runs, %s "
            "after (25-40 ns: the CPUs share a core; 150 and more: two "
            "cores; docs/benchmarks.md)" % (ns(before), ns(after)))


def busy_cpus(seconds=1.0):
    """How many CPUs other work keeps busy, from /proc/stat over `seconds`
    (None where there is no /proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v[:8]), v[3] + v[4]  # total, idle + iowait
    try:
        t1, i1 = sample()
        time.sleep(seconds)
        t2, i2 = sample()
    except (OSError, ValueError, IndexError):
        return None
    if t2 <= t1:
        return None
    return (1.0 - (i2 - i1) / (t2 - t1)) * (os.cpu_count() or 1)


class Neighbour:
    """A busy neighbour (issue 15 item 7): one CPU-bound process, a plain
    spinning loop at normal priority, sharing the cores while a measurement
    runs. `with Neighbour(on):` starts it (when on) and kills it after."""

    def __init__(self, on=True):
        self.on = on
        self.proc = None

    def __enter__(self):
        if self.on:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "while True: pass"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
            time.sleep(0.05)  # let it reach the run queue
        return self

    def __exit__(self, *exc):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        return False


def add_neighbour_argument(ap):
    ap.add_argument("--neighbour", action="store_true",
                    help="also measure every cell with a busy neighbour (one "
                    "spinning process) and print both (issue 15)")


def neighbour_modes(args):
    """The neighbour settings each cell is measured under, in order."""
    return [False, True] if getattr(args, "neighbour", False) else [False]


def print_neighbour_table(head, rows):
    """rows: (leading cells, {runtime: (busy value text, slowdown) or None})
    in the order of head's runtime columns; prints each runtime's busy value
    and slowdown (busy / quiet), and whether weft's slowdown is no worse than
    libgomp's (issue 15's target)."""
    table = []
    for lead, per_runtime in rows:
        slow = {r: v[1] for r, v in per_runtime.items() if v}
        cells = ["%s (%.1fx)" % v if v else "-" for v in per_runtime.values()]
        verdict = "-"
        if "weft" in slow and "libgomp" in slow:
            verdict = "ok" if slow["weft"] <= slow["libgomp"] else \
                "WORSE (%.1fx vs %.1fx)" % (slow["weft"], slow["libgomp"])
        table.append(lead + cells + [verdict])
    print("\nwith a busy neighbour (one spinning process on the same CPUs):")
    print_table(head + ["weft vs libgomp"], table,
                left=(0, len(head)))


# ---- running programs under `weft run` (run_gomp.py, run_apps.py) -----------

def weft_prefix(weft, threads):
    """The command line that runs a program under weft."""
    return [weft, "run", "--threads", str(threads), "--"]


def probe_weft(weft):
    """None when `weft run` is there, else why weft is reported missing:
    the command does not exist, or its --help lists no `run` subcommand."""
    if not os.access(weft, os.X_OK):
        return "%s not found" % weft
    try:
        proc = subprocess.run([weft, "--help"], capture_output=True,
                              text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "%s --help failed: %s" % (weft, e)
    m = re.search(r"^subcommands:[ \t]*\n((?:[ \t]+\S.*(?:\n|$))*)",
                  proc.stdout + proc.stderr, re.M | re.I)
    names = [l.split()[0] for l in m.group(1).splitlines() if l.strip()] \
        if m else []
    if "run" not in names:
        return "%s has no `run` subcommand yet (it has: %s)" \
            % (weft, ", ".join(names) or "none listed")
    return None


def weft_mismatch(rec):
    return ("weft run did not take over: the program says OpenMP comes from "
            "%s (%s)" % (rec.get("runtime"), rec.get("library")))


def rotate(runtimes, k):
    k %= len(runtimes)
    return runtimes[k:] + runtimes[:k]


# ---- the task-overhead microbenchmarks (run_micro.py, run_gomp.py) ----------

PATTERNS = [("task-free", 0), ("task-free", 1), ("task-free", 15),
            ("task-chain", 0), ("task-chain", 1), ("task-chain", 15),
            ("emptytask", 1)]

# Cells where a runtime is so slow that the full task count would take minutes:
# (runtime, pattern, deps) -> largest task count (full run, --quick run).
# LLVM libomp's cost per task grows with the number of distinct addresses it
# has seen (about 3 us/task at 20000 tasks, 12-16 us at 200000 with 15 deps on
# 2 threads), so the capped number flatters libomp: the ratio is conservative.
TASK_CAPS = {("libomp", "task-free", 15): (20000, 10000)}
# StarPU costs 10-100 us per task on this machine (2 threads), and its
# task-free 15 registers tasks x 15 data handles (untimed, but memory and
# minutes), so it runs fewer tasks; its per-task cost does not fall with more.
for _p, _d in PATTERNS:
    TASK_CAPS[("starpu", _p, _d)] = (20000, 5000)
TASK_CAPS[("starpu", "task-free", 15)] = (5000, 2000)

# The peers with a native API, each its own binary (micro_<name>).
NATIVE_PEERS = ("tbb", "starpu")


class MicroRunner(Runner):
    """Runs micro_weft (runtime weft), micro_tbb, micro_starpu or micro_omp
    (libgomp, libomp) for one configuration and checks its JSON record."""

    def __init__(self, args, binaries, libomp):
        super().__init__(args.timeout)
        self.args = args
        self.binaries = binaries
        self.libomp = libomp

    def command(self, runtime, pattern, deps, threads, tasks):
        exe = self.binaries[runtime if runtime in ("weft",) + NATIVE_PEERS
                            else "omp"]
        cmd = [exe, "--pattern", pattern, "--deps", str(deps),
               "--tasks", str(tasks), "--reps", str(self.args.reps),
               "--threads", str(threads)]
        return cmd, omp_env(runtime, self.libomp)

    def runtime_mismatch(self, runtime, rec):
        """Why the record names another runtime than the one asked for."""
        return takeover_failure(runtime, rec, self.libomp, "micro_omp")

    def run(self, runtime, pattern, deps, threads):
        """One benchmark run; returns its JSON record or None (and records
        the failure)."""
        tasks = self.args.tasks
        cap = TASK_CAPS.get((runtime, pattern, deps))
        if cap:
            tasks = min(tasks, cap[1] if self.args.quick else cap[0])
        cmd, env = self.command(runtime, pattern, deps, threads, tasks)
        what = "%s %s deps %d threads %d" % (runtime, pattern, deps, threads)
        shown = shown_command(runtime, cmd, self.libomp)
        got = self.run_json(what, cmd, env, shown)
        if got is None:
            return None
        rec, line, wall = got
        want = {"runtime": runtime, "pattern": pattern, "deps": deps,
                "threads": threads}
        for key, value in want.items():
            if rec.get(key) != value:
                if key == "runtime":
                    why = self.runtime_mismatch(runtime, rec)
                else:
                    why = "reports %s=%r, expected %r" % (key, rec.get(key),
                                                           value)
                return self.fail(what, shown, why)
        if not isinstance(rec.get("ns_per_task"), (int, float)) or \
                rec.get("tasks") != (tasks - tasks % 1000
                                     if pattern == "emptytask" else tasks):
            return self.fail(what, shown, "malformed record", line)
        print(" %10.1f ns/task  (%d tasks, %.1f s)"
              % (rec["ns_per_task"], rec["tasks"], wall), file=sys.stderr)
        return rec


def fmt_ns(rec, tasks):
    if rec is None:
        return "-"
    text = "%.1f" % rec["ns_per_task"]
    full = tasks - tasks % 1000 if rec["pattern"] == "emptytask" else tasks
    if rec["tasks"] != full:
        text += "*"
    return text


# ---- command lines ------------------------------------------------------------

def add_build_arguments(ap, holds, quick_help):
    """--build (the build folder holding `holds`; results go to
    <build>/results) and --quick, as every driver spells them."""
    ap.add_argument("--build", default="build",
                    help="build folder holding %s; results go to "
                    "<build>/results (default: build)" % holds)
    ap.add_argument("--quick", action="store_true", help=quick_help)


def add_timeout_argument(ap, default):
    ap.add_argument("--timeout", type=int, default=default,
                    help="seconds one run may take (default %d)" % default)


def quick_default(args, name, full, quick):
    """Sets args.<name> to its --quick or full default when not given."""
    if getattr(args, name) is None:
        setattr(args, name, quick if args.quick else full)


def int_list(ap, option, text):
    """The comma-separated integers >= 1 of an option such as --threads 1,2;
    exits through ap.error on anything else."""
    try:
        values = [int(t) for t in text.split(",") if t]
    except ValueError:
        ap.error("%s: expected comma-separated integers, got %r"
                 % (option, text))
    if not values or min(values) < 1:
        ap.error("%s: need at least one value >= 1" % option)
    return values


def subset(ap, option, text, choices):
    """The comma-separated names of an option such as --runtimes, each one of
    choices, in the order of choices; exits through ap.error otherwise."""
    names = [n for n in text.split(",") if n]
    bad = [n for n in names if n not in choices]
    if bad or not names:
        ap.error("%s: unknown %s (choose from %s)"
                 % (option, ",".join(bad) or "(none)", ",".join(choices)))
    return [c for c in choices if c in names]


def add_libomp_argument(ap):
    ap.add_argument("--libomp", help="the LLVM libomp.so.5 to preload "
                    "(default: the newest /usr/lib/llvm-*/lib/libomp.so.5)")


def add_weft_argument(ap):
    ap.add_argument("--weft", help="the weft command (default: "
                    "<build>/bin/weft)")


def libomp_for(args, runtimes, problems):
    """The libomp to preload when runtimes has libomp (None otherwise); when
    none is found, says why in problems."""
    if "libomp" not in runtimes:
        return None
    libomp = find_libomp(args.libomp)
    if not libomp:
        problems.append(
            "LLVM libomp.so.5 not found (%s); install libomp-dev "
            "(scripts/deps) or pass --libomp PATH, or leave it out with "
            "--runtimes weft,libgomp"
            % (args.libomp or "looked in /usr/lib/llvm-*/lib"))
    return libomp


def missing_programs(build, names):
    """The problems of bin/<name> not built (one line each), for
    report_problems."""
    problems = []
    for name in sorted(set(names)):
        path = os.path.join(build, "bin", name)
        if not os.access(path, os.X_OK):
            problems.append("%s not found (build first: cmake --build %s)"
                            % (path, build))
    return problems


def sim_speedups(csv_path):
    """{model: {cores: speedup}} from a `weft sim` CSV."""
    table = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            table.setdefault(row["model"], {})[int(row["cores"])] = \
                float(row["speedup"])
    return table


def report_problems(driver, problems):
    """Prints each problem as `<driver>: <problem>`; True if there were any."""
    for p in problems:
        print("%s: %s" % (driver, p), file=sys.stderr)
    return bool(problems)


def exit_status(failures):
    """Lists the failed runs (if any) after the results; the driver's exit
    status: 1 when a run failed, else 0."""
    if failures:
        print("\nBENCHMARK FAILURES (%d):" % len(failures))
        for f in failures:
            print("  " + f)
        return 1
    return 0
