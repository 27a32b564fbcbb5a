#!/usr/bin/env python3
"""Area of an RTL unit from yosys 0.23 (no timing library at hand).

For each configuration: generic synthesis, the memories reported apart (in
bits, from the $mem_v2 cells before they are mapped to flip-flops), then the
logic mapped to CMOS gates (abc -g cmos2, flip-flops without enables), and

  * stat -tech cmos: transistors of the combinational gates;
  * flip-flops counted apart, at FF_TRANSISTORS each (stat gives none);
  * kGE = all transistors / 4 (a NAND2 has 4);
  * ltp: the longest logic path in gates, the stand-in for the clock rate.

With --xilinx, also synth_xilinx's LUT / FF / BRAM counts (slow: bench only).
--check asserts the figures were found and are sane, and that they grow with
the FIFO depth. Prints one JSON object per configuration (--json FILE too).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

FF_TRANSISTORS = 24  # a static D flip-flop with asynchronous reset

UNITS = {
    "hwse": ["hwse/hwse_pkg.sv", "hwse/hwse_fifo.sv",
             "hwse/hwse_loop_datapath.sv", "hwse/hwse_divider.sv",
             "hwse/hwse.sv"],
    "nexus": ["hwse/hwse_pkg.sv", "hwse/hwse_fifo.sv", "nexus/nexus_pkg.sv",
              "nexus/nexus_dependence_table.sv",
              "nexus/nexus_task_maestro.sv"],
}
TOPS = {"hwse": "hwse", "nexus": "nexus_task_maestro"}
# The Task Maestro's sizes: Table I of the Nexus++ paper, and the small unit
# of the equivalence tests (hw/sim/nexus_rtl_port.hpp).
NEXUS_SIZES = {
    "table1": {"POOL": 1024, "PARAMS": 8, "MAX_PARAMS": 16, "SETS": 256,
               "WAYS": 8, "KOL": 8, "DUMMY_KOL": 1024},
    "small": {"POOL": 64, "PARAMS": 8, "MAX_PARAMS": 16, "SETS": 16,
              "WAYS": 4, "KOL": 2, "DUMMY_KOL": 16},
}


def run_yosys(script, workdir):
    path = os.path.join(workdir, "run.ys")
    with open(path, "w") as f:
        f.write(script)
    p = subprocess.run(["yosys", "-q", "-s", path], cwd=workdir,
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("area.py: yosys failed:\n" + p.stdout[-4000:] + p.stderr[-4000:])


def read(workdir, name):
    with open(os.path.join(workdir, name)) as f:
        return f.read()


def generic(srcdir, unit, params, workdir, map_memories=True):
    """map_memories=False keeps the memories as $mem_v2 cells (counted in
    bits only): the Task Maestro's ~1 Mbit of tables would otherwise become
    a million flip-flops."""
    files = " ".join(os.path.join(srcdir, f) for f in UNITS[unit])
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    top = TOPS[unit]
    run_yosys(f"""
