// IR edits the Rust passes need that LLVM's C API lacks (src/ir/mod.rs): where a value's
// definition ends (the first place a use of it can be inserted) and the recursive deletion of
// what a rewrite left dead. Utilities only: nothing here decides.
#include "llvm/IR/Instruction.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm-c/Types.h"

using namespace llvm;

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
