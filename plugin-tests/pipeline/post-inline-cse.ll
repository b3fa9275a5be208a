; nv-post-inline-cse: early-cse<memssa> right after the SROA that follows the inliner (O1-O3),
; upstream's SROA -> EarlyCSE order, added to cicc 13.5's table (src/pipeline/levels.rs).
; Cooperative groups keep a block's coordinates in an object whose member functions the inliner
; opens; only SROA makes the copies of thread_rank() SSA. Without a CSE there, instcombine
; folds the copy that feeds `== 0` into `(row | tid) == 0` (the add is nuw), which GVN can no
; longer merge with the copy that feeds `< 32`: two sums stay live (one register more than
; upstream and nvcc on 80 cuda-samples reduction kernels). With the slot both compares read
; one add.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -S %s | FileCheck %s --check-prefix=CSE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -S %s | FileCheck %s --check-prefix=CSE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-post-inline-cse=false -S %s \
; RUN:   | FileCheck %s --check-prefix=CICC
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-early-cse -S %s \
; RUN:   | FileCheck %s --check-prefix=CICC
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-post-inline-cse=false \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=NOPIPE

; CSE-LABEL: define ptx_kernel void @k(
; CSE: %[[R:.*]] = add nuw nsw i32 %row.i, %tx.i
; CSE: icmp samesign ult i32 %[[R]], 32
; CSE-NOT: or i32
; CSE: icmp eq i32 %[[R]], 0

; CICC-LABEL: define ptx_kernel void @k(
; CICC: %[[R:.*]] = add nuw nsw i32 %row.i, %tx.i
; CICC: icmp samesign ult i32 %[[R]], 32
; CICC: %[[O:.*]] = or i32 %row.i, %tx.i
; CICC: icmp eq i32 %[[O]], 0

; PIPE: cgscc(inline),{{.*}}sroa<modify-cfg>,early-cse<memssa>,instcombine
; NOPIPE-NOT: early-cse

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%block = type { i32, i32, i32 }

define internal void @init(ptr %b) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  store i32 %tx, ptr %b
  %py = getelementptr inbounds %block, ptr %b, i32 0, i32 1
  store i32 %ty, ptr %py
  %pn = getelementptr inbounds %block, ptr %b, i32 0, i32 2
  store i32 %nx, ptr %pn
  ret void
}

define internal i32 @rank(ptr %b) {
  %tx = load i32, ptr %b
  %py = getelementptr inbounds %block, ptr %b, i32 0, i32 1
  %ty = load i32, ptr %py
  %pn = getelementptr inbounds %block, ptr %b, i32 0, i32 2
  %nx = load i32, ptr %pn
  %row = mul i32 %ty, %nx
  %r = add i32 %row, %tx
  ret i32 %r
}

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %v) {
entry:
  %b = alloca %block
  call void @init(ptr %b)
  %r1 = call i32 @rank(ptr %b)
  %lt = icmp ult i32 %r1, 32
  br i1 %lt, label %warp, label %next

warp:
  store i32 %v, ptr addrspace(1) %out
  br label %next

next:
  call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
  %r2 = call i32 @rank(ptr %b)
  %first = icmp eq i32 %r2, 0
  br i1 %first, label %lead, label %exit

lead:
  %p = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %v, ptr addrspace(1) %p
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier.cta.sync.all(i32)
