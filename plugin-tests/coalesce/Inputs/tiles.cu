// Kernels whose copies survive LLVM's RegisterCoalescer (plugin-tests/coalesce/flow.test): a
// 2x2 register tile whose four accumulators start from one 0.0, and a loop rotating two
// values (PHI copies that interfere).
#include "nvopt_cuda.h"

extern "C" __global__ void tile2x2(int n, const float *__restrict__ a, const float *__restrict__ b,
                                   float *__restrict__ c) {
  int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
  float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a0 = a[k * n + i], a1 = a[k * n + i + 1];
    float b0 = b[k * n + i], b1 = b[k * n + i + 1];
    c00 += a0 * b0;
    c01 += a0 * b1;
    c10 += a1 * b0;
    c11 += a1 * b1;
  }
  c[i] = c00;
  c[i + 1] = c01;
  c[n + i] = c10;
  c[n + i + 1] = c11;
}

extern "C" __global__ void rotate(int n, int x, int y, int *out) {
  for (int k = 0; k < n; ++k) {
    int t = x * 3 + k;
    x = y;
    y = t;
  }
  out[threadIdx.x] = x + y;
}
