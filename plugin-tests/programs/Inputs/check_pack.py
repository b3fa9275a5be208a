"""Prints what plugin-tests/programs/build-pack.test checks in a pack: the manifest's programs,
builds, arguments, checks and flags, that every file hash in it matches, the shipped CUDA
runtime and host runtimes, where nvopt's commit came from, the size limit and the device script's files."""
import hashlib
import json
import os
import sys

pack = sys.argv[1]
m = json.load(open(os.path.join(pack, "manifest.json")))
print("programs", len(m["programs"]), "builds", ",".join(m["builds"]))
bad = []
for p in m["programs"]:
    cmp = (p["compare"] or {}).get("regex", "").split(" ")[0] if p["compare"] else None
    print(p["name"], p["group"], f"run={p['run']}", "args=" + " ".join(p["args"]),
          f"check={p['check']}", f"compare={cmp}")
    for b in m["builds"]:
        info = p["builds"][b]
        print(b, info["nvcc"])
        for name, digest in info["sha256"].items():
            path = os.path.join(pack, info["path"], name)
            if hashlib.sha256(open(path, "rb").read()).hexdigest() != digest:
                bad.append(path)
    for rel, digest in p["data"].items():
        path = os.path.join(pack, p["workdir"], rel)
        if hashlib.sha256(open(path, "rb").read()).hexdigest() != digest:
            bad.append(path)
print("files:", "every hash matches" if not bad else "MISMATCH " + " ".join(bad))
print(m["cudart_lib"], os.path.exists(os.path.join(pack, m["cudart_lib"])))
print("host libs:", " ".join(f"{x}={os.path.exists(os.path.join(pack, x))}" for x in m["host_libs"]))
print("nvopt commit from", m["nvopt_git_from"])
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(pack) for f in fs)
print("size under 64 MiB:", size < 64 * 2**20 and m["size_bytes"] < 64 * 2**20)
print("device:", " ".join(f for f in ("run.sh", "device/device.py", "device/kerneltime.c")
                          if os.path.exists(os.path.join(pack, f))))
