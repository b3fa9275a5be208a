// LoopInfo for the passes written in Rust (src/analysis/ir/loops.rs): LLVM's C API has no loop analysis,
// so Rust asks the shim for a function's loops in preorder, a loop's header and whether a block
// belongs to a loop, the innermost loop of a block, a loop's parent and the condition of its only exit; ScalarEvolution's constant
// trip count and constant maximum trip count of a loop; and the loop's
// `llvm.loop` properties (whether one is set; adding a string property, an edit Rust asks for).
// Whether the latch is the only exit, whether the backedge-taken count is computable and whether
// it divides by a run-time value; adding an integer property (`llvm.loop.unroll.count`).
// Facts and edits only: nothing here decides.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm-c/Types.h"

using namespace llvm;

namespace {
const Loop &loop(const void *L) { return *static_cast<const Loop *>(L); }
} // namespace

// Calls Push(Ctx, L) for every loop of LI, outermost first, in program order (LoopInfo's
// getLoopsInPreorder).
extern "C" void nvopt_loops_preorder(const void *LI, void (*Push)(void *, const void *),
                                     void *Ctx) {
  for (const Loop *L : static_cast<const LoopInfo *>(LI)->getLoopsInPreorder())
    Push(Ctx, L);
}

extern "C" LLVMBasicBlockRef nvopt_loop_header(const void *L) {
  return wrap(loop(L).getHeader());
}

extern "C" bool nvopt_loop_contains(const void *L, LLVMBasicBlockRef BB) {
  return loop(L).contains(unwrap(BB));
}

// The innermost loop holding BB (LoopInfo::getLoopFor), or null.
extern "C" const void *nvopt_loop_for(const void *LI, LLVMBasicBlockRef BB) {
  return static_cast<const LoopInfo *>(LI)->getLoopFor(unwrap(BB));
}

// The loop L is nested in, or null for an outermost loop.
extern "C" const void *nvopt_loop_parent(const void *L) { return loop(L).getParentLoop(); }

// The exact number of times the loop header runs when ScalarEvolution computes it as a constant
// (ScalarEvolution::getSmallConstantTripCount); 0 when it does not.
extern "C" unsigned nvopt_loop_constant_trip_count(void *SE, const void *L) {
  return static_cast<ScalarEvolution *>(SE)->getSmallConstantTripCount(&loop(L));
}

// The count LLVM's loop unroller takes as a loop's trip count (tryToUnrollLoop): the smallest
// constant exact trip count of any of its exiting blocks (getSmallConstantTripCount(L, Exiting)),
// an exit leaving earlier still possible; 0 when no exiting block has one.
extern "C" unsigned nvopt_loop_unroller_trip_count(void *SE, const void *L) {
  SmallVector<BasicBlock *, 8> Exiting;
  loop(L).getExitingBlocks(Exiting);
  unsigned Smallest = 0;
  for (BasicBlock *BB : Exiting)
    if (unsigned N = static_cast<ScalarEvolution *>(SE)->getSmallConstantTripCount(&loop(L), BB))
      if (!Smallest || N < Smallest)
        Smallest = N;
  return Smallest;
}

// The largest number of times the header can run, when ScalarEvolution bounds it by a constant
// (getSmallConstantMaxTripCount); 0 when it does not.
extern "C" unsigned nvopt_loop_constant_max_trip_count(void *SE, const void *L) {
  return static_cast<ScalarEvolution *>(SE)->getSmallConstantMaxTripCount(&loop(L));
}

// The condition of the loop's only exit: the conditional branch ending its single exiting
// block; null when the loop has several exiting blocks or another kind of exit.
extern "C" LLVMValueRef nvopt_loop_exit_condition(const void *L) {
  BasicBlock *Exiting = loop(L).getExitingBlock();
  auto *Br = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator()) : nullptr;
  return Br && Br->isConditional() ? wrap(Br->getCondition()) : nullptr;
}

// Whether the loop's `llvm.loop` metadata holds the property Name (findOptionMDForLoop).
extern "C" bool nvopt_loop_has_property(const void *L, const char *Name) {
  return findOptionMDForLoop(&loop(L), Name) != nullptr;
}

// Adds the property `!{!"Name"}` to the loop's `llvm.loop` metadata, keeping what is there
// (a new distinct, self-referential loop ID set on every latch: Loop::setLoopID).
extern "C" void nvopt_loop_add_property(const void *L, const char *Name) {
  Loop &Lp = const_cast<Loop &>(loop(L));
  LLVMContext &Ctx = Lp.getHeader()->getContext();
  MDNode *Prop = MDNode::get(Ctx, MDString::get(Ctx, Name));
  Lp.setLoopID(makePostTransformationMetadata(Ctx, Lp.getLoopID(), {}, {Prop}));
}

// Whether the loop's only exiting block is its latch (a rotated loop with one exit).
extern "C" bool nvopt_loop_exits_at_latch_only(const void *L) {
  BasicBlock *Latch = loop(L).getLoopLatch();
  return Latch && loop(L).getExitingBlock() == Latch;
}

// Whether ScalarEvolution computes the loop's backedge-taken count (getBackedgeTakenCount is
// not SCEVCouldNotCompute).
extern "C" bool nvopt_loop_trip_count_computable(void *SE, const void *L) {
  auto &S = *static_cast<ScalarEvolution *>(SE);
  return !isa<SCEVCouldNotCompute>(S.getBackedgeTakenCount(&loop(L)));
}

// Whether the loop's backedge-taken count holds an unsigned division by a value that is not a
// constant (a loop stepping by a run-time stride: (n - start + stride - 1) /u stride).
extern "C" bool nvopt_loop_trip_count_divides(void *SE, const void *L) {
  auto &S = *static_cast<ScalarEvolution *>(SE);
  const SCEV *BTC = S.getBackedgeTakenCount(&loop(L));
  return !isa<SCEVCouldNotCompute>(BTC) && SCEVExprContains(BTC, [](const SCEV *E) {
    const auto *D = dyn_cast<SCEVUDivExpr>(E);
    return D && !isa<SCEVConstant>(D->getRHS());
  });
}

// Adds the property `!{!"Name", i32 Value}` to the loop's `llvm.loop` metadata, keeping what is
// there (as nvopt_loop_add_property).
extern "C" void nvopt_loop_add_int_property(const void *L, const char *Name, unsigned Value) {
  Loop &Lp = const_cast<Loop &>(loop(L));
  LLVMContext &Ctx = Lp.getHeader()->getContext();
  Metadata *Ops[] = {MDString::get(Ctx, Name),
                     ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), Value))};
  MDNode *Prop = MDNode::get(Ctx, Ops);
  Lp.setLoopID(makePostTransformationMetadata(Ctx, Lp.getLoopID(), {}, {Prop}));
}
