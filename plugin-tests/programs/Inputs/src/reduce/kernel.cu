// nvopt's program-corpus test: block-wise shared-memory sum, then atomics.
#include "reduce.h"
#include <cuda_runtime.h>

__global__ void block_sum(const float *x, int n, double *out) {
  __shared__ double part[256];
  int i = blockIdx.x * blockDim.x * 4 + threadIdx.x;
  double s = 0;
  for (int k = 0; k < 4; ++k, i += blockDim.x)
    if (i < n)
      s += x[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, part[0]);
}

double gpu_sum(const float *x, int n) {
  float *dx;
  double *dout, r = 0;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dout, sizeof(double));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 4; ++rep) {
    cudaMemset(dout, 0, sizeof(double));
    block_sum<<<(n + 1023) / 1024, 256>>>(dx, n, dout);
  }
  cudaMemcpy(&r, dout, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  return r;
}
