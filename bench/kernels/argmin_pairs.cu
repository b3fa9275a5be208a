// Arg-min steps as CUB and Thrust write them (bench corpus): the winner of two key-value pairs
// is chosen by reference (`return less(b, a) ? b : a;` on `const&` parameters), one side a
// pair read through a pointer, the other a local copy. After inlining, the result is read
// through a PHI of the two addresses, which keeps the local pair in a 16-byte stack frame
// unless the loads are made on each edge (nv-phi-loads, src/phi_loads.rs); CUB's
// DeviceReduceSingleTileKernel for arg-min/arg-max has the same shape. Launches:
// scripts/difftest_kernels/bench.spec.
#include "nvopt_cuda.h"

struct KeyValue {
  long long key;
  int value;
};

__device__ __forceinline__ const KeyValue &arg_min(const KeyValue &a, const KeyValue &b) {
  return (b.value < a.value || (b.value == a.value && b.key < a.key)) ? b : a;
}

// Each thread compares its own (index, x[index]) pair with one of m seed pairs, read through a
// pointer, and writes 4 * key + value of the winner.
extern "C" __global__ void argmin_by_reference(const int *x, const KeyValue *seeds,
                                               long long *out, int n, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  KeyValue mine{t, x[t]};
  const KeyValue &r = arg_min(seeds[t % m], mine);
  out[t] = r.key * 4 + r.value;
}
