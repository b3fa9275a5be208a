# The compilers the bench compares and their command lines per optimization level
# (docs/ARCHITECTURE.md "Measuring"; docs/CICC-FACTS.md "Two optimizers inside
# cicc 13.5" for the optional nvvm-latest column), and the `nvopt:NAME` variant columns that
# rerun only nvopt's llc on nvopt's optimized IR with extra knobs (--variant). Each compiler is
# a list of steps; a step is one tool invocation whose wall time and CPU time (user + system,
# from the kernel's accounting of that child) the bench measures.
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

from nvopt_tools.bench.tools import ROOT, device_ir_cmd, llc_opt_level

ARCH = "sm_90"
COMPILERS = ("upstream", "nvopt", "nvidia", "nvvm-latest")
DEFAULT_COMPILERS = ("upstream", "nvopt", "nvidia")

# level -> upstream opt pipeline, nvcc flags. llc runs at paths.llc_opt_level for both
# LLVM compilers (-O0 at every Ofc level, as cicc); upstream has no fast-compile levels, so
# its optimizer runs default<O1> (mem2reg, SROA, simple loop passes) for Ofcmax/Ofcmid and
# default<O2> for Ofcmin, the nearest upstream pipelines in spirit.
LEVELS = {
    "O0": ("default<O0>", ["-Xcicc", "-O0"]),
    "O1": ("default<O1>", ["-Xcicc", "-O1"]),
    "O2": ("default<O2>", ["-Xcicc", "-O2"]),
    "O3": ("default<O3>", []),  # nvcc passes no -O to cicc: its device default is O3
    "Ofcmax": ("default<O1>", ["--Ofast-compile=max"]),
    "Ofcmid": ("default<O1>", ["--Ofast-compile=mid"]),
    "Ofcmin": ("default<O2>", ["--Ofast-compile=min"]),
}
# cicc in libnvvm mode takes -opt=N (it rejects -ON) and -Ofast-compile=LEVEL.
CICC_LEVEL = {"O0": ["-opt=0"], "O1": ["-opt=1"], "O2": ["-opt=2"], "O3": ["-opt=3"],
              "Ofcmax": ["-Ofast-compile=max"], "Ofcmid": ["-Ofast-compile=mid"],
              "Ofcmin": ["-Ofast-compile=min"]}

# NVVM's data layout for 64-bit NVPTX (as cicc nvvm-latest prints it when a module differs) and
# the version tag libnvvm wants (docs/CICC-FACTS.md "Two optimizers inside cicc 13.5").
NVVM_DATALAYOUT = ("e-p:64:64:64-p6:32:32:32-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"
                   "i128:128:128-f32:32:32-f64:64:64-f128:128:128-v16:16:16-v32:32:32-v64:64:64-"
                   "v128:128:128-n16:32:64-a:8:8")


@dataclass
class Step:
    name: str            # clang, opt, llc, nvcc, cicc: the timing key
    argv: list
    stdout: str = ""     # file that receives stdout ("" = captured and discarded)


@dataclass
class Outcome:
    ok: bool = True
    step: str = ""
    message: str = ""
    times: dict = field(default_factory=dict)   # step name -> [seconds per repetition]


def run_step(step, cwd):
    """Runs one step; returns (ok, seconds, stderr text). `seconds` is the wall time; the
    child's CPU time (user + system, os.wait4's rusage) is in LAST_CPU[0] afterwards. CPU time
    is the steadier figure on a shared machine: time the VM spends elsewhere is not in it."""
    out = open(os.path.join(cwd, step.stdout), "w") if step.stdout else subprocess.DEVNULL
    err = tempfile.TemporaryFile(mode="w+")
    t0 = time.perf_counter()
    LAST_CPU[0] = 0.0
    try:
        proc = subprocess.Popen(step.argv, cwd=cwd, stdout=out, stderr=err, text=True)
        status, usage = wait_with_usage(proc, 600)
    finally:
        if step.stdout:
            out.close()
    secs = time.perf_counter() - t0
    err.seek(0)
    stderr = err.read()
    err.close()
    if status is None:
        return False, 600.0, f"{step.name} timed out after 600 s"
    LAST_CPU[0] = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        text = stderr.strip() or f"(no stderr; exit {code})"
        return False, secs, f"exit {code}: {tail(text)}"
    return True, secs, stderr


LAST_CPU = [0.0]   # CPU seconds of the last run_step's child
CPU_SUFFIX = "_cpu"  # a step's CPU-time key: opt -> opt_cpu (its wall time keeps the step's name)


