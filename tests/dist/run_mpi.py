#!/usr/bin/env python3
"""Runs a program under mpirun for CTest: N ranks oversubscribed on this
machine, as root if need be (Open MPI's two opt-in variables), with
WEFT_TEST_RANKS=N for the program to check its world size.

  run_mpi.py --np N [--expect-failure REGEX --within SECONDS] -- prog args

With --expect-failure the run must fail (non-zero exit) with REGEX in its
output, within SECONDS of the line "fails at EPOCH" a program may print
when it makes a rank fail (else of the start): the dead-rank tests.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--expect-failure")
    ap.add_argument("--within", type=float, default=10.0)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               WEFT_TEST_RANKS=str(a.np))
    env.setdefault("WEFT_NUM_THREADS", "2")
    # One seed for every rank of a run (a test with a random plan shared by
    # the ranks reads it); printed, so that a failing run can be repeated.
    if "WEFT_TEST_SEED" not in env:
        env["WEFT_TEST_SEED"] = str(random.SystemRandom().getrandbits(31))
    print("run_mpi.py: WEFT_TEST_SEED=%s" % env["WEFT_TEST_SEED"])
    full = ["mpirun", "--oversubscribe", "--bind-to", "none",
            "--mca", "btl", "self,vader", "-np", str(a.np)] + cmd
    t0 = time.monotonic()
    p = subprocess.run(full, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    took = time.monotonic() - t0
    end_epoch = time.time()
    sys.stdout.write(p.stdout)
    print("run_mpi.py: exit %d after %.1f s: %s" %
          (p.returncode, took, " ".join(full)))
    if a.expect_failure is None:
        return p.returncode
    if p.returncode == 0:
        print("run_mpi.py: FAIL: the run succeeded; expected a failure")
        return 1
    if not re.search(a.expect_failure, p.stdout):
        print("run_mpi.py: FAIL: no line matches %r" % a.expect_failure)
        return 1
    m = re.search(r"fails at ([0-9.]+)", p.stdout)
    if m:
        took = end_epoch - float(m.group(1))
        print("run_mpi.py: the run ended %.1f s after the failure" % took)
    if took > a.within:
        print("run_mpi.py: FAIL: took %.1f s, more than %.1f s" %
              (took, a.within))
        return 1
    print("run_mpi.py: failed as expected within %.1f s" % a.within)
    return 0


if __name__ == "__main__":
    sys.exit(main())
