; nv-stride-loop-unroll: a grid-stride loop (start ctaid*ntid + tid, step ntid*nctaid: its trip
; count divides by the run-time stride) gets llvm.loop.unroll.count 4, and loop-unroll then
; unrolls it 4 times with a remainder (LLVM alone leaves it rolled); so does a loop stepping by
; an argument. A unit-step loop, one whose trip count is not computable, a block-stride loop and
; one over a 256-entry tile (nvcc keeps those two rolled), one with a pragma and one with a
; convergent call keep their metadata; a lower size threshold gives a count of 2. Each decision
; on a loop whose trip count divides is a remark or a missed remark.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-stride-loop-unroll -verify-each -S %s -o - \
; RUN:   -pass-remarks=nv-stride-loop-unroll -pass-remarks-missed=nv-stride-loop-unroll -nv-stats \
; RUN:   2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-stride-loop-unroll,loop-unroll<O3>' -S %s -o - \
; RUN:   | FileCheck %s --check-prefix=UNROLL
; RUN: %opt -passes='loop-unroll<O3>' -S %s -o - | FileCheck %s --check-prefix=LLVM
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-stride-loop-unroll -nv-stride-loop-unroll-threshold=30 \
; RUN:   -S %s -o - | FileCheck %s --check-prefix=SMALL
; The slot: before the first loop-unroll of O2 and O3, off with its knob, absent at O1.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=SLOT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O2>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=SLOT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-stride-loop-unroll \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=NOSLOT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=NOSLOT

