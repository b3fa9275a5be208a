"""The pack: one folder a GPU machine runs as is (docs/PROGRAMS.md).

    PACK/manifest.json            programs, builds, arguments, checks, flags, hashes
    PACK/run.sh                   the device script (bash run.sh [RESULTS_DIR])
    PACK/device/                  device.py, kerneltime.c (and kerneltime.so when given)
    PACK/lib/libcudart.so.N       the CUDA runtime, once (every build links it dynamically)
    PACK/lib/libomp.so.5 ...      host runtimes a build links (HOST_RUNTIME_LIBS), once
    PACK/bin/BUILD/NAME/FILE      each build's outputs
    PACK/data/NAME/               each program's input files and its working folder

Only programs that built in all three ways, each executable holding SASS for the pack's
architecture and no PTX (checked with the CUDA layout's cuobjdump), are packed; the pack must stay under the size limit
(64 MiB: what a device run carries)."""
import datetime
import glob
import json
import os
import re
import shutil
import subprocess

from . import build as buildmod
from .config import BUILDS, VARIANTS

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE_FILES = ("device.py", "kerneltime.c")


class PackError(Exception):
    pass


def statuses(cfg, work, only=None):
    rows = []
    for p in cfg["programs"]:
        if only and p["name"] not in only and p["group"] not in only:
            continue
        st = {}
        for b in BUILDS:
            path = os.path.join(work, b, p["name"] + ".json")
            if os.path.exists(path):
                with open(path) as f:
                    st[b] = json.load(f)
        rows.append((p["name"], st))
    return rows


def nvopt_source(prefix):
    """nvopt's commit for the manifest: what scripts/install.sh recorded in the prefix the builds
    used (PREFIX/share/nvopt/source), else the checkout's HEAD now, and which of the two."""
    path = os.path.join(prefix, "share", "nvopt", "source")
    if os.path.exists(path):
        with open(path) as f:
            rev = f.read().strip()
        if rev and rev != "unknown":
            return rev, "installed prefix"
    return _git_rev(), "checkout HEAD at pack time (the prefix records no commit)"


