; nv-asm-convergence: `convergent` leaves the inline-asm calls whose PTX computes in the
; executing thread (CUDA's bf16 conversions, a guarded select with a .reg declaration, a
; streaming load) and stays on those with a warp collective, a barrier, a branch or an unknown
; opcode; calls of functions are not touched. Remarks name the statement that keeps the mark.
; Asm that reads a special register (CUB's `mov.u32 $0, %laneid;`) keeps it too unless
; -nv-asm-convergence-sregs: without the mark LLVM merges every such read into one value that
; stays live across the kernel, where a fresh read costs one S2R.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-asm-convergence -verify-each -S %s -o - \
; RUN:   -pass-remarks=nv-asm-convergence -pass-remarks-missed=nv-asm-convergence -nv-stats \
; RUN:   2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-asm-convergence -nv-asm-convergence-sregs -S %s \
; RUN:   | FileCheck %s --check-prefix=SREGS
; The pipeline slot: right after nv-internalize at every optimizing level, off with the knob.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=SLOT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmax>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=SLOT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-asm-convergence -print-pipeline-passes \
; RUN:   -disable-output %s | FileCheck %s --check-prefix=NOSLOT

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define float @convert(
; CHECK: call float asm "{ cvt.f32.bf16 $0, $1;}\0A", "=f,h"(i16 %h) #[[LOCAL:[0-9]+]]
; CHECK: call i16 asm "{  cvt.rn.bf16.f32 $0, $1;}\0A", "=h,f"(float %f) #[[LOCAL]]
; CHECK: call i32 asm "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p add.s32 $0, $1, 1; @!p mov.b32 $0, 7; }", "=r,r"(i32 %i) #[[LOCAL]]
; CHECK: call float asm sideeffect "ld.global.cs.f32 $0, [$1];", "=f,l"(ptr %p) #[[LOCAL]]
define float @convert(i16 %h, float %f, i32 %i, ptr %p) {
  %a = call float asm "{ cvt.f32.bf16 $0, $1;}\0A", "=f,h"(i16 %h) #0
  %b = call i16 asm "{  cvt.rn.bf16.f32 $0, $1;}\0A", "=h,f"(float %f) #0
  %c = call i32 asm "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p add.s32 $0, $1, 1; @!p mov.b32 $0, 7; }", "=r,r"(i32 %i) #0
  %d = call float asm sideeffect "ld.global.cs.f32 $0, [$1];", "=f,l"(ptr %p) #0
  %s = fadd float %a, %d
  ret float %s
}

; CHECK-LABEL: define i32 @collective(
; CHECK: call i32 asm "shfl.sync.bfly.b32 $0, $1, 1, 31, -1;", "=r,r"(i32 %x) #[[CONV:[0-9]+]]
; CHECK: call void asm sideeffect "{ add.s32 $0, $0, 1; bar.sync 0; }", "r"(i32 %x) #[[CONV]]
; CHECK: call i32 asm "{ @$1 bra DONE; mov.b32 $0, 1; DONE: }", "=r,r"(i32 %x) #[[CONV]]
; CHECK: call i32 asm "frobnicate.b32 $0, $1;", "=r,r"(i32 %x) #[[CONV]]
; CHECK: call i32 asm "", "=r"() #[[CONV]]
; CHECK: call i32 @helper(i32 %x) #[[CONV]]
define i32 @collective(i32 %x) {
  %a = call i32 asm "shfl.sync.bfly.b32 $0, $1, 1, 31, -1;", "=r,r"(i32 %x) #0
  call void asm sideeffect "{ add.s32 $0, $0, 1; bar.sync 0; }", "r"(i32 %x) #0
  %b = call i32 asm "{ @$1 bra DONE; mov.b32 $0, 1; DONE: }", "=r,r"(i32 %x) #0
  %c = call i32 asm "frobnicate.b32 $0, $1;", "=r,r"(i32 %x) #0
  %d = call i32 asm "", "=r"() #0
  %e = call i32 @helper(i32 %x) #0
  %s1 = add i32 %a, %b
  %s2 = add i32 %c, %d
  %s3 = add i32 %s1, %s2
  %s = add i32 %s3, %e
  ret i32 %s
}

; CHECK-LABEL: define i32 @sregs(
; CHECK: call i32 asm "mov.u32 $0, %laneid;", "=r"() #[[CONV]]
; CHECK: call i32 asm "mov.u32 $0, %lanemask_lt;", "=r"() #[[CONV]]
; SREGS-LABEL: define i32 @sregs(
; SREGS: call i32 asm "mov.u32 $0, %laneid;", "=r"() #[[SLOCAL:[0-9]+]]
; SREGS: call i32 asm "mov.u32 $0, %lanemask_lt;", "=r"() #[[SLOCAL]]
; SREGS: attributes #[[SLOCAL]] = { nounwind memory(none) }
define i32 @sregs() {
  %a = call i32 asm "mov.u32 $0, %laneid;", "=r"() #0
  %b = call i32 asm "mov.u32 $0, %lanemask_lt;", "=r"() #0
  %s = add i32 %a, %b
  ret i32 %s
}

define i32 @helper(i32 %x) {
  %y = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 %x)
  ret i32 %y
}

attributes #0 = { convergent nounwind memory(none) }

; CHECK-DAG: attributes #[[LOCAL]] = { nounwind memory(none) }
; CHECK-DAG: attributes #[[CONV]] = { convergent nounwind memory(none) }

; REMARK-COUNT-4: remark: {{.*}}convergent removed from an inline-asm call: its PTX computes in the executing thread only
; REMARK-DAG: inline-asm call kept convergent: shfl.sync.bfly.b32 is not a known thread-local PTX instruction
; REMARK-DAG: inline-asm call kept convergent: bar.sync is not a known thread-local PTX instruction
; REMARK-DAG: inline-asm call kept convergent: bra is not a known thread-local PTX instruction
; REMARK-DAG: inline-asm call kept convergent: frobnicate.b32 is not a known thread-local PTX instruction
; REMARK-DAG: inline-asm call kept convergent: its text holds no PTX statement to check
; REMARK-DAG: inline-asm call kept convergent: it reads special register %laneid (-nv-asm-convergence-sregs=false)
; REMARK-DAG: inline-asm call kept convergent: it reads special register %lanemask_lt (-nv-asm-convergence-sregs=false)
; REMARK-DAG: 4 nv-asm-convergence{{ +}}- inline-asm calls made non-convergent
; REMARK-DAG: 7 nv-asm-convergence{{ +}}- inline-asm calls kept convergent

; SLOT: nv-internalize,nv-asm-convergence,
; NOSLOT-NOT: nv-asm-convergence
