// Generic IR facts, edits and analysis queries that LLVM's C API (llvm-c) lacks, for the passes
// that read and rewrite IR in Rust (issue 14; Rust side: src/analysis/ir/facts.rs). Each export answers
// one question about a value, a block or an analysis the pass wrapper handed to Rust, or makes
// one edit; none decides anything, and none is specific to one pass:
//   - instruction facts: mayReadOrWriteMemory, mayHaveSideEffects, the opcode's name;
//   - printAsOperand without the type (`%12`, `%n`, `0`), for remark texts;
//   - Instruction::moveAfter (llvm-c can only remove and re-insert through an IRBuilder, which
//     clears the name and overwrites the debug location);
//   - where a definition ends (getInsertionPointAfterDef), a block's first insertion point, and
//     the recursive deletion of what a rewrite left dead;
//   - DominatorTree: reachability, immediate dominator, dominance of a block by a CFG edge;
//   - OptimizationRemarkEmitter: whether any remark is enabled, and one remark (passed or missed) made of plain
//     strings and named arguments (`ore::NV`), as the C++ adapters built them; for module
//     passes, the same about a function itself, through an emitter made for that function.
// The DominatorTree and the OptimizationRemarkEmitter come in as opaque pointers from the C++
// pass wrapper that obtained them. Adapter only.
#include "ffi.h"
#include "llvm-c/Core.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Value.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"
#include <cstddef>
#include <string>

using namespace llvm;

namespace {

const DominatorTree &domTree(const void *DT) { return *static_cast<const DominatorTree *>(DT); }

OptimizationRemarkEmitter &emitter(void *ORE) {
  return *static_cast<OptimizationRemarkEmitter *>(ORE);
}

StringRef str(NvStr S) { return StringRef(S.Ptr, S.Len); }


template <typename RemarkT> RemarkT &withArgs(RemarkT &R, const NvRemarkArg *Args, size_t NArgs) {
  for (size_t K = 0; K < NArgs; ++K) {
    if (Args[K].Key.Len == 0)
      R << str(Args[K].Value);
    else
      R << ore::NV(str(Args[K].Key), str(Args[K].Value));
  }
  return R;
}

} // namespace

extern "C" bool nvopt_ir_may_read_or_write_memory(LLVMValueRef I) {
  return unwrap<Instruction>(I)->mayReadOrWriteMemory();
}

extern "C" bool nvopt_ir_may_have_side_effects(LLVMValueRef I) {
  return unwrap<Instruction>(I)->mayHaveSideEffects();
}

// The opcode's name as IR prints it (`add`, `getelementptr`); static storage.
extern "C" const char *nvopt_ir_opcode_name(LLVMValueRef I) {
  return unwrap<Instruction>(I)->getOpcodeName();
}

// The value printed as an operand without its type; free with LLVMDisposeMessage.
extern "C" char *nvopt_ir_operand_text(LLVMValueRef V) {
  std::string S;
  raw_string_ostream OS(S);
  unwrap(V)->printAsOperand(OS, /*PrintType=*/false);
  return LLVMCreateMessage(OS.str().c_str());
}

// Moves instruction I to just after After (Instruction::moveAfter; same function).
extern "C" void nvopt_ir_move_after(LLVMValueRef I, LLVMValueRef After) {
  unwrap<Instruction>(I)->moveAfter(unwrap<Instruction>(After));
}

extern "C" bool nvopt_dt_reachable(const void *DT, LLVMBasicBlockRef BB) {
  return domTree(DT).isReachableFromEntry(unwrap(BB));
}

// The immediate dominator of BB; null for the entry block and for unreachable blocks.
extern "C" LLVMBasicBlockRef nvopt_dt_idom(const void *DT, LLVMBasicBlockRef BB) {
  DomTreeNode *N = domTree(DT).getNode(unwrap(BB));
  DomTreeNode *IDom = N ? N->getIDom() : nullptr;
  return IDom ? wrap(IDom->getBlock()) : nullptr;
}

// Whether the CFG edge From -> To dominates BB.
extern "C" bool nvopt_dt_edge_dominates(const void *DT, LLVMBasicBlockRef From,
                                        LLVMBasicBlockRef To, LLVMBasicBlockRef BB) {
  return domTree(DT).dominates(BasicBlockEdge(unwrap(From), unwrap(To)), unwrap(BB));
}

// Numbers the dominator tree's nodes in DFS order (DominatorTree::updateDFSNumbers), then
// reads a reachable block's numbers and depth below the entry (getDFSNumIn/Out, getLevel).
extern "C" void nvopt_dt_update_dfs(void *DT) {
  static_cast<DominatorTree *>(DT)->updateDFSNumbers();
}

extern "C" void nvopt_dt_dfs(const void *DT, LLVMBasicBlockRef BB, uint32_t *In, uint32_t *Out,
                             uint32_t *Level) {
  const DomTreeNode *N = domTree(DT).getNode(unwrap(BB));
  *In = N->getDFSNumIn();
  *Out = N->getDFSNumOut();
  *Level = N->getLevel();
}

// Whether any remark is enabled at all (OptimizationRemarkEmitter::enabled: what emit() with a
// builder checks before building the remark).
extern "C" bool nvopt_remarks_enabled(void *ORE) { return emitter(ORE).enabled(); }

// Emits OptimizationRemark(Pass, Name, At) << Args..., each Arg a plain string or ore::NV.
extern "C" void nvopt_remark(void *ORE, const char *Pass, const char *Name, LLVMValueRef At,
                             const NvRemarkArg *Args, size_t NArgs) {
  OptimizationRemark R(Pass, Name, unwrap<Instruction>(At));
  emitter(ORE).emit(withArgs(R, Args, NArgs));
}