target datalayout = "e-p:64:64:64-p3:32:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @conv() convergent nounwind willreturn memory(none)
declare range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; a[i] = b[i] + s * c[i] for (long i = ctaid*ntid + tid; i < n; i += ntid*nctaid)
; CHECK-LABEL: define void @triad(
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop [[TRIAD:![0-9]+]]
; UNROLL-LABEL: define void @triad(
; UNROLL-COUNT-8: load float
; UNROLL: llvm.loop.unroll.disable
; LLVM-LABEL: define void @triad(
; LLVM-COUNT-2: load float
; LLVM-NOT: load float
; LLVM: ret void
define void @triad(i64 %n, float %s, ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %b, ptr addrspace(1) noalias %c) {
entry:
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid64 = zext i32 %ntid to i64
  %nct64 = zext i32 %nct to i64
  %cta64 = zext i32 %cta to i64
  %tid64 = zext i32 %tid to i64
  %stride = mul nuw nsw i64 %ntid64, %nct64
  %base = mul nuw nsw i64 %cta64, %ntid64
  %start = add nuw nsw i64 %base, %tid64
  %go = icmp slt i64 %start, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ %start, %entry ], [ %i.next, %loop ]
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %i
  %vb = load float, ptr addrspace(1) %pb, align 4
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %i
  %vc = load float, ptr addrspace(1) %pc, align 4
  %m = fmul float %s, %vc
  %r = fadd float %vb, %m
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float %r, ptr addrspace(1) %pa, align 4
  %i.next = add nsw i64 %i, %stride
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; for (long i = start; i < n; i += s) with s = zext(s32) + 1 an argument-derived stride (llm.c's
; `i += block_size`): also a count.
; CHECK-LABEL: define void @arg_stride(
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop [[ARG:![0-9]+]]
define void @arg_stride(i64 %start, i32 %s32, i64 %n, ptr addrspace(1) %a) {
entry:
  %w = zext i32 %s32 to i64
  %stride = add nuw nsw i64 %w, 1
  %go = icmp slt i64 %start, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ %start, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float 0.0, ptr addrspace(1) %p, align 4
  %i.next = add nsw i64 %i, %stride
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; for (i = 0; i < n; i++): no division, LLVM's unroller decides.
; CHECK-LABEL: define void @unit_step(
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @unit_step(i64 %n, ptr addrspace(1) %a) {
entry:
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float 0.0, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; i += stride without nsw in 32 bits: the trip count is not computable (it may wrap).
; CHECK-LABEL: define void @may_wrap(
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @may_wrap(i32 %start, i32 %stride, i32 %n, ptr addrspace(1) %a) {
entry:
  %go = icmp slt i32 %start, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
  %w = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %w
  store float 0.0, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, %stride
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; for (long i = tid; i < n; i += ntid): a block-stride loop, left to LLVM as nvcc leaves it.
; CHECK-LABEL: define void @block_stride(
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @block_stride(i64 %n, ptr addrspace(1) %a) {
entry:
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %stride = zext i32 %ntid to i64
  %start = zext i32 %tid to i64
  %go = icmp slt i64 %start, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ %start, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float 0.0, ptr addrspace(1) %p, align 4
  %i.next = add nsw i64 %i, %stride
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; for (b = t; b < 256; b += s): a stride loop over a 256-entry tile (constant trip bound), left
; rolled as nvcc leaves it.
; CHECK-LABEL: define void @bounded(
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @bounded(i32 %t, i32 %s32, ptr addrspace(3) %a) {
entry:
  %start = and i32 %t, 255
  %w = and i32 %s32, 1023
  %stride = add nuw nsw i32 %w, 1
  br label %loop
loop:
  %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(3) %a, i32 %i
  store float 0.0, ptr addrspace(3) %p, align 4
  %i.next = add nuw nsw i32 %i, %stride
  %more = icmp ult i32 %i.next, 256
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; #pragma unroll 1 on a stride loop: left to the pragma.
; CHECK-LABEL: define void @pragma(
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop [[PRAGMA:![0-9]+]]
define void @pragma(i64 %n, ptr addrspace(1) %a) {
entry:
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid64 = zext i32 %ntid to i64
  %nct64 = zext i32 %nct to i64
  %cta64 = zext i32 %cta to i64
  %tid64 = zext i32 %tid to i64
  %stride = mul nuw nsw i64 %ntid64, %nct64
  %base = mul nuw nsw i64 %cta64, %ntid64
  %start = add nuw nsw i64 %base, %tid64
  %go = icmp slt i64 %start, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ %start, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float 0.0, ptr addrspace(1) %p, align 4
  %i.next = add nsw i64 %i, %stride
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

; A convergent call in a stride loop: LLVM cannot runtime-unroll it.
; CHECK-LABEL: define void @convergent(
; CHECK: br i1 %more, label %loop, label %exit{{$}}
define void @convergent(i64 %n, ptr addrspace(1) %a) {
entry:
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid64 = zext i32 %ntid to i64
  %nct64 = zext i32 %nct to i64
  %cta64 = zext i32 %cta to i64
  %tid64 = zext i32 %tid to i64
  %stride = mul nuw nsw i64 %ntid64, %nct64
  %base = mul nuw nsw i64 %cta64, %ntid64
  %start = add nuw nsw i64 %base, %tid64
  %go = icmp slt i64 %start, %n
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i64 [ %start, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  store float 0.0, ptr addrspace(1) %p, align 4
  call void @conv()
  %i.next = add nsw i64 %i, %stride
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; With a threshold of 30 triad (11 instructions: (11 - 2) * 2 + 2 = 20 fits, * 4 = 38 does
; not) gets 2.
; SMALL-LABEL: define void @triad(
; SMALL: !llvm.loop [[T2:![0-9]+]]
; SMALL: [[T2]] = distinct !{[[T2]], [[C2:![0-9]+]]}
; SMALL: [[C2]] = !{!"llvm.loop.unroll.count", i32 2}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}

; CHECK: [[TRIAD]] = distinct !{[[TRIAD]], [[COUNT:![0-9]+]]}
; CHECK: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}
; CHECK: [[ARG]] = distinct !{[[ARG]], [[COUNT]]}
; CHECK: [[PRAGMA]] = distinct !{[[PRAGMA]], [[DISABLE:![0-9]+]]}
; CHECK: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}

; REMARK-COUNT-2: remark: {{.*}}runtime unroll count 4 (llvm.loop.unroll.count): its trip count divides by a run-time stride, which LLVM's unroller does not expand
; REMARK: remark: {{.*}}stride loop left rolled: it is a block-stride loop (i += blockDim.x), which nvcc keeps rolled
; REMARK: remark: {{.*}}stride loop left rolled: its trip count has a small constant bound (a shared-memory tile), which nvcc keeps rolled
; REMARK: remark: {{.*}}stride loop left rolled: its unroll pragma or another pass's mark decides
; REMARK: remark: {{.*}}stride loop left rolled: it holds a convergent call
; REMARK-DAG: 2 nv-stride-loop-unroll{{ +}}- stride loops given a runtime unroll count
; REMARK-DAG: 1 nv-stride-loop-unroll{{ +}}- stride loops left: pragma or mark
; REMARK-DAG: 1 nv-stride-loop-unroll{{ +}}- stride loops left: convergent call
; REMARK-DAG: 1 nv-stride-loop-unroll{{ +}}- stride loops left: block-stride
; REMARK-DAG: 1 nv-stride-loop-unroll{{ +}}- stride loops left: small constant trip bound

; SLOT: nv-shuffle-loop-unroll,nv-stride-loop-unroll,loop-unroll<
; NOSLOT-NOT: nv-stride-loop-unroll
