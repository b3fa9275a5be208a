; Small NVPTX loops for the LSR gate tests: one that LSR rewrites and that every gate lets
; through (@counted), one with a data-dependent exit (@unknown_trip) and a two-level nest
; (@nest). Each loop has addresses LSR turns into pointer induction variables (lsr.iv).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[0] = sum of a[0..n); pressure 5 = PHIs i32 + f32, live-ins %a (64 bits) and %n.
define ptx_kernel void @counted(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n) {
entry:
  %guard = icmp sgt i32 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = zext nneg i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; Copies a to out up to and including the first zero: no computable trip count.
define ptx_kernel void @unknown_trip(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %v, ptr addrspace(1) %q, align 4
  %i.next = add nuw nsw i64 %i, 1
  %stop = fcmp oeq float %v, 0.0
  br i1 %stop, label %exit, label %loop

exit:
  ret void
}

; out[j] = sum of a[j*m + i] for i < m, j < rows: %outer has level 2, %inner level 1.
define ptx_kernel void @nest(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %rows, i32 %m) {
entry:
  %g1 = icmp sgt i32 %rows, 0
  %g2 = icmp sgt i32 %m, 0
  %g = and i1 %g1, %g2
  br i1 %g, label %outer, label %exit

outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %outer.latch ]
  %base = mul nsw i32 %j, %m
  br label %inner

inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %inner ]
  %acc = phi float [ 0.0, %outer ], [ %acc.next, %inner ]
  %k = add nsw i32 %base, %i
  %kx = sext i32 %k to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %kx
  %v = load float, ptr addrspace(1) %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %m
  br i1 %idone, label %outer.latch, label %inner

outer.latch:
  %jx = zext nneg i32 %j to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %jx
  store float %acc.next, ptr addrspace(1) %q, align 4
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, %rows
  br i1 %jdone, label %exit, label %outer

exit:
  ret void
}
