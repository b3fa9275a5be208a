// The pass wrappers of the IR passes whose work is in Rust, written once for both pass managers:
// a new-PM function pass (opt -passes=NAME) and a legacy FunctionPass (inserted into llc's
// pipeline by name, src/codegen.rs). Each obtains the analyses the C API cannot (LoopInfo,
// ScalarEvolution, DominatorTree, an OptimizationRemarkEmitter), skips declarations (and, in
// the legacy manager, what skipFunction says), hands the function to Rust and reports the CFG
// preserved when it changed the IR (nothing preserved for a pass whose Needs has NvChangesCFG).
// A pass supplies a Traits type:
//   static constexpr unsigned Needs;                 // NvNeedLoops | NvNeedScev | NvNeedDomTree | NvChangesCFG
//   static constexpr uint32_t LegacyArg;             // the argument of the llc (legacy) pass
//   static const char *name(uint32_t Arg);           // the pass name for an argument
//   static constexpr const char *Description;
//   static bool run(llvm::Function &F, NvAnalyses &A, uint32_t Arg);   // whether it changed
// A pass with one name (every one but the address passes, which share a Traits over several
// phases) derives its Traits from NvOneNamePass, below, and supplies only its name, description,
// runOn and, where it needs analyses or changes the CFG, its Needs.
// Adapter only.
#pragma once
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/CodeGen/StackProtector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include <cstdint>
#include <initializer_list>
#include <vector>

// NvChangesCFG: the pass may add blocks and change edges (then nothing is kept when it changed
// the IR; otherwise the CFG analyses are).
enum NvNeed : unsigned { NvNeedLoops = 1, NvNeedScev = 2, NvNeedDomTree = 4, NvChangesCFG = 8 };

// What a wrapper obtained for one function (null where the pass does not need it).
struct NvAnalyses {
  llvm::LoopInfo *LI;
  llvm::ScalarEvolution *SE;
  llvm::DominatorTree *DT;
  llvm::OptimizationRemarkEmitter &ORE;
};

// The Traits of a pass with one name: Derived supplies
//   static constexpr const char *Name, *Description;
//   static bool runOn(llvm::Function &F, NvAnalyses &A);   // whether it changed
// and, where it needs more than the remark emitter or changes the CFG, its own Needs (which
// hides the 0 here).
template <typename Derived> struct NvOneNamePass {
  static constexpr unsigned Needs = 0;
  static constexpr uint32_t LegacyArg = 0;
  static const char *name(uint32_t) { return Derived::Name; }
  static bool run(llvm::Function &F, NvAnalyses &A, uint32_t) { return Derived::runOn(F, A); }
};

template <typename Traits> struct NvNewPMPass : llvm::PassInfoMixin<NvNewPMPass<Traits>> {
  uint32_t Arg;
  explicit NvNewPMPass(uint32_t Arg) : Arg(Arg) {}

  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &AM) {
    if (F.isDeclaration())
      return llvm::PreservedAnalyses::all();
    unsigned N = Traits::Needs;
    NvAnalyses A{N & NvNeedLoops ? &AM.getResult<llvm::LoopAnalysis>(F) : nullptr,
                 N & NvNeedScev ? &AM.getResult<llvm::ScalarEvolutionAnalysis>(F) : nullptr,
                 N & NvNeedDomTree ? &AM.getResult<llvm::DominatorTreeAnalysis>(F) : nullptr,
                 AM.getResult<llvm::OptimizationRemarkEmitterAnalysis>(F)};
    if (!Traits::run(F, A, Arg))
      return llvm::PreservedAnalyses::all();
    if (N & NvChangesCFG)
      return llvm::PreservedAnalyses::none();
    llvm::PreservedAnalyses PA;
    PA.preserveSet<llvm::CFGAnalyses>();
    return PA;
  }

  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>) {
    OS << Traits::name(Arg);
  }
};

