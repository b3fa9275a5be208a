; nv-machine-sink-slot (src/machine/machine_sink_slot): with -nv-machine-sink=0 the empty pass
; takes machine-sink's place, as cicc's llc runs no MachineSink, and nv-pre-sink, nv-pred-remat
; and nv-param-opt follow it in order. The kernel loads through the result of each 64-bit srem;
; CodeGenPrepare makes each srem a 32/64-bit diamond. Upstream's MachineSink moves both loads
; into the block that stores their sum, taken only when %out is not null, the first one past the
; second diamond (its 64-bit address is then held across the diamond; nv-load-hoist, off in the
; SINK run, moves it back); with the slot empty each load stays next to its address.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-disable-load-hoist -verify-machineinstrs %s -o - \
; RUN:   | FileCheck %s --check-prefix=SINK
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-machine-sink=0 -verify-machineinstrs %s -o - \
; RUN:   | FileCheck %s --check-prefix=SLOT
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-machine-sink=0 -debug-pass=Arguments %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE-DEFAULT
; RUN: %if ptxas %{ %llc -O3 -mcpu=sm_90 -load %plugin -nv-machine-sink=0 %s -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

; SINK-LABEL: .entry k(
; SINK: rem.s64
; SINK-NOT: ld.global
; SINK: rem.s64
; SINK: ld.global.b32
; SINK: ld.global.b32

; SLOT-LABEL: .entry k(
; SLOT: rem.s64
; SLOT: ld.global.b32
; SLOT: rem.s64
; SLOT: ld.global.b32

; PIPE: -machine-cse -nv-machine-sink-slot {{(-machine[a-z-]+ )*}}-nv-load-hoist -nv-pre-sink -nv-pred-remat -nv-param-opt -nv-mul-wide-split -peephole-opt
; PIPE-NOT: -machine-sink{{ }}
; PIPE-DEFAULT: -machine-cse {{(-machine[a-z-]+ )*}}-machine-sink {{(-machine[a-z-]+ )*}}-nv-load-hoist -nv-pre-sink -nv-pred-remat -nv-param-opt -nv-mul-wide-split -peephole-opt

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n, i64 %m) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %i0 = srem i64 %t, %n
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i0
  %v0 = load i32, ptr addrspace(1) %p0, align 4
  %t1 = add i64 %t, %m
  %i1 = srem i64 %t1, %n
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i1
  %v1 = load i32, ptr addrspace(1) %p1, align 4
  %s = add i32 %v0, %v1
  %c = icmp ne ptr addrspace(1) %out, null
  br i1 %c, label %write, label %done

write:
  store i32 %s, ptr addrspace(1) %out, align 4
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
