; nv-texture-unroll-guard (src/opt/texture_unroll_guard/mod.rs): a short constant-trip loop inside
; another loop whose texture fetches (here clang's inline-asm tex.2d, 4 registers each) have
; coordinates the same on every iteration of the enclosing loop gets llvm.loop.unroll.disable
; when trip count x hoistable registers exceeds the register target (64; -nv-maxreg lowers it),
; and llc prints it as .pragma "nounroll". Refusals, each with a missed remark: fits the target,
; no enclosing loop, the user's unroll pragma, no constant trip count; silently: fetches whose
; coordinates follow the enclosing loop (nothing ptxas could hoist).
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-texture-unroll-guard -verify-each -S %s \
; RUN:   -pass-remarks-missed=nv-texture-unroll-guard -pass-remarks=nv-texture-unroll-guard 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-texture-unroll-guard -nv-maxreg=16 -S %s \
; RUN:   | FileCheck %s --check-prefix=CAP
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-texture-unroll-guard -S %s \
; RUN:   | %llc -load-pass-plugin=%plugin -mcpu=sm_90 -O3 | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   -nv-disable-texture-unroll-guard | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; REMARK: remark: {{.*}}marked llvm.loop.unroll.disable: ptxas would unroll its 16 iterations and hoist 128 registers of texture fetches out of the enclosing loop (target 64)
; REMARK: remark: {{.*}}loop left to ptxas: its 4 iterations' hoistable texture fetches need 32 registers, within the target 64
; REMARK: remark: {{.*}}loop left to ptxas: no enclosing loop to hoist fetches out of
; REMARK: remark: {{.*}}loop left to ptxas: the user's unroll pragma
; REMARK: remark: {{.*}}loop left to ptxas: no constant trip count
; REMARK-NOT: remark

; Two fetches at (x, y + n) and (x + 1, y + n), the same for every j: 16 x 8 = 128 > 64.
; A third at (x + j, y + n) follows j and does not count.
; CHECK-LABEL: @nlm(
; CHECK: br i1 %n.more, label %n, label %j.latch, !llvm.loop [[DIS:![0-9]+]]
; PTX-LABEL: .entry nlm(
; PTX: .pragma "nounroll";
; PTX: tex.2d.v4.f32.f32
; The slot: the last pass of O3's function pipeline, after every loop-unroll.
; PIPE: loop-unroll<{{.*}}simplifycfg<{{[^>]*}}>,nv-texture-unroll-guard,
; OFF-NOT: nv-texture-unroll-guard
define ptx_kernel void @nlm(i64 %t, float %x, float %y, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %j
j:
  %j.iv = phi i32 [ 0, %entry ], [ %j.next, %j.latch ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %j.latch ]
  %jf = sitofp i32 %j.iv to float
  %xj = fadd float %x, %jf
  br label %n
n:
  %n.iv = phi i32 [ 0, %j ], [ %n.next, %n ]
  %acc = phi float [ 0.0, %j ], [ %acc2, %n ]
  %x1 = fadd float %x, 1.0
  %nf = sitofp i32 %n.iv to float
  %yn = fadd float %y, %nf
  %f0 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %yn)
  %f0.x = extractvalue { float, float, float, float } %f0, 0
  %acc0 = fadd float %acc, %f0.x
  %f1 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x1, float %yn)
  %f1.x = extractvalue { float, float, float, float } %f1, 0
  %acc1 = fadd float %acc0, %f1.x
  %f2 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %xj, float %yn)
  %f2.x = extractvalue { float, float, float, float } %f2, 0
  %acc2 = fadd float %acc1, %f2.x
  %n.next = add nuw nsw i32 %n.iv, 1
  %n.more = icmp ne i32 %n.next, 16
  br i1 %n.more, label %n, label %j.latch
j.latch:
  %s.next = fadd float %s, %acc2
  %j.next = add nuw nsw i32 %j.iv, 1
  %j.more = icmp ne i32 %j.next, %m
  br i1 %j.more, label %j, label %exit
exit:
  %r = phi float [ %s.next, %j.latch ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; 4 x 8 = 32 fits 64; under -nv-maxreg=16 it does not.
; CHECK-LABEL: @fits(
; CHECK: br i1 %n.more, label %n, label %j.latch{{$}}
; CAP-LABEL: @fits(
; CAP: br i1 %n.more, label %n, label %j.latch, !llvm.loop
define ptx_kernel void @fits(i64 %t, float %x, float %y, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %j
j:
  %j.iv = phi i32 [ 0, %entry ], [ %j.next, %j.latch ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %j.latch ]
  %jf = sitofp i32 %j.iv to float
  %xj = fadd float %x, %jf
  br label %n
n:
  %n.iv = phi i32 [ 0, %j ], [ %n.next, %n ]
  %acc = phi float [ 0.0, %j ], [ %acc1, %n ]
  %x1 = fadd float %x, 1.0
  %nf = sitofp i32 %n.iv to float
  %yn = fadd float %y, %nf
  %f0 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %yn)
  %f0.x = extractvalue { float, float, float, float } %f0, 0
  %acc0 = fadd float %acc, %f0.x
  %f1 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x1, float %yn)
  %f1.x = extractvalue { float, float, float, float } %f1, 0
  %acc1 = fadd float %acc0, %f1.x
  %n.next = add nuw nsw i32 %n.iv, 1
  %n.more = icmp ne i32 %n.next, 4
  br i1 %n.more, label %n, label %j.latch
j.latch:
  %s.next = fadd float %s, %acc1
  %j.next = add nuw nsw i32 %j.iv, 1
  %j.more = icmp ne i32 %j.next, %m
  br i1 %j.more, label %j, label %exit
exit:
  %r = phi float [ %s.next, %j.latch ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; No enclosing loop: ptxas has nothing to hoist the fetches out of.
; CHECK-LABEL: @outermost(
; CHECK: br i1 %n.more, label %n, label %exit{{$}}
define ptx_kernel void @outermost(i64 %t, float %x, float %y, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %n
n:
  %n.iv = phi i32 [ 0, %entry ], [ %n.next, %n ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %n ]
  %nf = sitofp i32 %n.iv to float
  %yn = fadd float %y, %nf
  %f0 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %yn)
  %f0.x = extractvalue { float, float, float, float } %f0, 0
  %acc0 = fadd float %acc, %f0.x
  %f1 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %y)
  %f1.x = extractvalue { float, float, float, float } %f1, 0
  %acc1 = fadd float %acc0, %f1.x
  %n.next = add nuw nsw i32 %n.iv, 1
  %n.more = icmp ne i32 %n.next, 32
  br i1 %n.more, label %n, label %exit
exit:
  %r = phi float [ %acc1, %n ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; The user's #pragma unroll 2 wins.
; CHECK-LABEL: @user_pragma(
; CHECK: br i1 %n.more, label %n, label %j.latch, !llvm.loop [[USER:![0-9]+]]
define ptx_kernel void @user_pragma(i64 %t, float %x, float %y, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %j
j:
  %j.iv = phi i32 [ 0, %entry ], [ %j.next, %j.latch ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %j.latch ]
  %jf = sitofp i32 %j.iv to float
  %xj = fadd float %x, %jf
  br label %n
n:
  %n.iv = phi i32 [ 0, %j ], [ %n.next, %n ]
  %acc = phi float [ 0.0, %j ], [ %acc1, %n ]
  %nf = sitofp i32 %n.iv to float
  %yn = fadd float %y, %nf
  %f0 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %yn)
  %f0.x = extractvalue { float, float, float, float } %f0, 0
  %acc0 = fadd float %acc, %f0.x
  %f1 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %y)
  %f1.x = extractvalue { float, float, float, float } %f1, 0
  %acc1 = fadd float %acc0, %f1.x
  %n.next = add nuw nsw i32 %n.iv, 1
  %n.more = icmp ne i32 %n.next, 16
  br i1 %n.more, label %n, label %j.latch, !llvm.loop !0
j.latch:
  %s.next = fadd float %s, %acc1
  %j.next = add nuw nsw i32 %j.iv, 1
  %j.more = icmp ne i32 %j.next, %m
  br i1 %j.more, label %j, label %exit
exit:
  %r = phi float [ %s.next, %j.latch ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; A trip count known only at run time.
; CHECK-LABEL: @runtime_trip(
; CHECK: br i1 %n.more, label %n, label %j.latch{{$}}
define ptx_kernel void @runtime_trip(i64 %t, float %x, float %y, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %j
j:
  %j.iv = phi i32 [ 0, %entry ], [ %j.next, %j.latch ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %j.latch ]
  %jf = sitofp i32 %j.iv to float
  %xj = fadd float %x, %jf
  br label %n
n:
  %n.iv = phi i32 [ 0, %j ], [ %n.next, %n ]
  %acc = phi float [ 0.0, %j ], [ %acc1, %n ]
  %nf = sitofp i32 %n.iv to float
  %yn = fadd float %y, %nf
  %f0 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %yn)
  %f0.x = extractvalue { float, float, float, float } %f0, 0
  %acc0 = fadd float %acc, %f0.x
  %f1 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %x, float %y)
  %f1.x = extractvalue { float, float, float, float } %f1, 0
  %acc1 = fadd float %acc0, %f1.x
  %n.next = add nuw nsw i32 %n.iv, 1
  %n.more = icmp ne i32 %n.next, %m
  br i1 %n.more, label %n, label %j.latch
j.latch:
  %s.next = fadd float %s, %acc1
  %j.next = add nuw nsw i32 %j.iv, 1
  %j.more = icmp ne i32 %j.next, %m
  br i1 %j.more, label %j, label %exit
exit:
  %r = phi float [ %s.next, %j.latch ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; Every fetch follows the enclosing loop (x + j): nothing to hoist, no remark.
; CHECK-LABEL: @follows_outer(
; CHECK: br i1 %n.more, label %n, label %j.latch{{$}}
define ptx_kernel void @follows_outer(i64 %t, float %x, float %y, i32 %m, ptr addrspace(1) %out) {
entry:
  br label %j
j:
  %j.iv = phi i32 [ 0, %entry ], [ %j.next, %j.latch ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %j.latch ]
  %jf = sitofp i32 %j.iv to float
  %xj = fadd float %x, %jf
  br label %n
n:
  %n.iv = phi i32 [ 0, %j ], [ %n.next, %n ]
  %acc = phi float [ 0.0, %j ], [ %acc1, %n ]
  %nf = sitofp i32 %n.iv to float
  %yn = fadd float %y, %nf
  %f0 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %xj, float %yn)
  %f0.x = extractvalue { float, float, float, float } %f0, 0
  %acc0 = fadd float %acc, %f0.x
  %f1 = call { float, float, float, float } asm "tex.2d.v4.f32.f32\09{$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %t, float %xj, float %y)
  %f1.x = extractvalue { float, float, float, float } %f1, 0
  %acc1 = fadd float %acc0, %f1.x
  %n.next = add nuw nsw i32 %n.iv, 1
  %n.more = icmp ne i32 %n.next, 16
  br i1 %n.more, label %n, label %j.latch
j.latch:
  %s.next = fadd float %s, %acc1
  %j.next = add nuw nsw i32 %j.iv, 1
  %j.more = icmp ne i32 %j.next, %m
  br i1 %j.more, label %j, label %exit
exit:
  %r = phi float [ %s.next, %j.latch ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-DAG: [[DIS]] = distinct !{[[DIS]], [[DISP:![0-9]+]]}
; CHECK-DAG: [[DISP]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: [[USER]] = distinct !{[[USER]], [[COUNT:![0-9]+]]}
; CHECK-DAG: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 2}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.count", i32 2}
