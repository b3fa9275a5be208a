// Gathers through 64-bit modulo indices, eight items per thread, loaded first and stored after,
// as CUB's transform kernel does over Thrust's permutation_iterator (tiled_range,
// repeated_range) (bench corpus). Each index is (first + i) % n in 64 bits, which CodeGenPrepare
// makes a 32/64-bit division diamond; machine-sink moves the loads, and the address arithmetic
// only they read, past the later diamonds, holding each 64-bit index instead of the 32-bit
// value, until nv-load-hoist (src/machine/load_hoist) moves them back. Launches:
// scripts/difftest_kernels/bench.spec.
#include "nvopt_cuda.h"

extern "C" __global__ void __launch_bounds__(256)
    modulo_gather8(const int *in, int *out, long long n, long long count) {
  long long first = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 8;
  for (; first < count; first += (long long)gridDim.x * blockDim.x * 8) {
    if (first + 8 <= count) {
      int v[8];
#pragma unroll
      for (int i = 0; i < 8; ++i)
        v[i] = in[(first + i) % n];
#pragma unroll
      for (int i = 0; i < 8; ++i)
        out[first + i] = v[i];
    } else {
      for (long long i = first; i < count; ++i)
        out[i] = in[i % n];
    }
  }
}
