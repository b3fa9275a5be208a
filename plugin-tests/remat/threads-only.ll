;; nv-remat's register target for kernels whose launch bounds give only a thread count
;; (src/llc/remat/adapter.rs, own_target; knob -nv-remat-threads-only-target). Such a bound caps the
;; registers (the register file's share of the threads) but asks for no occupancy; ptxas then
;; picks an occupancy step itself and spills to reach it (CUB's onesweep kernel under
;; .maxntid 384: 80 registers and 24 B of spills at the whole share). By default (72) these
;; kernels get their share capped at 72: 72 for 384 threads (share 168) and for 256 (share
;; 255); a share below the cap stays (64 for 1024 threads). A minimum of one block per SM counts
;; as no minimum; a minimum of two keeps the share (80 = 65536 / 768 rounded down to a multiple
;; of 8). With the knob at 0 every bound gives its whole share.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -dump-remat=1 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -dump-remat=1 -nv-remat-threads-only-target=0 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
;; At 40 the cap moves with the knob and caps the 1024-thread share (64) too; two blocks keep 80.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -dump-remat=1 -nv-remat-threads-only-target=40 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAP

; ON: @threads_only round 0: pressure {{[0-9]+}} target 72 (launch bounds)
; ON: @one_block round 0: pressure {{[0-9]+}} target 72 (launch bounds)
; ON: @two_blocks round 0: pressure {{[0-9]+}} target 80 (launch bounds)
; ON: @small_share round 0: pressure {{[0-9]+}} target 64 (launch bounds)
; ON: @four_blocks round 0: pressure {{[0-9]+}} target 72 (launch bounds)
; OFF: @threads_only round 0: pressure {{[0-9]+}} target 168 (launch bounds)
; OFF: @one_block round 0: pressure {{[0-9]+}} target 168 (launch bounds)
; OFF: @two_blocks round 0: pressure {{[0-9]+}} target 80 (launch bounds)
; OFF: @small_share round 0: pressure {{[0-9]+}} target 64 (launch bounds)
; OFF: @four_blocks round 0: pressure {{[0-9]+}} target 255 (launch bounds)
; CAP: @threads_only round 0: pressure {{[0-9]+}} target 40 (launch bounds)
; CAP: @two_blocks round 0: pressure {{[0-9]+}} target 80 (launch bounds)
; CAP: @small_share round 0: pressure {{[0-9]+}} target 40 (launch bounds)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @threads_only(ptr addrspace(1) %p) "nvvm.maxntid"="384" {
entry:
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @one_block(ptr addrspace(1) %p) "nvvm.maxntid"="384" "nvvm.minctasm"="1" {
entry:
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @two_blocks(ptr addrspace(1) %p) "nvvm.maxntid"="384" "nvvm.minctasm"="2" {
entry:
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @small_share(ptr addrspace(1) %p) "nvvm.maxntid"="1024" {
entry:
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @four_blocks(ptr addrspace(1) %p) "nvvm.maxntid"="256" {
entry:
  %v = load float, ptr addrspace(1) %p
  store float %v, ptr addrspace(1) %p
  ret void
}
