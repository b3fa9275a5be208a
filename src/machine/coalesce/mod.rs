//! `nv-coalesce`, NVIDIA cicc's NVPTX copy coalescer: a legacy machine pass that removes
//! register-to-register copies by merging the live ranges of their source and destination.
//! PTX has an unlimited number of virtual registers and ptxas allocates the real ones, so the
//! point is not to avoid spills but to emit fewer `mov`s and give ptxas simpler live ranges.
//!
//! Sources: docs/CICC-FACTS.md, "Register coalescing" (the book page "Register Coalescing",
//! docs/SOURCES.md source 002): cicc runs LLVM's RegisterCoalescer and then its own NVPTX coalescer
//! for the NVPTX copy instructions (its opcodes 440..503) that the generic pass does not handle;
//! that coalescer takes two budgets, `copy_limit` (copies considered) and `coalesce_limit` (merges
//! before it gives up), to avoid quadratic time on functions with thousands of copies.
//! docs/CICC-FACTS.md "NVPTX in LLVM 22 (for the coalescer)": upstream NVPTX register classes
//! are by width only (B1, B16, B32, B64, B128; an f32 lives in a 32-bit register), cicc's
//! separate float classes and opcode numbers do not exist, and the only move opcodes are
//! `MOV_B{1,16,32,64,128}_r`, which COPYs that survive RegisterCoalescer become.
//!
//! Where it runs: the codegen callback (src/codegen.rs) puts it right after llc's
//! RegisterCoalescer for NVPTX at -O1..-O3; `llc -run-pass=nv-coalesce` runs it on MIR.
//! Candidates are `COPY` and `MOV_B*_r` between virtual registers of one class, classified as
//! PHI-elimination, parameter, sub-register or other copies (`-nv-stats`). The planner
//! ([`plan`]) takes them from a min-heap by register number (ties: higher weight =
//! instructions + spill weight + uses), merges a copy when its two live intervals do not
//! interfere, retries the interfering ones while merges keep succeeding, and stops at
//! `nv-coalesce-copy-limit` candidates or `nv-coalesce-limit` removals; the shim
//! (src/machine/coalesce/coalesce.cpp) adapts LLVM's MachineFunction and LiveIntervals to it, performs
//! each rewrite and updates LiveIntervals after it.
//!
//! Example (plugin-tests/coalesce/merge.mir: a sum loop after PHI elimination, with LLVM's
//! own coalescer off so that its copies are still there; `llc -run-pass=nv-coalesce`):
//!
//! ```text
//! ; before: nine copies
//! bb.0.entry:
//!   %8:b32 = MOV_B32_i 0
//!   %6:b64 = LD_i64 ... &sum_param_0
//!   %11:b64 = COPY %6
//!   %12:b32 = COPY %8
//!   %13:b32 = COPY %8
//! bb.1.loop:
//!   %2:b32 = COPY %13
//!   %1:b32 = COPY %12
//!   %0:b64 = COPY %11
//!   %9:b32 = LD_i32 ... %0, 0
//!   %3:b32 = ADD32rr %2, %9
//!   %4:b32 = ADD32ri %1, 1
//!   %5:b64 = ADD64ri %0, 4
//!   %11:b64 = COPY %5
//!   %12:b32 = COPY %4
//!   %13:b32 = COPY %3
//!   ...
//! bb.2.exit:
//!   ST_i32 %3, ... %6, 0
//!
//! ; after nv-coalesce: seven merged, one rematerialized, one kept
//! bb.0.entry:
//!   %4:b32 = MOV_B32_i 0
//!   %2:b64 = LD_i64 ... &sum_param_0
//!   %3:b64 = COPY %2                  ; kept: %2 is still needed at the exit
//!   %5:b32 = MOV_B32_i 0              ; was a copy of the immediate 0
//! bb.1.loop:
//!   %9:b32 = LD_i32 ... %3, 0
//!   %5:b32 = ADD32rr %5, %9
//!   %4:b32 = ADD32ri %4, 1
//!   %3:b64 = ADD64ri %3, 4
//!   ...
//! bb.2.exit:
//!   ST_i32 %5, ... %2, 0
//! ```
//!
//! Seven PHI copies merge; the copy of the pointer parameter is kept, because the parameter
//! stays live for the exit block's store while the loop advances the copy; the copy of the
//! immediate 0 still interferes after the worklist converged and becomes the move itself. In
//! llc's real pipeline LLVM 22's RegisterCoalescer has already merged every copy this rule can
//! merge, so what nv-coalesce removes there are copies of constants (`nv-coalesce-remat`); its
//! figures on the bench: docs/RESULTS.md. `-pass-remarks=nv-coalesce` names each rewrite and
//! each kept copy.
//!
//! Knobs (docs/KNOBS.md): `nv-disable-coalesce`, `nv-coalesce-copy-limit` (cicc's
//! `copy_limit`, 20000), `nv-coalesce-limit` (its `coalesce_limit`, 10000),
//! `nv-coalesce-freq-bias` (scale priorities by block frequency), `nv-coalesce-remat`.
//!
//! What it leaves alone, and why: copies between different register classes (merging would
//! change a register's width); 128-bit copies (cicc excludes its Int128Regs class from the
//! worklist, docs/CICC-FACTS.md "Register coalescing"); physical registers; every copy whose two
//! registers are live at once with different values (merging would lose one), unless the source is
//! an immediate move.
pub mod ffi;
pub mod plan;
