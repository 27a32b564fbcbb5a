#!/usr/bin/env python3
"""Runs a program and checks its exit status and its output.

expect_output.py [--has REGEX]... [--lacks REGEX]... -- command...

stdout and stderr are read together (regexes are searched line by line,
re.MULTILINE). Fails (exit 1, naming what) when the command exits with a
non-zero status, when a --has regex is not found, or a --lacks one is.
"""
import argparse
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--has", action="append", default=[])
    ap.add_argument("--lacks", action="append", default=[])
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    sys.stdout.write(p.stdout)
    status = 0
    if p.returncode != 0:
        print(f"expect_output: {cmd[0]} exited with {p.returncode}")
        status = 1
    for r in a.has:
        if not re.search(r, p.stdout, re.MULTILINE):
            print(f"expect_output: no line matches {r!r}")
            status = 1
    for r in a.lacks:
        if re.search(r, p.stdout, re.MULTILINE):
            print(f"expect_output: a line matches {r!r}, which must not appear")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