def wait_with_usage(proc, timeout):
    """Waits for `proc` (up to `timeout` seconds, then kills it); returns (wait status,
    rusage), or (None, None) when it timed out."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return status, usage
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            proc.returncode = -9
            return None, None
        time.sleep(0.002)


# valgrind's callgrind counts the instructions a step executes: the same count on every run and
# every machine load, unlike its time (bench.py --count-instructions). The output file is not
# needed; the total is the "Collected : N" line on stderr.
COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.M)


def count_instructions(step, cwd, valgrind):
    """Runs `step` once under `valgrind --tool=callgrind`; returns (instructions, error)."""
    counted = Step(step.name, [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               *step.argv], step.stdout)
    ok, _, msg = run_step(counted, cwd)
    if not ok:
        return None, f"{step.name} under valgrind: {msg}"
    m = COLLECTED.search(msg)
    if not m:
        return None, f"{step.name} under valgrind: no 'Collected :' line in its output"
    return int(m.group(1)), ""


def tail(text, n=12):
    lines = text.strip().splitlines()
    return "\n".join(lines[-n:])


def clang_step(tools, src):
    return Step("clang", device_ir_cmd(src, "k.bc", clang=tools.llvm("clang++")))


def pipeline(compiler, tools, level, src, knobs, maxreg=None):
    """Timed steps that turn k.bc (or the .cu for nvidia) into <compiler>.ptx. `maxreg`
    (bench.py --maxreg) reaches NVIDIA's optimizers here: nvcc -maxrregcount (which gives cicc
    -maxreg) and libnvvm's -maxreg=N; nvopt gets it as a knob (bench.py adds it to `knobs`) and
    every column's ptxas as -maxrregcount (ptxas_cmd)."""
    up_opt, nvcc_flags = LEVELS[level]
    nvcc_cap = ["-maxrregcount", str(maxreg)] if maxreg else []
    cicc_cap = [f"-maxreg={maxreg}"] if maxreg else []
    llc_level = llc_opt_level(level)
    knob_args = [f"-{k}" for k in knobs]
    if compiler == "upstream":
        return [Step("opt", [tools.llvm("opt"), f"-passes={up_opt}", "k.bc", "-o", "upstream.bc"]),
                Step("llc", [tools.llvm("llc"), llc_level, f"-mcpu={ARCH}", "upstream.bc",
                             "-o", "upstream.ptx"])]
    if compiler == "nvopt":
        return [Step("opt", [tools.llvm("opt"), f"-load-pass-plugin={tools.plugin}", *knob_args,
                             f"-passes=nvopt<{level}>", "k.bc", "-o", "nvopt.bc"]),
                Step("llc", [tools.llvm("llc"), f"--load-pass-plugin={tools.plugin}", *knob_args,
                             llc_level, f"-mcpu={ARCH}",
                             "nvopt.bc", "-o", "nvopt.ptx"])]
    if compiler == "nvidia":
        return [Step("nvcc", [tools.nv("nvcc"), "-ptx", f"-arch={ARCH}", "-I", os.path.join(ROOT, "include"),
                              *nvcc_flags, *nvcc_cap, src, "-o", "nvidia.ptx"])]
    if compiler == "nvvm-latest":
        return [Step("cicc", [tools.cicc(), "-libnvvm", "-arch=compute_90", "-nvvm-version=nvvm-latest",
                              *CICC_LEVEL[level], *cicc_cap, "k.nvvm.bc", "-o", "nvvm-latest.ptx"])]
    raise ValueError(compiler)


def variant_file(column):
    """File stem of a compiler column: `nvopt:NAME` -> `nvopt-NAME` (no ':' in file names)."""
    return column.replace(":", "-")


def variant_llc(tools, level, knobs, name, vknobs):
    """The one timed step of variant column nvopt:NAME: nvopt's llc (plugin, --knob knobs) plus
    the variant's knobs, on nvopt.bc (the nvopt column's optimized IR) -> nvopt-NAME.ptx."""
    return Step("llc", [tools.llvm("llc"), f"--load-pass-plugin={tools.plugin}",
                        *[f"-{k}" for k in [*knobs, *vknobs]], llc_opt_level(level), f"-mcpu={ARCH}",
                        "nvopt.bc", "-o", f"{variant_file('nvopt:' + name)}.ptx"])


def ptxas_cmd(tools, stem, maxreg=None):
    """ptxas -v on <stem>.ptx -> <stem>.cubin, under the register cap of --maxreg if any."""
    cap = [f"-maxrregcount={maxreg}"] if maxreg else []
    return [tools.nv("ptxas"), f"-arch={ARCH}", "-v", *cap, f"{stem}.ptx", "-o", f"{stem}.cubin"]


def verify_steps(compiler, tools, level, knobs):
    """Untimed checks run once: opt -verify-each, llc -verify-machineinstrs (LLVM compilers)."""
    steps = pipeline(compiler, tools, level, "", knobs)
    if compiler not in ("upstream", "nvopt"):
        return []
    opt, llc = steps
    return [Step("opt -verify-each", opt.argv[:-2] + ["-verify-each", "-o", os.devnull]),
            Step("llc -verify-machineinstrs", llc.argv[:-2] + ["-verify-machineinstrs", "-o", os.devnull])]


def preconditions(compiler, tools):
    """'' when the compiler can run, else the reason it cannot."""
    if compiler == "nvopt" and tools.plugin_error:
        return tools.plugin_error
    if compiler == "nvidia" and not (tools.nvidia_bin and os.path.exists(tools.nv("nvcc"))):
        return "nvcc not available (scripts/nvidia-tools.sh failed)"
    if compiler == "nvvm-latest" and not (tools.nvvm_bin and os.path.exists(tools.cicc())):
        return "cicc not available (scripts/nvidia-tools.sh failed)"
    return ""


def make_nvvm_input(tools, cwd):
    """k.bc -> k.nvvm.bc with NVVM's data layout and !nvvmir.version (docs/CICC-FACTS.md "Two
    optimizers inside cicc 13.5")."""
    dis = subprocess.run([tools.llvm("llvm-dis"), "k.bc", "-o", "-"], cwd=cwd, capture_output=True, text=True)
    if dis.returncode != 0:
        return f"llvm-dis failed: {tail(dis.stderr)}"
    text = re.sub(r'^target datalayout = ".*"$', f'target datalayout = "{NVVM_DATALAYOUT}"',
                  dis.stdout, count=1, flags=re.M)
    free = 1 + max([int(n) for n in re.findall(r"^!(\d+) = ", text, flags=re.M)] or [0])
    text += f"\n!nvvmir.version = !{{!{free}}}\n!{free} = !{{i32 2, i32 0}}\n"
    asm = subprocess.run([tools.llvm("llvm-as"), "-", "-o", "k.nvvm.bc"], cwd=cwd, input=text,
                         capture_output=True, text=True)
    return "" if asm.returncode == 0 else f"llvm-as failed: {tail(asm.stderr)}"
