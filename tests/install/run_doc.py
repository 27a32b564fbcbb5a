"""Runs docs/getting-started.md as a user would: writes the files it shows
(fenced blocks whose info string is `<language> <file name>`), runs its `sh`
blocks in order in one bash (set -e, so the first failing command fails the
test) with HOME in a scratch folder (the page installs under ~/weft), then
checks what the commands should have produced.

    run_doc.py DOC BUILD_DIR SCRATCH

`cmake --install build` on the page installs the tree under test: `build`
is replaced by BUILD_DIR."""
import os
import re
import shutil
import subprocess
import sys


def fail(msg):
    print("run_doc: FAIL: " + msg)
    sys.exit(1)


def blocks(text):
    for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.S | re.M):
        yield m.group(1).split(), m.group(2)


def main():
    doc, build, scratch = sys.argv[1:4]
    shutil.rmtree(scratch, ignore_errors=True)
    home = os.path.join(scratch, "home")
    work = os.path.join(scratch, "work")
    os.makedirs(home)
    os.makedirs(work)
    script = ["set -e -x"]
    files = 0
    for info, body in blocks(open(doc).read()):
        if len(info) == 2:
            with open(os.path.join(work, info[1]), "w") as f:
                f.write(body)
            files += 1
        elif info == ["sh"]:
            script.append(body.replace("cmake --install build ",
                                       "cmake --install %s " % build))
    if files < 3 or len(script) < 6:
        fail("found %d files and %d sh blocks in %s" % (files, len(script) - 1,
                                                       doc))
    script.append("command -v weft")
    env = dict(os.environ, HOME=home)
    env.pop("WEFT_NUM_THREADS", None)
    p = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work, env=env,
                       capture_output=True, text=True, timeout=250)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if p.returncode != 0:
        fail("a command of the page failed (exit %d)" % p.returncode)
    out = p.stdout + p.stderr
    prefix = os.path.join(home, "weft")
    for path in ["bin/weft", "lib/libweft.so", "lib/gomp/libgomp.so.1",
                 "include/weft/weft.h", "include/weft/weft.hpp",
                 "lib/cmake/weft/weftConfig.cmake", "lib/pkgconfig/weft.pc",
                 "share/weft/plots/sim.py"]:
        if not os.path.exists(os.path.join(prefix, path)):
            fail("the install has no %s" % path)
    if os.path.join(prefix, "bin", "weft") not in p.stdout.splitlines():
        fail("the weft on PATH is not the installed one")
    if out.count("hello from weft: 2 workers, twice 42") != 2:
        fail("the native program (CMake and pkg-config builds) did not print "
             "its result twice")
    if out.count("fib(20) = 6765") != 2:
        fail("the OpenMP program did not print fib(20) under weft run twice")
    if "weft stats: engine=sw threads=2" not in out:
        fail("weft run --stats printed no weft counters")
    trace = os.path.join(work, "fib.perfetto-trace")
    if not os.path.getsize(trace) > 1000 or trace not in out and \
            "fib.perfetto-trace" not in out:
        fail("no Perfetto trace written or its path not printed")
    if "blocks: 576 tasks" not in out:
        fail("the traced native program did not run")
    csv = os.path.join(work, "sim-blocks.csv")
    rows = open(csv).read().splitlines()
    if not any(r.startswith("picos,64,") for r in rows):
        fail("sim-blocks.csv has no picos row on 64 cores: %s" % rows)
    if not os.path.exists(os.path.join(work, "sim-blocks.png")):
        fail("no sim-blocks.png")
    print("run_doc: PASS")


if __name__ == "__main__":
    main()
