"""What the benchmark drivers share (run_micro.py, run_gomp.py,
run_apps.py).

Finding LLVM libomp, the environment of one OpenMP run, running one benchmark
command and reading the JSON line it prints (with progress on stderr and a
list of failures), the text table and the JSON results file. Python 3
standard library only. See docs/benchmarks.md.
"""

import glob
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
