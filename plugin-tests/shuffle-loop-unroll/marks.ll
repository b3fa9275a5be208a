; nv-shuffle-loop-unroll (src/opt/shuffle_loop_unroll): a loop holding a warp shuffle whose member
; mask is a run-time value gets llvm.loop.unroll.disable, and so does every loop around it;
; loop-unroll then leaves it rolled (one shuffle), while the same loop under an immediate mask
; is fully unrolled (five shuffles). Refusals: a loop with the user's unroll pragma (missed
; remark), and with -nv-disable-shuffle-loop-unroll inside nvopt<O3> nothing is marked.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-shuffle-loop-unroll -verify-each -S %s \
; RUN:   -pass-remarks=nv-shuffle-loop-unroll -pass-remarks-missed=nv-shuffle-loop-unroll 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-shuffle-loop-unroll,loop-unroll<O3>' -S %s \
; RUN:   | FileCheck %s --check-prefix=UNROLL
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-rdc -S %s | FileCheck %s --check-prefix=O3
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-rdc -nv-disable-shuffle-loop-unroll -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-rdc -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS

target triple = "nvptx64-nvidia-cuda"

; REMARK: remark: {{.*}}kept rolled (llvm.loop.unroll.disable): it holds 1 warp shuffle(s) with a run-time member mask
; REMARK: remark: {{.*}}kept rolled (llvm.loop.unroll.disable): it holds 1 warp shuffle(s) with a run-time member mask
; REMARK: remark: {{.*}}kept rolled (llvm.loop.unroll.disable): it holds 1 warp shuffle(s) with a run-time member mask
; REMARK: remark: {{.*}}not kept rolled: the loop's unroll pragma or nv-local-array-unroll's mark decides
; REMARK-NOT: remark

; CHECK-LABEL: define float @ballot_mask(
; CHECK: br i1 %more, label %red, label %out, !llvm.loop ![[RT:[0-9]+]]
; UNROLL-LABEL: define float @ballot_mask(
; UNROLL-COUNT-1: call float @llvm.nvvm.shfl.sync.down.f32
; UNROLL-NOT: call float @llvm.nvvm.shfl.sync.down.f32
; UNROLL: ret float
; O3-LABEL: define {{.*}}float @ballot_mask(
; O3-COUNT-1: call float @llvm.nvvm.shfl.sync.down.f32
; O3-NOT: call float @llvm.nvvm.shfl.sync.down.f32
; O3: ret float
; OFF-LABEL: define {{.*}}float @ballot_mask(
; OFF-COUNT-5: call float @llvm.nvvm.shfl.sync.down.f32
define float @ballot_mask(float %v0, i1 %holds) {
entry:
  %m = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %holds)
  br label %red
red:
  %o = phi i32 [ 16, %entry ], [ %o.h, %red ]
  %v = phi float [ %v0, %entry ], [ %v.n, %red ]
  %t = call float @llvm.nvvm.shfl.sync.down.f32(i32 %m, float %v, i32 %o, i32 31)
  %v.n = fadd float %v, %t
  %o.h = lshr i32 %o, 1
  %more = icmp ne i32 %o.h, 0
  br i1 %more, label %red, label %out
out:
  ret float %v.n
}

; An immediate mask: no fallback path in ptxas, left to the unroller.
; CHECK-LABEL: define float @full_mask(
; CHECK: br i1 %more, label %red, label %out{{$}}
; UNROLL-LABEL: define float @full_mask(
; UNROLL-COUNT-5: call float @llvm.nvvm.shfl.sync.down.f32
define float @full_mask(float %v0) {
entry:
  br label %red
red:
  %o = phi i32 [ 16, %entry ], [ %o.h, %red ]
  %v = phi float [ %v0, %entry ], [ %v.n, %red ]
  %t = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 %o, i32 31)
  %v.n = fadd float %v, %t
  %o.h = lshr i32 %o, 1
  %more = icmp ne i32 %o.h, 0
  br i1 %more, label %red, label %out
out:
  ret float %v.n
}

; The shuffle sits in an inner loop: both loops are kept rolled (unrolling the outer one
; copies the shuffle too).
; CHECK-LABEL: define i32 @nested(
; CHECK: br i1 %in.more, label %inner, label %latch, !llvm.loop ![[IN:[0-9]+]]
; CHECK: br i1 %out.more, label %outer, label %exit, !llvm.loop ![[OUT:[0-9]+]]
define i32 @nested(i32 %x0, i32 %mask) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.n, %latch ]
  %x = phi i32 [ %x0, %entry ], [ %y.n, %latch ]
  br label %inner
inner:
  %d = phi i32 [ 1, %outer ], [ %d.n, %inner ]
  %y = phi i32 [ %x, %outer ], [ %y.n, %inner ]
  %t = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 %mask, i32 %y, i32 %d, i32 0)
  %y.n = add i32 %y, %t
  %d.n = shl i32 %d, 1
  %in.more = icmp ult i32 %d.n, 32
  br i1 %in.more, label %inner, label %latch
latch:
  %j.n = add i32 %j, 1
  %out.more = icmp ult i32 %j.n, 4
  br i1 %out.more, label %outer, label %exit
exit:
  ret i32 %y.n
}

; The user's #pragma unroll wins (missed remark, metadata kept as it is).
; CHECK-LABEL: define float @user_pragma(
; CHECK: br i1 %more, label %red, label %out, !llvm.loop ![[USER:[0-9]+]]
define float @user_pragma(float %v0, i32 %m) {
entry:
  br label %red
red:
  %o = phi i32 [ 16, %entry ], [ %o.h, %red ]
  %v = phi float [ %v0, %entry ], [ %v.n, %red ]
  %t = call float @llvm.nvvm.shfl.sync.down.f32(i32 %m, float %v, i32 %o, i32 31)
  %v.n = fadd float %v, %t
  %o.h = lshr i32 %o, 1
  %more = icmp ne i32 %o.h, 0
  br i1 %more, label %red, label %out, !llvm.loop !0
out:
  ret float %v.n
}

; CHECK-DAG: ![[RT]] = distinct !{![[RT]], ![[DIS:[0-9]+]]}
; CHECK-DAG: ![[DIS]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[IN]] = distinct !{![[IN]], ![[DIS]]}
; CHECK-DAG: ![[OUT]] = distinct !{![[OUT]], ![[DIS]]}
; CHECK-DAG: ![[USER]] = distinct !{![[USER]], ![[FULL:[0-9]+]]}
; CHECK-DAG: ![[FULL]] = !{!"llvm.loop.unroll.full"}

; STATS-DAG: 3 nv-shuffle-loop-unroll - loops kept rolled: warp shuffle with a run-time mask
; STATS-DAG: 1 nv-shuffle-loop-unroll - loops left to their unroll pragma or mark

declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.full"}
