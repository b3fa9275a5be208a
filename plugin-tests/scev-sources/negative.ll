; Loops where nothing is provable keep their flags as they are (the book's grid-stride nuw claim
; does not hold for 32-bit indices: docs/CICC-FACTS.md "GPU SCEV sources and stride idioms"). Each
; function is a case the proof must reject.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-scev-sources,print<scalar-evolution>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SCEV
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS

target triple = "nvptx64-nvidia-cuda"

; CUDA's `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`:
; the unsigned i32 product ntid*nctaid may wrap (up to 2^41 threads), and i close to n close to
; INT_MAX plus the stride passes INT_MAX. Recognized, but no flag.
; CHECK-LABEL: @grid32(
; CHECK: %stride = mul i32 %ntid, %nctaid
; CHECK: %next = add i32 %i, %stride
; SCEV-LABEL: Determining loop execution counts for: @grid32
; SCEV: Unpredictable backedge-taken count.
define ptx_kernel void @grid32(ptr %p, i32 %n) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %ctaid, %ntid
  %start = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  br label %cond
cond:
  %i = phi i32 [ %start, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %i, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %i, %stride
  br label %cond
exit:
  ret void
}

; A block-stride loop up to any int: c + ntid may pass INT_MAX.
; CHECK-LABEL: @block_unbounded(
; CHECK: %next = add i32 %c, %ntid
define ptx_kernel void @block_unbounded(ptr %p, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp slt i32 %c, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = sext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

; An inequality test bounds nothing: the IV can step over n and wrap.
; CHECK-LABEL: @warp_ne(
; CHECK: %next = add i32 %c, 32
define ptx_kernel void @warp_ne(ptr %p, i16 %n16) {
entry:
  %n = zext i16 %n16 to i32
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp ne i32 %c, %n
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, 32
  br label %cond
exit:
  ret void
}

; A step of unknown sign is no GPU idiom (and proves nothing).
; CHECK-LABEL: @unknown_step(
; CHECK: %next = add i32 %c, %s
define ptx_kernel void @unknown_step(ptr %p, i32 %s) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp ult i32 %c, 256
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %s
  br label %cond
exit:
  ret void
}

; A rotated warp loop whose start may be anything: the first increment is unbounded.
; CHECK-LABEL: @rotated_unbounded_start(
; CHECK: %next = add i32 %c, 32
define ptx_kernel void @rotated_unbounded_start(ptr %p, i32 %off) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %start = add i32 %tid, %off
  br label %body
body:
  %c = phi i32 [ %start, %entry ], [ %next, %body ]
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, 32
  %cmp = icmp ult i32 %next, 4096
  br i1 %cmp, label %body, label %exit
exit:
  ret void
}

; A provable loop that is no GPU idiom (it starts at 0) is left to upstream.
; CHECK-LABEL: @not_an_idiom(
; CHECK: %next = add i32 %c, %ntid
define ptx_kernel void @not_an_idiom(ptr %p) {
entry:
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %cond
cond:
  %c = phi i32 [ 0, %entry ], [ %next, %body ]
  %cmp = icmp ult i32 %c, 256
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

; STATS: 1 nv-scev-sources {{ *}}- block-stride loops recognized
; STATS-NOT: flags
; STATS: 1 nv-scev-sources {{ *}}- grid-stride loops recognized
; STATS-NOT: flags
; STATS: 2 nv-scev-sources {{ *}}- warp-stride loops recognized

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
