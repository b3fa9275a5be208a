// CUDA loop idioms for plugin-tests/scev-sources/cuda.test: clang reads threadIdx & co.
// through always-inline accessors, so the special registers appear only after inlining.
#include "nvopt_cuda.h"

extern "C" __global__ void __launch_bounds__(256) warp_rows(const float *m, float *out, int cols) {
  int lane = threadIdx.x & 31;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += m[c];
  out[threadIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(256) block_hist(unsigned *h) {
  for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
}

extern "C" __global__ void grid_copy(const float *x, float *y, unsigned n) {
  for (unsigned long i = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (unsigned long)blockDim.x * gridDim.x)
    y[i] = x[i];
}
