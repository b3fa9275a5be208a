;; nv-remat's rewrite (src/llc/remat): twelve accumulators live around a loop push the estimated
;; pressure (21) over a target of 12 registers (-nv-maxreg=12). The output address %dst
;; (tid.x * 16 + ctaid.x off the kernel parameter %out) is live across the loop and used only
;; after it: its chain is cloned into the exit block and the original goes. %t (tid.x) is
;; cloned into the loop in the next round (%dst's chain reads it in this one). The accumulators' increments are refused (their operands, the loop's
;; PHIs, are not available after the loop and cannot be recomputed).
;; Without range extension (-nv-remat-extend-operands=0), so that %a0.n's operand refusal shows;
;; plugin-tests/remat/extend.ll has the default's.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=12 -nv-remat-extend-operands=0 -pass-remarks=nv-remat -pass-remarks-missed=nv-remat -nv-stats -dump-remat=1 %S/Inputs/tile.ll -S -o - 2>%t.err | FileCheck %s --check-prefix=IR
;; RUN: FileCheck %s --check-prefix=REMARK < %t.err
;; RUN: FileCheck %s --check-prefix=STATS < %t.err
;; RUN: FileCheck %s --check-prefix=DUMP < %t.err
;; In llc, under the same target, with -verify-machineinstrs: the address is computed after
;; the loop; without nv-remat before it. (MachineLICM hoists the tid.x read that nv-remat put
;; into the loop back out: in-loop clones of invariants do not survive llc.)
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -nv-maxreg=12 %S/Inputs/tile.ll -o %t.on.ptx
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -nv-maxreg=12 -do-remat=0 %S/Inputs/tile.ll -o %t.off.ptx
;; RUN: FileCheck %s --check-prefix=ON < %t.on.ptx
;; RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx

; IR-LABEL: entry:
; IR-NEXT:    br label %loop
; IR:         %t.remat{{[0-9]*}} = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; IR-NEXT:    %idx = add i32 %i, %t.remat
; IR-LABEL: exit:
; IR-NEXT:    %t.remat{{[0-9]*}} = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; IR-NEXT:    %o.remat = shl i32 %t.remat{{[0-9]*}}, 4
; IR-NEXT:    %b.remat = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; IR-NEXT:    %ob.remat = add i32 %o.remat, %b.remat
; IR-NEXT:    %dst.remat = getelementptr float, ptr addrspace(1) %out, i32 %ob.remat
; IR-NEXT:    %p0 = getelementptr float, ptr addrspace(1) %dst.remat, i32 0

; REMARK-DAG: remark: {{.*}}%dst recomputed next to its uses in exit (5 instructions); its live range across 2 high-pressure blocks ends
; REMARK-DAG: remark: {{.*}}%t recomputed next to its uses in loop (1 instructions)
; REMARK-DAG: remark: {{.*}}%a0.n not rematerialized: operand %a0 is not available in block exit and cannot be recomputed

; STATS-DAG: 1 nv-remat               - functions above their register target
; STATS-DAG: 2 nv-remat               - values rematerialized
; STATS-DAG: 6 nv-remat               - instructions cloned
; STATS-DAG: 12 nv-remat               - values refused: operand unavailable

; DUMP: nv-remat: @tile round 0: pressure 21 target 12 (-nv-maxreg), 2 high blocks, 1 chosen, 12 refused
; DUMP: nv-remat:   %dst recomputed in exit (5 instructions, score 5), live across 2 high blocks
; DUMP: nv-remat: @tile round 1: pressure 21 target 12 (-nv-maxreg), 2 high blocks, 1 chosen, 12 refused
; DUMP: nv-remat:   %t recomputed in loop (1 instructions, score 10), live across 1 high blocks
; DUMP: nv-remat: @tile round 2: pressure 20

; ON-LABEL: .entry tile(
; ON:       setp.lt.s32
; ON-NEXT:  @%p1 bra
; ON:       mov.u32 {{%r[0-9]+}}, %ctaid.x;
; ON:       st.global.b32
; OFF-LABEL: .entry tile(
; OFF:      mov.u32 {{%r[0-9]+}}, %ctaid.x;
; OFF:      setp.lt.s32
; OFF-NEXT: @%p1 bra
; OFF-NOT:  %ctaid.x
; OFF:      st.global.b32
