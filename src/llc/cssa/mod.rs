//! `nv-cssa`, cicc's CSSA coalescing stage: PHI operands are coalesced at the SSA level,
//! before PHI elimination, so that PHI lowering leaves fewer copies (docs/CICC-FACTS.md,
//! "CSSA coalescing", from the book page "Register Coalescing", docs/SOURCES.md source 002;
//! knob `cssa-coalesce`). An IR function pass: `opt -passes=nv-cssa`, and in
//! llc's NVPTX pipeline at -O1..-O3 right after CodeGenPrepare (and after
//! `codegenpreparescev`, also inserted there), the last IR pass before instruction selection,
//! so nothing rewrites the PHI operands between nv-cssa and PHI elimination (src/codegen.rs).
//!
//! Why: LLVM's PHI elimination already inserts the copies that make a PHI web (a PHI and its
//! operands) conventional, i.e. free of interference, and RegisterCoalescer merges them all
//! when no two members of the web are live at once with different values. What keeps a copy
//! as a `mov` is an operand that interferes with its PHI. nv-cssa computes SSA liveness on a
//! pure-data model of the function ([`plan`]) and, for each operand that interferes with its
//! PHI, tries two rewrites that keep every value exact:
//!
//! - *equal operand* (`nv-cssa-equal-operand`): use instead a value that a dominating integer
//!   `icmp eq`/`ne` branch edge proves equal to the operand and that does not interfere. This
//!   is the start of the remainder loop after an unrolled loop: `%unroll_iter` stays live around
//!   the outer loop, but the exit test proved it equal to the unrolled counter, which dies
//!   there.
//! - *sink* (`nv-cssa-sink`): move the operand's definition (no memory access, no side effects,
//!   no call) below the PHI's last read in the incoming block, e.g. `%i.next = add %i, 256`
//!   above `icmp ult %i, %lim`.
//!
//! Example of the sink (plugin-tests/cssa/sink.ll):
//!
//! ```text
//! ; before: %i and %i.next are live at once, so PHI elimination's copy into %i stays a mov
//! loop:
//!   %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
//!   %i.next = add nuw nsw i32 %i, 256
//!   ...                                   ; loads and stores through %i
//!   %c = icmp ult i32 %i, %lim
//!   br i1 %c, label %loop, label %exit
//! ; PTX:  setp.lt.u32 %p1, %r5, %r4;  mov.b32 %r5, %r1;  @%p1 bra $L__BB0_1;
//!
//! ; after nv-cssa: the increment follows the PHI's last read
//!   %c = icmp ult i32 %i, %lim
//!   %i.next = add nuw nsw i32 %i, 256
//!   br i1 %c, label %loop, label %exit
//! ; PTX:  setp.lt.u32 %p1, %r4, %r3;  add.s32 %r4, %r4, 256;  @%p1 bra $L__BB0_1;
//! ```
//!
//! What it leaves alone, and why (plugin-tests/cssa/leave-alone.ll): true swaps and rotations
//! of PHIs (both values are needed at once; only unrolling removes those copies); equalities of
//! pointers (equal addresses need not carry the same provenance); operands defined by loads or
//! calls (they may not move); PHIs whose old value is read after the loop (sinking the
//! increment cannot end the overlap); equalities whose branch edge does not dominate the
//! incoming block. It adds no copies (Sreedhar's method would; PHI elimination already does).
//!
//! Knobs (docs/KNOBS.md): `cssa-coalesce` (default on: in llc's pipeline or not),
//! `nv-cssa-equal-operand`, `nv-cssa-sink`. `-pass-remarks=nv-cssa` names each rewrite;
//! `-nv-stats` counts operands, interfering ones, rewrites and what is left. On by default: on
//! the bench it removes PTX movs, makes no kernel worse and costs a fraction of a percent of
//! llc's pass time (docs/RESULTS.md).
//!
//! Layout: the planner ([`plan`]) decides on a pure-data model of the function (blocks,
//! instruction order, uses, PHIs and the values proved equal on each PHI edge). The adapter
//! ([`adapter`]) builds that model from LLVM IR in Rust (inkwell and llvm-sys, plus the generic
//! IR facts of src/analysis/ir/facts.cpp: mayReadOrWriteMemory, mayHaveSideEffects, DominatorTree
//! queries, moveAfter, operand texts and remarks), applies the rewrites and emits their remarks.
//! C++ (src/llc/cssa/cssa.cpp) keeps only what the C API lacks: the new-PM and legacy pass wrappers
//! that obtain the DominatorTree and the OptimizationRemarkEmitter, and their registration.
pub mod adapter;
pub mod plan;
