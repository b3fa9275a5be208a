; nvopt<O2|O3> runtime-unroll a loop with an unknown trip count 4 times, as nvcc does, where
; LLVM's own unroller does it 8 times (src/pipeline/llvm_options.rs: nvopt sets LLVM's
; -unroll-max-count to -nv-unroll-max-count unless the command line gives it).
; Default: 4 loads a trip plus the remainder's one, `n & 3`.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -verify-each -S %s | FileCheck %s --check-prefix=FOUR
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O2>' -S %s | FileCheck %s --check-prefix=FOUR
; The knob at 0 leaves LLVM's count (8); the user's -unroll-max-count wins over the knob.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-unroll-max-count=0 -S %s | FileCheck %s --check-prefix=EIGHT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -unroll-max-count=2 -S %s | FileCheck %s --check-prefix=TWO
; Upstream's pipeline in a process without nvopt<...> keeps LLVM's count.
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O3>' -S %s | FileCheck %s --check-prefix=EIGHT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS
; RUN: not %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-unroll-max-count=-1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD

target triple = "nvptx64-nvidia-cuda"

; FOUR-LABEL: define ptx_kernel void @sum(
; FOUR: and i32 %{{.*}}, 3
; FOUR-COUNT-4: load float
; FOUR-NOT: load float
; FOUR: load float
; FOUR-NOT: load float
; FOUR: ret void

; EIGHT-LABEL: define ptx_kernel void @sum(
; EIGHT: and i32 %{{.*}}, 7
; EIGHT-COUNT-8: load float
; EIGHT-NOT: load float
; EIGHT: load float
; EIGHT-NOT: load float
; EIGHT: ret void

; TWO-LABEL: define ptx_kernel void @sum(
; TWO-COUNT-2: load float
; TWO-NOT: load float
; TWO: load float
; TWO-NOT: load float
; TWO: ret void

; STATS: 1 nvopt<O3> {{.*}}- LLVM options set
; BAD: nv-unroll-max-count{{.*}}out of range: accepted values are 0 to 1000000

define ptx_kernel void @sum(ptr addrspace(1) %a, ptr addrspace(1) %o, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr float, ptr addrspace(1) %a, i32 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %s1 = fadd float %s, %v
  %i1 = add nuw nsw i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %loop, label %exit

exit:
  %r = phi float [ 0.0, %entry ], [ %s1, %loop ]
  store float %r, ptr addrspace(1) %o, align 4
  ret void
}
