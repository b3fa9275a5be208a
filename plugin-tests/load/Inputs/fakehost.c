/* A stand-in host for the version check: optionally loads a library named like another LLVM's
   libLLVM (argv[2]) before the plugin (argv[1]), as an LLVM 21 opt would have, then asks the
   plugin for its PassPluginLibraryInfo and prints the API version it offers. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

struct Info {
  uint32_t APIVersion;
  const char *PluginName;
  const char *PluginVersion;
  void *Register;
  void *PreCodeGen;
};

int main(int argc, char **argv) {
  if (argc > 2 && !dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL)) {
    printf("cannot load %s: %s\n", argv[2], dlerror());
    return 2;
  }
  void *plugin = dlopen(argv[1], RTLD_NOW);
  if (!plugin) {
    printf("cannot load plugin: %s\n", dlerror());
    return 2;
  }
  struct Info (*get)(void) = (struct Info (*)(void))dlsym(plugin, "llvmGetPassPluginInfo");
  struct Info info = get();
  fflush(stderr);
  printf("plugin %s offers API version %u\n", info.PluginName, info.APIVersion);
  return 0;
}
