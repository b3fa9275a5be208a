// The empty pass nvopt puts in upstream `machine-sink`'s place in llc's pipeline when
// -nv-machine-sink=0 (src/machine/machine_sink_slot, which says why; src/codegen.rs asks
// TargetPassConfig for the substitution). It changes nothing; the nvopt passes anchored at
// machine-sink's slot follow it. No decisions here.
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "register.h"

using namespace llvm;

namespace {

class NVMachineSinkSlot : public MachineFunctionPass {
public:
  static char ID;
  NVMachineSinkSlot() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override {
    return "machine-sink's slot, empty as in cicc's llc (nvopt)";
  }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &) override { return false; }
};

char NVMachineSinkSlot::ID = 0;

} // namespace

extern "C" void nvopt_shim_register_machine_sink_slot() {
  nvRegisterMachinePass<NVMachineSinkSlot>("machine-sink's slot, empty as in cicc's llc (nvopt)",
                                           "nv-machine-sink-slot");
}
