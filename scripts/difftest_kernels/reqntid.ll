; Hand-written NVPTX kernels for nvopt_tools/difftest.py (issue 7, "Differential execution"): the
; launch-bound shapes CUDA source cannot spell (nvvm.reqntid, which fixes ntid exactly; see
; plugin-tests/scev-sources/block-stride.ll) and a rotated y-dimension grid-stride loop
; (plugin-tests/scev-sources/grid-stride.ll). The driver launches them with exactly the
; required block shape, as the ranges nv-scev-sources attaches demand.
; difftest: block_reqntid grid=1|3 block=128 args=f32[4096]
; difftest: block_reqntid_2d n=1..2000 grid=1|2 block=32,4 args=f32[2048],n
; difftest: grid_y_rotated n=1..3000 grid=1,1|1,5 block=1,32|1,64 args=f32[n+2*64*5],n

target triple = "nvptx64-nvidia-cuda"

; for (int c = tid.x; c < 4096; c += ntid.x) p[c] = p[c] * 2 + 1, with reqntid 128
define ptx_kernel void @block_reqntid(ptr %p) "nvvm.reqntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, 4096
  br i1 %cmp, label %body, label %exit
body:
  %idx = sext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  %v = load float, ptr %q
  %m = fmul float %v, 2.0
  %a = fadd float %m, 1.0
  store float %a, ptr %q
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

; 2-D block 32x4 (reqntid "32,4"): t = tid.y*ntid.x + tid.x; for (c = t; c < n && c < 2048; c += ntid.x*ntid.y)
define ptx_kernel void @block_reqntid_2d(ptr %p, i32 %n) "nvvm.reqntid"="32,4" {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %row = mul i32 %ty, %nx
  %t = add i32 %row, %tx
  %nt = mul i32 %nx, %ny
  br label %cond
cond:
  %c = phi i32 [ %t, %entry ], [ %next, %body ]
  %in = icmp slt i32 %c, %n
  %cap = icmp slt i32 %c, 2048
  %both = and i1 %in, %cap
  br i1 %both, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  %v = load float, ptr %q
  %cf = uitofp i32 %c to float
  %a = fadd float %cf, %v
  store float %a, ptr %q
  %next = add i32 %c, %nt
  br label %cond
exit:
  ret void
}

; Rotated y-dimension grid-stride loop with an extra block offset (start (ctaid.y+2)*ntid.y+tid.y).
define ptx_kernel void @grid_y_rotated(ptr %p, i32 %n32) {
entry:
  %n = zext i32 %n32 to i64
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %ctaid64 = zext i32 %ctaid to i64
  %ntid64 = zext i32 %ntid to i64
  %tid64 = zext i32 %tid to i64
  %nctaid64 = zext i32 %nctaid to i64
  %blk = add i64 %ctaid64, 2
  %base = mul i64 %blk, %ntid64
  %start = add i64 %base, %tid64
  %stride = mul i64 %ntid64, %nctaid64
  %guard = icmp ult i64 %start, %n
  br i1 %guard, label %body, label %exit
body:
  %i = phi i64 [ %start, %entry ], [ %next, %body ]
  %q = getelementptr inbounds float, ptr %p, i64 %i
  %v = load float, ptr %q
  %a = fadd float %v, 0.5
  store float %a, ptr %q
  %next = add i64 %i, %stride
  %cmp = icmp ult i64 %next, %n
  br i1 %cmp, label %body, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
