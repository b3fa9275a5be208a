// Row softmax, one block per row, block-stride loops for max, sum of exp and normalisation
// with shared-memory reductions (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void softmax_rows(const float *__restrict__ x, float *__restrict__ y, int cols) {
  __shared__ float red[256];
  const float *xr = x + (long)blockIdx.x * cols;
  float *yr = y + (long)blockIdx.x * cols;
  float m = -3.0e38f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, xr[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + w]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(xr[c] - m);
  red[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) red[threadIdx.x] += red[threadIdx.x + w];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - m) * inv;
}
