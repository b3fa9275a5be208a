; `special-reassociate-for-threadid` (docs/CICC-FACTS.md "GPU SCEV sources and stride idioms").
; Measured with LLVM 22, the knob has nothing to guard against in these idioms:
; 1. reassociate does regroup thread-id sums ((off + tid) + base becomes (base + tid) + off),
;    but nv-scev-sources classifies SCEV expressions, which are canonical sums: the idioms and
;    flags it finds after reassociate are the same as before it;
; 2. reassociate keeps the nuw/nsw nv-scev-sources put on an increment.
; So the knob (default off) only adds a second nv-scev-sources slot right after reassociate in
; O1-O3, for IR whose reassociated shape would hide an idiom from the first run.
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-scev-sources,reassociate' -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-scev-sources' -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS
; RUN: %opt -load-pass-plugin=%plugin -passes='reassociate,nv-scev-sources' -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | %python -m nvopt_tools.pipeline_tree --leaves | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -special-reassociate-for-threadid -print-pipeline-passes \
; RUN:   -disable-output %s | %python -m nvopt_tools.pipeline_tree --leaves | FileCheck %s --check-prefix=KNOB

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @grid_offset(
; CHECK: %a = add i64 %base, %tid64
; CHECK: %start = add i64 %a, %off
; CHECK: %next = add nuw nsw i64 %i, %stride
define ptx_kernel void @grid_offset(ptr %p, i32 %n32, i64 %off) {
entry:
  %n = zext i32 %n32 to i64
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %tid64 = zext i32 %tid to i64
  %nctaid64 = zext i32 %nctaid to i64
  %base = mul i64 %ctaid64, %ntid64
  %a = add i64 %off, %tid64
  %start = add i64 %a, %base
  %stride = mul i64 %ntid64, %nctaid64
  br label %cond
cond:
  %i = phi i64 [ %start, %entry ], [ %next, %body ]
  %cmp = icmp ult i64 %i, %n
  br i1 %cmp, label %body, label %exit
body:
  %q = getelementptr inbounds float, ptr %p, i64 %i
  store float 0.0, ptr %q
  %next = add i64 %i, %stride
  br label %cond
exit:
  ret void
}

; (k + tid) + k becomes 2*k + tid: tid stays a top-level term, and the flags nv-scev-sources
; proved for the start's adds (k <= 3, tid < 1024) survive; the stride's `ntid + 0` folds away
; and the increment keeps its flags.
; CHECK-LABEL: @block_offset(
; CHECK: %start = add nuw nsw i32 %factor, %tid
; CHECK: %next = add nuw nsw i32 %c, %ntid
define ptx_kernel void @block_offset(ptr %p, i16 %n16, i32 %k) {
entry:
  %n = zext i16 %n16 to i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %k4 = and i32 %k, 3
  %t1 = add i32 %k4, %tid
  %start = add i32 %t1, %k4
  br label %cond
cond:
  %c = phi i32 [ %start, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = sext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %step = add i32 %ntid, 0
  %next = add i32 %c, %step
  br label %cond
exit:
  ret void
}

; STATS: 1 nv-scev-sources {{ *}}- block-stride loops recognized
; STATS: 1 nv-scev-sources {{ *}}- grid-stride loops recognized
; STATS: 2 nv-scev-sources {{ *}}- nsw flags added to increments
; STATS: 2 nv-scev-sources {{ *}}- nuw flags added to increments

; DEFAULT: reassociate
; DEFAULT-NEXT: loop-rotate
; KNOB: reassociate
; KNOB-NEXT: nv-scev-sources
; KNOB-NEXT: loop-rotate

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