// The same as a missed-optimization remark (-pass-remarks-missed=Pass).
extern "C" void nvopt_remark_missed(void *ORE, const char *Pass, const char *Name,
                                    LLVMValueRef At, const NvRemarkArg *Args, size_t NArgs) {
  OptimizationRemarkMissed R(Pass, Name, unwrap<Instruction>(At));
  emitter(ORE).emit(withArgs(R, Args, NArgs));
}

// Whether any remark is enabled in F's context (OptimizationRemarkEmitter::enabled), for module
// passes, which get no emitter from their wrapper.
extern "C" bool nvopt_remarks_enabled_for(LLVMValueRef F) {
  return OptimizationRemarkEmitter(unwrap<Function>(F), nullptr).enabled();
}

// Emits OptimizationRemark (OptimizationRemarkMissed when Missed)(Pass, Name, Where) << Args...
// through an emitter made for Fn, for module passes (which get no emitter from their wrapper).
template <typename WhereT>
void emitAbout(const Function *Fn, bool Missed, const char *Pass, const char *Name, WhereT Where,
               const NvRemarkArg *Args, size_t NArgs) {
  OptimizationRemarkEmitter ORE(Fn, nullptr);
  if (Missed) {
    OptimizationRemarkMissed R(Pass, Name, Where);
    ORE.emit(withArgs(R, Args, NArgs));
  } else {
    OptimizationRemark R(Pass, Name, Where);
    ORE.emit(withArgs(R, Args, NArgs));
  }
}

// A remark about function F itself (at its DISubprogram's line), for module passes.
extern "C" void nvopt_remark_function(const char *Pass, const char *Name, bool Missed,
                                      LLVMValueRef F, const NvRemarkArg *Args, size_t NArgs) {
  const Function *Fn = unwrap<Function>(F);
  emitAbout(Fn, Missed, Pass, Name, Fn, Args, NArgs);
}

// The same about instruction At (at its debug location), for module passes.
extern "C" void nvopt_remark_instruction(const char *Pass, const char *Name, bool Missed,
                                         LLVMValueRef At, const NvRemarkArg *Args, size_t NArgs) {
  const Instruction *I = unwrap<Instruction>(At);
  emitAbout(I->getFunction(), Missed, Pass, Name, I, Args, NArgs);
}

// The same for a remark about loop L (at its start location, its header as the code region).
extern "C" void nvopt_remark_loop(void *ORE, const char *Pass, const char *Name, const void *L,
                                  const NvRemarkArg *Args, size_t NArgs) {
  const Loop &Lp = *static_cast<const Loop *>(L);
  OptimizationRemark R(Pass, Name, Lp.getStartLoc(), Lp.getHeader());
  emitter(ORE).emit(withArgs(R, Args, NArgs));
}

// The instruction before which code using I's result can go (Instruction::
// getInsertionPointAfterDef), or null where there is none (a catchswitch block). *BeforeRecords
// tells whether the position is also before the debug records attached to that instruction (a
// block's first insertion point is).
extern "C" LLVMValueRef nvopt_ir_insertion_point_after_def(LLVMValueRef I, bool *BeforeRecords) {
  std::optional<BasicBlock::iterator> It = unwrap<Instruction>(I)->getInsertionPointAfterDef();
  if (!It || *It == It->getNodeParent()->end())
    return nullptr;
  *BeforeRecords = It->getHeadBit();
  return wrap(&**It);
}

// Deletes V if it is a trivially dead instruction, and then the operands that die with it
// (RecursivelyDeleteTriviallyDeadInstructions).
extern "C" void nvopt_ir_delete_dead(LLVMValueRef V) {
  RecursivelyDeleteTriviallyDeadInstructions(unwrap(V));
}

// The first place in BB where a non-PHI instruction can go (BasicBlock::getFirstInsertionPt;
// before the debug records there), or null where there is none.
extern "C" LLVMValueRef nvopt_ir_first_insertion_pt(LLVMBasicBlockRef BB) {
  BasicBlock *B = unwrap(BB);
  BasicBlock::iterator It = B->getFirstInsertionPt();
  return It == B->end() ? nullptr : wrap(&*It);
}

// Deletes, in order, each of Vs that is (still) a trivially dead instruction with the operands
// that die with it; a value an earlier deletion removed is skipped (the list is held as
// WeakTrackingVH before anything is deleted).
extern "C" void nvopt_ir_delete_dead_all(const LLVMValueRef *Vs, size_t N) {
  SmallVector<WeakTrackingVH, 32> Dead;
  for (size_t K = 0; K < N; ++K)
    Dead.push_back(unwrap(Vs[K]));
  for (WeakTrackingVH &V : Dead)
    if (auto *I = dyn_cast_or_null<Instruction>(V))
      RecursivelyDeleteTriviallyDeadInstructions(I);
}

// Deletes the PHIs of BB that are dead or feed only themselves through a dead cycle
// (RecursivelyDeleteDeadPHINode), each checked after the previous deletions.
extern "C" void nvopt_ir_delete_dead_phis(LLVMBasicBlockRef BB) {
  SmallVector<WeakTrackingVH, 16> Phis;
  for (PHINode &P : unwrap(BB)->phis())
    Phis.push_back(&P);
  for (WeakTrackingVH &V : Phis)
    if (auto *P = dyn_cast_or_null<PHINode>(V))
      RecursivelyDeleteDeadPHINode(P);
}
