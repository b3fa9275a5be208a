;; nv-phi-loads (src/llc/phi_loads.rs): loads through a PHI of addresses, one of them a private
;; object only the PHI keeps in memory, are made in the predecessors; SROA then keeps the
;; object in registers. The shape is CUB's arg-min step (a KeyValuePair picked by reference).
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-phi-loads -verify-each -pass-remarks=nv-phi-loads -pass-remarks-missed=nv-phi-loads -nv-stats %s -S -o - 2>%t.err | FileCheck %s
;; RUN: FileCheck %s --check-prefix=REMARK < %t.err
;; RUN: %opt -load-pass-plugin=%plugin -passes='nv-phi-loads,sroa' %s -S -o - | FileCheck %s --check-prefix=SROA
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-phi-loads -nv-disable-phi-loads %s -S -o - | FileCheck %s --check-prefix=OFF
;; In llc it runs before the SROA ahead of nvptx-lower-alloca: the argmin kernel has no frame.
;; RUN: %llc -O3 -mcpu=sm_90 -load-pass-plugin=%plugin -verify-machineinstrs %s -o - | FileCheck %s --check-prefix=PTX
;; RUN: %llc -O3 -mcpu=sm_90 -load-pass-plugin=%plugin -nv-disable-phi-loads %s -o - | FileCheck %s --check-prefix=PTX-OFF
;; RUN: %llc -O3 -mcpu=sm_90 -load-pass-plugin=%plugin -debug-pass=Arguments %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
; PIPE: -nvptx-lower-args -nv-phi-loads -domtree -sroa
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.KV = type { i64, i32 }

