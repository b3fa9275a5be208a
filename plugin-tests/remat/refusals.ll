;; What nv-remat refuses, each with its missed remark (src/llc/remat/plan.rs): a definition that
;; cannot be recomputed (a load from global memory: a store may change it); a chain whose
;; operand is neither available at the use nor recomputable (%h reads that load, dead by the
;; use); a chain too costly (%k, used two loop levels deep); and, with the chain knobs, %m, which is
;; rematerialized by default (longer than -nv-remat-max-chain, or over the weighted bound
;; -remat-lli-factor x -remat-loop-trip per register); a function whose pressure is already
;; within its target; and the knob off. The IR is unchanged in each case but the first.
;; RUN: %opt -passes=verify %s -S -o %t.base.ll
;; The operand refusal is the one without range extension (-nv-remat-extend-operands=0;
;; plugin-tests/remat/extend.ll has the default's).
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=4 -nv-remat-extend-operands=0 -pass-remarks=nv-remat -pass-remarks-missed=nv-remat -nv-stats %s -S -o %t.1.ll 2>%t.1.err
;; RUN: FileCheck %s --check-prefix=LOAD < %t.1.err
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -nv-maxreg=4 -nv-remat-max-chain=1 -pass-remarks-missed=nv-remat -nv-stats %s -S -o %t.2.ll 2>%t.2.err
;; RUN: diff %t.base.ll %t.2.ll
;; RUN: FileCheck %s --check-prefix=LONG < %t.2.err
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -nv-maxreg=4 -remat-lli-factor=0 -pass-remarks-missed=nv-remat %s -S -o %t.3.ll 2>%t.3.err
;; RUN: diff %t.base.ll %t.3.ll
;; RUN: FileCheck %s --check-prefix=COSTLY < %t.3.err
;; Without -nv-maxreg the target is nv-remat-default-target, 48 (no launch bounds): nothing to do.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -pass-remarks-missed=nv-remat -nv-stats %s -S -o %t.4.ll 2>%t.4.err
;; RUN: diff %t.base.ll %t.4.ll
;; RUN: FileCheck %s --check-prefix=UNDER < %t.4.err
;; remat-maxreg-ceiling caps the target: with it the pass works without -nv-maxreg.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -remat-maxreg-ceiling=4 -pass-remarks=nv-remat %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=CEILING
;; The knob off: no remark, no change, in opt and llc.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -nv-maxreg=4 -do-remat=0 -pass-remarks=nv-remat -pass-remarks-missed=nv-remat %s -S -o %t.5.ll 2>%t.5.err
;; RUN: diff %t.base.ll %t.5.ll
;; RUN: count 0 < %t.5.err

; LOAD-DAG: remark: {{.*}}%g2 not rematerialized: its definition cannot be recomputed
; LOAD-DAG: remark: {{.*}}%h not rematerialized: operand %g is not available in block tail and cannot be recomputed
; LOAD-DAG: remark: {{.*}}%k not rematerialized: chain too costly: weighted cost 200 over the bound 100
; LOAD-DAG: remark: {{.*}}%m recomputed next to its uses in tail (2 instructions)
; LOAD-DAG: 1 nv-remat               - values rematerialized

; LONG: remark: {{.*}}%m not rematerialized: chain too costly: 2 instructions at one use

; COSTLY: remark: {{.*}}%m not rematerialized: chain too costly: weighted cost 2 over the bound 0

; UNDER: remark: {{.*}}register pressure {{[0-9]+}} is already within the target 48 (default)
; UNDER: 1 nv-remat               - functions within their register target

; CEILING: remark: {{.*}}%m recomputed next to its uses in tail

target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @f(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %a, i64 %b) {
entry:
  %g = load i32, ptr addrspace(1) %in
  %h = add i32 %g, 1
  %g2 = load i32, ptr addrspace(1) %out
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %m = mul i32 %t, 7
  %k = add i32 %t, 3
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %inner.exit ]
  %x = phi i64 [ %a, %entry ], [ %x1, %inner.exit ]
  %y = phi i64 [ %b, %entry ], [ %y1, %inner.exit ]
  br label %inner
inner:
  %j = phi i32 [ 0, %loop ], [ %j1, %inner ]
  %kj = add i32 %k, %j
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %kj
  store i32 %j, ptr addrspace(1) %p
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, 8
  br i1 %cj, label %inner, label %inner.exit
inner.exit:
  %x1 = mul i64 %x, %y
  %y1 = add i64 %y, %x
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 100
  br i1 %c, label %loop, label %tail
tail:
  %s = trunc i64 %x1 to i32
  %u = add i32 %s, %g2
  %v = add i32 %u, %h
  %w = add i32 %v, %m
  store i32 %w, ptr addrspace(1) %out
  store i64 %y1, ptr addrspace(1) %in
  ret void
}
