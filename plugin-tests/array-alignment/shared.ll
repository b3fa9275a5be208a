;; nv-set-global-array-alignment (src/opt/array_alignment): statically sized __shared__ arrays that
;; this module defines for good get the largest power of two dividing their size, at most 16
;; bytes, and the loads and stores at constant offsets from them (through constant
;; expressions too) the alignment that proves. Declarations (extern __shared__, dynamic shared
;; memory), definitions the linker may replace, sections, arrays aligned already or too small
;; for more, and every global outside the shared space are left alone.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-set-global-array-alignment -verify-each -S %s \
; RUN:   -pass-remarks=nv-set-global-array-alignment -pass-remarks-missed=nv-set-global-array-alignment \
; RUN:   -nv-stats -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: FileCheck %s --check-prefix=STATS < %t.err
; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s \
; RUN:   | %opt -load-pass-plugin=%plugin -passes=nv-set-global-array-alignment -S -o - | FileCheck %s --check-prefix=HOST
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @tile = internal addrspace(3) global [256 x float] undef, align 16
; CHECK: @rows = addrspace(3) global [32 x [33 x float]] undef, align 16
; CHECK: @pairs = internal addrspace(3) global [6 x float] undef, align 8
; CHECK: @odd = internal addrspace(3) global [3 x float] undef, align 4
; CHECK: @done = internal addrspace(3) global [64 x float] undef, align 16
; CHECK: @dyn = external addrspace(3) global [0 x float], align 4
; CHECK: @other = external addrspace(3) global [256 x float], align 4
; CHECK: @maybe = weak addrspace(3) global [256 x float] undef, align 4
; CHECK: @once = linkonce_odr addrspace(3) global [256 x float] undef, align 4
; CHECK: @placed = internal addrspace(3) global [256 x float] undef, section "sect", align 4
; CHECK: @count = internal addrspace(3) global i32 undef, align 4
; CHECK: @dev = addrspace(1) externally_initialized global [256 x float] zeroinitializer, align 4
; CHECK: @cst = addrspace(4) externally_initialized constant [4 x float] zeroinitializer, align 4
; HOST: @tile = internal addrspace(3) global [256 x float] undef, align 4
@tile = internal addrspace(3) global [256 x float] undef, align 4
@rows = addrspace(3) global [32 x [33 x float]] undef, align 4
@pairs = internal addrspace(3) global [6 x float] undef, align 4
@odd = internal addrspace(3) global [3 x float] undef, align 4
@done = internal addrspace(3) global [64 x float] undef, align 16
@dyn = external addrspace(3) global [0 x float], align 4
@other = external addrspace(3) global [256 x float], align 4
@maybe = weak addrspace(3) global [256 x float] undef, align 4
@once = linkonce_odr addrspace(3) global [256 x float] undef, align 4
@placed = internal addrspace(3) global [256 x float] undef, section "sect", align 4
@count = internal addrspace(3) global i32 undef, align 4
@dev = addrspace(1) externally_initialized global [256 x float] zeroinitializer, align 4
@cst = addrspace(4) externally_initialized constant [4 x float] zeroinitializer, align 4

;; The tile's accesses: the load at the base and the one 32 bytes in (a constant-expression
;; GEP) get 16, the one at 8 bytes gets 8, the one through a generic pointer (a constant
;; addrspacecast) at 16 bytes gets 16, the one at 36 bytes keeps 4; the float4 load at a variable offset is infer-alignment's.
;; @rows (32 x 33 floats, 4224 bytes: a multiple of 128) is an external definition: ours, 16.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: load float, ptr addrspace(3) @tile, align 16
; CHECK: load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @tile, i64 32), align 16
; CHECK: load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @tile, i64 8), align 8
; CHECK: load float, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 16), align 16
; CHECK: load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @tile, i64 36), align 4
; CHECK: load <4 x float>, ptr addrspace(3) %q, align 4
; CHECK: store float %s, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @rows, i64 16), align 16
define ptx_kernel void @k(i64 %i, ptr addrspace(1) %out) {
  %a = load float, ptr addrspace(3) @tile, align 4
  %b = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @tile, i64 32), align 4
  %c = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @tile, i64 8), align 4
  %d = load float, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 16), align 4
  %d2 = load float, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @tile, i64 36), align 4
  %q = getelementptr inbounds <4 x float>, ptr addrspace(3) @tile, i64 %i
  %v = load <4 x float>, ptr addrspace(3) %q, align 4
  %e = extractelement <4 x float> %v, i32 0
  %s1 = fadd float %a, %b
  %d3 = fadd float %d, %d2
  %s2 = fadd float %c, %d3
  %s = fadd float %s1, %s2
  store float %s, ptr addrspace(3) getelementptr inbounds nuw (i8, ptr addrspace(3) @rows, i64 16), align 4
  %t = fadd float %s, %e
  store float %t, ptr addrspace(1) %out, align 4
  ret void
}

; REMARK: remark: {{.*}}shared array @tile (1024 bytes) aligned from 4 to 16 bytes
; REMARK-NEXT: remark: {{.*}}shared array @rows (4224 bytes) aligned from 4 to 16 bytes
; REMARK-NEXT: remark: {{.*}}shared array @pairs (24 bytes) aligned from 4 to 8 bytes
; REMARK-NEXT: remark: {{.*}}shared array @odd (12 bytes) kept at align 4: its size is a multiple of no larger power of two
; REMARK-NEXT: remark: {{.*}}shared array @done (256 bytes) kept at align 16: already aligned to the bound
; REMARK-NEXT: remark: {{.*}}shared array @dyn (0 bytes) kept at align 4: declared, not defined, here (extern __shared__): the definition decides
; REMARK-NEXT: remark: {{.*}}shared array @other (1024 bytes) kept at align 4: declared, not defined, here (extern __shared__): the definition decides
; REMARK-NEXT: remark: {{.*}}shared array @maybe (1024 bytes) kept at align 4: the linker may choose another definition (weak, linkonce, common)
; REMARK-NEXT: remark: {{.*}}shared array @once (1024 bytes) kept at align 4: the linker may choose another definition (weak, linkonce, common)
; REMARK-NEXT: remark: {{.*}}shared array @placed (1024 bytes) kept at align 4: it is in an explicit section
; REMARK-NOT: remark

; STATS-DAG: 5 nv-set-global-array-alignment - loads/stores given a higher alignment
; STATS-DAG: 3 nv-set-global-array-alignment - shared arrays aligned
; STATS-DAG: 1 nv-set-global-array-alignment - shared arrays kept (already aligned)
; STATS-DAG: 2 nv-set-global-array-alignment - shared arrays kept (extern or dynamic)
; STATS-DAG: 3 nv-set-global-array-alignment - shared arrays kept (weak, linkonce, common or in a section)
; STATS-DAG: 1 nv-set-global-array-alignment - shared arrays kept (size allows no more)