; The local copy arrives on conditional edges, the loaded pointer on the unconditional one.
; CHECK-LABEL: define ptx_kernel void @argmin(
; CHECK: entry:
; CHECK: [[L0:%.*]] = load i64, ptr %local, align 8, !tbaa
; CHECK-NEXT: [[G0:%.*]] = getelementptr inbounds nuw i8, ptr %local, i64 8
; CHECK-NEXT: [[L8:%.*]] = load i32, ptr [[G0]], align 8, !tbaa
; CHECK-NEXT: br i1 %lt,
; CHECK: other:
; CHECK: [[O0:%.*]] = load i64, ptr %p, align 8, !tbaa
; CHECK-NEXT: [[G1:%.*]] = getelementptr inbounds nuw i8, ptr %p, i64 8
; CHECK-NEXT: [[O8:%.*]] = load i32, ptr [[G1]], align 8, !tbaa
; CHECK-NEXT: br label %exit
; CHECK: exit:
; CHECK-NEXT: [[K:%.*]] = phi i64 [ [[O0]], %other ], [ [[T0:%.*]], %tie ], [ [[L0]], %entry ]
; CHECK-NEXT: [[V:%.*]] = phi i32 [ [[O8]], %other ], [ {{%.*}}, %tie ], [ [[L8]], %entry ]
; CHECK-NOT: phi ptr
; CHECK: mul i64 [[K]], 4
; REMARK: remark: {{.*}}2 loads through a PHI of a private object made in its predecessors
; SROA-LABEL: define ptx_kernel void @argmin(
; SROA-NOT: alloca
; SROA: ret void
; OFF-LABEL: define ptx_kernel void @argmin(
; OFF: %r = phi ptr [ %p, %other ], [ %local, %tie ], [ %local, %entry ]
; PTX-LABEL: .entry argmin(
; PTX-NOT: __local_depot
; PTX: ret;
; PTX-OFF-LABEL: .entry argmin(
; PTX-OFF: __local_depot
define ptx_kernel void @argmin(ptr %in, ptr %out, i64 %base, i32 %v) {
entry:
  %local = alloca %struct.KV, align 16
  call void @llvm.lifetime.start.p0(ptr %local)
  store i64 %base, ptr %local, align 16, !tbaa !0
  %lv = getelementptr inbounds nuw i8, ptr %local, i64 8
  store i32 %v, ptr %lv, align 8, !tbaa !3
  %p = load ptr, ptr %in, align 8
  %pv = getelementptr inbounds nuw i8, ptr %p, i64 8
  %x = load i32, ptr %pv, align 8, !tbaa !3
  %lt = icmp slt i32 %x, %v
  br i1 %lt, label %exit, label %eq

eq:
  %same = icmp eq i32 %x, %v
  br i1 %same, label %tie, label %other

tie:
  %pk = load i64, ptr %p, align 8, !tbaa !0
  %klt = icmp slt i64 %base, %pk
  br i1 %klt, label %exit, label %other

other:
  br label %exit

exit:
  %r = phi ptr [ %p, %other ], [ %local, %tie ], [ %local, %entry ]
  %k = load i64, ptr %r, align 8, !tbaa !0
  %rv = getelementptr inbounds nuw i8, ptr %r, i64 8
  %val = load i32, ptr %rv, align 8, !tbaa !3
  %k4 = mul i64 %k, 4
  %vv = sext i32 %val to i64
  %sum = add i64 %k4, %vv
  store i64 %sum, ptr %out, align 8
  call void @llvm.lifetime.end.p0(ptr %local)
  ret void
}

; A conditional edge carries a pointer nothing says may be loaded from early: left alone.
; CHECK-LABEL: define ptx_kernel void @unknown_on_conditional_edge(
; CHECK: %r = phi ptr [ %p, %entry ], [ %local, %other ]
; REMARK: remark: {{.*}}PHI of a private object left alone: a conditional edge carries a pointer that may not be loaded from speculatively
define ptx_kernel void @unknown_on_conditional_edge(ptr %in, ptr %out, i64 %base, i1 %c) {
entry:
  %local = alloca i64, align 8
  store i64 %base, ptr %local, align 8
  %p = load ptr, ptr %in, align 8
  br i1 %c, label %exit, label %other

other:
  br label %exit

exit:
  %r = phi ptr [ %p, %entry ], [ %local, %other ]
  %k = load i64, ptr %r, align 8
  store i64 %k, ptr %out, align 8
  ret void
}

; A dereferenceable parameter on the conditional edge is loadable there.
; CHECK-LABEL: define ptx_kernel void @dereferenceable_on_conditional_edge(
; CHECK: entry:
; CHECK: load i64, ptr %p, align 8
; CHECK-NEXT: br i1 %c
; CHECK-NOT: phi ptr
define ptx_kernel void @dereferenceable_on_conditional_edge(ptr align 8 dereferenceable(8) %p, ptr %out, i64 %base, i1 %c) {
entry:
  %local = alloca i64, align 8
  store i64 %base, ptr %local, align 8
  br i1 %c, label %exit, label %other

other:
  br label %exit

exit:
  %r = phi ptr [ %p, %entry ], [ %local, %other ]
  %k = load i64, ptr %r, align 8
  store i64 %k, ptr %out, align 8
  ret void
}

; A store between the PHI and its load: left alone.
; CHECK-LABEL: define ptx_kernel void @write_before_load(
; CHECK: %r = phi ptr
; REMARK: remark: {{.*}}PHI of a private object left alone: memory may be written between the PHI and a load
define ptx_kernel void @write_before_load(ptr %in, ptr %out, i64 %base, i1 %c) {
entry:
  %local = alloca i64, align 8
  store i64 %base, ptr %local, align 8
  %p = load ptr, ptr %in, align 8
  br i1 %c, label %exit, label %other

other:
  br label %exit

exit:
  %r = phi ptr [ %p, %other ], [ %local, %entry ]
  store i64 0, ptr %out, align 8
  %k = load i64, ptr %r, align 8
  store i64 %k, ptr %out, align 8
  ret void
}

; The private object escapes into a call: not this pass's shape, nothing said.
; CHECK-LABEL: define ptx_kernel void @escaped(
; CHECK: %r = phi ptr
define ptx_kernel void @escaped(ptr %in, ptr %out, i64 %base, i1 %c) {
entry:
  %local = alloca i64, align 8
  store i64 %base, ptr %local, align 8
  call void @keep(ptr %local)
  %p = load ptr, ptr %in, align 8
  br i1 %c, label %exit, label %other

other:
  br label %exit

exit:
  %r = phi ptr [ %p, %other ], [ %local, %entry ]
  %k = load i64, ptr %r, align 8
  store i64 %k, ptr %out, align 8
  ret void
}

; REMARK: 2 nv-phi-loads {{.*}} PHIs of private objects whose loads were speculated
declare void @keep(ptr)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)

!0 = !{!1, !1, i64 0}
!1 = !{!"long", !2, i64 0}
!2 = !{!"omnipotent char", !4, i64 0}
!3 = !{!5, !5, i64 0}
!4 = !{!"Simple C++ TBAA"}
!5 = !{!"int", !2, i64 0}
