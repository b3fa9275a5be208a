// corpus_eval test input (tune half of corpus "tiny"): a shared-memory 1-D stencil.
#include "nvopt_cuda.h"

extern "C" __global__ void stencil3(float *out, const float *in, int n) {
  __shared__ float s[258];
  int i = blockIdx.x * 256 + threadIdx.x;
  s[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) s[0] = i > 0 ? in[i - 1] : 0.0f;
  if (threadIdx.x == 255) s[257] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = 0.25f * s[threadIdx.x] + 0.5f * s[threadIdx.x + 1] + 0.25f * s[threadIdx.x + 2];
}
