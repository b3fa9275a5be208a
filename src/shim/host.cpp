// Hands the file names of every library loaded in this process to a callback, for the host
// LLVM check in src/host.rs (which reads the version out of libLLVM's name). No decisions here.
#include <cstddef>
#include <link.h>

using NameCallback = void (*)(const char *Name, void *Ctx);

namespace {

struct Visit {
  NameCallback Cb;
  void *Ctx;
};

int visit(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *V = static_cast<Visit *>(Data);
  if (Info->dlpi_name && *Info->dlpi_name)
    V->Cb(Info->dlpi_name, V->Ctx);
  return 0;
}

} // namespace

extern "C" void nvopt_shim_loaded_libraries(NameCallback Cb, void *Ctx) {
  Visit V{Cb, Ctx};
  dl_iterate_phdr(visit, &V);
}
