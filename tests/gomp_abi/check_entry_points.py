#!/usr/bin/env python3
"""Checks libgomp's entry points (src/gomp/libgomp.symbols) against a
library or against programs, with nm. An entry point is a name at a
version, default (name@@VERSION) or not (name@VERSION: the OpenMP 2.5 lock
routines at OMP_1.0); each is checked at its own version.

check_entry_points.py SYMBOLS --nm NM --implemented-by LIBRARY
    every entry point is a strong definition in LIBRARY's dynamic symbols
    at its version (no weak stub of src/gomp/gen_abi.py left, none missing).
check_entry_points.py SYMBOLS --nm NM --listed-from LIBGOMP
    every symbol LIBGOMP (libgomp.so.1) exports at a version SYMBOLS names
    is an entry point of SYMBOLS (none forgotten; a later libgomp's new
    version nodes are not weft's).
check_entry_points.py SYMBOLS --nm NM --suffix _ --called-by PROGRAM...
    every entry point whose name ends with the suffix (the Fortran
    bindings: "_") is called at its version by at least one PROGRAM.

Exit 1 naming the entry points that fail.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'src', 'gomp'))
from gen_abi import read_symbols  # noqa: E402


def spelled(name, version, default):
    return f'{name}{"@@" if default else "@"}{version}'


def nm(tool, args, path):
    """{(name, version, default): set of nm kinds}; version None for an
    unversioned symbol, default None for an undefined one (a reference
    names a version, not whether it is the default)."""
    out = subprocess.run([tool] + args + [path], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        kind, sym = f[-2], f[-1]
        name, at, version = sym.partition('@')
        default = None
        if version.startswith('@'):
            version, default = version[1:], True
        elif at and kind not in 'Uw':
            default = False
        syms.setdefault((name, version or None, default), set()).add(kind)
    return syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('symbols')
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--implemented-by')
    ap.add_argument('--listed-from')
    ap.add_argument('--suffix', default='')
    ap.add_argument('--called-by', nargs='+', default=[])
    a = ap.parse_args()
    entries = {e for e in read_symbols(a.symbols) if e[0].endswith(a.suffix)}
    bad = []
    if a.implemented_by:
        syms = nm(a.nm, ['-D', '--defined-only'], a.implemented_by)
        for e in sorted(entries):
            kinds = syms.get(e, set())
            if 'T' not in kinds:
                bad.append(f'{spelled(*e)} '
                           f'({"weak stub" if "W" in kinds else "missing"})')
        what = f'not implemented by {a.implemented_by}'
        count = len(entries)
    elif a.listed_from:
        versions = {v for _, v, _ in entries}
        syms = nm(a.nm, ['-D', '--defined-only'], a.listed_from)
        exported = {e for e in syms if e[1] in versions}
        bad = sorted(spelled(*e) for e in exported - entries)
        what = f'of {a.listed_from} missing from {a.symbols}'
        count = len(exported)
    else:
        called = set()
        for p in a.called_by:
            called |= {(n, v) for n, v, _ in nm(a.nm, ['-u'], p)}
        bad = sorted(spelled(*e) for e in entries if e[:2] not in called)
        what = 'called by none of the programs'
        count = len(entries)
    if bad:
        print(f'check_entry_points: {len(bad)} of {count} entry points '
              f'{what}: {", ".join(bad)}')
        return 1
    print(f'check_entry_points: all {count} entry points checked')
    return 0


if __name__ == '__main__':
    sys.exit(main())
