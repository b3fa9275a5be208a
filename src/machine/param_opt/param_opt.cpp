// Adapts LLVM's MachineFunction to nv-param-opt (src/machine/param_opt; docs/CICC-FACTS.md "Register
// pressure and rematerialization": cicc runs `param-opt` after ISel and re-issues ld.param next
// to the uses of kernel arguments): the legacy MachineFunctionPass `nv-param-opt` and its
// PassRegistry entry (llc -run-pass; src/codegen.rs inserts it after machine-sink), the facts
// Rust reads per candidate load (address space, defining block, blocks that use the value),
// and the two edits Rust asks for: re-issue a load in a block (a clone of the instruction before
// the first use there, which then reads the clone's register) and erase a load nothing reads.
// A candidate is an instruction with one virtual-register definition and no register operand
// that only loads, through one memory operand that LLVM marks dereferenceable and invariant: a
// clone anywhere reads the same bits. Which loads move, and where, is decided in Rust.
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm-c/Core.h"
#include "machine_copy.h"
#include "register.h"
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace llvm;

// Rust (src/machine/param_opt/adapter.rs, nvopt_param_opt_run): decides and asks for the edits;
// whether anything changed (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

// An instruction whose result is the same wherever it runs: one virtual def, no register
// operands, a load through one dereferenceable invariant memory operand, nothing else.
bool isInvariantLoad(const MachineInstr &MI) {
  if (!MI.mayLoad() || MI.mayStore() || MI.hasUnmodeledSideEffects() || !MI.hasOneMemOperand() ||
      !MI.isDereferenceableInvariantLoad() || MI.getNumExplicitDefs() != 1)
    return false;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && (MO.isUse() || MO.isImplicit() || !MO.getReg().isVirtual()))
      return false;
  return true;
}

class NVParamOpt : public MachineFunctionPass {
public:
  static char ID;
  NVParamOpt() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override { return "NVPTX ld.param re-issue (nvopt)"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &Fn) override {
    if (skipFunction(Fn.getFunction()))
      return false;
    MF = &Fn;
    MRI = &Fn.getRegInfo();
    Loads.clear();
    for (MachineBasicBlock &MBB : Fn)
      for (MachineInstr &MI : MBB)
        if (isInvariantLoad(MI))
          Loads.push_back(&MI);
    if (Loads.empty())
      return false;
    return nvopt_param_opt_run(this, wrap(&Fn.getFunction()));
  }

  MachineInstr *load(uint32_t Id) const { return Id < Loads.size() ? Loads[Id] : nullptr; }
  uint32_t count() const { return Loads.size(); }

  MachineBasicBlock *block(uint32_t Number) const {
    return Number < MF->getNumBlockIDs() ? MF->getBlockNumbered(Number) : nullptr;
  }

  // The blocks whose instructions read the load's register (PHI operands: the incoming block),
  // each once, in use-list order.
  std::vector<uint32_t> useBlocks(const MachineInstr &MI) const {
    std::vector<uint32_t> Out;
    for (const MachineOperand &MO : MRI->use_nodbg_operands(MI.getOperand(0).getReg())) {
      uint32_t N = nvUseBlock(MO)->getNumber();
      if (std::find(Out.begin(), Out.end(), N) == Out.end())
        Out.push_back(N);
    }
    return Out;
  }

  // Clones the load into MBB before the first reader there (nvCopyToReaders, machine_copy.h).
  bool reissue(MachineInstr &MI, MachineBasicBlock &MBB) {
    return nvCopyToReaders(*MF, *MRI, MI, MBB);
  }

  // Erases the load when no instruction reads its register any more (nvEraseIfUnread).
  bool eraseIfDead(MachineInstr &MI) { return nvEraseIfUnread(*MRI, MI, Loads); }

private:
  MachineFunction *MF = nullptr;
  MachineRegisterInfo *MRI = nullptr;
  std::vector<MachineInstr *> Loads;
};

char NVParamOpt::ID = 0;

NVParamOpt &pass(void *H) { return *static_cast<NVParamOpt *>(H); }

} // namespace

extern "C" void nvopt_shim_register_param_opt() {
  nvRegisterMachinePass<NVParamOpt>("NVPTX ld.param re-issue (nvopt)", "nv-param-opt");
}

extern "C" uint32_t nvopt_shim_param_opt_count(void *H) { return pass(H).count(); }

// Candidate Id: its address space, its block's number, and the symbol it reads (the parameter's
// name for ld.param; empty otherwise). False when Id is out of range or erased.
extern "C" bool nvopt_shim_param_opt_load(void *H, uint32_t Id, uint32_t *AddrSpace,
                                          uint32_t *Block, const char **Sym, size_t *SymLen) {
  const MachineInstr *MI = pass(H).load(Id);
  if (!MI)
    return false;
  *AddrSpace = (*MI->memoperands_begin())->getAddrSpace();
  *Block = MI->getParent()->getNumber();
  *Sym = "";
  *SymLen = 0;
  for (const MachineOperand &MO : MI->operands())
    if (MO.isSymbol()) {
      *Sym = MO.getSymbolName();
      *SymLen = strlen(MO.getSymbolName());
    }
  return true;
}

// Writes up to Cap block numbers that read candidate Id's register into Out; returns how many
// there are (the caller retries with a larger buffer when that exceeds Cap).
extern "C" uint32_t nvopt_shim_param_opt_use_blocks(void *H, uint32_t Id, uint32_t *Out,
                                                    uint32_t Cap) {
  const MachineInstr *MI = pass(H).load(Id);
  if (!MI)
    return 0;
  std::vector<uint32_t> Blocks = pass(H).useBlocks(*MI);
  for (uint32_t I = 0; I < Blocks.size() && I < Cap; ++I)
    Out[I] = Blocks[I];
  return Blocks.size();
}

extern "C" bool nvopt_shim_param_opt_reissue(void *H, uint32_t Id, uint32_t Block) {
  MachineInstr *MI = pass(H).load(Id);
  MachineBasicBlock *MBB = pass(H).block(Block);
  return MI && MBB && pass(H).reissue(*MI, *MBB);
}

extern "C" bool nvopt_shim_param_opt_erase_if_dead(void *H, uint32_t Id) {
  MachineInstr *MI = pass(H).load(Id);
  return MI && pass(H).eraseIfDead(*MI);
}
