#!/usr/bin/env python3
"""Checks libgomp's entry points (src/gomp/libgomp.symbols) against a
library or against programs, with nm.

check_entry_points.py SYMBOLS --nm NM --implemented-by LIBRARY
    every entry point is a strong definition in LIBRARY's dynamic symbols
    (no weak stub of src/gomp/gen_abi.py left, none missing).
check_entry_points.py SYMBOLS --nm NM --suffix _ --called-by PROGRAM...
    every entry point whose name ends with the suffix (the Fortran
    bindings: "_") is called by at least one PROGRAM.

Exit 1 naming the entry points that fail.
"""
import argparse
import subprocess
import sys


def entry_points(path):
    names = set()
    for line in open(path):
        line = line.strip()
        if line and not line.startswith('#'):
            names.add(line.split()[1])
    return names


def nm(tool, args, path):
    out = subprocess.run([tool] + args + [path], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2:
            syms.setdefault(f[-1].split('@')[0], set()).add(f[-2])
    return syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('symbols')
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--implemented-by')
    ap.add_argument('--suffix', default='')
    ap.add_argument('--called-by', nargs='+', default=[])
    a = ap.parse_args()
    names = {n for n in entry_points(a.symbols) if n.endswith(a.suffix)}
    bad = []
    if a.implemented_by:
        syms = nm(a.nm, ['-D', '--defined-only'], a.implemented_by)
        for n in sorted(names):
            kinds = syms.get(n, set())
            if 'T' not in kinds:
                bad.append(f'{n} ({"weak stub" if "W" in kinds else "missing"})')
        what = f'not implemented by {a.implemented_by}'
    else:
        called = set()
        for p in a.called_by:
            called |= set(nm(a.nm, ['-u'], p))
        bad = sorted(names - called)
        what = 'called by none of the programs'
    if bad:
        print(f'check_entry_points: {len(bad)} of {len(names)} entry points '
              f'{what}: {", ".join(bad)}')
        return 1
    print(f'check_entry_points: all {len(names)} entry points checked')
    return 0


if __name__ == '__main__':
    sys.exit(main())
