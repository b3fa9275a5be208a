// 1D stencil of radius 4 through a shared-memory tile with halo (bench corpus).
#include "nvopt_cuda.h"

#define RADIUS 4
#define BLOCK 256

extern "C" __global__ void stencil1d(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int lo = g - RADIUS, hi = g + BLOCK;
    tile[l - RADIUS] = lo >= 0 ? in[lo] : 0.0f;
    tile[l + BLOCK] = hi < n ? in[hi] : 0.0f;
  }
  __syncthreads();
  if (g >= n) return;
  float r = 0.0f;
  for (int o = -RADIUS; o <= RADIUS; ++o) r += (1.0f / (1 + (o < 0 ? -o : o))) * tile[l + o];
  out[g] = r;
}
