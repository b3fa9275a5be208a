# Helper for units.test: loads scripts/nvopt-cc as a module and prints results of its pure
# functions for FileCheck. Usage: driver_units.py PATH/TO/nvopt-cc SCRATCH_DIR
import importlib.machinery
import importlib.util
import os
import shutil
import sys

sys.dont_write_bytecode = True  # do not leave scripts/__pycache__ behind

path, scratch = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader("nvoptcc", path)
spec = importlib.util.spec_from_loader("nvoptcc", loader)
cc = importlib.util.module_from_spec(spec)
loader.exec_module(cc)

# Plugin staleness over a fake project tree with controlled mtimes.
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(os.path.join(scratch, "src", "shim"))
os.makedirs(os.path.join(scratch, "target", "release"))
plugin = os.path.join(scratch, "target", "release", "libnvopt.so")
files = {name: os.path.join(scratch, name)
         for name in ("build.rs", "Cargo.toml", "src/lib.rs", "src/shim/shim.cpp")}
for f in files.values():
    open(f, "w").close()
    os.utime(f, (1000, 1000))
print("stale missing:", cc.plugin_is_stale(scratch, plugin))
open(plugin, "w").close()
os.utime(plugin, (2000, 2000))
print("stale fresh:", cc.plugin_is_stale(scratch, plugin))
for label, name in (("src/nested", "src/shim/shim.cpp"), ("build.rs", "build.rs"),
                    ("Cargo.toml", "Cargo.toml")):
    os.utime(files[name], (3000, 3000))
    print(f"stale {label}:", cc.plugin_is_stale(scratch, plugin))
    os.utime(files[name], (1000, 1000))

PTXAS_V = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k1' for 'sm_90'
ptxas info    : Function properties for k1
    160 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 26 registers, used 0 barriers, 160 bytes cumulative stack size
ptxas info    : Compile time = 3.737 ms
ptxas info    : Function properties for helper
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'k2' for 'sm_90'
ptxas info    : Function properties for k2
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 1 barriers, 1024 bytes smem
"""
for name, entry, fig in cc.parse_ptxas(PTXAS_V):
    print(f"ptxas: {name} entry={entry} {fig}")

for args in ([], ["-O1"], ["-O0", "-Ofc=max"], ["-Ofast-compile=min", "-O2"],
             ["--Ofast-compile=0", "-O2"]):
    o = cc.parse_args(args + ["x.cu"])
    print(f"level {args} -> {o.opt_level()} llc -O{o.llc_level()}")

for arch in ("compute_90", "sm_75", "sm_90a", "sm_103", "sm_110"):
    o = cc.parse_args(["-arch", arch, "x.cu"])
    sm = cc.resolve_arch(o.arch)
    print(f"arch {arch} -> {sm} ptx {cc.resolve_ptx(o, sm)}")
