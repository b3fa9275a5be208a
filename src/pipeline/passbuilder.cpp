// Adapts nvopt to the new pass manager: registers the `nvopt<LEVEL>` module pipeline element.
// The pipeline text is built in Rust (src/pipeline) and parsed here by the PassBuilder, so
// -print-pipeline-passes shows exactly what runs. No decisions here.
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

void nvopt_register_scev(PassBuilder &PB);
void nvopt_register_scev_sources(PassBuilder &PB); // scev_sources.cpp
void nvopt_register_addr(PassBuilder &PB);         // addr.cpp
void nvopt_register_iv_start_widening(PassBuilder &PB); // iv_start_widening.cpp
void nvopt_register_iv_rewrite(PassBuilder &PB);         // iv_rewrite.cpp
void nvopt_register_ext_reuse(PassBuilder &PB);          // ext_reuse.cpp
void nvopt_register_cssa(PassBuilder &PB);          // cssa.cpp
void nvopt_register_remat(PassBuilder &PB);         // remat.cpp
void nvopt_register_dbe(PassBuilder &PB);           // dbe.cpp
void nvopt_register_rust_module_passes(PassBuilder &PB); // rust_module_passes.cpp
void nvopt_register_ipmsp(PassBuilder &PB);         // ipmsp.cpp
void nvopt_register_clang_pipeline(PassBuilder &PB); // clang_pipeline.cpp
void nvopt_register_unroll_marks(PassBuilder &PB);  // unroll_marks.cpp
void nvopt_register_inline_advisor(PassBuilder &PB);      // inline_advisor.cpp
void nvopt_register_array_alignment(PassBuilder &PB);     // array_alignment.cpp
void nvopt_register_lower_struct_args(PassBuilder &PB);   // lower_struct_args.cpp
void nvopt_register_const_pointers(PassBuilder &PB);      // const_pointers.cpp
void nvopt_register_phi_load_spaces(PassBuilder &PB);     // phi_load_spaces.cpp
void nvopt_register_phi_loads(PassBuilder &PB);           // phi_loads.cpp
void nvopt_register_reuse_local_memory(PassBuilder &PB);  // reuse_local_memory.cpp

namespace {

bool parseNvopt(PassBuilder &PB, StringRef Name, ModulePassManager &MPM) {
  if (!Name.starts_with("nvopt"))
    return false;
  char *Text = nullptr;
  if (nvopt_build_pipeline(Name.data(), Name.size(), &PB, &Text) != PIPELINE_BUILT)
    return false;
  Error E = PB.parsePassPipeline(MPM, Text);
  bool Ok = !E;
  if (E)
    errs() << "nvopt: error: LLVM rejected the pipeline built for '" << Name
           << "': " << toString(std::move(E)) << "\n  pipeline: " << Text << "\n";
  nvopt_free_string(Text);
  return Ok;
}

} // namespace

// Whether PB can parse `Name` as a pipeline (NVPTX passes exist only with an NVPTX target).
extern "C" bool nvopt_shim_pass_known(void *P, const char *Name, size_t Len) {
  ModulePassManager Probe;
  if (Error E = static_cast<PassBuilder *>(P)->parsePassPipeline(Probe, StringRef(Name, Len))) {
    consumeError(std::move(E));
    return false;
  }
  return true;
}

extern "C" void nvopt_shim_register_pass_builder(void *P) {
  PassBuilder &PB = *static_cast<PassBuilder *>(P);
  nvopt_register_scev_sources(PB);
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        return parseNvopt(PB, Name, MPM);
      });
  nvopt_register_scev(PB);
  nvopt_register_addr(PB);
  nvopt_register_iv_start_widening(PB);
  nvopt_register_iv_rewrite(PB);
  nvopt_register_ext_reuse(PB);
  nvopt_register_cssa(PB);
  nvopt_register_remat(PB);
  nvopt_register_dbe(PB);
  nvopt_register_rust_module_passes(PB);
  nvopt_register_ipmsp(PB);
  nvopt_register_clang_pipeline(PB);
  nvopt_register_unroll_marks(PB);
  nvopt_register_inline_advisor(PB);
  nvopt_register_array_alignment(PB);
  nvopt_register_lower_struct_args(PB);
  nvopt_register_const_pointers(PB);
  nvopt_register_phi_load_spaces(PB);
  nvopt_register_phi_loads(PB);
  nvopt_register_reuse_local_memory(PB);
}
