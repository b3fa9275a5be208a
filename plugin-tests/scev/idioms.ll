; print<nv-scev> names each loop's stride idiom (docs/CICC-FACTS.md "GPU SCEV sources and stride
; idioms"): warp-stride {tid,+,32}, block-stride {tid,+,ntid}, grid-stride
; {ctaid*ntid+tid,+,ntid*nctaid}; other loops are none.
; RUN: %opt -load-pass-plugin=%plugin -passes='print<nv-scev>' -disable-output %s 2>&1 | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: Determining loop execution counts for: @strides
; CHECK-NEXT:  Loop %warp: idiom: warp-stride
; CHECK:       Loop %block: idiom: block-stride
; CHECK:       Loop %grid: idiom: grid-stride
; CHECK:       Loop %plain: idiom: none
; CHECK:       Loop %wrongdim: idiom: none
define ptx_kernel void @strides(ptr %p, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tidy = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  br label %warp
warp:
  %w = phi i32 [ %tid, %entry ], [ %w.next, %warp ]
  store i32 %w, ptr %p
  %w.next = add i32 %w, 32
  %wc = icmp slt i32 %w.next, %n
  br i1 %wc, label %warp, label %b.pre
b.pre:
  br label %block
block:
  %b = phi i32 [ %tid, %b.pre ], [ %b.next, %block ]
  store i32 %b, ptr %p
  %b.next = add i32 %b, %ntid
  %bc = icmp slt i32 %b.next, %n
  br i1 %bc, label %block, label %g.pre
g.pre:
  %base = mul i32 %ctaid, %ntid
  %start = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  br label %grid
grid:
  %g = phi i32 [ %start, %g.pre ], [ %g.next, %grid ]
  store i32 %g, ptr %p
  %g.next = add i32 %g, %stride
  %gc = icmp slt i32 %g.next, %n
  br i1 %gc, label %grid, label %plain
plain:
  %i = phi i32 [ 0, %grid ], [ %i.next, %plain ]
  store i32 %i, ptr %p
  %i.next = add i32 %i, 1
  %ic = icmp slt i32 %i.next, %n
  br i1 %ic, label %plain, label %wrongdim
wrongdim:
  %y = phi i32 [ %tidy, %plain ], [ %y.next, %wrongdim ]
  store i32 %y, ptr %p
  %y.next = add i32 %y, %ntid
  %yc = icmp slt i32 %y.next, %n
  br i1 %yc, label %wrongdim, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
