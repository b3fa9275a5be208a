;; nv-coalesce in llc's NVPTX pipeline: inserted right after RegisterCoalescer at -O1..-O3, not
;; at -O0, not for other targets, not with -nv-disable-coalesce; and what it does to the PTX of a
;; loop with three float accumulators started at 0.0 (PHI copies of one immediate).
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=PIPE
;; RUN: %llc -load %plugin -O1 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=PIPE
;; RUN: %llc --load-pass-plugin=%plugin -O0 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=NOPIPE
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure -nv-disable-coalesce=1 2>&1 | FileCheck %s --check-prefix=NOPIPE
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mtriple=x86_64-unknown-linux-gnu /dev/null -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=NOPIPE
;;
;; LLVM's RegisterCoalescer leaves the copies of the shared 0.0 (they interfere); nv-coalesce
;; rewrites each into the immediate move.
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs %s -o %t.on.ptx
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -nv-disable-coalesce=1 %s -o %t.off.ptx
;; RUN: FileCheck %s --check-prefix=ON < %t.on.ptx
;; RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx
;;
;; With LLVM's coalescer off, nv-coalesce alone removes all 24 register-to-register movs.
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -join-liveintervals=false %s -o - | FileCheck %s --check-prefix=ALONE
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -join-liveintervals=false -nv-disable-coalesce=1 %s -o - | FileCheck %s --check-prefix=NEITHER

; PIPE:      Register Coalescer
; PIPE-NOT:  Machine Instruction Scheduler
; PIPE:      NVPTX copy coalescer (nvopt)
; PIPE-NEXT: Machine Instruction Scheduler
; NOPIPE-NOT: NVPTX copy coalescer (nvopt)

; OFF:      mov.b32 [[ZERO:%r[0-9]+]], 0f00000000;
; OFF:      mov.b32 {{%r[0-9]+}}, [[ZERO]];
; OFF-NEXT: mov.b32 {{%r[0-9]+}}, [[ZERO]];
; OFF:      @%p1 bra
; OFF:      mov.b32 [[ZERO2:%r[0-9]+]], 0f00000000;
; OFF:      mov.b32 {{%r[0-9]+}}, [[ZERO2]];
; OFF-NEXT: mov.b32 {{%r[0-9]+}}, [[ZERO2]];

; ON-NOT:   mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};
; ON-COUNT-3: mov.b32 {{%r[0-9]+}}, 0f00000000;
; ON:       @%p1 bra
; ON-COUNT-3: mov.b32 {{%r[0-9]+}}, 0f00000000;
; ON-NOT:   mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};

; ALONE-NOT: mov.b{{32|64}} {{%r[d]?[0-9]+}}, {{%r[d]?[0-9]+}};
; NEITHER-COUNT-24: mov.b{{32|64}} {{%r[d]?[0-9]+}}, {{%r[d]?[0-9]+}};
; NEITHER-NOT: mov.b{{32|64}} {{%r[d]?[0-9]+}}, {{%r[d]?[0-9]+}};

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @acc(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %s0 = phi float [ 0.0, %entry ], [ %t0, %loop ]
  %s1 = phi float [ 0.0, %entry ], [ %t1, %loop ]
  %s2 = phi float [ 0.0, %entry ], [ %t2, %loop ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  %v = load float, ptr addrspace(1) %p
  %t0 = fadd float %s0, %v
  %t1 = call float @llvm.fma.f32(float %v, float %v, float %s1)
  %t2 = call float @llvm.maxnum.f32(float %s2, float %v)
  %i2 = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i2, %n
  br i1 %c, label %loop, label %exit

exit:
  %r0 = phi float [ 0.0, %entry ], [ %t0, %loop ]
  %r1 = phi float [ 0.0, %entry ], [ %t1, %loop ]
  %r2 = phi float [ 0.0, %entry ], [ %t2, %loop ]
  store float %r0, ptr addrspace(1) %out
  %o1 = getelementptr float, ptr addrspace(1) %out, i32 1
  store float %r1, ptr addrspace(1) %o1
  %o2 = getelementptr float, ptr addrspace(1) %out, i32 2
  store float %r2, ptr addrspace(1) %o2
  ret void
}

declare float @llvm.fma.f32(float, float, float)
declare float @llvm.maxnum.f32(float, float)
