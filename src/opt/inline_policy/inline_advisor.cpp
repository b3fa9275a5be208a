// nvopt's inlining policy, plumbing only (the policy is src/opt/inline_policy, in Rust): the module
// pass `nv-inline-advisor`, which the nvopt pipelines run right before their `cgscc(inline)`
// slot, installs an InlineAdvisor whose threshold for each call site Rust chooses. LLVM's
// InlinerPass takes its advisor from the module's InlineAdvisorAnalysis, and that analysis
// builds a custom advisor only through a registered PluginInlineAdvisorAnalysis; the pass
// registers one with its ModuleAnalysisManager the first time it runs (so pipelines without
// nvopt's pass keep LLVM's own advisor), and the factory builds nvopt's advisor only while the
// pass asks for it: any other request (an upstream `default<O3>` in the same opt run) gets the
// DefaultInlineAdvisor it would have got.
//
// The advisor computes each call site's cost exactly as LLVM's DefaultInlineAdvisor does
// (getInlineCost, shouldInline, the same remarks), with getInlineParams(T) for the threshold T
// that Rust returns for that call (src/opt/inline_policy: nvopt_inline_threshold). No decisions
// here.
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/EphemeralValuesCache.h"
#include "llvm/Analysis/InlineAdvisor.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/ReplayInlineAdvisor.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm-c/Types.h"

using namespace llvm;

// Rust (src/opt/inline_policy/mod.rs, nvopt_inline_threshold): the threshold
// (InlineParams::DefaultThreshold) for one call site, given LLVM's inlining threshold multiplier
// for its callee (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

constexpr const char *Name = "nv-inline-advisor";

// Set by the pass while it asks InlineAdvisorAnalysis for an advisor.
bool WantNvAdvisor = false;

class NvInlineAdvisor : public InlineAdvisor {
public:
  NvInlineAdvisor(Module &M, FunctionAnalysisManager &FAM, InlineContext IC)
      : InlineAdvisor(M, FAM, IC) {}

private:
  // LLVM's getDefaultInlineAdvice with the call site's own InlineParams.
  std::unique_ptr<InlineAdvice> getAdviceImpl(CallBase &CB) override {
    Function &Caller = *CB.getCaller();
    Function &Callee = *CB.getCalledFunction();
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(Caller);
    auto &CalleeTTI = FAM.getResult<TargetIRAnalysis>(Callee);
    InlineParams Params =
        getInlineParams(nvopt_inline_threshold(wrap(&CB), CalleeTTI.getInliningThresholdMultiplier()));
    ProfileSummaryInfo *PSI = FAM.getResult<ModuleAnalysisManagerFunctionProxy>(Caller)
                                  .getCachedResult<ProfileSummaryAnalysis>(*CB.getModule());
    auto GetAC = [&](Function &F) -> AssumptionCache & {
      return FAM.getResult<AssumptionAnalysis>(F);
    };
    auto GetBFI = [&](Function &F) -> BlockFrequencyInfo & {
      return FAM.getResult<BlockFrequencyAnalysis>(F);
    };
    auto GetTLI = [&](Function &F) -> const TargetLibraryInfo & {
      return FAM.getResult<TargetLibraryAnalysis>(F);
    };
    auto GetEph = [&](Function &F) -> EphemeralValuesCache & {
      return FAM.getResult<EphemeralValuesAnalysis>(F);
    };
    auto GetInlineCost = [&](CallBase &C) {
      bool Missed = Callee.getContext().getDiagHandlerPtr()->isMissedOptRemarkEnabled("inline");
      return getInlineCost(C, Params, CalleeTTI, GetAC, GetTLI, GetBFI, PSI,
                           Missed ? &ORE : nullptr, GetEph);
    };
    std::optional<InlineCost> OIC = shouldInline(CB, CalleeTTI, GetInlineCost, ORE,
                                                 Params.EnableDeferral.value_or(false));
    return std::make_unique<DefaultInlineAdvice>(this, CB, OIC, ORE);
  }
};

InlineAdvisor *advisorFactory(Module &M, FunctionAnalysisManager &FAM, InlineParams Params,
                              InlineContext IC) {
  if (WantNvAdvisor)
    return new NvInlineAdvisor(M, FAM, IC);
  return new DefaultInlineAdvisor(M, FAM, Params, IC);
}

struct NvInlineAdvisorPass : PassInfoMixin<NvInlineAdvisorPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (!MAM.isPassRegistered<PluginInlineAdvisorAnalysis>())
      MAM.registerPass([] { return PluginInlineAdvisorAnalysis(advisorFactory); });
    WantNvAdvisor = true;
    MAM.getResult<InlineAdvisorAnalysis>(M).tryCreate(
        getInlineParams(), InliningAdvisorMode::Default, {},
        InlineContext{ThinOrFullLTOPhase::None, InlinePass::CGSCCInliner});
    WantNvAdvisor = false;
    // The advisor lives in InlineAdvisorAnalysis's result, which stays cached for the
    // cgscc(inline) that follows.
    return PreservedAnalyses::all();
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
};

} // namespace

// Makes `nv-inline-advisor` a module pass name for -passes= and the nvopt pipelines.
void nvopt_register_inline_advisor(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef PassName, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (PassName != Name)
          return false;
        MPM.addPass(NvInlineAdvisorPass());
        return true;
      });
}
