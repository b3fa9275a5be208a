// Adapts LLVM's ScalarEvolution to nvopt's getSCEV gate (src/analysis/scev; docs/CICC-FACTS.md, "getSCEV
// gating (simple mode)"): the new-PM function analysis `nv-scev`, its printer `print<nv-scev>` (in
// the style of print<scalar-evolution>), and the accessors the gate calls (value kinds, operands,
// SCEV node counts, building a node from operand expressions). Every decision is in Rust.
#include "scev.h"
#include "sreg_terms.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Operator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace nvopt;

namespace {

template <typename Fn> std::string fromRust(Fn Call) {
  std::string S(256, '\0');
  size_t N = Call(S.data(), S.size());
  if (N > S.size()) {
    S.resize(N);
    Call(S.data(), S.size());
  }
  S.resize(N);
  return S;
}

NVScev &host(void *H) { return *static_cast<NVScev *>(H); }
Value *value(uintptr_t V) { return reinterpret_cast<Value *>(V); }
const SCEV *scev(uintptr_t S) { return reinterpret_cast<const SCEV *>(S); }
uintptr_t id(const void *P) { return reinterpret_cast<uintptr_t>(P); }

} // namespace

AnalysisKey NVScevAnalysis::Key;

NVScev::NVScev(Function &F, ScalarEvolution &SE, LoopInfo &LI, DominatorTree &DT)
    : F(F), SE(SE), LI(LI), DT(DT),
      State(nvopt_scev_new(F.getCallingConv() == CallingConv::PTX_Kernel)) {}

NVScev::NVScev(NVScev &&O)
    : F(O.F), SE(O.SE), LI(O.LI), DT(O.DT), State(O.State) {
  O.State = nullptr;
}

NVScev::~NVScev() { nvopt_scev_free(State); }

const SCEV *NVScev::getSCEV(Value *V) { return scev(nvopt_scev_get(State, this, id(V))); }

std::string NVScev::explain(Value *V) const {
  return fromRust([&](char *B, size_t C) { return nvopt_scev_explain(State, id(V), B, C); });
}

std::string NVScev::summary() const {
  return fromRust([&](char *B, size_t C) { return nvopt_scev_summary(State, B, C); });
}

bool NVScev::invalidate(Function &Fn, const PreservedAnalyses &PA,
                        FunctionAnalysisManager::Invalidator &Inv) {
  auto PAC = PA.getChecker<NVScevAnalysis>();
  return !(PAC.preserved() || PAC.preservedSet<AllAnalysesOn<Function>>()) ||
         Inv.invalidate<ScalarEvolutionAnalysis>(Fn, PA) || Inv.invalidate<LoopAnalysis>(Fn, PA) ||
         Inv.invalidate<DominatorTreeAnalysis>(Fn, PA);
}

NVScev NVScevAnalysis::run(Function &F, FunctionAnalysisManager &FAM) {
  return NVScev(F, FAM.getResult<ScalarEvolutionAnalysis>(F), FAM.getResult<LoopAnalysis>(F),
                FAM.getResult<DominatorTreeAnalysis>(F));
}

// ---- accessors for the gate (src/analysis/scev/ffi.rs) ----

extern "C" void nvopt_shim_scev_node(void *H, uintptr_t V, RawNode *Out) {
  NVScev &R = host(H);
  Value *Val = value(V);
  *Out = {SCEV_VALUE_OTHER, 0, 0};
  if (isa<Constant>(Val))
    Out->Kind = SCEV_VALUE_CONSTANT;
  else if (isa<Argument>(Val))
    Out->Kind = SCEV_VALUE_ARGUMENT;
  else if (!R.SE.isSCEVable(Val->getType()))
    Out->Kind = SCEV_VALUE_NOT_SCEVABLE;
  else if (auto *I = dyn_cast<Instruction>(Val))
    *Out = {SCEV_VALUE_INSTRUCTION, R.LI.getLoopDepth(I->getParent()), I->getNumOperands()};
}

extern "C" uintptr_t nvopt_shim_scev_operand(void *H, uintptr_t V, uint32_t I) {
  return id(cast<Instruction>(value(V))->getOperand(I));
}

extern "C" void nvopt_shim_scev_begin_scoring(void *H) { host(H).Counted.clear(); }

// Distinct nodes of S not yet counted in this scoring call; stops past Limit.
extern "C" uint64_t nvopt_shim_scev_count(void *H, uintptr_t S, uint64_t Limit) {
  NVScev &R = host(H);
  SmallVector<const SCEV *, 16> Work{scev(S)};
  uint64_t N = 0;
  while (!Work.empty() && N <= Limit) {
    const SCEV *Node = Work.pop_back_val();
    if (!R.Counted.insert(Node).second)
      continue;
    ++N;
    for (const SCEV *Op : Node->operands())
      Work.push_back(Op);
  }
  return N;
}

