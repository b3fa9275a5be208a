// Test kernels for the pipeline and end-to-end tests: loops, shared memory, a device helper,
// a struct passed by value, launch bounds and a small local array.
#include "nvopt_cuda.h"

struct Params {
  float scale;
  int n;
  float bias[4];
};

__device__ __noinline__ float helper(float x, float s) { return x * s + 1.0f; }

extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void __launch_bounds__(256) reduce(const float *in, float *out, int n) {
  __shared__ float tile[256];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  tile[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, tile[0]);
}

extern "C" __global__ void with_struct(Params p, float *data) {
  float acc[4];
  for (int k = 0; k < 4; ++k)
    acc[k] = p.bias[k];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) {
    float v = helper(data[i], p.scale);
    for (int k = 0; k < 4; ++k)
      v += acc[k];
    data[i] = v;
  }
}
