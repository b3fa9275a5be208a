// Adapter for `-nv-pipeline=LEVEL` (src/clang_pipeline: what it does, its limits, and every
// decision). It registers the option, adds at pipeline start one required module pass that runs
// the `nvopt<LEVEL>` element Rust names for the module, skips through the pass-instrumentation
// callbacks the optional passes of a replaced module that run outside that pass, and sets the
// target machine's codegen level Rust gives. No decisions here.
#include "llvm/ADT/Any.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"
#include <string>

using namespace llvm;

namespace {

// Rejects a value Rust does not accept, with Rust's message (it names the valid levels).
class LevelParser : public cl::parser<std::string> {
public:
  explicit LevelParser(cl::Option &O) : cl::parser<std::string>(O) {}
  bool parse(cl::Option &O, StringRef ArgName, StringRef Arg, std::string &Val) {
    if (char *Err = nvopt_clang_pipeline_check(Arg.data(), Arg.size())) {
      bool Failed = O.error(Err);
      nvopt_free_string(Err);
      return Failed;
    }
    Val = Arg.str();
    return false;
  }
};

cl::opt<std::string, false, LevelParser> *Option = nullptr;

std::string value() { return Option ? std::string(*Option) : std::string(); }

// Whether a module's optimizer was replaced in this process (read by the codegen callback).
bool ReplacedInProcess = false;

// Per PassBuilder: whether its pipeline holds the replacing pass, and whether that pass is
// running its nested pipeline now.
struct GateState {
  bool Armed = false;
  unsigned Inside = 0;
};

bool replaces(const Module &M) {
  const std::string &T = M.getTargetTriple().str();
  std::string V = value();
  return nvopt_clang_pipeline_replaces(T.data(), T.size(), V.data(), V.size());
}

// The module a pass is about to run on, from the IR unit the instrumentation hands over.
const Module *moduleOf(const Any &IR) {
  if (const auto *M = any_cast<const Module *>(&IR))
    return *M;
  if (const auto *F = any_cast<const Function *>(&IR))
    return (*F)->getParent();
  if (const auto *L = any_cast<const Loop *>(&IR))
    return (*L)->getHeader()->getModule();
  if (const auto *C = any_cast<const LazyCallGraph::SCC *>(&IR))
    return (*C)->begin()->getFunction().getParent();
  return nullptr;
}

struct NvoptInClangPass : PassInfoMixin<NvoptInClangPass> {
  PassBuilder *PB;
  GateState *State;

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    const std::string &T = M.getTargetTriple().str();
    std::string V = value();
    char *Element = nvopt_clang_pipeline_element(T.data(), T.size(), V.data(), V.size());
    if (!Element)
      return PreservedAnalyses::all();
    ModulePassManager Inner;
    if (Error E = PB->parsePassPipeline(Inner, Element))
      report_fatal_error(Twine("nvopt: cannot build '") + Element + "': " + toString(std::move(E)),
                         /*gen_crash_diag=*/false);
    nvopt_free_string(Element);
    ReplacedInProcess = true;
    ++State->Inside;
    PreservedAnalyses PA = Inner.run(M, MAM);
    --State->Inside;
    return PA;
  }

  static bool isRequired() { return true; }
  static StringRef name() { return "nv-pipeline"; }
};

void setCodegenLevel(TargetMachine &TM, PassManagerBase &, TargetPassConfig *) {
  std::string V = value();
  unsigned Current = static_cast<unsigned>(TM.getOptLevel());
  unsigned Level = nvopt_clang_codegen_level(ReplacedInProcess, TM.getTargetTriple().isNVPTX(),
                                             V.data(), V.size(), Current);
  if (Level != Current)
    TM.setOptLevel(static_cast<CodeGenOptLevel>(Level));
}

RegisterTargetPassConfigCallback CodegenLevel(setCodegenLevel);

} // namespace

extern "C" void nvopt_shim_register_clang_pipeline(const char *Name, size_t NameLen,
                                                   const char *Help, size_t HelpLen) {
  Option = new cl::opt<std::string, false, LevelParser>(
      StringRef(Name, NameLen), cl::desc(StringRef(Help, HelpLen)), cl::init(""),
      cl::value_desc("level"));
}

void nvopt_register_clang_pipeline(PassBuilder &PB) {
  if (value().empty())
    return;
  auto *State = new GateState(); // lives as long as the PassBuilder's callbacks
  PB.registerPipelineStartEPCallback(
      [&PB, State](ModulePassManager &MPM, OptimizationLevel) {
        State->Armed = true;
        MPM.addPass(NvoptInClangPass{{}, &PB, State});
      });
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    PIC->registerShouldRunOptionalPassCallback([State](StringRef, Any IR) {
      if (!State->Armed || State->Inside)
        return true;
      const Module *M = moduleOf(IR);
      return !M || !replaces(*M);
    });
}
