#!/usr/bin/env python3
"""Joins the two ranks' stamps of a places_dist --calls run built with
WEFT_AT_SPLIT=1 (src/dist/at_split.hpp) into the round trip's phases:
their minimum, median and 90th percentile in us over the calls."""
import sys

CALL, REPLY = 1, 2


def load(path):
    ghz, ev, extra = None, {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "ghz":
                ghz = float(w[1])
            elif not w[0].isdigit():
                extra[w[0]] = (int(w[1]), int(w[2]))
            else:
                k, h, seq, tsc, aux = map(int, w)
                ev[(k, h, seq)] = (tsc, aux)
    return ghz, ev, extra


def main():
    prefix = sys.argv[1] if len(sys.argv) > 1 else "/tmp/weft_at_split"
    ghz, c, cx = load(prefix + ".0.txt")
    _, t, tx = load(prefix + ".1.txt")
    phases = {}
    names = ["caller: at() to MPI_Send", "caller: MPI_Send of the call",
             "call in flight + discovery (send return -> target's MPI_Test)",
             "  target's poll period then (previous MPI_Test end -> it)",
             "    of it: target's gap (previous MPI_Test end -> its start)",
             "    of it: target's MPI_Test that completes the receive",
             "target: MPI_Test -> runner starts",
             "target: runner (f) -> reply's MPI_Send",
             "target: MPI_Send of the reply",
             "reply in flight + discovery (send return -> caller's MPI_Test)",
             "  caller's poll period then (previous MPI_Test end -> it)",
             "    of it: caller's gap (previous MPI_Test end -> its start)",
             "    of it: caller's MPI_Test that completes the receive",
             "caller: MPI_Test -> on_reply done", "whole (at() -> on_reply done)"]
    for n in names:
        phases[n] = []
    seqs = sorted(s for (k, h, s) in c if k == 0)
    for s in seqs:
        try:
            c0 = c[(0, 0, s)][0]
            c1 = c[(1, CALL, s)][0]
            c2 = c[(2, CALL, s)][0]
            c5, c5a = c[(3, REPLY, s)]
            c6 = c[(5, 0, s)][0]
            t3, t3a = t[(3, CALL, s)]
            t3b = t[(6, CALL, s)][0]
            c5b = c[(6, REPLY, s)][0]
            t4 = t[(4, 0, s)][0]
            t5 = t[(1, REPLY, s)][0]
            t6 = t[(2, REPLY, s)][0]
        except KeyError:
            continue
        v = [c1 - c0, c2 - c1, t3 - c2, t3 - t3a if t3a else None,
             t3b - t3a if t3a else None, t3 - t3b, t4 - t3, t5 - t4, t6 - t5,
             c5 - t6, c5 - c5a if c5a else None, c5b - c5a if c5a else None,
             c5 - c5b, c6 - c5, c6 - c0]
        for n, x in zip(names, v):
            if x is not None:
                phases[n].append(x / ghz / 1000.0)
    print("calls joined: %d of %d; TSC %.3f GHz" % (
        len(phases[names[-1]]), len(seqs), ghz))
    print("%-70s %8s %8s %8s" % ("phase (us)", "min", "median", "p90"))
    for n in names:
        v = sorted(phases[n])
        if not v:
            continue
        print("%-70s %8.3f %8.3f %8.3f" % (n, v[0], v[len(v) // 2],
                                            v[len(v) * 9 // 10]))
    for who, x in (("caller", cx), ("target", tx)):
        for k, (n, cyc) in x.items():
            if n:
                print("%s %s: %d, %.1f ns each" % (who, k, n,
                                                   cyc / n / ghz))


main()