extern "C" uintptr_t nvopt_shim_scev_unknown(void *H, uintptr_t V) {
  return id(host(H).SE.getUnknown(value(V)));
}

// The operands whose gated expressions a node of V's opcode is combined from; none for the
// opcodes LLVM builds itself (PHI recurrences, calls, loads, ...) and for unreachable code.
static SmallVector<Value *, 4> buildOperands(NVScev &R, Instruction *I) {
  if (!R.SE.isSCEVable(I->getType()) || !R.DT.isReachableFromEntry(I->getParent()))
    return {};
  switch (I->getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::UDiv:
    return {I->getOperand(0), I->getOperand(1)};
  case Instruction::Shl:
    if (auto *C = dyn_cast<ConstantInt>(I->getOperand(1)))
      if (C->getValue().ult(I->getType()->getScalarSizeInBits()))
        return {I->getOperand(0)};
    return {};
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::Trunc:
    return {I->getOperand(0)};
  case Instruction::GetElementPtr:
    return SmallVector<Value *, 4>(I->operands());
  default:
    return {};
  }
}

extern "C" size_t nvopt_shim_scev_build_operands(void *H, uintptr_t V, uintptr_t *Out, size_t Cap) {
  auto *I = dyn_cast<Instruction>(value(V));
  if (!I)
    return 0;
  SmallVector<Value *, 4> Ops = buildOperands(host(H), I);
  for (size_t K = 0; K < Ops.size() && K < Cap; ++K)
    Out[K] = id(Ops[K]);
  return Ops.size();
}

// V's node from its operands' gated expressions (no wrap flags: a flag on the instruction
// need not hold for the expression), or LLVM's own expression when no operand was gated.
static const SCEV *combine(ScalarEvolution &SE, Instruction *I, ArrayRef<const SCEV *> Ops) {
  Type *Ty = I->getType();
  switch (I->getOpcode()) {
  case Instruction::Add:
    return SE.getAddExpr(Ops[0], Ops[1]);
  case Instruction::Sub:
    return SE.getMinusSCEV(Ops[0], Ops[1]);
  case Instruction::Mul:
    return SE.getMulExpr(Ops[0], Ops[1]);
  case Instruction::UDiv:
    return SE.getUDivExpr(Ops[0], Ops[1]);
  case Instruction::Shl: {
    unsigned Amount = cast<ConstantInt>(I->getOperand(1))->getZExtValue();
    return SE.getMulExpr(Ops[0], SE.getConstant(APInt::getOneBitSet(Ty->getScalarSizeInBits(), Amount)));
  }
  case Instruction::ZExt:
    return SE.getZeroExtendExpr(Ops[0], Ty);
  case Instruction::SExt:
    return SE.getSignExtendExpr(Ops[0], Ty);
  case Instruction::Trunc:
    return SE.getTruncateExpr(Ops[0], Ty);
  case Instruction::GetElementPtr:
    return SE.getGEPExpr(Ops[0], Ops.drop_front(), cast<GEPOperator>(I)->getSourceElementType());
  default:
    return SE.getUnknown(I);
  }
}

extern "C" uintptr_t nvopt_shim_scev_build(void *H, uintptr_t V, const uintptr_t *Ops, size_t N,
                                          bool Tainted, uint32_t *AddItems) {
  NVScev &R = host(H);
  const SCEV *S;
  if (!Tainted) {
    S = R.SE.getSCEV(value(V));
  } else {
    SmallVector<const SCEV *, 4> Exprs;
    for (size_t K = 0; K < N; ++K)
      Exprs.push_back(scev(Ops[K]));
    S = combine(R.SE, cast<Instruction>(value(V)), Exprs);
  }
  *AddItems = isa<SCEVAddExpr>(S) ? cast<SCEVAddExpr>(S)->getNumOperands() : 0;
  return id(S);
}

// ---- print<nv-scev> ----

