; nv-ext-reuse (src/llc/ext_reuse): a 64-bit expression that ScalarEvolution proves equal to the
; zero or sign extension of a 32-bit value the function computes is rebuilt as that extension.
; @rank is LSR's expansion of a pointer IV start over a 2-D thread rank: the 64-bit product and
; sum become `zext %r`, their zext'ed operands die. @offset: a signed offset, `sext %d`. (The
; 32-bit values index a load, so ScalarEvolution may trust their nuw/nsw: poison would be UB.)
; Left alone: a 32-bit twin defined after the use (@later), one defined in a loop that does not
; hold the use (@in_loop), a 64-bit IV (@iv64: an add recurrence is LSR's choice), and
; everything with the guard knob.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ext-reuse -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ext-reuse -disable-output -nv-stats \
; RUN:   -pass-remarks=nv-ext-reuse %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ext-reuse -nv-disable-ext-reuse -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; In llc it runs after codegenprepare, codegenpreparescev and nv-iv-rewrite, before nv-cssa;
; not at -O0. The machine verifier accepts what it leaves.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %llc -O0 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOPIPE
; In the PTX, one mul.wide from the 32-bit rank (with nv-mul-wide-split off: it would turn the
; products added to the kernel's pointer into cvt + shl.b64, as the second RUN checks).
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -verify-machineinstrs -nv-mul-wide-split-rule=0 %s -o - \
; RUN:   | FileCheck %s --check-prefix=PTX
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -verify-machineinstrs %s -o - | FileCheck %s --check-prefix=SPLIT

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @rank(
; CHECK: %r = add nuw nsw i32 %m, %tx
; CHECK-NEXT: %r.ext = zext i32 %r to i64
; CHECK-NEXT: %off = shl nuw nsw i64 %r.ext, 2
; CHECK-NOT: zext i32 %ty
; CHECK: ret void
; PTX-LABEL: .visible .entry rank(
; PTX: mad.lo.s32 [[R:%r[0-9]+]],
; PTX: mul.wide.u32 %rd{{[0-9]+}}, [[R]], 4;
; PTX-NOT: mul.wide.u32
; PTX: ret;
; SPLIT-LABEL: .visible .entry rank(
; SPLIT: mad.lo.s32 [[R:%r[0-9]+]],
; SPLIT-NEXT: cvt.u64.u32 [[W:%rd[0-9]+]], [[R]];
; SPLIT-NEXT: shl.b64 %rd{{[0-9]+}}, [[W]], 2;
; SPLIT-NOT: mul.wide
; SPLIT: ret;
define ptx_kernel void @rank(ptr addrspace(1) %p) {
entry:
  %tx = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nx = call range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul nuw nsw i32 %ty, %nx
  %r = add nuw nsw i32 %m, %tx
  %ty64 = zext i32 %ty to i64
  %nx64 = zext i32 %nx to i64
  %tx64 = zext i32 %tx to i64
  %m64 = mul nuw nsw i64 %nx64, %ty64
  %r64 = add nuw nsw i64 %m64, %tx64
  %off = shl nuw nsw i64 %r64, 2
  %q = getelementptr i8, ptr addrspace(1) %p, i64 %off
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %r
  %v = load i32, ptr addrspace(1) %g, align 4
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @offset(
; CHECK: %d = add nsw i32 %tx, -5
; CHECK-NEXT: %d.ext = sext i32 %d to i64
; CHECK-NEXT: %q = getelementptr float, ptr addrspace(1) %p, i64 %d.ext
define void @offset(ptr addrspace(1) %p) {
entry:
  %tx = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %d = add nsw i32 %tx, -5
  %tx64 = sext i32 %tx to i64
  %d64 = add nsw i64 %tx64, -5
  %q = getelementptr float, ptr addrspace(1) %p, i64 %d64
  store i32 %d, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @later(
; CHECK: %s64 = add nuw nsw i64 %a64, %b64
; CHECK-NOT: .ext
; CHECK: ret void
define void @later(ptr addrspace(1) %p) {
entry:
  %a = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %a64 = zext i32 %a to i64
  %b64 = zext i32 %b to i64
  %s64 = add nuw nsw i64 %a64, %b64
  %q = getelementptr float, ptr addrspace(1) %p, i64 %s64
  %s = add nuw nsw i32 %a, %b
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %s
  %v = load i32, ptr addrspace(1) %g, align 4
  store i32 %v, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @in_loop(
; CHECK: exit:
; CHECK-NEXT: %s64 = add nuw nsw i64 %b64, %a64
define void @in_loop(ptr addrspace(1) %p, i32 %n) {
entry:
  %a = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %a64 = zext i32 %a to i64
  %b64 = zext i32 %b to i64
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = add nuw nsw i32 %a, %b
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %s
  %v = load i32, ptr addrspace(1) %g, align 4
  store i32 %v, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %s64 = add nuw nsw i64 %b64, %a64
  %q = getelementptr float, ptr addrspace(1) %p, i64 %s64
  store float 0.0, ptr addrspace(1) %q, align 4
  ret void
}

; CHECK-LABEL: define void @iv64(
; CHECK: %j.next = add nuw nsw i64 %j, 1
define void @iv64(ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %q = getelementptr float, ptr addrspace(1) %p, i64 %j
  store float 0.0, ptr addrspace(1) %q, align 4
  %i.next = add nuw nsw i32 %i, 1
  %j.next = add nuw nsw i64 %j, 1
  %c = icmp ult i32 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; REMARK: remark: <unknown>:0:0: 64-bit mul replaced by the zero extension of the 32-bit %m (ScalarEvolution: the same value)
; REMARK: remark: <unknown>:0:0: 64-bit add replaced by the zero extension of the 32-bit %r (ScalarEvolution: the same value)
; REMARK: remark: <unknown>:0:0: 64-bit add replaced by the sign extension of the 32-bit %d (ScalarEvolution: the same value)
; REMARK-DAG: 3 nv-ext-reuse {{ *}}- 64-bit values rebuilt as an extension
; REMARK-DAG: 1 nv-ext-reuse {{ *}}- kept: no such value dominates it
; REMARK-DAG: 1 nv-ext-reuse {{ *}}- kept: the value is defined in a loop that does not hold it

; OFF-NOT: .ext =

; PIPE: -codegenpreparescev {{.*}}-nv-iv-rewrite {{.*}}-nv-ext-reuse {{.*}}-nv-cssa
; NOPIPE-NOT: nv-ext-reuse

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
