// Adapts LLVM's MachineFunction to nv-sreg-order (src/machine/sreg_order): the legacy
// MachineFunctionPass `nv-sreg-order` and its PassRegistry entry (llc -run-pass; src/codegen.rs
// inserts it after machine-scheduler), the opcode names of the entry block's instructions for
// Rust, and the one edit Rust asks for: move the instructions it names, in its order, to the
// start of the entry block. Which instructions move is decided in Rust; the shim refuses an
// instruction that reads a register or has side effects, so a move can never change a value.
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"
#include "register.h"
#include <cstdint>
#include <vector>

using namespace llvm;

// Rust (src/machine/sreg_order/adapter.rs, nvopt_sreg_order_run): decides and asks for the move;
// whether anything changed (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

// Safe to move up within its block: defines registers only and neither touches memory nor has
// other effects.
bool movable(const MachineInstr &MI) {
  if (MI.mayLoadOrStore() || MI.hasUnmodeledSideEffects() || MI.isTerminator() || MI.isPHI() ||
      MI.isDebugInstr())
    return false;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && (MO.isUse() || MO.isImplicit()))
      return false;
  return true;
}

class NVSregOrder : public MachineFunctionPass {
public:
  static char ID;
  NVSregOrder() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override { return "NVPTX launch-configuration reads first (nvopt)"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    // Moving instructions stales SlotIndexes and LiveIntervals: later passes recompute them.
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &Fn) override {
    if (skipFunction(Fn.getFunction()) || Fn.empty())
      return false;
    TII = Fn.getSubtarget().getInstrInfo();
    Entry = &Fn.front();
    Instrs.clear();
    for (MachineInstr &MI : *Entry)
      Instrs.push_back(&MI);
    return nvopt_sreg_order_run(this, wrap(&Fn.getFunction()));
  }

  uint32_t count() const { return Instrs.size(); }

  StringRef opcode(uint32_t Idx) const {
    return Idx < Instrs.size() ? TII->getName(Instrs[Idx]->getOpcode()) : StringRef();
  }

  // Moves instructions Idx[0..N) to the start of the entry block, in that order; nothing moves
  // when one of them is out of range or not movable.
  bool hoist(const uint32_t *Idx, uint32_t N) {
    std::vector<MachineInstr *> Moved;
    for (uint32_t K = 0; K < N; ++K) {
      if (Idx[K] >= Instrs.size() || !movable(*Instrs[Idx[K]]))
        return false;
      Moved.push_back(Instrs[Idx[K]]);
    }
    MachineBasicBlock::iterator At = Entry->begin();
    for (MachineInstr *MI : Moved) {
      if (MI->getIterator() == At) {
        ++At;
        continue;
      }
      Entry->splice(At, Entry, MI->getIterator());
    }
    return !Moved.empty();
  }

private:
  const TargetInstrInfo *TII = nullptr;
  MachineBasicBlock *Entry = nullptr;
  std::vector<MachineInstr *> Instrs;
};

char NVSregOrder::ID = 0;

NVSregOrder &pass(void *H) { return *static_cast<NVSregOrder *>(H); }

} // namespace

extern "C" void nvopt_shim_register_sreg_order() {
  nvRegisterMachinePass<NVSregOrder>("NVPTX launch-configuration reads first (nvopt)",
                                     "nv-sreg-order");
}

extern "C" uint32_t nvopt_shim_sreg_order_count(void *H) { return pass(H).count(); }

// The opcode name of entry-block instruction Idx; false when Idx is out of range.
extern "C" bool nvopt_shim_sreg_order_opcode(void *H, uint32_t Idx, const char **Name,
                                             size_t *Len) {
  if (Idx >= pass(H).count())
    return false;
  StringRef S = pass(H).opcode(Idx);
  *Name = S.data();
  *Len = S.size();
  return true;
}

extern "C" bool nvopt_shim_sreg_order_hoist(void *H, const uint32_t *Idx, uint32_t N) {
  return pass(H).hoist(Idx, N);
}
