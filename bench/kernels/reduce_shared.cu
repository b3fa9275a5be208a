// Sum reduction through a shared-memory tree, two elements per thread on load (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void reduce_shared(const float *__restrict__ in, float *__restrict__ partial, int n) {
  __shared__ float s[512];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + t;
  float v = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
