; nv-param-opt (src/machine/param_opt): in a kernel over its register target, each block that reads a
; kernel parameter outside the entry block gets its own ld.param. %a and %b are read only after
; the loop: with -nv-maxreg=4 their loads move to the exit block and the entry loads go; %n, read
; in the loop and nowhere else outside the entry, gets its copy in the loop; %out, read in the
; entry block too, keeps its entry load and gets another in the exit block. Under the default
; target (64) nothing moves, nor with the guard knob.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-maxreg=4 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-maxreg=4 -pass-remarks=nv-param-opt -nv-stats \
; RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -pass-remarks-missed=nv-param-opt %s -o - 2>&1 \
; RUN:   | FileCheck %s --check-prefix=UNDER
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-maxreg=4 -nv-disable-param-opt %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %if ptxas %{ %llc -O3 -mcpu=sm_90 -load %plugin -nv-maxreg=4 %s -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

; CHECK-LABEL: .entry k(
; CHECK: ld.param.b64 {{.*}}[k_param_0];
; CHECK-NOT: ld.param
; CHECK: $L__BB0_{{[0-9]+}}:
; CHECK: ld.param.b32 {{.*}}[k_param_1];
; CHECK: setp
; CHECK: bra
; CHECK: ld.param.b32 {{.*}}[k_param_2];
; CHECK: ld.param.b32 {{.*}}[k_param_3];
; CHECK: ld.param.b64 {{.*}}[k_param_0];
; CHECK: ret;

; REMARK-DAG: remark: {{.*}}k_param_2 re-issued in 1 block(s), the entry load deleted
; REMARK-DAG: remark: {{.*}}k_param_0 re-issued in 1 block(s), the entry load kept for its other uses
; REMARK: ld.param re-issued next to uses

; UNDER: remark: {{.*}}pressure {{[0-9]+}} within the target 64
; UNDER-LABEL: .entry k(
; UNDER-COUNT-4: ld.param
; UNDER: $L__BB0_{{[0-9]+}}:
; UNDER-NOT: ld.param

; OFF-LABEL: .entry k(
; OFF-COUNT-4: ld.param
; OFF: $L__BB0_{{[0-9]+}}:
; OFF-NOT: ld.param

; PIPE: -machine-sink {{.*}}-nv-param-opt -nv-mul-wide-split -peephole-opt

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %n, i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p0 = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float 0.0, ptr addrspace(1) %p0
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 1.0, %entry ], [ %acc2, %loop ]
  %f = sitofp i32 %i to float
  %acc2 = fmul float %acc, %f
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit

exit:
  %t0 = add i32 %a, %tid
  %t1 = mul i32 %t0, %b
  %q = getelementptr float, ptr addrspace(1) %out, i32 %t1
  store float %acc2, ptr addrspace(1) %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