read_verilog -sv -DSYNTHESIS {files}
chparam {chparam} {top}
synth -top {top} -flatten -run :fine
tee -q -o mem.txt dump t:$mem_v2
{"memory_map" if map_memories else ""}
opt -full
techmap
opt -fast
dffunmap
abc -g cmos2
opt_clean
tee -q -o cmos.txt stat -tech cmos
tee -q -o ltp.txt ltp -noff
""", workdir)
    mem_bits = 0
    memories = 0
    for cell in re.split(r"\n\s*cell ", read(workdir, "mem.txt"))[1:]:
        size = re.search(r"parameter \\SIZE (\d+)", cell)
        width = re.search(r"parameter \\WIDTH (\d+)", cell)
        if size and width:
            memories += 1
            mem_bits += int(size.group(1)) * int(width.group(1))
    cmos = read(workdir, "cmos.txt")
    m = re.search(r"Estimated number of transistors:\s+(\d+)", cmos)
    if not m:
        sys.exit("area.py: no transistor estimate in yosys's stat -tech cmos")
    comb = int(m.group(1))
    ffs = sum(int(n) for n in re.findall(r"\$_(?:S?DFF|DLATCH)\w*\s+(\d+)", cmos))
    cells = {k: int(v) for k, v in re.findall(r"(\$_\w+_)\s+(\d+)", cmos)}
    m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", read(workdir, "ltp.txt"))
    if not m:
        sys.exit("area.py: no longest path in yosys's ltp output")
    transistors = comb + ffs * FF_TRANSISTORS
    return {
        "memories": memories,
        "memory_bits": mem_bits,
        "comb_transistors": comb,
        "flip_flops": ffs,
        "transistors": transistors,
        "kge": round(transistors / 4 / 1000, 2),
        "ltp_gates": int(m.group(1)),
        "cells": cells,
    }


def xilinx(srcdir, unit, params, workdir):
    files = " ".join(os.path.join(srcdir, f) for f in UNITS[unit])
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    top = TOPS[unit]
    run_yosys(f"""
