; Grid-stride loops {ctaid*ntid+tid,+,ntid*nctaid} (docs/CICC-FACTS.md "GPU SCEV
; sources and stride idioms"). 64-bit indices from 32-bit registers are where range proofs work:
; ntid*nctaid < 2^41, so the stride, the start and (with a 32-bit bound) the increment cannot
; wrap. SCEV before/after (rotated as in the pipeline): the recurrence goes from no flags to
; <nuw><nsw>; the start and stride arithmetic gets nuw/nsw
; (`aggressive-positive-stride-analysis`, default on; off leaves symbolic strides alone).
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -S %s | FileCheck %s
; RUN: %opt -passes='loop(loop-rotate),print<scalar-evolution>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BEFORE
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-scev-sources,loop(loop-rotate),print<scalar-evolution>' \
; RUN:   -verify-each -disable-output %s 2>&1 | FileCheck %s --check-prefix=AFTER
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -aggressive-positive-stride-analysis=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=NOAGG
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS

target triple = "nvptx64-nvidia-cuda"

; for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
; with `unsigned n`; the loop test is written `if (i >= n) break`.
; CHECK-LABEL: @grid64(
; CHECK: %base = mul nuw nsw i64 %ctaid64, %ntid64
; CHECK: %start = add nuw nsw i64 %base, %tid64
; CHECK: %stride = mul nuw nsw i64 %ntid64, %nctaid64
; CHECK: %next = add nuw nsw i64 %i, %stride
; NOAGG-LABEL: @grid64(
; NOAGG: %stride = mul i64 %ntid64, %nctaid64
; NOAGG: %next = add i64 %i, %stride
; BEFORE-LABEL: Classifying expressions for: @grid64
; BEFORE: = phi i64
; BEFORE-NEXT: -->  {((zext i32 %tid to i64) + ((zext i32 %ntid to i64) * (zext i32 %ctaid to i64))),+,((zext i32 %nctaid to i64) * (zext i32 %ntid to i64))}<%body>
; BEFORE: %next = add i64
; BEFORE-NEXT: -->  {{.*}}}<%body>
; AFTER-LABEL: Classifying expressions for: @grid64
; AFTER: = phi i64
; AFTER-NEXT: -->  {((zext i32 %tid to i64) + ((zext i32 %ctaid to i64) * (zext i32 %ntid to i64))<nuw><nsw>)<nuw><nsw>,+,((zext i32 %nctaid to i64) * (zext i32 %ntid to i64))}<nuw><nsw><%body>
; AFTER: %next = add nuw nsw i64
; AFTER-NEXT: -->  {{.*}}}<nuw><nsw><%body>
define ptx_kernel void @grid64(ptr %p, i32 %n32) {
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
  %start = add i64 %base, %tid64
  %stride = mul i64 %ntid64, %nctaid64
  br label %cond
cond:
  %i = phi i64 [ %start, %entry ], [ %next, %body ]
  %done = icmp uge i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  %q = getelementptr inbounds float, ptr %p, i64 %i
  store float 0.0, ptr %q
  %next = add i64 %i, %stride
  br label %cond
exit:
  ret void
}

; for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride), long n:
; clang's signed arithmetic is nsw already; the loop bound is any long, so only nuw is new
; (i >= 0 and no signed overflow). SCEV infers that nuw itself: its output is unchanged.
; CHECK-LABEL: @grid_long(
; CHECK: %base = mul nuw nsw i64 %ctaid64, %ntid64
; CHECK: %next = add nuw nsw i64 %i, %stride
; BEFORE-LABEL: Classifying expressions for: @grid_long
; BEFORE: = phi i64
; BEFORE-NEXT: -->  {{.*}}}<nuw><nsw><%body>
; AFTER-LABEL: Classifying expressions for: @grid_long
; AFTER: = phi i64
; AFTER-NEXT: -->  {{.*}}}<nuw><nsw><%body>
define ptx_kernel void @grid_long(ptr %p, i64 %n) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %tid64 = zext i32 %tid to i64
  %nctaid64 = zext i32 %nctaid to i64
  %base = mul nsw i64 %ctaid64, %ntid64
  %start = add nsw i64 %base, %tid64
  %stride = mul nsw i64 %ntid64, %nctaid64
  br label %cond
cond:
  %i = phi i64 [ %start, %entry ], [ %next, %body ]
  %cmp = icmp slt i64 %i, %n
  br i1 %cmp, label %body, label %exit
body:
  %q = getelementptr inbounds float, ptr %p, i64 %i
  store float 0.0, ptr %q
  %next = add nsw i64 %i, %stride
  br label %cond
exit:
  ret void
}

; A y-dimension grid loop with an extra block offset (SCEV folds ctaid*ntid + 2*ntid into
; (2 + ctaid)*ntid), already rotated (the test is on the increment, at the latch).
; CHECK-LABEL: @grid_y_rotated(
; CHECK: %next = add nuw nsw i64 %i, %stride
define ptx_kernel void @grid_y_rotated(ptr %p, i32 %n32) {
entry:
  %n = zext i32 %n32 to i64
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %tid64 = zext i32 %tid to i64
  %nctaid64 = zext i32 %nctaid to i64
  %blk = add i64 %ctaid64, 2
  %base = mul i64 %blk, %ntid64
  %start = add i64 %base, %tid64
  %stride = mul i64 %ntid64, %nctaid64
  %guard = icmp ult i64 %start, %n
  br i1 %guard, label %body, label %exit
body:
  %i = phi i64 [ %start, %entry ], [ %next, %body ]
  %q = getelementptr inbounds float, ptr %p, i64 %i
  store float 0.0, ptr %q
  %next = add i64 %i, %stride
  %cmp = icmp ult i64 %next, %n
  br i1 %cmp, label %body, label %exit
exit:
  ret void
}

; STATS: 3 nv-scev-sources {{ *}}- grid-stride loops recognized
; STATS: 2 nv-scev-sources {{ *}}- nsw flags added to increments
; STATS: 3 nv-scev-sources {{ *}}- nuw flags added to increments
; STATS: 10 nv-scev-sources {{ *}}- start/stride operations given flags

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
