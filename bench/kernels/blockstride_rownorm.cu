// Block-stride loops: one block per row; threads walk the row blockDim.x apart twice (sum of
// squares, then scaling) with a shared-memory reduction between (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void rownorm_blockstride(float *__restrict__ m, int cols) {
  __shared__ float part[256];
  float *row = m + (long)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += row[c] * row[c];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  float inv = rsqrtf(part[0] + 1e-12f);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] *= inv;
}
