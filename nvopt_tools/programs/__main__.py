"""python3 -m nvopt_tools.programs {build,pack,report,static,status} ... (docs/PROGRAMS.md)."""
import argparse
import glob
import json
import os
import sys

from . import build as buildmod
from . import config as configmod
from . import device, pack as packmod, static as staticmod


def _common(p):
    p.add_argument("--config", required=True, help="the corpus description (JSON)")
    p.add_argument("--work", required=True, help="build folder (one tree per program and build)")
    p.add_argument("--only", nargs="*", help="program names or groups")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m nvopt_tools.programs",
                                 description="Real CUDA programs built by nvcc, nvopt-cc "
                                 "--upstream and nvopt-cc, packed for a GPU run.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build every program three ways")
    _common(b)
    b.add_argument("--cuda", help="CUDA layout (default: build/cuda)")
    b.add_argument("--nvopt-prefix", help="an installed nvopt (default: WORK/nvopt-prefix, "
                   "installed from the checkout's build when missing)")
    b.add_argument("--refresh-nvopt", action="store_true",
                   help="reinstall WORK/nvopt-prefix from the checkout's build first")
    b.add_argument("--builds", default=",".join(configmod.BUILDS),
                   help="comma-separated: " + ", ".join(configmod.BUILDS + tuple(
                       configmod.VARIANTS)) + " (the variants: nvopt with one departure off)")
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--force", action="store_true", help="rebuild even when up to date")
    k = sub.add_parser("pack", help="pack what built in all three ways")
    _common(k)
    k.add_argument("--out", required=True)
    k.add_argument("--cuda", help="CUDA layout whose libcudart is shipped (default: build/cuda)")
    k.add_argument("--limit-mib", type=float, default=64)
    k.add_argument("--kerneltime-so", help="a precompiled injection library to ship")
    k.add_argument("--variants", nargs="*", default=[], metavar="VARIANT",
                   help="variant builds to pack where their SASS differs from nvopt's: "
                   + ", ".join(configmod.VARIANTS))
    k.add_argument("--variants-only", nargs="*", metavar="NAME|GROUP",
                   help="pack the variants for these programs or groups only (the pack, with "
                   "the checkout it travels in, must stay under the device run's 64 MiB)")
    k.add_argument("--observed", nargs="*", default=[], metavar="RUNS_TSV",
                   help="runs.tsv of earlier device runs: each program's run time goes into "
                   "the manifest, and the device script runs the quick programs first")
    s = sub.add_parser("status", help="which programs built, per build")
    _common(s)
    r = sub.add_parser("report", help="the per-kernel table from a device run's results")
    r.add_argument("--pack", required=True)
    r.add_argument("--results", required=True)
    r.add_argument("--out", help="folder for kernels.tsv, kernels.md, summary.json "
                   "(default: the results folder)")
    r.add_argument("--markdown", action="store_true",
                   help="print the pack, the GPU (device*.log) and kernels.md after the summary")
    t = sub.add_parser("static", help="registers, stack, local memory and SASS instructions of "
                       "every packed kernel per build, here (no GPU): proxies beside the times")
    t.add_argument("--pack", required=True)
    t.add_argument("--cuda", help="CUDA layout whose cuobjdump reads the executables "
                   "(default: build/cuda)")
    t.add_argument("--out", help="a TSV with every kernel's figures per build")
    a = ap.parse_args(argv)

    if a.cmd == "report":
        with open(os.path.join(a.pack, "manifest.json")) as f:
            manifest = json.load(f)
        summary = device.report(manifest, a.results, a.out or a.results)
        print(device.summary_text(summary))
        if a.markdown:
            print(f"\npack: nvopt {manifest.get('nvopt_git')}, {len(manifest['programs'])} "
                  f"programs, created {manifest.get('created')}; plugin sha256 "
                  f"{manifest.get('tool_sha256', {}).get('libnvopt.so', '?')[:16]}")
            for log in sorted(glob.glob(os.path.join(a.results, "device*.log"))):
                with open(log, errors="replace") as f:
                    for line in f:
                        if "] gpu: " in line or "] round " in line or "] memcheck:" in line:
                            print(f"{os.path.basename(log)}: {line.split('] ', 1)[1].rstrip()}")
            with open(os.path.join(a.out or a.results, "kernels.md")) as f:
                print("\n" + f.read().rstrip())
        return 0
    if a.cmd == "static":
        cuda = os.path.abspath(a.cuda) if a.cuda else buildmod.default_cuda()
        cuobjdump = cuda and os.path.join(cuda, "bin", "cuobjdump")
        if not cuobjdump or not os.path.exists(cuobjdump):
            print("programs: no cuobjdump (a CUDA layout: bash scripts/cuda-path.sh --install "
                  "or --cuda DIR)", file=sys.stderr)
            return 2
        with open(os.path.join(a.pack, "manifest.json")) as f:
            manifest = json.load(f)
        rows = staticmod.collect(a.pack, manifest, cuobjdump)
        pairs = staticmod.pairs_of(manifest)
        print(f"pack: nvopt {manifest.get('nvopt_git')}, {len(manifest['programs'])} programs, "
              f"{len(rows)} kernels")
        print(staticmod.text(staticmod.summarize(rows, pairs), pairs))
        if a.out:
            builds = list(manifest["builds"]) + [n for n, _ in pairs[3:]]
            staticmod.write_tsv(a.out, rows, builds)
        return 0
    cfg = configmod.load(a.config)
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    if a.cmd == "status":
        rows = packmod.statuses(cfg, work, a.only)
        for name, st in rows:
            print(name, " ".join(f"{b}={'ok' if st.get(b, {}).get('ok') else '-'}"
                                 for b in configmod.BUILDS))
        print(f"{sum(all(st.get(b, {}).get('ok') for b in configmod.BUILDS) for _, st in rows)}"
              f" of {len(rows)} programs built in all three ways")
        return 0
    cuda = os.path.abspath(a.cuda) if a.cuda else buildmod.default_cuda()
    if not cuda:
        print("programs: no CUDA layout (run bash scripts/cuda-path.sh --install or --cuda DIR)",
              file=sys.stderr)
        return 2
    if a.cmd == "build":
        prefix = a.nvopt_prefix or os.path.join(work, "nvopt-prefix")
        if not a.nvopt_prefix and (a.refresh_nvopt or not os.path.exists(
                os.path.join(prefix, "bin", "nvopt-cc"))):
            buildmod.install_nvopt(prefix)
        bad = [x for x in a.builds.split(",") if x not in configmod.BUILDS + tuple(
            configmod.VARIANTS)]
        if bad:
            print(f"programs: unknown build {', '.join(bad)} (valid: "
                  f"{', '.join(configmod.BUILDS + tuple(configmod.VARIANTS))})", file=sys.stderr)
            return 2
        res = buildmod.build_all(cfg, work, cuda, os.path.abspath(prefix), a.only,
                                 a.builds.split(","), a.jobs, a.force)
        ok = sum(r["ok"] for r in res)
        print(f"programs: {ok} of {len(res)} builds succeeded")
        return 0 if ok == len(res) else 1
    if a.cmd == "pack":
        bad = [v for v in a.variants if v not in configmod.VARIANTS]
        if bad:
            print(f"programs: unknown variant {', '.join(bad)} (valid: "
                  f"{', '.join(configmod.VARIANTS)})", file=sys.stderr)
            return 2
        m = packmod.pack(cfg, work, os.path.abspath(a.out), cuda, a.only, a.limit_mib,
                         a.kerneltime_so, packmod.observed_seconds(a.observed), a.variants,
                         a.variants_only)
        print(f"programs: packed {len(m['programs'])} programs into {a.out} "
              f"({m['size_bytes'] / 2**20:.1f} MiB)")
        for name, why in m.get("left_out", {}).items():
            print(f"  left out {name}: {why}")
        for v in a.variants:
            on = [p["name"] for p in m["programs"] if v in p.get("variants", [])]
            print(f"  variant {v}: packed for {len(on)} programs whose SASS it changes")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
