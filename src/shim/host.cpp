// Lists the LLVM major versions of the libLLVM libraries loaded in this process (from their
// file names: libLLVM.so.22.1, libLLVM-22.so), for the host check in src/host.rs.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <link.h>

namespace {

struct Found {
  unsigned *Out;
  size_t Cap;
  size_t N;
};

unsigned majorOf(const char *Path) {
  const char *Base = std::strrchr(Path, '/');
  Base = Base ? Base + 1 : Path;
  if (std::strncmp(Base, "libLLVM", 7) != 0)
    return 0;
  const char *P = Base + 7;
  if (std::strncmp(P, ".so.", 4) == 0)
    P += 4;
  else if (*P == '-')
    P += 1;
  else
    return 0;
  return std::isdigit((unsigned char)*P) ? (unsigned)std::strtoul(P, nullptr, 10) : 0;
}

int visit(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *F = static_cast<Found *>(Data);
  unsigned Major = Info->dlpi_name ? majorOf(Info->dlpi_name) : 0;
  if (Major && F->N < F->Cap)
    F->Out[F->N++] = Major;
  return 0;
}

} // namespace

extern "C" size_t nvopt_shim_loaded_llvm_majors(unsigned *Out, size_t Cap) {
  Found F{Out, Cap, 0};
  dl_iterate_phdr(visit, &F);
  return F.N;
}
