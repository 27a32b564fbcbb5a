#!/usr/bin/env python3
"""Runs a program with WEFT_STATS=1 and checks its exit status and counters.

expect_stats.py [--min NAME=VALUE]... [--equal NAME=NAME]... -- command...

Fails (exit 1, naming the counter) when the command fails, when a counter
is missing, below its --min, or differs from its --equal partner.
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--equal", action="append", default=[], help="NAME=NAME")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command")
    env = dict(os.environ, WEFT_STATS="1")
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        print(f"expect_stats: {cmd[0]} exited with {p.returncode}")
        return 1
    stats = {m.group(1): int(m.group(2))
             for m in re.finditer(r"weft stats:\s+([\w.]+)=(\d+)", p.stdout)}

    def get(name):
        if name not in stats:
            print(f"expect_stats: counter {name} not printed")
            sys.exit(1)
        return stats[name]

    for spec in a.min:
        name, value = spec.split("=")
        if get(name) < int(value):
            print(f"expect_stats: {name}={get(name)}, expected >= {value}")
            return 1
    for spec in a.equal:
        x, y = spec.split("=")
        if get(x) != get(y):
            print(f"expect_stats: {x}={get(x)} differs from {y}={get(y)}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
