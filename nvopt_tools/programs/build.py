"""The three builds of every program: a fresh copy of its sources per build under
WORK/<build>/<name>/, the program's build command run there with $NVCC set to that build's
compiler (docs/PROGRAMS.md). A build whose program entry, compiler and compiler binaries are
unchanged since its last success is not redone. Each build leaves WORK/<build>/<name>.json
(ok, seconds, the command, the log's tail) and WORK/<build>/<name>.log."""
import concurrent.futures
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import time

from .config import BUILDS, VARIANTS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def file_hash(path, algo="sha256"):
    h = hashlib.new(algo)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def default_cuda():
    for c in (os.environ.get("NVOPT_CUDA_PATH"), os.path.join(ROOT, "build", "cuda")):
        if c and os.path.exists(os.path.join(c, "bin", "nvcc")):
            return c
    return None


def install_nvopt(prefix):
    """A copy of the built driver and plugin (scripts/install.sh --no-build), so that a rebuild
    in the checkout during a long corpus build changes nothing."""
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "install.sh"), "--no-build",
                    "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    return prefix


def compilers(cuda, prefix):
    """The compiler command of each build (without arch or cudart flags)."""
    drv = shlex.quote(os.path.join(prefix, "bin", "nvopt-cc"))
    cp = shlex.quote(cuda)
    comp = {
        "nvcc": shlex.quote(os.path.join(cuda, "bin", "nvcc")),
        "upstream": f"{drv} --upstream --cuda-path={cp}",
        "nvopt": f"{drv} --cuda-path={cp}",
    }
    for name, knobs in VARIANTS.items():
        comp[name] = f"{drv} --cuda-path={cp}" + "".join(f" --knob {k}" for k in knobs)
    return comp


def tool_hashes(cuda, prefix):
    paths = {"nvcc": os.path.join(cuda, "bin", "nvcc"),
             "ptxas": os.path.join(cuda, "bin", "ptxas"),
             "nvopt-cc": os.path.join(prefix, "bin", "nvopt-cc"),
             "libnvopt.so": os.path.join(prefix, "lib", "libnvopt.so")}
    return {k: file_hash(v) for k, v in paths.items() if os.path.exists(v)}


def nvcc_flags(defaults, compiler):
    return " ".join(x for x in (compiler, defaults["arch_flags"], defaults["cudart"]) if x)


def _key(program, build, cmd, hashes):
    blob = json.dumps([program, build, cmd, hashes], sort_keys=True, default=list)
    return hashlib.sha256(blob.encode()).hexdigest()


def _copy(src, dest):
    if os.path.isdir(src):
        shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
    else:
        os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
        shutil.copy2(src, dest)


def build_one(program, build, work, defaults, comp, hashes, force=False, log=print):
    name = program["name"]
    status_path = os.path.join(work, build, name + ".json")
    tree = os.path.join(work, build, name)
    nvcc = nvcc_flags(defaults, comp[build])
    key = _key(program, build, nvcc, {k: v for k, v in hashes.items()
                                      if build != "nvcc" or k in ("nvcc", "ptxas")})
    if not force and os.path.exists(status_path):
        with open(status_path) as f:
            old = json.load(f)
        if old.get("key") == key and old.get("ok") and all(
                os.path.exists(os.path.join(tree, program["workdir"], o))
                for o in program["outputs"]):
            return old
    if os.path.exists(tree):
        shutil.rmtree(tree)
    os.makedirs(tree)
    for src, dest in program["copy"]:
        _copy(src, os.path.join(tree, dest))
    cwd = os.path.join(tree, program["workdir"])
    os.makedirs(cwd, exist_ok=True)
    bindir = os.path.join(work, build, ".bin")
    os.makedirs(bindir, exist_ok=True)
    shim = os.path.join(bindir, "nvcc")
    with open(shim + ".tmp", "w") as f:
        f.write('#!/bin/sh\n# nvcc by name: the build\'s compiler ($NVCC, set by nvopt_tools.programs)\n'
                'exec $NVCC "$@"\n')
    os.chmod(shim + ".tmp", 0o755)
    os.replace(shim + ".tmp", shim)
    env = dict(os.environ)
    env.update({"NVCC": nvcc, "NVCC_BIN": comp[build], "ARCH_FLAGS": defaults["arch_flags"],
                "CUDART_FLAGS": defaults["cudart"], "CUDA_PATH": defaults["cuda"],
                "BUILD": build, "PATH": bindir + os.pathsep + env.get("PATH", "")})
    for k, v in list(defaults.get("env", {}).items()) + list(program["env"].items()):
        env[k] = os.path.expandvars(v.replace("$CUDA_PATH", defaults["cuda"]))
    t0 = time.time()
    logpath = os.path.join(work, build, name + ".log")
    with open(logpath, "w") as lf:
        lf.write(f"$ cd {cwd}\n$ NVCC='{nvcc}' {program['build']}\n")
        lf.flush()
        try:
            rc = subprocess.run(["bash", "-c", program["build"]], cwd=cwd, env=env, stdout=lf,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                timeout=defaults["build_timeout"]).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    missing = [o for o in program["outputs"] if not os.path.exists(os.path.join(cwd, o))]
    with open(logpath, errors="replace") as lf:
        tail = lf.read()[-2000:]
    status = {"name": name, "build": build, "ok": rc == 0 and not missing, "rc": rc,
              "missing": missing, "seconds": round(time.time() - t0, 1), "nvcc": nvcc,
              "command": program["build"], "key": key, "log_tail": tail}
    with open(status_path, "w") as f:
        json.dump(status, f, indent=1)
    log(f"{'ok  ' if status['ok'] else 'FAIL'} {build:8s} {name} ({status['seconds']} s)")
    return status


def build_all(cfg, work, cuda, prefix, only=None, builds=BUILDS, jobs=2, force=False, log=print):
    defaults = dict(cfg["defaults"], cuda=cuda)
    comp = compilers(cuda, prefix)
    hashes = tool_hashes(cuda, prefix)
    unknown = [b for b in builds if b not in comp]
    if unknown:
        raise ValueError(f"unknown build {', '.join(unknown)} (valid: {', '.join(comp)})")
    progs = [p for p in cfg["programs"] if not p["skip"] and (not only or p["name"] in only
                                                              or p["group"] in only)]
    tasks = [(p, b) for p in progs for b in builds]
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = [ex.submit(build_one, p, b, work, defaults, comp, hashes, force, log)
                for p, b in tasks]
        for f in futs:
            results.append(f.result())
    return results
