"""Program corpus: real CUDA programs built three ways (NVIDIA's nvcc, `nvopt-cc --upstream`,
`nvopt-cc`) from the same unmodified sources and flags, packed into one folder with a manifest
and the device script that runs, checks and times them on a GPU (docs/PROGRAMS.md).

    python3 -m nvopt_tools.programs build  --config CONFIG.json --work DIR [--only NAME...]
    python3 -m nvopt_tools.programs pack   --config CONFIG.json --work DIR --out PACK
    python3 -m nvopt_tools.programs report --pack PACK --results RESULTS_DIR

Modules: `config` (the corpus description), `build` (the three builds), `pack` (folder,
manifest, size limit), `device` (the device script itself; standalone, stdlib only, copied into
the pack, and the parser of what it records), `kerneltime.c` (the CUPTI injection library that
times every kernel without changing the programs).
"""
