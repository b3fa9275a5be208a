// Barrier shapes (issue 16, "Dead barrier elimination"): a neighbour exchange through shared
// memory with four __syncthreads() of which one orders a shared write before another thread's
// read; a tiled matrix-vector product whose loop has the usual pair of barriers (both needed);
// and a block reduction that ends with a barrier before the kernel returns (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void neighbour_exchange(float *__restrict__ out, const float *__restrict__ in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  __syncthreads();
  s[t] = in[blockIdx.x * 256 + t] * 2.0f;
  __syncthreads();
  float y = s[(t + 1) & 255] - s[t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = y;
  __syncthreads();
}

extern "C" __global__ void tiled_matvec(const float *__restrict__ a, const float *__restrict__ x,
                                        float *__restrict__ y, int n) {
  __shared__ float xs[128];
  int row = blockIdx.x * 128 + threadIdx.x;
  float acc = 0.0f;
  for (int base = 0; base < n; base += 128) {
    xs[threadIdx.x] = base + threadIdx.x < n ? x[base + threadIdx.x] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 128 && base + k < n; ++k) acc += a[(long)row * n + base + k] * xs[k];
    __syncthreads();
  }
  y[row] = acc;
}

extern "C" __global__ void block_sum(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float part[128];
  part[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  for (int w = 64; w > 0; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
  __syncthreads();
}
