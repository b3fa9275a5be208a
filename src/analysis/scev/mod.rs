//! `nv-scev`: NVIDIA cicc's ScalarEvolution wrapper, a function analysis that puts cicc's
//! getSCEV gating in front of LLVM 22's ScalarEvolution. cicc (NVIDIA's CUDA device compiler)
//! does not build an expression for every value it is asked about: its getSCEV entry point
//! first decides whether the value is worth one and otherwise answers SCEVUnknown (an opaque
//! value), which bounds ScalarEvolution's time and memory on very large kernels. The plugin's
//! own SCEV users ask nv-scev (the address passes of src/llc/addr take the SCEV of every pointer
//! that is not a load's or store's address from it), and `print<nv-scev>` shows what it
//! answers. Upstream passes keep using LLVM's own ScalarEvolution; nv-scev does not replace it
//! for them (nv-scev-sources, src/analysis/scev_sources, gives them GPU facts through the IR instead).
//!
//! Sources: docs/CICC-FACTS.md "getSCEV gating (simple mode)" (the getSCEV entry point, simple
//! mode and its expression-size scoring, from the book page "ScalarEvolution Overview &
//! Construction", docs/SOURCES.md source 000), and docs/CICC-FACTS.md "SCEV facts", which checked
//! the defaults on cicc 13.5: `scalar-evolution-max-expr-size` 384,
//! `scalar-evolution-max-expr-failures` 100, `scalar-evolution-complexity-control` true (the
//! name exists in cicc's LLVM 20 copy, not in its LLVM 7 one).
//!
//! What a query does ([`gate`] decides, [`score`] scores, the shim src/analysis/scev/scev.cpp adapts
//! LLVM):
//! - A value already answered is answered from the per-function cache.
//! - **Simple mode** (`scalar-evolution-complexity-control`, default on): past
//!   `scalar-evolution-max-expr-failures` (100) failures every new value of the function is
//!   SCEVUnknown; otherwise the value is scored (constants and arguments 1, values SCEV cannot
//!   model 0, a value that already has an expression its node count, any other instruction 1 +
//!   its loop depth + its operands' scores, scaled by the `nv-scev-complexity-config` bits),
//!   and a score over `scalar-evolution-max-expr-size` (384) makes it SCEVUnknown and counts a
//!   failure. A value that passes is built with a fresh recursion budget. The scorer is
//!   iterative (a 100,000-deep chain does not overflow the stack) and stops at the limit, so a
//!   query costs at most O(limit).
//! - **Normal mode** (control off): every uncached query counts against
//!   `scalar-evolution-max-recursion-depth` (100) per function, except in `ptx_kernel`
//!   functions, which bypass the budget, as in cicc.
//! - Add expressions of more than `scalar-evolution-max-add-items` (500) operands are
//!   SCEVUnknown.
//! - Building follows an explicit worklist (cicc's builder is non-recursive too): a node's
//!   operands are queried through the gate first; when none was gated, LLVM's own expression
//!   (with its wrap flags) is the answer, otherwise the node is combined from the gated operand
//!   expressions (add, sub, mul, udiv, shl by a constant, casts, GEPs).
//!
//! Example: a chain of 1000 dependent 64-bit adds, each feeding an address
//! (`python3 -m nvopt_tools.gen_scev_stress 1000`, plugin-tests/scev/size-gate.test):
//!
//! ```text
//! %off381 = add i64 %off380, %s381
//! %p381   = getelementptr float, ptr %base, i64 %off381
//!
//! print<scalar-evolution> (LLVM): %p381 -->  ((4 * (%off0 + %s381 + ... + %s1)) + %base)
//!                                  every later value grows by one more term
//! print<nv-scev>:                 %p381 -->  %p381  [Unknown: expression size > 384
//!                                            (scalar-evolution-max-expr-size)]
//!                                 %off383 --> (%off382 + %s383)   builds on the Unknown,
//!                                            so every expression stays under the limit
//! ```
//!
//! `opt -load-pass-plugin=libnvopt.so -passes='print<nv-scev>' -disable-output k.ll` prints
//! each value's expression with its unsigned and signed ranges, why it is SCEVUnknown when the
//! gate made it so, and its loop dispositions; per loop, the backedge-taken counts (exact,
//! constant max, symbolic max), the max trip count and the loop's stride idiom (warp-, block-,
//! grid-stride or none, the classifier of src/analysis/scev_sources/idiom.rs); per function, the mode,
//! the failure count and whether the kernel bypass applies.
//!
//! Knobs (docs/KNOBS.md): `scalar-evolution-complexity-control`,
//! `scalar-evolution-max-expr-size`, `scalar-evolution-max-expr-failures`,
//! `scalar-evolution-max-add-items`, `scalar-evolution-max-recursion-depth`,
//! `nv-scev-complexity-config` (bit 0 scales each instruction's score by 3/2, bit 1 adds twice
//! its loop depth; cicc reads these bits from a field of its ScalarEvolution object).
//!
//! What it leaves to LLVM, and why: PHI recurrences and opcodes other than the ones above are
//! built by LLVM (cicc's gate only decides *whether* a value gets an expression, not what the
//! expression is); trip counts and ranges are LLVM's. A value met again on its own operand path
//! (a PHI cycle) adds nothing to its score: cicc's recursive scorer, as the book describes it,
//! would not terminate there. Its cost grows linearly with function size with the control on,
//! faster than that for LLVM's own analysis on the same chain (`python3 -m
//! nvopt_tools.scev_scaling` measures both).
pub mod ffi;
pub mod gate;
pub mod score;
