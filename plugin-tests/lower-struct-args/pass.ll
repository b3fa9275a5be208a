;; nv-lower-struct-args (src/opt/lower_struct_args.rs): a kernel's by-value parameter that the
;; kernel writes is copied into a private alloca filled by one memcpy from the parameter; every
;; other by-value parameter is left as it is for llc's nvptx-lower-args. Pointers loaded from a
;; by-value parameter and integer kernel arguments used only as pointers are marked global.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-lower-struct-args -verify-each -pass-remarks=nv-lower-struct-args -pass-remarks-missed=nv-lower-struct-args -nv-stats %s -S -o - 2>%t.err | FileCheck %s
;; RUN: FileCheck %s --check-prefix=REMARK < %t.err
;; RUN: FileCheck %s --check-prefix=STATS < %t.err
;; Off the NVPTX target, and with the slot off, nothing changes.
;; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s | %opt -load-pass-plugin=%plugin -passes=nv-lower-struct-args -S -o - | FileCheck %s --check-prefix=OFF
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-lower-args -print-pipeline-passes %s -disable-output | FileCheck %s --check-prefix=NOSLOT
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes %s -disable-output | FileCheck %s --check-prefix=SLOT
;; The pipeline no longer runs upstream's nvptx-lower-args (llc runs it).
; SLOT: nv-lower-struct-args
; SLOT-NOT: nvptx-lower-args
; NOSLOT-NOT: nv-lower-struct-args
; NOSLOT-NOT: nvptx-lower-args
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.W = type { [8 x float], i32 }
%struct.P = type { ptr, ptr, i32 }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @take(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

;; Written on one path (the issue's reproducer): copied at the entry; every use reads the copy.
; CHECK-LABEL: define ptx_kernel void @one_path(
; CHECK-NEXT: entry:
; CHECK-NEXT: %w.copy = alloca %struct.W, align 4
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %w.copy, ptr align 4 %w, i64 36, i1 false)
; CHECK: %n.addr = getelementptr inbounds i8, ptr %w.copy, i64 32
; CHECK: store i32 %half, ptr %n.addr
; CHECK: %e = getelementptr inbounds float, ptr %w.copy, i64 %ix
; CHECK-NOT: %w,
; CHECK: ret void
define ptx_kernel void @one_path(ptr byval(%struct.W) align 4 %w, ptr %x, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %write, label %use
write:
  %half = sdiv i32 %n, 2
  %n.addr = getelementptr inbounds i8, ptr %w, i64 32
  store i32 %half, ptr %n.addr, align 4
  br label %use
use:
  %i7 = and i32 %t, 7
  %ix = zext i32 %i7 to i64
  %e = getelementptr inbounds float, ptr %w, i64 %ix
  %v = load float, ptr %e, align 4
  %n2 = getelementptr inbounds i8, ptr %w, i64 32
  %c = load i32, ptr %n2, align 4
  %cf = sitofp i32 %c to float
  %p = fmul float %v, %cf
  store float %p, ptr %x, align 4
  ret void
}

;; Written on every path, through a pointer to a field, in a loop: copied.
; CHECK-LABEL: define ptx_kernel void @loop_write(
; CHECK-NEXT: entry:
; CHECK-NEXT: %w.copy = alloca %struct.W, align 4
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %w.copy, ptr align 4 %w, i64 36, i1 false)
; CHECK-NEXT: %f = getelementptr inbounds i8, ptr %w.copy, i64 32
define ptx_kernel void @loop_write(ptr byval(%struct.W) align 4 %w, ptr %x, i32 %n) {
entry:
  %f = getelementptr inbounds i8, ptr %w, i64 32
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %old = load i32, ptr %f, align 4
  %new = add i32 %old, %i
  store i32 %new, ptr %f, align 4
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = load i32, ptr %f, align 4
  store i32 %r, ptr %x, align 4
  ret void
}

;; Written through a select of two pointers into it, and by memset: copied.
; CHECK-LABEL: define ptx_kernel void @select_write(
; CHECK-NEXT: %w.copy = alloca
; CHECK: %a = getelementptr inbounds i8, ptr %w.copy, i64 0
; CHECK: call void @llvm.memset.p0.i64(ptr %w.copy,
define ptx_kernel void @select_write(ptr byval(%struct.W) align 4 %w, i1 %c, ptr %x) {
  %a = getelementptr inbounds i8, ptr %w, i64 0
  %b = getelementptr inbounds i8, ptr %w, i64 4
  %s = select i1 %c, ptr %a, ptr %b
  store float 1.0, ptr %s, align 4
  %v = load float, ptr %a, align 4
  store float %v, ptr %x, align 4
  call void @llvm.memset.p0.i64(ptr %w, i8 0, i64 8, i1 false)
  ret void
}

;; Passed on to a device function and written: copied (the call then gets the copy).
; CHECK-LABEL: define ptx_kernel void @escape_and_write(
; CHECK-NEXT: %w.copy = alloca
; CHECK: call void @take(ptr %w.copy)
define ptx_kernel void @escape_and_write(ptr byval(%struct.W) align 4 %w) {
  store i32 3, ptr %w, align 4
  call void @take(ptr %w)
  ret void
}

;; Passed on to a device function only: left to llc, which decides between cvta.param and a copy.
; CHECK-LABEL: define ptx_kernel void @escape_only(
; CHECK-NOT: alloca
; CHECK: call void @take(ptr %w)
define ptx_kernel void @escape_only(ptr byval(%struct.W) align 4 %w) {
  call void @take(ptr %w)
  ret void
}

;; Read only, with a dynamic index; unused; __grid_constant__ (written, which is undefined):
;; all left alone.
; CHECK-LABEL: define ptx_kernel void @read_only(
; CHECK-NOT: alloca
; CHECK: getelementptr inbounds float, ptr %w, i64 %ix
define ptx_kernel void @read_only(ptr byval(%struct.W) align 4 %w, ptr byval(%struct.W) align 4 %unused, ptr byval(%struct.W) align 4 "nvvm.grid_constant" %g, ptr %x, i64 %ix) {
  %e = getelementptr inbounds float, ptr %w, i64 %ix
  %v = load float, ptr %e, align 4
  store float %v, ptr %x, align 4
  store i32 0, ptr %g, align 4
  ret void
}

;; A device function's by-value parameter is not the pass's business.
; CHECK-LABEL: define void @device(
; CHECK-NOT: alloca
define void @device(ptr byval(%struct.W) align 4 %w) {
  store i32 3, ptr %w, align 4
  ret void
}

;; Pointers loaded from a by-value parameter, and an integer argument used only as a pointer,
;; are marked global (as llc's pass would); the written struct is still copied afterwards.
; CHECK-LABEL: define ptx_kernel void @pointers(
; CHECK-NEXT: %p.copy = alloca %struct.P, align 8
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p.copy, ptr align 8 %p, i64 24, i1 false)
; CHECK-NEXT: %raw = inttoptr i64 %addr to ptr
; CHECK-NEXT: [[G:%.*]] = addrspacecast ptr %raw to ptr addrspace(1)
; CHECK-NEXT: [[GEN:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
; CHECK: %a = load ptr, ptr %p.copy, align 8
; CHECK-NEXT: [[AG:%.*]] = addrspacecast ptr %a to ptr addrspace(1)
; CHECK-NEXT: [[AGEN:%.*]] = addrspacecast ptr addrspace(1) [[AG]] to ptr
; CHECK-NEXT: %a1 = getelementptr inbounds float, ptr [[AGEN]], i64 1
; CHECK: store ptr %a1, ptr %p.copy
; CHECK: store float %v, ptr [[GEN]]
define ptx_kernel void @pointers(ptr byval(%struct.P) align 8 %p, i64 %addr) {
  %raw = inttoptr i64 %addr to ptr
  %a = load ptr, ptr %p, align 8
  %a1 = getelementptr inbounds float, ptr %a, i64 1
  store ptr %a1, ptr %p, align 8
  %v = load float, ptr %a1, align 4
  store float %v, ptr %raw, align 4
  ret void
}

; OFF-NOT: alloca
; OFF-NOT: addrspacecast

; REMARK-DAG: remark: {{.*}}by-value parameter 0 (w) is written: copied to a private alloca
; REMARK-DAG: remark: {{.*}}by-value parameter 0 (w) left to llc: its address escapes but nothing here writes it (llc decides)
; REMARK-DAG: remark: {{.*}}by-value parameter 1 (unused) left to llc: unused
; REMARK-DAG: remark: {{.*}}by-value parameter 2 (g) left to llc: __grid_constant__
; REMARK-DAG: remark: {{.*}}by-value parameter 0 (w) left to llc: only read (llc reads it in param space)

; STATS-DAG: 5 nv-lower-struct-args {{ *}}- by-value parameters copied
; STATS-DAG: 1 nv-lower-struct-args {{ *}}- by-value parameters left to llc (escape only)
; STATS-DAG: 1 nv-lower-struct-args {{ *}}- by-value parameters left to llc (grid constant)
; STATS-DAG: 1 nv-lower-struct-args {{ *}}- by-value parameters left to llc (read only)
; STATS-DAG: 1 nv-lower-struct-args {{ *}}- by-value parameters left to llc (unused)
; STATS-DAG: 2 nv-lower-struct-args {{ *}}- pointers marked global
