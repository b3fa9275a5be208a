; A loop with two exits, `for (j < 4) { if (c0 + j > r0 + i) break; v[i][j] += ... }`: the
; latch exit runs 4 times, the other exit may leave earlier. LLVM's unroller fully unrolls such
; a loop by the smallest exact count of its exits (each copy keeps its break as a branch), so
; nv-local-array-unroll counts its trip count as 4 and marks the nest; loop-unroll and sroa then
; put the 4x4 array in registers. The previous rule asked for one exact trip count of the whole
; loop and refused ("no constant trip count"); on bench/kernels/early_exit_tiles.cu's 8x8 SYRK
; tile that left a 256-byte frame, as upstream's flow does.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -verify-each -S %s \
; RUN:   -pass-remarks=nv-local-array-unroll 2>%t.err | FileCheck %s --check-prefix=MARK
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-local-array-unroll,loop-unroll<O3>,sroa' -verify-each -S %s | FileCheck %s --check-prefix=PROMOTED

; REMARK: remark: {{.*}}private array %v (16 elements): marked 4 loop(s) (%acc.i, %acc.j, %out.i, %out.j) llvm.loop.unroll.full

; MARK-LABEL: define ptx_kernel void @syrk_diag(
; MARK: br i1 %j.more, label %acc.j, label %acc.i.latch, !llvm.loop ![[J:[0-9]+]]
; MARK: br i1 %i.more, label %acc.i, label %out.i, !llvm.loop ![[I:[0-9]+]]
; MARK-DAG: ![[J]] = distinct !{![[J]], ![[FULL:[0-9]+]]}
; MARK-DAG: ![[I]] = distinct !{![[I]], ![[FULL]]}
; MARK-DAG: ![[FULL]] = !{!"llvm.loop.unroll.full"}

; PROMOTED-LABEL: define ptx_kernel void @syrk_diag(
; PROMOTED-NOT: alloca
; PROMOTED-NOT: !llvm.loop
; PROMOTED: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @syrk_diag(ptr noalias %a, ptr noalias %c, i32 %r0, i32 %c0) {
entry:
  %v = alloca [4 x [4 x float]], align 4
  call void @llvm.memset.p0.i64(ptr align 4 %v, i8 0, i64 64, i1 false)
  br label %acc.i

acc.i:
  %i = phi i32 [ 0, %entry ], [ %i.next, %acc.i.latch ]
  %row = add nsw i32 %r0, %i
  %i64 = zext nneg i32 %i to i64
  %ai.p = getelementptr inbounds float, ptr %a, i64 %i64
  %ai = load float, ptr %ai.p, align 4
  br label %acc.j

acc.j:
  %j = phi i32 [ 0, %acc.i ], [ %j.next, %acc.body ]
  %col = add nsw i32 %c0, %j
  %past = icmp sgt i32 %col, %row
  br i1 %past, label %acc.i.latch, label %acc.body

acc.body:
  %j64 = zext nneg i32 %j to i64
  %aj.p = getelementptr inbounds float, ptr %a, i64 %j64
  %aj = load float, ptr %aj.p, align 4
  %prod = fmul float %ai, %aj
  %vrow = getelementptr inbounds [4 x float], ptr %v, i64 %i64
  %vij = getelementptr inbounds float, ptr %vrow, i64 %j64
  %old = load float, ptr %vij, align 4
  %new = fadd float %old, %prod
  store float %new, ptr %vij, align 4
  %j.next = add nuw nsw i32 %j, 1
  %j.more = icmp ult i32 %j, 3
  br i1 %j.more, label %acc.j, label %acc.i.latch

acc.i.latch:
  %i.next = add nuw nsw i32 %i, 1
  %i.more = icmp ult i32 %i, 3
  br i1 %i.more, label %acc.i, label %out.i

out.i:
  %oi = phi i32 [ 0, %acc.i.latch ], [ %oi.next, %out.i.latch ]
  %oi64 = zext nneg i32 %oi to i64
  br label %out.j

out.j:
  %oj = phi i32 [ 0, %out.i ], [ %oj.next, %out.j ]
  %oj64 = zext nneg i32 %oj to i64
  %orow = getelementptr inbounds [4 x float], ptr %v, i64 %oi64
  %oij = getelementptr inbounds float, ptr %orow, i64 %oj64
  %val = load float, ptr %oij, align 4
  %flat = shl nuw nsw i32 %oi, 2
  %idx = add nuw nsw i32 %flat, %oj
  %idx64 = zext nneg i32 %idx to i64
  %dst = getelementptr inbounds float, ptr %c, i64 %idx64
  store float %val, ptr %dst, align 4
  %oj.next = add nuw nsw i32 %oj, 1
  %oj.more = icmp ult i32 %oj, 3
  br i1 %oj.more, label %out.j, label %out.i.latch

out.i.latch:
  %oi.next = add nuw nsw i32 %oi, 1
  %oi.more = icmp ult i32 %oi, 3
  br i1 %oi.more, label %out.i, label %exit

exit:
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