read_verilog -sv -DSYNTHESIS {files}
chparam {chparam} {top}
synth_xilinx -top {top} -flatten
tee -q -o xilinx.txt stat
""", workdir)
    stat = read(workdir, "xilinx.txt")
    cells = {k: int(v) for k, v in re.findall(r"^\s+(\w+)\s+(\d+)$", stat, re.M)}
    luts = sum(v for k, v in cells.items() if re.fullmatch(r"LUT\d", k))
    ffs = sum(v for k, v in cells.items() if re.fullmatch(r"FD\w*", k))
    lutram = sum(v for k, v in cells.items() if k.startswith("RAM"))
    bram = sum(v for k, v in cells.items() if k.startswith("RAMB"))
    return {"luts": luts, "ffs": ffs, "lutram_cells": lutram - bram,
            "bram": bram}


def xilinx_modules(srcdir, unit, params, workdir):
    """synth_xilinx with the hierarchy kept: LUT / FF / LUT-RAM / BRAM per
    module (one instance each; the counts are the module's own cells, not
    its children's). Each module is synthesized apart, so cross-boundary
    optimisation is lost and the sum can exceed the flat count a little."""
    files = " ".join(os.path.join(srcdir, f) for f in UNITS[unit])
    chparam = " ".join(f"-set {k} {v}" for k, v in params.items())
    top = TOPS[unit]
    run_yosys(f"""
read_verilog -sv -DSYNTHESIS {files}
chparam {chparam} {top}
synth_xilinx -top {top}
tee -q -o xilinx_hier.txt stat
""", workdir)
    out = {}
    for block in re.split(r"^=== ", read(workdir, "xilinx_hier.txt"), flags=re.M)[1:]:
        name = block.split(" ===", 1)[0].strip()
        if name.startswith("design hierarchy"):
            continue
        cells = {k: int(v) for k, v in re.findall(r"^\s+(\w+)\s+(\d+)$", block, re.M)}
        luts = sum(v for k, v in cells.items() if re.fullmatch(r"LUT\d", k))
        ffs = sum(v for k, v in cells.items() if re.fullmatch(r"FD\w*", k))
        ram = sum(v for k, v in cells.items() if k.startswith("RAM"))
        bram = sum(v for k, v in cells.items() if k.startswith("RAMB"))
        muxes = sum(v for k, v in cells.items() if k.startswith("MUXF"))
        carry = sum(v for k, v in cells.items() if k.startswith("CARRY"))
        out[name] = {"luts": luts, "ffs": ffs, "lutram_cells": ram - bram,
                     "bram": bram, "muxf": muxes, "carry4": carry}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unit", default="hwse", choices=sorted(UNITS))
    ap.add_argument("--hw", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--depths", default="32,64,128", help="hwse: FIFO depths")
    ap.add_argument("--sizes", default="table1,small",
                    help="nexus: " + ", ".join(NEXUS_SIZES))
    ap.add_argument("--xlen", type=int, default=32,
                    help="register width (the paper's cluster is 32-bit)")
    ap.add_argument("--xilinx", action="store_true")
    ap.add_argument("--modules", action="store_true",
                    help="synth_xilinx per module, hierarchy kept (slow)")
    ap.add_argument("--no-generic", action="store_true",
                    help="skip the generic flow (with --xilinx / --modules)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    if a.no_generic and a.check:
        ap.error("--check needs the generic flow's figures")

    if a.unit == "nexus":
        nexus(a)
        return
    results = []
    for depth in [int(d) for d in a.depths.split(",")]:
        params = {"XLEN": a.xlen, "FIFO_DEPTH": depth}
        with tempfile.TemporaryDirectory() as w:
            r = {"unit": a.unit, "fifo_depth": depth, "xlen": a.xlen}
            if not a.no_generic:
                r.update(generic(a.hw, a.unit, params, w))
            if a.xilinx:
                r["xilinx"] = xilinx(a.hw, a.unit, params, w)
            if a.modules:
                r["xilinx_modules"] = xilinx_modules(a.hw, a.unit, params, w)
        print(json.dumps(r), flush=True)
        results.append(r)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)

    if a.check:
        for r in results:
            d = r["fifo_depth"]
            assert r["memories"] >= 1, r
            assert r["memory_bits"] == d * a.xlen, (
                f"FIFO of {d} x {a.xlen} bits should be one memory: {r}")
            # The FIFO's storage is mapped to at least one flop per bit.
            assert r["flip_flops"] >= r["memory_bits"], r
            assert r["comb_transistors"] > 0 and r["ltp_gates"] > 0, r
            check_xilinx(r)
        for small, big in zip(results, results[1:]):
            assert big["fifo_depth"] > small["fifo_depth"]
            for k in ("memory_bits", "flip_flops", "comb_transistors", "kge"):
                assert big[k] > small[k], f"{k} does not grow with the FIFO: {small} {big}"
        print("area.py: checks passed")


def check_xilinx(r):
    """With --xilinx: synth_xilinx mapped logic and flip-flops."""
    if "xilinx" in r:
        x = r["xilinx"]
        assert x["luts"] > 0 and x["ffs"] > 0, f"synth_xilinx mapped nothing: {r}"


def nexus(a):
    results = []
    for name in a.sizes.split(","):
        params = NEXUS_SIZES[name]
        with tempfile.TemporaryDirectory() as w:
            r = {"unit": "nexus", "sizes": name, **params}
            if not a.no_generic:
                r.update(generic(a.hw, "nexus", params, w, map_memories=False))
            if a.xilinx:
                r["xilinx"] = xilinx(a.hw, "nexus", params, w)
            if a.modules:
                r["xilinx_modules"] = xilinx_modules(a.hw, "nexus", params, w)
        print(json.dumps(r), flush=True)
        results.append(r)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    if a.check:
        for p in results:
            r = p
            # The Task Pool's parameters alone: POOL x PARAMS x 66 bits.
            assert r["memory_bits"] >= p["POOL"] * p["PARAMS"] * 66, r
            assert r["memories"] >= 10, r
            assert r["comb_transistors"] > 0 and r["flip_flops"] > 0, r
            assert r["ltp_gates"] > 0, r
            assert r["flip_flops"] >= p["POOL"] + 16 * 64, (
                f"live bits and the Task Buffer's keys are flip-flops: {r}")
            check_xilinx(r)
        by = {r["sizes"]: r for r in results}
        if "table1" in by and "small" in by:
            assert by["table1"]["memory_bits"] > by["small"]["memory_bits"]
        print("area.py: checks passed")


if __name__ == "__main__":
    main()