template <typename Traits> class NvLegacyPass : public llvm::FunctionPass {
public:
  static char ID;
  NvLegacyPass() : llvm::FunctionPass(ID) {}

  llvm::StringRef getPassName() const override { return Traits::Description; }

  void getAnalysisUsage(llvm::AnalysisUsage &AU) const override {
    if (Traits::Needs & NvNeedLoops)
      AU.addRequired<llvm::LoopInfoWrapperPass>();
    if (Traits::Needs & NvNeedScev)
      AU.addRequired<llvm::ScalarEvolutionWrapperPass>();
    if (Traits::Needs & NvNeedDomTree)
      AU.addRequired<llvm::DominatorTreeWrapperPass>();
    if (!(Traits::Needs & NvChangesCFG))
      AU.setPreservesCFG();
    // No wrapped pass touches allocas: where one runs after llc's stack-protector (nv-remat,
    // after nvptx-lower-aggr-copies), instruction selection must still find its result, as it
    // does after NVPTX's own passes there (lower-aggr-copies, alloca-hoisting).
    AU.addPreserved<llvm::StackProtector>();
  }

  bool runOnFunction(llvm::Function &F) override {
    if (F.isDeclaration() || skipFunction(F))
      return false;
    unsigned N = Traits::Needs;
    llvm::OptimizationRemarkEmitter ORE(&F);
    NvAnalyses A{N & NvNeedLoops ? &getAnalysis<llvm::LoopInfoWrapperPass>().getLoopInfo() : nullptr,
                 N & NvNeedScev ? &getAnalysis<llvm::ScalarEvolutionWrapperPass>().getSE() : nullptr,
                 N & NvNeedDomTree ? &getAnalysis<llvm::DominatorTreeWrapperPass>().getDomTree()
                                   : nullptr,
                 ORE};
    return Traits::run(F, A, Traits::LegacyArg);
  }
};

template <typename Traits> char NvLegacyPass<Traits>::ID = 0;

// Registers the legacy pass under Traits::name(LegacyArg) (llc inserts it by that name).
template <typename Traits> void nvRegisterLegacyPass() {
  static llvm::PassInfo Info(Traits::Description, Traits::name(Traits::LegacyArg),
                             &NvLegacyPass<Traits>::ID,
                             llvm::PassInfo::NormalCtor_t(llvm::callDefaultCtor<NvLegacyPass<Traits>>),
                             false, false);
  llvm::PassRegistry::getPassRegistry()->registerPass(Info);
}

// Registers the machine pass P (a MachineFunctionPass with a static ID) under Arg, for llc's
// insertion by name (src/codegen.rs) and llc -run-pass.
template <typename P> void nvRegisterMachinePass(const char *Description, const char *Arg) {
  static llvm::PassInfo Info(Description, Arg, &P::ID,
                             llvm::PassInfo::NormalCtor_t(llvm::callDefaultCtor<P>), false, false);
  llvm::PassRegistry::getPassRegistry()->registerPass(Info);
}

// Makes each of Args a function pass name for opt -passes= (Traits::name(Arg)).
template <typename Traits>
void nvRegisterNewPMPass(llvm::PassBuilder &PB, std::initializer_list<uint32_t> Args) {
  std::vector<uint32_t> Known(Args);
  PB.registerPipelineParsingCallback(
      [Known](llvm::StringRef Name, llvm::FunctionPassManager &FPM,
              llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        for (uint32_t Arg : Known)
          if (Name == Traits::name(Arg)) {
            FPM.addPass(NvNewPMPass<Traits>(Arg));
            return true;
          }
        return false;
      });
}

// Makes Traits::name(Traits::LegacyArg), a pass's one name, a function pass name for opt -passes=.
template <typename Traits> void nvRegisterNewPMPass(llvm::PassBuilder &PB) {
  nvRegisterNewPMPass<Traits>(PB, {Traits::LegacyArg});
}

// Registers a plain new-PM function pass under one name (nv-scev-sources).
template <typename PassT> void nvRegisterFunctionPass(llvm::PassBuilder &PB, llvm::StringRef PassName) {
  PB.registerPipelineParsingCallback(
      [PassName](llvm::StringRef Name, llvm::FunctionPassManager &FPM,
                 llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name != PassName)
          return false;
        FPM.addPass(PassT());
        return true;
      });
}

// A module pass whose whole work is one Rust call, Run(M), which says whether it changed the
// module (then nothing is preserved). Name: the pass name, a namespace-scope constexpr char array.
template <bool (*Run)(LLVMModuleRef), const char *Name>
struct NvRustModulePass : llvm::PassInfoMixin<NvRustModulePass<Run, Name>> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return Run(llvm::wrap(&M)) ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }

  void printPipeline(llvm::raw_ostream &OS, llvm::function_ref<llvm::StringRef(llvm::StringRef)>) {
    OS << Name;
  }
};

// Registers a plain new-PM module pass under one name (nv-internalize).
template <typename PassT> void nvRegisterModulePass(llvm::PassBuilder &PB, llvm::StringRef PassName) {
  PB.registerPipelineParsingCallback(
      [PassName](llvm::StringRef Name, llvm::ModulePassManager &MPM,
                 llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name != PassName)
          return false;
        MPM.addPass(PassT());
        return true;
      });
}
