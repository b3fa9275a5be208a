; Block-stride loops {tid,+,ntid} (docs/CICC-FACTS.md "GPU SCEV sources and stride idioms"),
; in the header-tested shape nv-scev-sources sees in the pipeline (after inlining, before
; loop-rotate). With `c < n`, n a 16-bit count: c <= 65534 and ntid <= 1024, so the increment
; can carry nsw, and nuw since c starts at tid >= 0. SCEV before/after (both rotated as in the
; pipeline): the post-increment recurrence goes from <nw> to <nuw><nsw>. With reqntid 128 the
; stride is exactly 128 and the constant max backedge-taken count drops from 4095 to 31.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -S %s | FileCheck %s
; RUN: %opt -passes='loop(loop-rotate),print<scalar-evolution>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BEFORE
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-scev-sources,loop(loop-rotate),print<scalar-evolution>' \
; RUN:   -verify-each -disable-output %s 2>&1 | FileCheck %s --check-prefix=AFTER
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -aggressive-positive-stride-analysis=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=NOAGG

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @block16(
; CHECK: %next = add nuw nsw i32 %c, %ntid
; NOAGG-LABEL: @block16(
; NOAGG: %next = add i32 %c, %ntid
; BEFORE-LABEL: Classifying expressions for: @block16
; BEFORE: %next = add i32
; BEFORE-NEXT: -->  {(%ntid + %tid),+,%ntid}<nw><%body>
; AFTER-LABEL: Classifying expressions for: @block16
; AFTER: %next = add nuw nsw i32
; AFTER-NEXT: -->  {(%ntid + %tid),+,%ntid}<nuw><nsw><%body>
define ptx_kernel void @block16(ptr %p, i16 %n16) {
entry:
  %n = zext i16 %n16 to i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = sext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

; CHECK-LABEL: @block_reqntid(
; CHECK: call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call range(i32 128, 129) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: %next = add nuw nsw i32 %c, %ntid
; BEFORE-LABEL: Determining loop execution counts for: @block_reqntid
; BEFORE: constant max backedge-taken count is i32 4095
; AFTER-LABEL: Classifying expressions for: @block_reqntid
; AFTER: -->  {%tid,+,%ntid}<nuw><nsw><%body> U: [0,4096)
; AFTER-LABEL: Determining loop execution counts for: @block_reqntid
; AFTER: backedge-taken count is ((4095 + (-1 * %tid)<nsw>)<nsw> /u %ntid)
; AFTER: constant max backedge-taken count is i32 31
define ptx_kernel void @block_reqntid(ptr %p) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, 4096
  br i1 %cmp, label %body, label %exit
body:
  %idx = sext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

; The stride read inside the loop (clang's blockDim.x accessor, inlined, before LICM) is the
; same idiom: the proof only needs the stride's range on every iteration.
; CHECK-LABEL: @block_stride_in_loop(
; CHECK: %next = add nuw nsw i32 %c, %ntid
define ptx_kernel void @block_stride_in_loop(ptr %p) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp ult i32 %c, 256
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

; STATS: 3 nv-scev-sources {{ *}}- block-stride loops recognized
; STATS: 3 nv-scev-sources {{ *}}- nsw flags added to increments
; STATS: 3 nv-scev-sources {{ *}}- nuw flags added to increments

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
