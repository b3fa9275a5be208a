; XSBench's pick_mat shape: `for (i < 6) { running = 0; for (j = i; j > 0; j--) running +=
; dist[j]; if (roll < running) return i; }` over a private table. The inner loop's trip count
; (i) becomes constant only once the outer loop (two exits, constant count 6 at its latch) is
; unrolled. nv-local-array-unroll marks both loops full and the inner one also
; llvm.loop.unroll.runtime.disable: without it the first loop-unroll, which reaches the inner
; loop first, runtime-unrolls it and every outer copy keeps a remainder loop and the table in
; local memory (XSBench's sampling_kernel: a 96-byte frame nvcc and upstream avoid). With it,
; the outer loop is unrolled, then the second loop-unroll slot unrolls the inner copies, whose
; trip counts are now constant, and SROA promotes the table.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -verify-each -S %s | FileCheck %s --check-prefix=MARK
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-local-array-unroll,loop-unroll<O3>,loop-unroll<no-partial;no-peeling;no-runtime;O3>,sroa' -verify-each -S %s | FileCheck %s --check-prefix=PROMOTED

; MARK-LABEL: define ptx_kernel void @pick(
; MARK: br i1 %j.more, label %inner, label %test, !llvm.loop ![[IN:[0-9]+]]
; MARK: br i1 %i.more, label %outer, label %done, !llvm.loop ![[OUT:[0-9]+]]
; MARK-DAG: ![[IN]] = distinct !{![[IN]], ![[FULL:[0-9]+]], ![[NORT:[0-9]+]]}
; MARK-DAG: ![[OUT]] = distinct !{![[OUT]], ![[FULL]]}
; MARK-DAG: ![[FULL]] = !{!"llvm.loop.unroll.full"}
; MARK-DAG: ![[NORT]] = !{!"llvm.loop.unroll.runtime.disable"}

; PROMOTED-LABEL: define ptx_kernel void @pick(
; PROMOTED-NOT: alloca
; PROMOTED-NOT: !llvm.loop
; PROMOTED: ret void

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @pick(ptr noalias %rollp, ptr noalias %out) {
entry:
  %dist = alloca [6 x double], align 8
  store double 1.4e-01, ptr %dist, align 8
  %d1 = getelementptr inbounds i8, ptr %dist, i64 8
  store double 5.0e-02, ptr %d1, align 8
  %d2 = getelementptr inbounds i8, ptr %dist, i64 16
  store double 2.7e-01, ptr %d2, align 8
  %d3 = getelementptr inbounds i8, ptr %dist, i64 24
  store double 1.3e-01, ptr %d3, align 8
  %d4 = getelementptr inbounds i8, ptr %dist, i64 32
  store double 1.5e-01, ptr %d4, align 8
  %d5 = getelementptr inbounds i8, ptr %dist, i64 40
  store double 6.0e-02, ptr %d5, align 8
  %roll = load double, ptr %rollp, align 8
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %none = icmp eq i32 %i, 0
  br i1 %none, label %test, label %inner

inner:
  %j = phi i32 [ %i, %outer ], [ %j.next, %inner ]
  %run = phi double [ 0.0, %outer ], [ %run.next, %inner ]
  %j64 = zext nneg i32 %j to i64
  %p = getelementptr inbounds double, ptr %dist, i64 %j64
  %v = load double, ptr %p, align 8
  %run.next = fadd double %run, %v
  %j.next = add nsw i32 %j, -1
  %j.more = icmp sgt i32 %j, 1
  br i1 %j.more, label %inner, label %test

test:
  %running = phi double [ 0.0, %outer ], [ %run.next, %inner ]
  %hit = fcmp olt double %roll, %running
  br i1 %hit, label %done, label %latch

latch:
  %i.next = add nuw nsw i32 %i, 1
  %i.more = icmp ult i32 %i, 5
  br i1 %i.more, label %outer, label %done

done:
  %r = phi i32 [ %i, %test ], [ 0, %latch ]
  store i32 %r, ptr %out, align 4
  ret void
}
