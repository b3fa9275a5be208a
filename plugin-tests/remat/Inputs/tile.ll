target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define ptx_kernel void @tile(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %o = shl i32 %t, 4
  %ob = add i32 %o, %b
  %dst = getelementptr float, ptr addrspace(1) %out, i32 %ob
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %a0 = phi float [ 0.0, %entry ], [ %a0.n, %loop ]
  %a1 = phi float [ 0.0, %entry ], [ %a1.n, %loop ]
  %a2 = phi float [ 0.0, %entry ], [ %a2.n, %loop ]
  %a3 = phi float [ 0.0, %entry ], [ %a3.n, %loop ]
  %a4 = phi float [ 0.0, %entry ], [ %a4.n, %loop ]
  %a5 = phi float [ 0.0, %entry ], [ %a5.n, %loop ]
  %a6 = phi float [ 0.0, %entry ], [ %a6.n, %loop ]
  %a7 = phi float [ 0.0, %entry ], [ %a7.n, %loop ]
  %a8 = phi float [ 0.0, %entry ], [ %a8.n, %loop ]
  %a9 = phi float [ 0.0, %entry ], [ %a9.n, %loop ]
  %a10 = phi float [ 0.0, %entry ], [ %a10.n, %loop ]
  %a11 = phi float [ 0.0, %entry ], [ %a11.n, %loop ]
  %idx = add i32 %i, %t
  %src = getelementptr float, ptr addrspace(1) %in, i32 %idx
  %x = load float, ptr addrspace(1) %src
  %a0.n = fadd float %a0, %x
  %a1.n = fadd float %a1, %x
  %a2.n = fadd float %a2, %x
  %a3.n = fadd float %a3, %x
  %a4.n = fadd float %a4, %x
  %a5.n = fadd float %a5, %x
  %a6.n = fadd float %a6, %x
  %a7.n = fadd float %a7, %x
  %a8.n = fadd float %a8, %x
  %a9.n = fadd float %a9, %x
  %a10.n = fadd float %a10, %x
  %a11.n = fadd float %a11, %x
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %p0 = getelementptr float, ptr addrspace(1) %dst, i32 0
  store float %a0.n, ptr addrspace(1) %p0
  %p1 = getelementptr float, ptr addrspace(1) %dst, i32 1
  store float %a1.n, ptr addrspace(1) %p1
  %p2 = getelementptr float, ptr addrspace(1) %dst, i32 2
  store float %a2.n, ptr addrspace(1) %p2
  %p3 = getelementptr float, ptr addrspace(1) %dst, i32 3
  store float %a3.n, ptr addrspace(1) %p3
  %p4 = getelementptr float, ptr addrspace(1) %dst, i32 4
  store float %a4.n, ptr addrspace(1) %p4
  %p5 = getelementptr float, ptr addrspace(1) %dst, i32 5
  store float %a5.n, ptr addrspace(1) %p5
  %p6 = getelementptr float, ptr addrspace(1) %dst, i32 6
  store float %a6.n, ptr addrspace(1) %p6
  %p7 = getelementptr float, ptr addrspace(1) %dst, i32 7
  store float %a7.n, ptr addrspace(1) %p7
  %p8 = getelementptr float, ptr addrspace(1) %dst, i32 8
  store float %a8.n, ptr addrspace(1) %p8
  %p9 = getelementptr float, ptr addrspace(1) %dst, i32 9
  store float %a9.n, ptr addrspace(1) %p9
  %p10 = getelementptr float, ptr addrspace(1) %dst, i32 10
  store float %a10.n, ptr addrspace(1) %p10
  %p11 = getelementptr float, ptr addrspace(1) %dst, i32 11
  store float %a11.n, ptr addrspace(1) %p11
  ret void
}
