"""nv-remat's measurement (issue 17 item 3): every bench kernel through clang, `nvopt<O3>` and
llc with the plugin, once without nv-remat (`-do-remat=0`) and once with it, at each register
cap (`-nv-maxreg=N` for llc and `-maxrregcount N` for ptxas; 0 = no cap), then `ptxas -v`.
Prints per kernel registers and spill bytes (stores + loads) for both, the geomeans, and llc's
time summed over the files. Needs ptxas ($NVOPT_NVIDIA_BIN, else the wheels of scripts/nvidia-tools.sh).

    python3 -m nvopt_tools.remat_measure [--caps 0,32,24] [--kernels STEM]... [--knob K=V]...
"""
import argparse
import math
import os
import re
import subprocess
import tempfile
import time

from nvopt_tools import paths

OPT = f"{paths.LLVM_BIN}/opt"
LLC = f"{paths.LLVM_BIN}/llc"
PTXAS = os.path.join(os.environ.get("NVOPT_NVIDIA_BIN")
                     or os.path.join(paths.nvidia_cu13() or "", "bin"), "ptxas")
FUNC = re.compile(r"Compiling entry function '(\w+)'")
REGS = re.compile(r"Used (\d+) registers")
SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def ptxas(ptx, cap):
    cmd = [PTXAS, "-arch=sm_90", "-v", ptx, "-o", os.devnull]
    if cap:
        cmd += ["-maxrregcount", str(cap)]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    out, name = {}, None
    for line in err.splitlines():
        if m := FUNC.search(line):
            name = m.group(1)
        elif name and (m := SPILL.search(line)):
            out.setdefault(name, [0, 0])[1] = int(m.group(1)) + int(m.group(2))
        elif name and (m := REGS.search(line)):
            out.setdefault(name, [0, 0])[0] = int(m.group(1))
    return out


def geomean(xs):
    return math.exp(sum(math.log(x + 1) for x in xs) / len(xs)) - 1 if xs else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caps", default="0,32,24")
    ap.add_argument("--kernels", action="append")
    ap.add_argument("--knob", action="append", default=[])
    a = ap.parse_args()
    plugin = paths.PLUGIN
    files = [f for f in paths.cuda_files("bench/kernels")
             if not a.kernels or os.path.basename(f)[:-3] in a.kernels]
    knobs = [f"-{k}" for k in a.knob]
    with tempfile.TemporaryDirectory() as tmp:
        irs = []
        for cu in files:
            stem = os.path.basename(cu)[:-3]
            bc, opt = os.path.join(tmp, stem + ".bc"), os.path.join(tmp, stem + ".opt.bc")
            subprocess.run(paths.device_ir_cmd(cu, bc), check=True, capture_output=True)
            subprocess.run([OPT, f"-load-pass-plugin={plugin}", "-passes=nvopt<O3>", bc, "-o", opt],
                           check=True, capture_output=True)
            irs.append((stem, opt))
        for cap in [int(c) for c in a.caps.split(",")]:
            rows, times = {}, {"off": 0.0, "on": 0.0}
            for stem, opt in irs:
                for side, extra in (("off", ["-do-remat=0"]), ("on", [])):
                    ptx = os.path.join(tmp, f"{stem}.{side}.{cap}.ptx")
                    cmd = [LLC, f"--load-pass-plugin={plugin}", "-O3", "-mcpu=sm_90", *knobs, *extra,
                           f"-nv-maxreg={cap}", opt, "-o", ptx]
                    t = time.perf_counter()
                    subprocess.run(cmd, check=True, capture_output=True)
                    times[side] += time.perf_counter() - t
                    for k, v in ptxas(ptx, cap).items():
                        rows.setdefault(f"{stem}:{k}", {})[side] = v
            print(f"## cap {cap or 'none'}: registers and spill bytes, without / with nv-remat")
            print("| kernel | regs off | regs on | spill off | spill on |\n|---|---|---|---|---|")
            for name, r in sorted(rows.items()):
                off, on = r["off"], r["on"]
                mark = "" if off == on else " *"
                print(f"| {name}{mark} | {off[0]} | {on[0]} | {off[1]} | {on[1]} |")
            regs = [(r["off"][0], r["on"][0]) for r in rows.values()]
            spill = [(r["off"][1], r["on"][1]) for r in rows.values()]
            print(f"\ngeomean registers {geomean([x for x, _ in regs]):.2f} -> {geomean([y for _, y in regs]):.2f}; "
                  f"spill bytes total {sum(x for x, _ in spill)} -> {sum(y for _, y in spill)}, "
                  f"geomean(+1) {geomean([x for x, _ in spill]):.2f} -> {geomean([y for _, y in spill]):.2f}; "
                  f"kernels changed {sum(1 for r in rows.values() if r['off'] != r['on'])}/{len(rows)}; "
                  f"worst register change {max(y - x for x, y in regs):+d}; "
                  f"llc time {times['off']:.2f}s -> {times['on']:.2f}s\n")


if __name__ == "__main__":
    main()
