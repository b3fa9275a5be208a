"""The corpus description (a JSON file kept outside the repository; docs/PROGRAMS.md).

    {
      "defaults": {"arch_flags": "-gencode arch=compute_90,code=sm_90",
                   "cudart": "-cudart shared", "timeout": 30, "env": {"VAR": "value"}},
      "programs": [
        {"name": "rodinia/bfs", "group": "rodinia",
         "copy": [["/src/rodinia/cuda/bfs", "cuda/bfs"], ["/src/rodinia/common", "common"]],
         "workdir": "cuda/bfs",
         "build": "make NVCC=\\"$NVCC\\" CUDA_DIR=$CUDA_PATH",
         "outputs": ["bfs"],
         "data": [["/src/rodinia/data/bfs/graph65536.txt", "graph65536.txt"]],
         "args": ["graph65536.txt"],
         "check": "Result stored", "fail": "FAIL",
         "compare": {"regex": "sum = ([-0-9.e+]+)", "rtol": 1e-3},
         "notes": "one kernel per BFS level"}
      ]
    }

Per program: `copy` lists (source, destination) pairs copied into a fresh tree per build (a
source file or folder, a destination relative to the tree); `workdir` is where `build` runs
(bash, in that tree); `outputs` the files the build leaves there to pack (the first one is run);
`data` the input files the run needs (packed once, in the program's data folder, which is the
run's working folder); `args` the run's arguments (`{data}` becomes that folder's absolute
path); `check` a regex the output must match, `fail` one it must not; `compare` a regex whose
numbers (every group of every match) must equal the nvcc build's within `rtol`/`atol`;
`timeout` seconds per run; `env` extra variables for the build; `skip` a reason to leave the
program out. Relative sources are relative to the config file's folder. The build command sees
$NVCC (the compiler with the arch and cudart flags), $NVCC_BIN (the compiler alone),
$ARCH_FLAGS, $CUDART_FLAGS, $CUDA_PATH, $BUILD (nvcc, upstream or nvopt) and a PATH whose
first folder holds an `nvcc` that runs $NVCC (for Makefiles that call nvcc by name).
"""
import json
import os
import re

BUILDS = ("nvcc", "upstream", "nvopt")
# nvopt with one knob changed (nvopt-cc --knob ...): the defaults that were kept for kernel
# time against their register cost (the corpus ablation, docs/RESULTS.md), the one kept for
# registers against SASS instructions (nv-mul-wide-split), and llc's rotation-cost option that
# gives nvcc's loop layout, built beside the three builds so that a GPU run judges them by
# time. A variant is packed only for the programs whose SASS it changes.
VARIANTS = {
    "nvopt-no-stride-unroll": ("nv-disable-stride-loop-unroll=1",),
    "nvopt-no-asm-convergence": ("nv-disable-asm-convergence=1",),
    "nvopt-no-local-array-unroll": ("nv-disable-local-array-unroll=1",),
    "nvopt-no-machine-sink": ("nv-machine-sink=0",),
    # registers for SASS instructions the other way round: judged by time on the next GPU run
    "nvopt-no-mul-wide-split": ("nv-mul-wide-split-rule=0",),
    "nvopt-rotation-cost": ("force-precise-rotation-cost=1",),
}
DEFAULTS = {
    "arch_flags": "-gencode arch=compute_90,code=sm_90",
    "cudart": "-cudart shared",
    "timeout": 30,
    "build_timeout": 1200,
    "env": {},
}
PROGRAM_KEYS = {"name", "group", "copy", "workdir", "build", "outputs", "data", "args", "check",
                "fail", "compare", "notes", "timeout", "env", "skip"}


class ConfigError(Exception):
    pass


def load(path):
    """The config at path; relative sources in `copy` and `data` are relative to its folder."""
    with open(path) as f:
        try:
            raw = json.load(f)
        except json.JSONDecodeError as e:
            raise ConfigError(f"{path}: {e}") from None
    return parse(raw, where=path, base=os.path.dirname(os.path.abspath(path)))


def parse(raw, where="config", base="."):
    if not isinstance(raw, dict) or not isinstance(raw.get("programs"), list):
        raise ConfigError(f"{where}: needs an object with a 'programs' list")
    defaults = dict(DEFAULTS)
    defaults.update(raw.get("defaults", {}))
    programs = []
    names = set()
    for i, p in enumerate(raw["programs"]):
        programs.append(_program(p, defaults, f"{where}: programs[{i}]", base))
        if programs[-1]["name"] in names:
            raise ConfigError(f"{where}: program {programs[-1]['name']!r} is listed twice")
        names.add(programs[-1]["name"])
    return {"defaults": defaults, "programs": programs}


def _program(p, defaults, where, base="."):
    if not isinstance(p, dict):
        raise ConfigError(f"{where}: not an object")
    unknown = set(p) - PROGRAM_KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}")
    for key in ("name", "build", "outputs"):
        if key not in p:
            raise ConfigError(f"{where}: missing {key!r}")
    name = p["name"]
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*", name) or ".." in name:
        raise ConfigError(f"{where}: bad program name {name!r} (letters, digits, _.+- and /)")
    out = {
        "name": name,
        "group": p.get("group", name.split("/")[0]),
        "copy": [(os.path.join(base, c[0]), c[1]) for c in p.get("copy", [])],
        "workdir": p.get("workdir", "."),
        "build": p["build"],
        "outputs": list(p["outputs"]),
        "data": [(os.path.join(base, d[0]), d[1]) for d in p.get("data", [])],
        "args": [str(a) for a in p.get("args", [])],
        "check": p.get("check"),
        "fail": p.get("fail"),
        "compare": p.get("compare"),
        "notes": p.get("notes", ""),
        "timeout": p.get("timeout", defaults["timeout"]),
        "env": p.get("env", {}),
        "skip": p.get("skip"),
    }
    if not out["outputs"]:
        raise ConfigError(f"{where}: 'outputs' is empty")
    for pair in p.get("copy", []) + p.get("data", []):
        if len(pair) != 2 or os.path.isabs(pair[1]) or ".." in pair[1].split("/"):
            raise ConfigError(f"{where}: {list(pair)}: want [source, relative destination]")
    for key in ("check", "fail"):
        if out[key] is not None:
            try:
                re.compile(out[key])
            except re.error as e:
                raise ConfigError(f"{where}: {key} regex: {e}") from None
    if out["compare"] is not None:
        if not isinstance(out["compare"], dict) or "regex" not in out["compare"]:
            raise ConfigError(f"{where}: compare needs {{'regex': ..., 'rtol': ...}}")
        re.compile(out["compare"]["regex"])
    return out
