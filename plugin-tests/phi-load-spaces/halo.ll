;; nv-phi-load-spaces (src/opt/phi_load_spaces.rs), right before O1-O3's first instcombine: the
;; loads feeding one PHI get the address space their pointers are known to be in when they are
;; not all known to be in one space. Otherwise that instcombine folds them into one load through
;; a PHI of pointers (later a select): a __shared__ arm still reached through a generic
;; addrspacecast and a generic kernel-parameter arm then make one generic load (ld without a
;; state space in the PTX) where nvcc keeps ld.shared and ld.global.
;; The pass alone: the shared arm's load reads through a cast to addrspace(3); the global
;; arm's (unknown space) and the PHI whose loads are all shared are left alone.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-phi-load-spaces -verify-each -pass-remarks=nv-phi-load-spaces -nv-stats %s -S -o - 2>%t.err | FileCheck %s --check-prefix=PASS
;; RUN: FileCheck %s --check-prefix=REMARK < %t.err
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-phi-load-spaces -nv-disable-phi-load-spaces %s -S -o - | FileCheck %s --check-prefix=PASSOFF
;; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s | %opt -load-pass-plugin=%plugin -passes=nv-phi-load-spaces -S -o - | FileCheck %s --check-prefix=PASSOFF
;; In the pipeline: no generic load; -nv-disable-phi-load-spaces (cicc's table) and
;; -memory-space-opt=0 show the fold.
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -verify-each %s -S -o %t.on.ll
;; RUN: FileCheck %s --check-prefix=ON < %t.on.ll
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-phi-load-spaces %s -S -o %t.off.ll
;; RUN: FileCheck %s --check-prefix=OFF < %t.off.ll
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O2>' -memory-space-opt=0 %s -S -o - | FileCheck %s --check-prefix=OFF
;; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -verify-machineinstrs %t.on.ll -o %t.on.ptx
;; RUN: FileCheck %s --check-prefix=PTX < %t.on.ptx
;; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 %t.off.ll -o - | FileCheck %s --check-prefix=PTXOFF
;; The slot, in the printed pipeline, and its absence at Ofcmax (no MemorySpaceOpt there).
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmax>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=NOPIPE
; PIPE: cgscc(function-attrs),function(nv-phi-load-spaces,instcombine<
; NOPIPE-NOT: nv-phi-load-spaces
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

; PASS-LABEL: define ptx_kernel void @halo(
; PASS: %gv = load float, ptr %gp, align 4
; PASS: [[C:%.*]] = addrspacecast ptr %sp to ptr addrspace(3)
; PASS-NEXT: %sv = load float, ptr addrspace(3) [[C]], align 4
; PASS: %here = load float, ptr %tp, align 4
; PASSOFF-LABEL: define ptx_kernel void @halo(
; PASSOFF-NOT: addrspace(3) {{%[0-9]+}}
; PASSOFF: %sv = load float, ptr %sp, align 4
; REMARK: remark: {{.*}}loads feeding %left read in their known address spaces
; REMARK-NOT: loads feeding %v
; REMARK: 1 nv-phi-load-spaces {{ *}}- loads feeding a PHI given their address space
; ON-LABEL: define ptx_kernel void @halo(
; ON-NOT: {{phi ptr|select i1 %edge, ptr}}
; ON: load float, ptr addrspace(3)
; ON-NOT: {{phi ptr|select i1 %edge, ptr}}
; OFF-LABEL: define ptx_kernel void @halo(
; OFF: {{phi ptr|select i1 %edge, ptr}}
; PTX-LABEL: .entry halo(
; PTX: ld.shared.b32
; PTX: ld.global.nc.b32
; PTX-NOT: {{^[[:space:]]+ld\.b32}}
; PTX: ret;
; PTXOFF-LABEL: .entry halo(
; PTXOFF: {{^[[:space:]]+ld\.b32}}
define ptx_kernel void @halo(ptr noalias readonly %in, ptr noalias %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %b, %bd
  %i = add i32 %base, %t
  %t64 = zext i32 %t to i64
  %tp = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %t64
  %i64 = sext i32 %i to i64
  %ip = getelementptr inbounds float, ptr %in, i64 %i64
  %v = load float, ptr %ip, align 4
  store float %v, ptr %tp, align 4
  call void @llvm.nvvm.barrier0()
  %edge = icmp eq i32 %t, 0
  br i1 %edge, label %global, label %shared

global:
  %gp = getelementptr inbounds float, ptr %ip, i64 -1
  %gv = load float, ptr %gp, align 4
  br label %join

shared:
  %sp = getelementptr inbounds float, ptr %tp, i64 -1
  %sv = load float, ptr %sp, align 4
  br label %join

join:
  %left = phi float [ %gv, %global ], [ %sv, %shared ]
  %here = load float, ptr %tp, align 4
  %sum = fadd float %left, %here
  %op = getelementptr inbounds float, ptr %out, i64 %i64
  store float %sum, ptr %op, align 4
  ret void
}

; Both arms shared: left alone (the fold's pointer PHI is inferred shared later).
; PASS-LABEL: define ptx_kernel void @both_shared(
; PASS-NOT: addrspacecast ptr %{{.*}} to ptr addrspace(3)
; PASS: ret void
define ptx_kernel void @both_shared(ptr %out, i1 %c, i64 %k) {
entry:
  %p = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %k
  br i1 %c, label %a, label %b
a:
  %av = load float, ptr %p, align 4
  br label %j
b:
  %q = getelementptr inbounds float, ptr %p, i64 1
  %bv = load float, ptr %q, align 4
  br label %j
j:
  %v = phi float [ %av, %a ], [ %bv, %b ]
  store float %v, ptr %out, align 4
  ret void
}

; One arm already loads from addrspace(3), the other is a generic parameter: nothing to
; rewrite (the fold cannot merge loads of two spaces), and no remark (REMARK-NOT above).
; PASS-LABEL: define ptx_kernel void @already_shared(
; PASS-NOT: addrspacecast ptr
; PASS: ret void
define ptx_kernel void @already_shared(ptr %g, ptr %out, i1 %c, i64 %k) {
entry:
  br i1 %c, label %a, label %b
a:
  %p = getelementptr inbounds float, ptr addrspace(3) @tile, i64 %k
  %av = load float, ptr addrspace(3) %p, align 4
  br label %j
b:
  %bv = load float, ptr %g, align 4
  br label %j
j:
  %v = phi float [ %av, %a ], [ %bv, %b ]
  store float %v, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
