// The TargetPassConfig callback (docs/ARCHITECTURE.md "Platform facts", "How the flow runs"). LLVM
// calls it whenever llc or clang builds a legacy codegen pipeline, for every target, before any
// pass is added; opt never calls it. Rust (src/codegen.rs) says which nvopt passes this pipeline
// gets and after which upstream pass each goes, and which upstream pass an nvopt pass replaces,
// all by registered pass name; this file only looks the names up and calls
// TargetPassConfig::insertPass and substitutePass. A new codegen pass is registered
// in its own file and listed in src/codegen.rs. No decisions here.
//
// llc registers every upstream legacy pass at startup; clang registers one only when it is first
// constructed, i.e. after this callback. So the pass groups that hold the anchors of llc's IR
// pipeline (TransformUtils: canon-freeze; ScalarOpts: loop-reduce; CodeGen: register-coalescer) are registered before a name is
// looked up (idempotent, as in llc's main); without that the names do not resolve under clang.
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/InitializePasses.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace {

void insertOne(void *Ctx, const char *Pass, size_t PassLen, const char *After, size_t AfterLen) {
  auto *TPC = static_cast<TargetPassConfig *>(Ctx);
  StringRef PassName(Pass, PassLen), AfterName(After, AfterLen);
  PassRegistry &Registry = *PassRegistry::getPassRegistry();
  initializeTransformUtils(Registry);
  initializeScalarOpts(Registry);
  initializeCodeGen(Registry);
  const PassInfo *P = Registry.getPassInfo(PassName);
  const PassInfo *A = Registry.getPassInfo(AfterName);
  if (!P || !A) {
    errs() << "nvopt: warning: cannot insert '" << PassName << "' after '" << AfterName
           << "': " << (P ? AfterName : PassName) << " is not a registered pass\n";
    return;
  }
  TPC->insertPass(A->getTypeInfo(), P->getTypeInfo());
}

// Pass takes the place of Replaced: TargetPassConfig adds it where it would add Replaced.
void substituteOne(void *Ctx, const char *Pass, size_t PassLen, const char *Replaced,
                   size_t ReplacedLen) {
  auto *TPC = static_cast<TargetPassConfig *>(Ctx);
  StringRef PassName(Pass, PassLen), ReplacedName(Replaced, ReplacedLen);
  PassRegistry &Registry = *PassRegistry::getPassRegistry();
  initializeCodeGen(Registry);
  const PassInfo *P = Registry.getPassInfo(PassName);
  const PassInfo *R = Registry.getPassInfo(ReplacedName);
  if (!P || !R) {
    errs() << "nvopt: warning: cannot put '" << PassName << "' in the place of '" << ReplacedName
           << "': " << (P ? ReplacedName : PassName) << " is not a registered pass\n";
    return;
  }
  TPC->substitutePass(R->getTypeInfo(), IdentifyingPassPtr(P->getTypeInfo()));
}

void configure(TargetMachine &TM, PassManagerBase &, TargetPassConfig *TPC) {
  if (!TPC)
    return;
  nvopt_codegen_insertions(TM.getTargetTriple().isNVPTX(),
                           static_cast<unsigned>(TM.getOptLevel()), substituteOne, insertOne,
                           TPC);
}

RegisterTargetPassConfigCallback Callback(configure);

} // namespace