namespace {

const char *dispositionName(ScalarEvolution::LoopDisposition D) {
  switch (D) {
  case ScalarEvolution::LoopVariant:
    return "Variant";
  case ScalarEvolution::LoopInvariant:
    return "Invariant";
  case ScalarEvolution::LoopComputable:
    return "Computable";
  }
  return "?";
}

void printLoopName(raw_ostream &OS, const Loop *L) {
  OS << "Loop ";
  L->getHeader()->printAsOperand(OS, /*PrintType=*/false);
  OS << ": ";
}

void printValue(raw_ostream &OS, NVScev &R, Instruction &I) {
  OS << I << "\n  -->  ";
  const SCEV *S = R.getSCEV(&I);
  S->print(OS);
  OS << " U: " << R.SE.getUnsignedRange(S) << " S: " << R.SE.getSignedRange(S);
  std::string Why = R.explain(&I);
  if (!Why.empty())
    OS << "  [" << Why << "]";
  if (const Loop *L = R.LI.getLoopFor(I.getParent())) {
    OS << "\t\tLoopDispositions: { ";
    for (const Loop *Iter = L; Iter; Iter = Iter->getParentLoop()) {
      if (Iter != L)
        OS << ", ";
      Iter->getHeader()->printAsOperand(OS, /*PrintType=*/false);
      OS << ": " << dispositionName(R.SE.getLoopDisposition(S, Iter));
    }
    OS << " }";
  }
  OS << "\n";
}

void printCount(raw_ostream &OS, const Loop *L, const SCEV *S, const char *What) {
  printLoopName(OS, L);
  if (isa<SCEVCouldNotCompute>(S))
    OS << "Unpredictable " << What << ".\n";
  else
    OS << What << " is " << *S << "\n";
}

// The stride idiom of the loop (docs/CICC-FACTS.md, "GPU SCEV sources and stride idioms"), which
// Rust picks from the affine recurrences of this loop among its header PHIs.
std::string idiomOf(NVScev &R, const Loop *L) {
  SregTerms Terms;
  SmallVector<NvScevNode, 32> Nodes;
  SmallVector<size_t, 8> Lens;
  for (PHINode &PN : L->getHeader()->phis()) {
    if (!R.SE.isSCEVable(PN.getType()))
      continue;
    const auto *AR = dyn_cast<SCEVAddRecExpr>(R.getSCEV(&PN));
    if (!AR || AR->getLoop() != L || !AR->isAffine())
      continue;
    for (const SCEV *Part : {AR->getStart(), AR->getStepRecurrence(R.SE)}) {
      size_t Before = Nodes.size();
      Terms.encode(Part, Nodes);
      Lens.push_back(Nodes.size() - Before);
    }
  }
  return fromRust([&](char *B, size_t C) {
    return nvopt_scev_loop_idiom(Nodes.data(), Lens.data(), Lens.size() / 2, B, C);
  });
}

void printLoop(raw_ostream &OS, NVScev &R, const Loop *L) {
  ScalarEvolution &SE = R.SE;
  printLoopName(OS, L);
  OS << "idiom: " << idiomOf(R, L) << "\n";
  printCount(OS, L, SE.getBackedgeTakenCount(L), "backedge-taken count");
  printCount(OS, L, SE.getConstantMaxBackedgeTakenCount(L), "constant max backedge-taken count");
  printCount(OS, L, SE.getSymbolicMaxBackedgeTakenCount(L), "symbolic max backedge-taken count");
  printLoopName(OS, L);
  if (unsigned Max = SE.getSmallConstantMaxTripCount(L))
    OS << "max trip count is " << Max << "\n";
  else
    OS << "Unpredictable max trip count.\n";
}

class NVScevPrinterPass : public PassInfoMixin<NVScevPrinterPass> {
  raw_ostream &OS;

public:
  explicit NVScevPrinterPass(raw_ostream &OS) : OS(OS) {}
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    NVScev &R = FAM.getResult<NVScevAnalysis>(F);
    OS << "Classifying expressions for: @" << F.getName() << "\n";
    for (Instruction &I : instructions(F))
      if (R.SE.isSCEVable(I.getType()) && !isa<CmpInst>(I))
        printValue(OS, R, I);
    OS << "Determining loop execution counts for: @" << F.getName() << "\n";
    for (const Loop *L : R.LI.getLoopsInPreorder())
      printLoop(OS, R, L);
    OS << "nv-scev for @" << F.getName() << ": " << R.summary() << "\n";
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

bool parseScevPass(StringRef Name, FunctionPassManager &FPM) {
  if (Name == "print<nv-scev>")
    FPM.addPass(NVScevPrinterPass(errs()));
  else if (Name == "require<nv-scev>")
    FPM.addPass(RequireAnalysisPass<NVScevAnalysis, Function>());
  else if (Name == "invalidate<nv-scev>")
    FPM.addPass(InvalidateAnalysisPass<NVScevAnalysis>());
  else
    return false;
  return true;
}

} // namespace

// Registers the nv-scev analysis and its pipeline names with a PassBuilder.
void nvopt_register_scev(PassBuilder &PB) {
  PB.registerAnalysisRegistrationCallback(
      [](FunctionAnalysisManager &FAM) { FAM.registerPass([] { return NVScevAnalysis(); }); });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        return parseScevPass(Name, FPM);
      });
}
