// Registers the knobs of src/knobs.rs as LLVM cl::opts (one category, listed by --help and
// --help-hidden) and reads their values back for Rust. Integer knobs reject out-of-range values
// at parse time with a message naming the knob and the accepted range. No decisions here.
#include "llvm/Support/CommandLine.h"
#include "llvm/ADT/Twine.h"
#include <climits>
#include <vector>

using namespace llvm;

namespace {

cl::OptionCategory &category() {
  static cl::OptionCategory Cat("nvopt options",
                                "Knobs of the nvopt plugin (NVIDIA cicc's NVPTX flow)");
  return Cat;
}

class RangedIntParser : public cl::parser<int> {
public:
  int Min = INT_MIN;
  int Max = INT_MAX;
  explicit RangedIntParser(cl::Option &O) : cl::parser<int>(O) {}
  bool parse(cl::Option &O, StringRef ArgName, StringRef Arg, int &Val) {
    if (cl::parser<int>::parse(O, ArgName, Arg, Val))
      return true;
    if (Val < Min || Val > Max)
      return O.error("value '" + Arg + "' is out of range: accepted values are " + Twine(Min) +
                     " to " + Twine(Max));
    return false;
  }
};

using IntOpt = cl::opt<int, false, RangedIntParser>;

struct Knob {
  cl::opt<bool> *B = nullptr;
  IntOpt *I = nullptr;
};

std::vector<Knob> &knobs() {
  static std::vector<Knob> K;
  return K;
}

Knob &slot(unsigned Idx) {
  if (knobs().size() <= Idx)
    knobs().resize(Idx + 1);
  return knobs()[Idx];
}

} // namespace

extern "C" void nvopt_shim_register_bool(unsigned Idx, const char *Name, size_t NameLen,
                                         const char *Help, size_t HelpLen, bool Default) {
  slot(Idx).B = new cl::opt<bool>(StringRef(Name, NameLen), cl::desc(StringRef(Help, HelpLen)),
                                  cl::init(Default), cl::cat(category()));
}

extern "C" void nvopt_shim_register_int(unsigned Idx, const char *Name, size_t NameLen,
                                        const char *Help, size_t HelpLen, int Default, int Min,
                                        int Max) {
  auto *O = new IntOpt(StringRef(Name, NameLen), cl::desc(StringRef(Help, HelpLen)),
                       cl::init(Default), cl::cat(category()));
  O->getParser().Min = Min;
  O->getParser().Max = Max;
  slot(Idx).I = O;
}

// One knob's value as LLVM parsed it (bools as 0/1; the logger and the statistics printer ask
// for theirs alone).
extern "C" int64_t nvopt_shim_knob_value(unsigned Idx) {
  if (Idx >= knobs().size())
    return 0;
  const Knob &K = knobs()[Idx];
  if (K.B)
    return *K.B ? 1 : 0;
  return K.I ? (int64_t)*K.I : 0;
}

// Every knob's value as LLVM parsed it (bools as 0/1), in table order, into Out[0..N) (one call
// per read of the whole table: Knobs::current in src/knobs.rs).
extern "C" void nvopt_shim_knob_values(int64_t *Out, size_t N) {
  for (size_t Idx = 0; Idx < N; ++Idx) {
    Out[Idx] = nvopt_shim_knob_value(static_cast<unsigned>(Idx));
  }
}

// What became of a default given to one of LLVM's options (codes shared with Rust:
// LlvmOption in src/ffi.rs).

// Gives LLVM's own option `Name` the value `Value` unless it already has one from the command
// line (or an earlier call). Which option and value: Rust (src/pipeline/llvm_options.rs).
extern "C" int nvopt_shim_default_llvm_option(const char *Name, size_t NameLen, const char *Value,
                                              size_t ValueLen) {
  StringRef N(Name, NameLen);
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find(N);
  if (It == Opts.end())
    return OPTION_UNKNOWN;
  cl::Option *O = It->second;
  if (O->getNumOccurrences() > 0)
    return OPTION_GIVEN;
  return O->addOccurrence(0, N, StringRef(Value, ValueLen)) ? OPTION_REJECTED : OPTION_SET;
}