def _git_rev():
    try:
        return subprocess.run(["git", "-C", buildmod.ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def cudart_lib(cuda):
    libs = sorted(glob.glob(os.path.join(cuda, "lib64", "libcudart.so.*")) +
                  glob.glob(os.path.join(cuda, "lib", "libcudart.so.*")), key=len)
    if not libs:
        raise PackError(f"no libcudart.so.N in {cuda}/lib64")
    return libs[0]


# Host runtime libraries a build may link that a GPU machine need not have (LLVM's OpenMP runtime
# for clang's -fopenmp, GCC's for nvcc's -Xcompiler -fopenmp): shipped in PACK/lib beside
# libcudart when a packed executable needs one. CUDA's own libraries (cuBLAS, cuRAND) come
# from the GPU machine's CUDA installation, and the C/C++ runtimes from its system.
HOST_RUNTIME_LIBS = ("libomp.so", "libgomp.so")


def host_runtime_libs(exe):
    """{soname: path here} of HOST_RUNTIME_LIBS that `exe` loads (ldd)."""
    try:
        out = subprocess.run(["ldd", exe], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) => (/\S+)", line)
        if m and m.group(1).startswith(HOST_RUNTIME_LIBS):
            found[m.group(1)] = m.group(2)
    return found


def folder_size(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


def device_code(path, cuobjdump):
    """The architectures of the cubins and of the PTX embedded in an executable:
    ({'sm_90'}, {'compute_75'}) from `cuobjdump -lelf -lptx`."""
    p = subprocess.run([cuobjdump, "-lelf", "-lptx", path], capture_output=True, text=True)
    elf = set(re.findall(r"ELF file\s+\d+:.*\.(sm_\d+a?)\.cubin", p.stdout))
    ptx = set(re.findall(r"PTX file\s+\d+:.*\.(sm_\d+a?|compute_\d+a?)\.ptx", p.stdout))
    return elf, ptx


def arch_problem(path, cuobjdump, arch):
    """Why an executable does not hold the device code a pack needs (SASS for arch only, no PTX
    for the driver to JIT: a build whose recipe reached another compiler, or none), or None."""
    elf, ptx = device_code(path, cuobjdump)
    if ptx:
        return f"{os.path.basename(path)} embeds PTX ({', '.join(sorted(ptx))})"
    if elf != {arch}:
        return (f"{os.path.basename(path)} holds SASS for {', '.join(sorted(elf)) or 'nothing'},"
                f" not only {arch}")
    return None


def observed_seconds(runs_tsvs):
    """Per program, how long one run took on a GPU in earlier device runs (their runs.tsv): the
    median over finished runs, or the longest timeout when none finished. The device script
    schedules by it (device.py: round_order, fits)."""
    per, cut = {}, {}
    for path in runs_tsvs:
        with open(path) as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(head, line.rstrip("\n").split("\t")))
                if r.get("round") == "memcheck" or not r.get("seconds"):
                    continue
                secs = float(r["seconds"])
                if r.get("rc") == "timeout":
                    cut[r["program"]] = max(cut.get(r["program"], 0.0), secs)
                elif r.get("rc") not in (None, "", "oserror"):
                    per.setdefault(r["program"], []).append(secs)
    out = {k: round(sorted(v)[len(v) // 2], 2) for k, v in per.items()}
    for k, v in cut.items():
        out.setdefault(k, round(v, 2))
    return out


def sass_text(path, cuobjdump):
    p = subprocess.run([cuobjdump, "-sass", path], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def pack(cfg, work, out, cuda, only=None, limit_mib=64, kerneltime_so=None, observed=None,
         variants=(), variants_only=None):
    if os.path.exists(out):
        if os.listdir(out) and not os.path.exists(os.path.join(out, "manifest.json")):
            raise PackError(f"{out} exists and is not a pack: not overwriting it")
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "lib"))
    lib = cudart_lib(cuda)
    shutil.copy2(os.path.realpath(lib), os.path.join(out, "lib", os.path.basename(lib)))
    os.makedirs(os.path.join(out, "device"))
    for f in DEVICE_FILES:
        shutil.copy2(os.path.join(HERE, f), os.path.join(out, "device", f))
    if kerneltime_so:
        shutil.copy2(kerneltime_so, os.path.join(out, "device", "kerneltime.so"))
    shutil.copy2(os.path.join(HERE, "run.sh"), os.path.join(out, "run.sh"))
    os.chmod(os.path.join(out, "run.sh"), 0o755)
    progs, left_out, host_libs = [], {}, {}
    cuobjdump = shutil.which("cuobjdump", path=os.path.join(cuda, "bin"))
    m = re.search(r"code=(sm_\d+a?)", cfg["defaults"]["arch_flags"])
    arch = m.group(1) if m else None
    cuobjdump = cuobjdump if arch else None
    for p in cfg["programs"]:
        if only and p["name"] not in only and p["group"] not in only:
            continue
        if p["skip"]:
            left_out[p["name"]] = f"skipped: {p['skip']}"
            continue
        st = {}
        for b in BUILDS:
            path = os.path.join(work, b, p["name"] + ".json")
            if os.path.exists(path):
                with open(path) as f:
                    st[b] = json.load(f)
        bad = [b for b in BUILDS if not st.get(b, {}).get("ok")]
        if bad:
            left_out[p["name"]] = "not built by " + ", ".join(bad)
            continue
        if cuobjdump:
            why = [f"{b}: {w}" for b in BUILDS for w in [arch_problem(
                os.path.join(work, b, p["name"], p["workdir"], p["outputs"][0]), cuobjdump,
                arch)] if w]
            if why:
                left_out[p["name"]] = "; ".join(why)
                continue
        entry = {k: p[k] for k in ("name", "group", "args", "check", "fail", "compare", "notes",
                                   "timeout")}
        if observed and p["name"] in observed:
            entry["observed_seconds"] = observed[p["name"]]
        entry["run"] = os.path.basename(p["outputs"][0])
        entry["workdir"] = f"data/{p['name']}"
        entry["build_command"] = p["build"]
        entry["builds"] = {}
        for b in BUILDS:
            dest = os.path.join(out, "bin", b, p["name"])
            os.makedirs(dest, exist_ok=True)
            files = {}
            for o in p["outputs"]:
                src = os.path.join(work, b, p["name"], p["workdir"], o)
                d = os.path.join(dest, os.path.basename(o))
                shutil.copy2(src, d)
                files[os.path.basename(o)] = buildmod.file_hash(d)
            entry["builds"][b] = {"path": f"bin/{b}/{p['name']}", "nvcc": st[b]["nvcc"],
                                  "sha256": files}
            host_libs.update(host_runtime_libs(os.path.join(dest, entry["run"])))
        entry["variants"], entry["variants_same_sass"] = [], []
        for v in variants:
            if variants_only and p["name"] not in variants_only and \
                    p["group"] not in variants_only:
                continue
            path = os.path.join(work, v, p["name"] + ".json")
            vst = json.load(open(path)) if os.path.exists(path) else {}
            exe = os.path.join(work, v, p["name"], p["workdir"], p["outputs"][0])
            if not vst.get("ok") or not cuobjdump or arch_problem(exe, cuobjdump, arch):
                continue
            if sass_text(exe, cuobjdump) == sass_text(os.path.join(
                    work, "nvopt", p["name"], p["workdir"], p["outputs"][0]), cuobjdump):
                entry["variants_same_sass"].append(v)
                continue
            dest = os.path.join(out, "bin", v, p["name"])
            os.makedirs(dest, exist_ok=True)
            files = {}
            for o in p["outputs"]:
                d = os.path.join(dest, os.path.basename(o))
                shutil.copy2(os.path.join(work, v, p["name"], p["workdir"], o), d)
                files[os.path.basename(o)] = buildmod.file_hash(d)
            entry["builds"][v] = {"path": f"bin/{v}/{p['name']}", "nvcc": vst["nvcc"],
                                  "sha256": files}
            entry["variants"].append(v)
        ddir = os.path.join(out, "data", p["name"])
        os.makedirs(ddir, exist_ok=True)
        entry["data"] = {}
        for src, rel in p["data"]:
            d = os.path.join(ddir, rel)
            if os.path.isdir(src):
                shutil.copytree(src, d, dirs_exist_ok=True)
            else:
                os.makedirs(os.path.dirname(d), exist_ok=True)
                shutil.copy2(src, d)
                entry["data"][rel] = buildmod.file_hash(d)
        progs.append(entry)
    for soname, path in sorted(host_libs.items()):
        shutil.copy2(os.path.realpath(path), os.path.join(out, "lib", soname))
    tools = {k: v for k, v in buildmod.tool_hashes(cuda, os.path.join(work, "nvopt-prefix"))
             .items()}
    nvopt_rev, nvopt_from = nvopt_source(os.path.join(work, "nvopt-prefix"))
    manifest = {
        "format": "nvopt-programs-pack 1",
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "nvopt_git": nvopt_rev,
        "nvopt_git_from": nvopt_from,
        "builds": list(BUILDS),
        "variants": {v: list(VARIANTS[v]) for v in variants},
        "arch_flags": cfg["defaults"]["arch_flags"],
        "cudart": cfg["defaults"]["cudart"],
        "cudart_lib": f"lib/{os.path.basename(lib)}",
        "host_libs": [f"lib/{x}" for x in sorted(host_libs)],
        "tool_sha256": tools,
        "programs": progs,
        "left_out": left_out,
        "device_code_checked": bool(cuobjdump),
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    size = folder_size(out)
    manifest["size_bytes"] = size
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    if size > limit_mib * 2**20:
        raise PackError(f"pack is {size / 2**20:.1f} MiB, over the {limit_mib} MiB limit: "
                        "leave programs out (--only) or shrink their data")
    return manifest
