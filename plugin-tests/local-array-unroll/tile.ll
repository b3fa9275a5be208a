; nv-local-array-unroll on a per-thread 8x8 accumulator tile (the training-kernel shape of
; issue 16): `float acc[8][8]`, zeroed by a memset, updated in `for r < n, for i < 8, for
; j < 8: acc[i][j] += f(x[8r+i], y[8r+j])` (f: nine multiplies and adds) and written out in
; `for i < 8, for j < 8`, in the rotated form the pass sees in nvopt<O3> (right before the
; first loop-unroll). The four constant-trip loops get llvm.loop.unroll.full, the runtime
; loop %r does not; the nests unroll to 8 * (10 + 8 * 21) = 1424 and 8 * (7 + 8 * 10) = 696
; instructions, within 300 * min(64, 6) = 1800. After loop-unroll and sroa the array is gone;
; without the pass LLVM's unroller leaves the i loop of the update nest rolled (over its
; full-unroll threshold) and the array stays in local memory.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-local-array-unroll,loop-unroll<O3>,sroa' -S %s \
; RUN:   | FileCheck %s --check-prefix=PROMOTED
; RUN: %opt -passes='loop-unroll<O3>,sroa' -S %s | FileCheck %s --check-prefix=UPSTREAM
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -disable-output %s \
; RUN:   -pass-remarks=nv-local-array-unroll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -disable-output %s \
; RUN:   -nv-stats 2>&1 | FileCheck %s --check-prefix=STATS
; Over the bound: with a base of 200 the bound is 200 * 6 = 1200 < 1424; the factor caps at 6.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -nv-local-array-unroll-threshold=200 \
; RUN:   -S %s -pass-remarks-missed=nv-local-array-unroll 2>%t.err | FileCheck %s --check-prefix=NONE
; RUN: FileCheck %s --check-prefix=BOUND < %t.err
; The slot in nvopt<O3>, and its guard.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -S %s | FileCheck %s --check-prefix=PROMOTED
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-local-array-unroll -S %s \
; RUN:   | FileCheck %s --check-prefix=UPSTREAM
; O1 (no unroller in cicc's table) runs the rule only with -nv-o1-local-array-unroll.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -S %s | FileCheck %s --check-prefix=UPSTREAM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -nv-o1-local-array-unroll -S %s \
; RUN:   | FileCheck %s --check-prefix=PROMOTED

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @tile(
; CHECK: br i1 %j.more, label %j, label %i.latch, !llvm.loop [[J:![0-9]+]]
; CHECK: br i1 %i.more, label %i, label %r.latch, !llvm.loop [[I:![0-9]+]]
; CHECK: br i1 %r.more, label %r, label %out.i.preheader{{$}}
; CHECK: br i1 %oj.more, label %oj, label %oi.latch, !llvm.loop [[OJ:![0-9]+]]
; CHECK: br i1 %oi.more, label %oi, label %done, !llvm.loop [[OI:![0-9]+]]
; CHECK-DAG: [[J]] = distinct !{[[J]], [[FULL:![0-9]+]]}
; CHECK-DAG: [[I]] = distinct !{[[I]], [[FULL]]}
; CHECK-DAG: [[OJ]] = distinct !{[[OJ]], [[FULL]]}
; CHECK-DAG: [[OI]] = distinct !{[[OI]], [[FULL]]}
; CHECK-DAG: [[FULL]] = !{!"llvm.loop.unroll.full"}

; PROMOTED-LABEL: @tile(
; PROMOTED-NOT: alloca
; PROMOTED: ret void
; UPSTREAM-LABEL: @tile(
; UPSTREAM: alloca [8 x [8 x float]]

; REMARK: remark: {{.*}}private array %acc (64 elements): marked 4 loop(s) (%i, %j, %oi, %oj) llvm.loop.unroll.full: unrolled, every index is constant and SROA can promote it (unrolled size 1424, bound 1800)
; STATS: 4 nv-local-array-unroll - loops marked llvm.loop.unroll.full
; STATS: 1 nv-local-array-unroll - private arrays made promotable by full unrolling

; NONE-NOT: llvm.loop.unroll.full
; BOUND: remark: {{.*}}private array %acc (64 elements): not unrolled: the loop at %i would unroll to 1424 instructions, over the bound 1200
define ptx_kernel void @tile(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(1) %out, i32 %n) {
entry:
  %acc = alloca [8 x [8 x float]], align 4, addrspace(5)
  call void @llvm.memset.p5.i64(ptr addrspace(5) %acc, i8 0, i64 256, i1 false)
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %r, label %out.i.preheader

r:
  %rv = phi i32 [ 0, %entry ], [ %r.next, %r.latch ]
  %r8 = shl nsw i32 %rv, 3
  br label %i

i:
  %iv = phi i32 [ 0, %r ], [ %i.next, %i.latch ]
  %xi = or disjoint i32 %iv, %r8
  %xi64 = zext nneg i32 %xi to i64
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %xi64
  %xv = load float, ptr addrspace(1) %xp, align 4
  %i64 = zext nneg i32 %iv to i64
  %row = getelementptr inbounds [8 x float], ptr addrspace(5) %acc, i64 %i64
  br label %j

j:
  %jv = phi i32 [ 0, %i ], [ %j.next, %j ]
  %yi = or disjoint i32 %jv, %r8
  %yi64 = zext nneg i32 %yi to i64
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %yi64
  %yv = load float, ptr addrspace(1) %yp, align 4
  %prod = fmul float %xv, %yv
  %t1 = fmul float %prod, %yv
  %t2 = fadd float %t1, %xv
  %t3 = fmul float %t2, %t2
  %t4 = fadd float %t3, %prod
  %t5 = fmul float %t4, %xv
  %t6 = fadd float %t5, %yv
  %t7 = fmul float %t6, %t1
  %t8 = fadd float %t7, %t4
  %j64 = zext nneg i32 %jv to i64
  %cell = getelementptr inbounds float, ptr addrspace(5) %row, i64 %j64
  %old = load float, ptr addrspace(5) %cell, align 4
  %new = fadd float %old, %t8
  store float %new, ptr addrspace(5) %cell, align 4
  %j.next = add nuw nsw i32 %jv, 1
  %j.more = icmp ne i32 %j.next, 8
  br i1 %j.more, label %j, label %i.latch

i.latch:
  %i.next = add nuw nsw i32 %iv, 1
  %i.more = icmp ne i32 %i.next, 8
  br i1 %i.more, label %i, label %r.latch

r.latch:
  %r.next = add nuw nsw i32 %rv, 1
  %r.more = icmp ne i32 %r.next, %n
  br i1 %r.more, label %r, label %out.i.preheader

out.i.preheader:
  br label %oi

oi:
  %oiv = phi i32 [ 0, %out.i.preheader ], [ %oi.next, %oi.latch ]
  %oi64 = zext nneg i32 %oiv to i64
  %orow = getelementptr inbounds [8 x float], ptr addrspace(5) %acc, i64 %oi64
  %obase = shl nuw nsw i32 %oiv, 3
  br label %oj

oj:
  %ojv = phi i32 [ 0, %oi ], [ %oj.next, %oj ]
  %oj64 = zext nneg i32 %ojv to i64
  %ocell = getelementptr inbounds float, ptr addrspace(5) %orow, i64 %oj64
  %v = load float, ptr addrspace(5) %ocell, align 4
  %oidx = add nuw nsw i32 %ojv, %obase
  %oidx64 = zext nneg i32 %oidx to i64
  %op = getelementptr inbounds float, ptr addrspace(1) %out, i64 %oidx64
  store float %v, ptr addrspace(1) %op, align 4
  %oj.next = add nuw nsw i32 %ojv, 1
  %oj.more = icmp ne i32 %oj.next, 8
  br i1 %oj.more, label %oj, label %oi.latch

oi.latch:
  %oi.next = add nuw nsw i32 %oiv, 1
  %oi.more = icmp ne i32 %oi.next, 8
  br i1 %oi.more, label %oi, label %done

done:
  ret void
}

declare void @llvm.memset.p5.i64(ptr addrspace(5), i8, i64, i1)
