//! `nv-remat`: cicc's "Register Rematerialization on NVVM IR", the last IR pass of llc for
//! NVPTX (docs/CICC-FACTS.md "Register pressure and rematerialization": in cicc's llc it runs
//! after `lower-aggr-copies`, before `alloca-hoisting` and instruction selection). Where the
//! estimated register pressure of a function (src/analysis/pressure) exceeds its register target, it
//! ends long live ranges of values that are cheap to compute again: each use outside the
//! defining block gets a clone of the value's defining chain right before it, and the original
//! goes when nothing uses it any more.
//!
//! ```text
//! entry:                                         entry:
//!   %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()   ; (deleted: no use left)
//!   %o = shl i32 %t, 2
//!   %p = getelementptr i8, ptr addrspace(1) %out, i32 %o
//!   br label %loop                                  br label %loop
//! loop:   ; 40 accumulators live around here    loop:  ; %p no longer live across the loop
//!   ...                                            ...
//! exit:                                          exit:
//!                                                  %t.remat = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//!                                                  %o.remat = shl i32 %t.remat, 2
//!                                                  %p.remat = getelementptr i8, ptr addrspace(1) %out, i32 %o.remat
//!   store float %acc, ptr addrspace(1) %p          store float %acc, ptr addrspace(1) %p.remat
//! ```
//!
//! The algorithm (src/llc/remat/plan.rs), per round, up to 5 rounds (cicc's count):
//! 1. Pressure: per-block live-in sets and the largest number of 32-bit registers live at once
//!    in each block (src/analysis/pressure). The target (src/analysis/pressure/target.rs): the kernel's launch bounds,
//!    else `-nv-maxreg`, else `nv-remat-default-target` (48); launch bounds with no minimum of
//!    blocks per SM give their share capped at `nv-remat-threads-only-target` (72);
//!    `remat-maxreg-ceiling` caps it further. Blocks whose
//!    peak exceeds it are the high-pressure blocks; none: nothing to do.
//! 2. Candidates: values live into a high-pressure block. Each use outside the defining block
//!    is a site (a PHI operand's site is the end of its incoming block). At each site the chain
//!    is the value's definition and, recursively, each operand that is neither free (a
//!    constant, a kernel parameter: ptxas reads those from the parameter bank where they are
//!    used) nor live into the site's block (then its definition dominates the site and its
//!    register is live there anyway). Every instruction of a chain must be cheap and its
//!    result independent of where it runs: integer and floating-point arithmetic without
//!    division, compares, casts, selects, GEPs, reads of the special registers that do not
//!    change during a thread's life, and (`remat-load`) loads from constant or param space,
//!    and `!invariant.load` loads (llc's tag for loads through `const __restrict__`), but
//!    these never into a loop deeper than the load (each clone is another memory access;
//!    re-issuing them inside loops raised ptxas's spills). A clone computes the same value as
//!    the original: every path to a site passes the original chain, and SSA operands cannot
//!    change in between.
//!
//!    With `nv-remat-extend-operands` (N > 0), one operand per chain that cannot be recomputed
//!    (a global load, say) and is not live into the site's block may still be read there.
//!    Three conditions:
//!    - every path from the entry to the site passes a block where the operand is defined or
//!      live on exit, so its definition dominates the site;
//!    - its live range then grows through at most N blocks, the site's included;
//!    - each of those blocks either stays within the target with it, or is one the value
//!      itself is live into, no narrower than the operand: one register set for the other.
//!
//!    Those swap blocks do not count as freed by the value.
//!
//!    The shape: LICM hoists a sum of a loop-invariant load and a `__constant__` value out of
//!    a rarely taken branch, full unrolling copies the loop, and the sum is then held across
//!    every copy while its operand's own range ends in the last one.
//!    - Example: Rodinia's cfd `cuda_compute_flux`, 15 far-field sums.
//!    - The lit test: plugin-tests/remat/extend.ll.
//! 3. Cost: instructions (GEP: one per variable index; conversions and loads 2) times a site
//!    weight of `remat-loop-trip`^(loop levels the site is deeper than the definition, at most
//!    3), summed over sites. Cheapest first, values are taken until every high block's excess
//!    over the target is covered by the registers they free (or `remat-max-live-limit` per
//!    round). A value kept live by another chosen chain waits for the next round. In a high
//!    block that uses the value, the clone lives from the first use there to the last, so it
//!    frees only what that shorter range takes off the block's peak
//!    (`pressure::block_max_if_local`); a value that frees nothing in any high block is refused
//!    ("no register freed": cloning such values into a loop's only block raised ptxas's spills
//!    under a tight cap).
//!
//! Before the first round's clones, loops (src/llc/remat/derotate.rs): a guarded (rotated)
//! innermost loop with a block over the target, whose exit block receives its carried values
//! (the initial ones on the guard's bypass edge), gets its test moved to a new top block, so
//! that the carried values start once instead of once per path; ptxas stores the initial value
//! of every carried value it spills on both paths otherwise. The pass then changes the CFG (the
//! wrapper keeps no analysis when it did).
//!
//! Refused, each with a missed remark (`-pass-remarks-missed=nv-remat`) and a counter
//! (`-nv-stats`): a definition that cannot be recomputed (memory, side effects, PHIs,
//! divisions, `freeze`, whose copies could differ); an operand that is neither available at a
//! site nor recomputable ("operand unavailable"); a chain longer than `nv-remat-max-chain` at
//! one site, a global load re-issued inside a deeper loop, or clones whose weighted cost exceeds `remat-lli-factor` x `remat-loop-trip` per
//! register freed ("chain too costly"); a value whose clones would free no register ("no
//! register freed"); a loop over the target that is not of the de-rotation's shape (missed
//! remark `NotDerotated` with the reason); a function whose pressure is within its target
//! (one remark per function). Modules other than NVPTX are left alone.
//!
//! Knobs: `do-remat` (3; 0 switches the pass off, in llc and in opt), `nv-remat-default-target`
//! (48, nvopt's), `nv-remat-threads-only-target` (72, nvopt's: the cap on the target of
//! launch bounds that give only a thread count; 0 = their whole share),
//! `remat-maxreg-ceiling` (0 = none), `remat-max-live-limit` (10), `remat-loop-trip` (10),
//! `remat-lli-factor` (10),
//! `remat-load` (1), `nv-remat-max-chain` (8, nvopt's), `nv-remat-extend-operands` (8, nvopt's:
//! the most blocks an operand's range may grow through; 0 = only operands live into the site),
//! `nv-remat-derotate` (1, nvopt's: the fewest carried values a loop's exit must receive for
//! the de-rotation; 0 = off),
//! `dump-remat` (decisions on stderr).
//!
//! Where nvopt differs from cicc, and why: without `-nv-maxreg`, launch bounds or a ceiling the
//! target is 48 registers (`nv-remat-default-target`; 42 resident warps per SM on sm_90); that
//! of a kernel whose launch bounds give a thread count but no minimum of blocks per SM is the
//! register file's share of those threads (168 for 384) capped at 72
//! (`nv-remat-threads-only-target`): such a bound asks for no occupancy, and ptxas still picks
//! an occupancy step of its own and spills to reach it (CUB's onesweep kernel under
//! `.maxntid 384`: 80 registers and 24 B of spills at the whole share, none at 72). The cap sits
//! below the step rather than on it: a kernel that nv-remat brings just above a lower step is
//! one ptxas squeezes into that step with spills (CUB's select sweeps at 64 or 48). Neither
//! is cicc's 80% of the current pressure (cicc's IR remat changes no bench kernel's registers at
//! default bounds; 80% would clone code into every kernel whose pressure ptxas fits anyway). 48
//! rather than the other passes' 64 (src/analysis/pressure/target.rs) was chosen on the corpora
//! (docs/DEPARTURES.md lists this and the other differences under "Rematerialization: how
//! nv-remat differs from cicc's"; its `nv-remat` entry gives the pass's figures). cicc's
//! `remat-iv`, `remat-add`, `no-remat` and `simplify-live-out` are not implemented; nvopt's knob
//! semantics for `remat-max-live-limit`, `remat-lli-factor` and `remat-loop-trip` are its own
//! reading of the names (the book gives the names and defaults, not the formulas). cicc's
//! `param-opt` (re-issuing `ld.param` next to uses) is not part of this pass: it is
//! `nv-param-opt`, a machine pass (src/machine/param_opt).
pub mod adapter;
pub mod cost;
pub mod derotate;
pub mod plan;
