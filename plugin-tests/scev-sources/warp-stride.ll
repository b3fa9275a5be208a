; Warp-stride loops {lane,+,32} (docs/CICC-FACTS.md "GPU SCEV sources and stride idioms"). With a
; constant stride upstream SCEV already proves the recurrence's flags from the loop test, so
; for @warp the pass only writes them into the IR (an unsigned loop: clang puts no flags on
; `c += 32`) and SCEV's output does not change. With the warpsize register as the stride
; (symbolic, range [32,33)) SCEV cannot, and the post-increment recurrence goes from <nw> to
; <nuw><nsw>. A clang `int` loop already has `add nsw`; nuw follows from c >= 0.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -S %s | FileCheck %s
; RUN: %opt -passes='loop(loop-rotate),print<scalar-evolution>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BEFORE
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-scev-sources,loop(loop-rotate),print<scalar-evolution>' \
; RUN:   -verify-each -disable-output %s 2>&1 | FileCheck %s --check-prefix=AFTER
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -aggressive-positive-stride-analysis=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=NOAGG

target triple = "nvptx64-nvidia-cuda"

; for (unsigned c = threadIdx.x & 31; c < n; c += 32), n an unsigned short
; CHECK-LABEL: @warp(
; CHECK: %next = add nuw nsw i32 %c, 32
; A constant stride needs no knob.
; NOAGG-LABEL: @warp(
; NOAGG: %next = add nuw nsw i32 %c, 32
; BEFORE-LABEL: Classifying expressions for: @warp
; BEFORE: -->  {(32 + (zext i5 (trunc i32 %tid to i5) to i32))<nuw><nsw>,+,32}<nuw><nsw><%body>
; BEFORE: constant max backedge-taken count is i32 2047
; AFTER-LABEL: Classifying expressions for: @warp
; AFTER: -->  {(32 + (zext i5 (trunc i32 %tid to i5) to i32))<nuw><nsw>,+,32}<nuw><nsw><%body>
; AFTER: constant max backedge-taken count is i32 2047
define ptx_kernel void @warp(ptr %p, i16 %n16) {
entry:
  %n = zext i16 %n16 to i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  br label %cond
cond:
  %c = phi i32 [ %lane, %entry ], [ %next, %body ]
  %cmp = icmp ult i32 %c, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, 32
  br label %cond
exit:
  ret void
}

; for (int c = laneid; c < n; c += warpSize)
; CHECK-LABEL: @warpsize(
; CHECK: %next = add nuw nsw i32 %c, %ws
; NOAGG-LABEL: @warpsize(
; NOAGG: %next = add i32 %c, %ws
; BEFORE-LABEL: Classifying expressions for: @warpsize
; BEFORE: -->  {(%lane + %ws),+,%ws}<nw><%body>
; AFTER-LABEL: Classifying expressions for: @warpsize
; AFTER: -->  {(%lane + %ws),+,%ws}<nuw><nsw><%body>
define ptx_kernel void @warpsize(ptr %p, i16 %n16) {
entry:
  %n = zext i16 %n16 to i32
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %ws = call i32 @llvm.nvvm.read.ptx.sreg.warpsize()
  br label %cond
cond:
  %c = phi i32 [ %lane, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %ws
  br label %cond
exit:
  ret void
}

; clang's `for (int c = lane; c < cols; c += 32)`: cols is any int, so nothing bounds the sum,
; but the `nsw` clang wrote plus c >= 0 gives nuw.
; CHECK-LABEL: @warp_int(
; CHECK: %next = add nuw nsw i32 %c, 32
define ptx_kernel void @warp_int(ptr %p, i32 %cols) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  br label %cond
cond:
  %c = phi i32 [ %lane, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, %cols
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add nsw i32 %c, 32
  br label %cond
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()
