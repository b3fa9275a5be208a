; nv-pressure-unroll-guard (src/opt/pressure_unroll_guard/mod.rs): an innermost loop with a
; run-time trip count, in a function with a register cap (launch bounds here: 1024 threads x 2
; blocks = 32 registers; -nv-maxreg without bounds), gets llvm.loop.unroll.disable when the
; registers it carries plus 4 iterations' loaded registers exceed the cap, and llc prints it as
; .pragma "nounroll". Refusals, each with a missed remark: the unrolled schedule fits the cap,
; no cap, a constant trip count, an unroll count already on the loop (the user's pragma).
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-pressure-unroll-guard -verify-each -S %s \
; RUN:   -pass-remarks-missed=nv-pressure-unroll-guard -pass-remarks=nv-pressure-unroll-guard 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-pressure-unroll-guard -disable-output %s \
; RUN:   -nv-stats 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-pressure-unroll-guard -nv-maxreg=24 -S %s \
; RUN:   | FileCheck %s --check-prefix=MAXREG
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-pressure-unroll-guard -nv-pressure-unroll-guard-factor=3 -S %s \
; RUN:   | FileCheck %s --check-prefix=FACTOR3
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-pressure-unroll-guard -S %s \
; RUN:   | %llc -load-pass-plugin=%plugin -mcpu=sm_90 -O3 -verify-machineinstrs | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   -nv-disable-pressure-unroll-guard | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; REMARK: remark: {{.*}}marked llvm.loop.unroll.disable: ptxas would unroll it by 4 and hold 17 carried + 4 x 4 loaded registers, over the cap of 32
; REMARK: remark: {{.*}}loop left to ptxas: unrolled by 4, it would hold 7 registers, within the cap of 32
; REMARK: remark: {{.*}}loop left to ptxas: no register cap (launch bounds or -nv-maxreg)
; REMARK: remark: {{.*}}loop left to ptxas: constant trip count
; REMARK: remark: {{.*}}loop left as it is: its unrolling is decided already
; REMARK-NOT: remark
; STATS: 1 nv-pressure-unroll-guard - loops left as they are: unrolling already decided
; STATS: 1 nv-pressure-unroll-guard - loops left to ptxas: constant trip count
; STATS: 1 nv-pressure-unroll-guard - loops left to ptxas: no register cap
; STATS: 1 nv-pressure-unroll-guard - loops left to ptxas: their unrolled schedule fits the cap
; STATS: 1 nv-pressure-unroll-guard - loops marked llvm.loop.unroll.disable

; 16 accumulators and the index carried (17 registers; the parameters %p, %n and %c are not
; counted: ptxas reads them from the constant bank) and 4 loads a trip: 17 + 4 x 4 = 33 > 32.
; With -nv-pressure-unroll-guard-factor=3, 29 fits.
; CHECK-LABEL: @capped(
; CHECK: br i1 %more, label %loop, label %done, !llvm.loop [[DIS:![0-9]+]]
; FACTOR3-LABEL: @capped(
; FACTOR3: br i1 %more, label %loop, label %done{{$}}
; PTX-LABEL: .entry capped(
; PTX: .pragma "nounroll";
; PTX-LABEL: .entry fits(
; PTX-NOT: .pragma "nounroll";
; PTX-LABEL: .entry uncapped(
; The slot: the last pass of O3's function pipeline, after nv-texture-unroll-guard.
; PIPE: nv-texture-unroll-guard,nv-pressure-unroll-guard),
; OFF-NOT: nv-pressure-unroll-guard


define ptx_kernel void @capped(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %n, float %c) #0 {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = phi float [ 0.0, %entry ], [ %a0.next, %loop ]
  %a1 = phi float [ 0.0, %entry ], [ %a1.next, %loop ]
  %a2 = phi float [ 0.0, %entry ], [ %a2.next, %loop ]
  %a3 = phi float [ 0.0, %entry ], [ %a3.next, %loop ]
  %a4 = phi float [ 0.0, %entry ], [ %a4.next, %loop ]
  %a5 = phi float [ 0.0, %entry ], [ %a5.next, %loop ]
  %a6 = phi float [ 0.0, %entry ], [ %a6.next, %loop ]
  %a7 = phi float [ 0.0, %entry ], [ %a7.next, %loop ]
  %a8 = phi float [ 0.0, %entry ], [ %a8.next, %loop ]
  %a9 = phi float [ 0.0, %entry ], [ %a9.next, %loop ]
  %a10 = phi float [ 0.0, %entry ], [ %a10.next, %loop ]
  %a11 = phi float [ 0.0, %entry ], [ %a11.next, %loop ]
  %a12 = phi float [ 0.0, %entry ], [ %a12.next, %loop ]
  %a13 = phi float [ 0.0, %entry ], [ %a13.next, %loop ]
  %a14 = phi float [ 0.0, %entry ], [ %a14.next, %loop ]
  %a15 = phi float [ 0.0, %entry ], [ %a15.next, %loop ]
  %base = mul nsw i32 %i, 4
  %o0 = add nsw i32 %base, 0
  %e0 = sext i32 %o0 to i64
  %q0 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e0
  %x0 = load float, ptr addrspace(1) %q0, align 4
  %o1 = add nsw i32 %base, 1
  %e1 = sext i32 %o1 to i64
  %q1 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e1
  %x1 = load float, ptr addrspace(1) %q1, align 4
  %o2 = add nsw i32 %base, 2
  %e2 = sext i32 %o2 to i64
  %q2 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e2
  %x2 = load float, ptr addrspace(1) %q2, align 4
  %o3 = add nsw i32 %base, 3
  %e3 = sext i32 %o3 to i64
  %q3 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e3
  %x3 = load float, ptr addrspace(1) %q3, align 4
  %m0 = fmul float %x0, %c
  %a0.next = fadd float %a0, %m0
  %m1 = fmul float %x1, %c
  %a1.next = fadd float %a1, %m1
  %m2 = fmul float %x2, %c
  %a2.next = fadd float %a2, %m2
  %m3 = fmul float %x3, %c
  %a3.next = fadd float %a3, %m3
  %m4 = fmul float %x0, %c
  %a4.next = fadd float %a4, %m4
  %m5 = fmul float %x1, %c
  %a5.next = fadd float %a5, %m5
  %m6 = fmul float %x2, %c
  %a6.next = fadd float %a6, %m6
  %m7 = fmul float %x3, %c
  %a7.next = fadd float %a7, %m7
  %m8 = fmul float %x0, %c
  %a8.next = fadd float %a8, %m8
  %m9 = fmul float %x1, %c
  %a9.next = fadd float %a9, %m9
  %m10 = fmul float %x2, %c
  %a10.next = fadd float %a10, %m10
  %m11 = fmul float %x3, %c
  %a11.next = fadd float %a11, %m11
  %m12 = fmul float %x0, %c
  %a12.next = fadd float %a12, %m12
  %m13 = fmul float %x1, %c
  %a13.next = fadd float %a13, %m13
  %m14 = fmul float %x2, %c
  %a14.next = fadd float %a14, %m14
  %m15 = fmul float %x3, %c
  %a15.next = fadd float %a15, %m15
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %s1 = fadd float %a0.next, %a1.next
  %s2 = fadd float %s1, %a2.next
  %s3 = fadd float %s2, %a3.next
  %s4 = fadd float %s3, %a4.next
  %s5 = fadd float %s4, %a5.next
  %s6 = fadd float %s5, %a6.next
  %s7 = fadd float %s6, %a7.next
  %s8 = fadd float %s7, %a8.next
  %s9 = fadd float %s8, %a9.next
  %s10 = fadd float %s9, %a10.next
  %s11 = fadd float %s10, %a11.next
  %s12 = fadd float %s11, %a12.next
  %s13 = fadd float %s12, %a13.next
  %s14 = fadd float %s13, %a14.next
  %s15 = fadd float %s14, %a15.next
  store float %s15, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; Two accumulators and the index, one load: 3 + 4 x 1 = 7 fits; under -nv-maxreg=24 too.
; CHECK-LABEL: @fits(
; CHECK: br i1 %more, label %loop, label %done{{$}}
; MAXREG-LABEL: @fits(
; MAXREG: br i1 %more, label %loop, label %done{{$}}

define ptx_kernel void @fits(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %n, float %c) #0 {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = phi float [ 0.0, %entry ], [ %a0.next, %loop ]
  %a1 = phi float [ 0.0, %entry ], [ %a1.next, %loop ]
  %base = mul nsw i32 %i, 1
  %o0 = add nsw i32 %base, 0
  %e0 = sext i32 %o0 to i64
  %q0 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e0
  %x0 = load float, ptr addrspace(1) %q0, align 4
  %m0 = fmul float %x0, %c
  %a0.next = fadd float %a0, %m0
  %m1 = fmul float %x0, %c
  %a1.next = fadd float %a1, %m1
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %s1 = fadd float %a0.next, %a1.next
  store float %s1, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; No launch bounds: ptxas may take the registers it needs. -nv-maxreg=24 caps it: 13 + 16 > 24.
; CHECK-LABEL: @uncapped(
; CHECK: br i1 %more, label %loop, label %done{{$}}
; MAXREG-LABEL: @uncapped(
; MAXREG: br i1 %more, label %loop, label %done, !llvm.loop

define ptx_kernel void @uncapped(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %n, float %c) #1 {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = phi float [ 0.0, %entry ], [ %a0.next, %loop ]
  %a1 = phi float [ 0.0, %entry ], [ %a1.next, %loop ]
  %a2 = phi float [ 0.0, %entry ], [ %a2.next, %loop ]
  %a3 = phi float [ 0.0, %entry ], [ %a3.next, %loop ]
  %a4 = phi float [ 0.0, %entry ], [ %a4.next, %loop ]
  %a5 = phi float [ 0.0, %entry ], [ %a5.next, %loop ]
  %a6 = phi float [ 0.0, %entry ], [ %a6.next, %loop ]
  %a7 = phi float [ 0.0, %entry ], [ %a7.next, %loop ]
  %a8 = phi float [ 0.0, %entry ], [ %a8.next, %loop ]
  %a9 = phi float [ 0.0, %entry ], [ %a9.next, %loop ]
  %a10 = phi float [ 0.0, %entry ], [ %a10.next, %loop ]
  %a11 = phi float [ 0.0, %entry ], [ %a11.next, %loop ]
  %base = mul nsw i32 %i, 4
  %o0 = add nsw i32 %base, 0
  %e0 = sext i32 %o0 to i64
  %q0 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e0
  %x0 = load float, ptr addrspace(1) %q0, align 4
  %o1 = add nsw i32 %base, 1
  %e1 = sext i32 %o1 to i64
  %q1 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e1
  %x1 = load float, ptr addrspace(1) %q1, align 4
  %o2 = add nsw i32 %base, 2
  %e2 = sext i32 %o2 to i64
  %q2 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e2
  %x2 = load float, ptr addrspace(1) %q2, align 4
  %o3 = add nsw i32 %base, 3
  %e3 = sext i32 %o3 to i64
  %q3 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e3
  %x3 = load float, ptr addrspace(1) %q3, align 4
  %m0 = fmul float %x0, %c
  %a0.next = fadd float %a0, %m0
  %m1 = fmul float %x1, %c
  %a1.next = fadd float %a1, %m1
  %m2 = fmul float %x2, %c
  %a2.next = fadd float %a2, %m2
  %m3 = fmul float %x3, %c
  %a3.next = fadd float %a3, %m3
  %m4 = fmul float %x0, %c
  %a4.next = fadd float %a4, %m4
  %m5 = fmul float %x1, %c
  %a5.next = fadd float %a5, %m5
  %m6 = fmul float %x2, %c
  %a6.next = fadd float %a6, %m6
  %m7 = fmul float %x3, %c
  %a7.next = fadd float %a7, %m7
  %m8 = fmul float %x0, %c
  %a8.next = fadd float %a8, %m8
  %m9 = fmul float %x1, %c
  %a9.next = fadd float %a9, %m9
  %m10 = fmul float %x2, %c
  %a10.next = fadd float %a10, %m10
  %m11 = fmul float %x3, %c
  %a11.next = fadd float %a11, %m11
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %s1 = fadd float %a0.next, %a1.next
  %s2 = fadd float %s1, %a2.next
  %s3 = fadd float %s2, %a3.next
  %s4 = fadd float %s3, %a4.next
  %s5 = fadd float %s4, %a5.next
  %s6 = fadd float %s5, %a6.next
  %s7 = fadd float %s6, %a7.next
  %s8 = fadd float %s7, %a8.next
  %s9 = fadd float %s8, %a9.next
  %s10 = fadd float %s9, %a10.next
  %s11 = fadd float %s10, %a11.next
  store float %s11, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; CHECK-LABEL: @constant_trip(
; CHECK: br i1 %more, label %loop, label %done{{$}}

define ptx_kernel void @constant_trip(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %n, float %c) #0 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = phi float [ 0.0, %entry ], [ %a0.next, %loop ]
  %a1 = phi float [ 0.0, %entry ], [ %a1.next, %loop ]
  %a2 = phi float [ 0.0, %entry ], [ %a2.next, %loop ]
  %a3 = phi float [ 0.0, %entry ], [ %a3.next, %loop ]
  %a4 = phi float [ 0.0, %entry ], [ %a4.next, %loop ]
  %a5 = phi float [ 0.0, %entry ], [ %a5.next, %loop ]
  %a6 = phi float [ 0.0, %entry ], [ %a6.next, %loop ]
  %a7 = phi float [ 0.0, %entry ], [ %a7.next, %loop ]
  %a8 = phi float [ 0.0, %entry ], [ %a8.next, %loop ]
  %a9 = phi float [ 0.0, %entry ], [ %a9.next, %loop ]
  %a10 = phi float [ 0.0, %entry ], [ %a10.next, %loop ]
  %a11 = phi float [ 0.0, %entry ], [ %a11.next, %loop ]
  %base = mul nsw i32 %i, 4
  %o0 = add nsw i32 %base, 0
  %e0 = sext i32 %o0 to i64
  %q0 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e0
  %x0 = load float, ptr addrspace(1) %q0, align 4
  %o1 = add nsw i32 %base, 1
  %e1 = sext i32 %o1 to i64
  %q1 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e1
  %x1 = load float, ptr addrspace(1) %q1, align 4
  %o2 = add nsw i32 %base, 2
  %e2 = sext i32 %o2 to i64
  %q2 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e2
  %x2 = load float, ptr addrspace(1) %q2, align 4
  %o3 = add nsw i32 %base, 3
  %e3 = sext i32 %o3 to i64
  %q3 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e3
  %x3 = load float, ptr addrspace(1) %q3, align 4
  %m0 = fmul float %x0, %c
  %a0.next = fadd float %a0, %m0
  %m1 = fmul float %x1, %c
  %a1.next = fadd float %a1, %m1
  %m2 = fmul float %x2, %c
  %a2.next = fadd float %a2, %m2
  %m3 = fmul float %x3, %c
  %a3.next = fadd float %a3, %m3
  %m4 = fmul float %x0, %c
  %a4.next = fadd float %a4, %m4
  %m5 = fmul float %x1, %c
  %a5.next = fadd float %a5, %m5
  %m6 = fmul float %x2, %c
  %a6.next = fadd float %a6, %m6
  %m7 = fmul float %x3, %c
  %a7.next = fadd float %a7, %m7
  %m8 = fmul float %x0, %c
  %a8.next = fadd float %a8, %m8
  %m9 = fmul float %x1, %c
  %a9.next = fadd float %a9, %m9
  %m10 = fmul float %x2, %c
  %a10.next = fadd float %a10, %m10
  %m11 = fmul float %x3, %c
  %a11.next = fadd float %a11, %m11
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, 1000
  br i1 %more, label %loop, label %done
done:
  %s1 = fadd float %a0.next, %a1.next
  %s2 = fadd float %s1, %a2.next
  %s3 = fadd float %s2, %a3.next
  %s4 = fadd float %s3, %a4.next
  %s5 = fadd float %s4, %a5.next
  %s6 = fadd float %s5, %a6.next
  %s7 = fadd float %s6, %a7.next
  %s8 = fadd float %s7, %a8.next
  %s9 = fadd float %s8, %a9.next
  %s10 = fadd float %s9, %a10.next
  %s11 = fadd float %s10, %a11.next
  store float %s11, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; The user's #pragma unroll 2 stays the only word on the loop.
; CHECK-LABEL: @user_pragma(
; CHECK: br i1 %more, label %loop, label %done, !llvm.loop [[USER:![0-9]+]]

define ptx_kernel void @user_pragma(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %n, float %c) #0 {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = phi float [ 0.0, %entry ], [ %a0.next, %loop ]
  %a1 = phi float [ 0.0, %entry ], [ %a1.next, %loop ]
  %a2 = phi float [ 0.0, %entry ], [ %a2.next, %loop ]
  %a3 = phi float [ 0.0, %entry ], [ %a3.next, %loop ]
  %a4 = phi float [ 0.0, %entry ], [ %a4.next, %loop ]
  %a5 = phi float [ 0.0, %entry ], [ %a5.next, %loop ]
  %a6 = phi float [ 0.0, %entry ], [ %a6.next, %loop ]
  %a7 = phi float [ 0.0, %entry ], [ %a7.next, %loop ]
  %a8 = phi float [ 0.0, %entry ], [ %a8.next, %loop ]
  %a9 = phi float [ 0.0, %entry ], [ %a9.next, %loop ]
  %a10 = phi float [ 0.0, %entry ], [ %a10.next, %loop ]
  %a11 = phi float [ 0.0, %entry ], [ %a11.next, %loop ]
  %base = mul nsw i32 %i, 4
  %o0 = add nsw i32 %base, 0
  %e0 = sext i32 %o0 to i64
  %q0 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e0
  %x0 = load float, ptr addrspace(1) %q0, align 4
  %o1 = add nsw i32 %base, 1
  %e1 = sext i32 %o1 to i64
  %q1 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e1
  %x1 = load float, ptr addrspace(1) %q1, align 4
  %o2 = add nsw i32 %base, 2
  %e2 = sext i32 %o2 to i64
  %q2 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e2
  %x2 = load float, ptr addrspace(1) %q2, align 4
  %o3 = add nsw i32 %base, 3
  %e3 = sext i32 %o3 to i64
  %q3 = getelementptr inbounds float, ptr addrspace(1) %p, i64 %e3
  %x3 = load float, ptr addrspace(1) %q3, align 4
  %m0 = fmul float %x0, %c
  %a0.next = fadd float %a0, %m0
  %m1 = fmul float %x1, %c
  %a1.next = fadd float %a1, %m1
  %m2 = fmul float %x2, %c
  %a2.next = fadd float %a2, %m2
  %m3 = fmul float %x3, %c
  %a3.next = fadd float %a3, %m3
  %m4 = fmul float %x0, %c
  %a4.next = fadd float %a4, %m4
  %m5 = fmul float %x1, %c
  %a5.next = fadd float %a5, %m5
  %m6 = fmul float %x2, %c
  %a6.next = fadd float %a6, %m6
  %m7 = fmul float %x3, %c
  %a7.next = fadd float %a7, %m7
  %m8 = fmul float %x0, %c
  %a8.next = fadd float %a8, %m8
  %m9 = fmul float %x1, %c
  %a9.next = fadd float %a9, %m9
  %m10 = fmul float %x2, %c
  %a10.next = fadd float %a10, %m10
  %m11 = fmul float %x3, %c
  %a11.next = fadd float %a11, %m11
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !0
done:
  %s1 = fadd float %a0.next, %a1.next
  %s2 = fadd float %s1, %a2.next
  %s3 = fadd float %s2, %a3.next
  %s4 = fadd float %s3, %a4.next
  %s5 = fadd float %s4, %a5.next
  %s6 = fadd float %s5, %a6.next
  %s7 = fadd float %s6, %a7.next
  %s8 = fadd float %s7, %a8.next
  %s9 = fadd float %s8, %a9.next
  %s10 = fadd float %s9, %a10.next
  %s11 = fadd float %s10, %a11.next
  store float %s11, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

attributes #0 = { "nvvm.maxntid"="1024" "nvvm.minctasm"="2" }
attributes #1 = { nounwind }

; CHECK: [[DIS]] = distinct !{[[DIS]], [[DISABLE:![0-9]+]]}
; CHECK: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; CHECK: [[USER]] = distinct !{[[USER]], [[COUNT:![0-9]+]]}
; CHECK-NOT: llvm.loop.unroll.disable
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.count", i32 2}
