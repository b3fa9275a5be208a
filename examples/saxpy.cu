// Example kernels for nvopt-cc (README: `scripts/nvopt-cc -O3 -arch sm_90 examples/saxpy.cu -o
// build/saxpy.ptx`). Compiles with clang-22 in CUDA device mode without a CUDA SDK (through
// include/nvopt_cuda.h) and with NVIDIA's nvcc, so the same source can be compared across both.
// extern "C" keeps the PTX entry names readable: .entry saxpy, .entry block_sum.
#include "nvopt_cuda.h"

// y[i] = a * x[i] + y[i], grid-stride loop: any grid size covers any n.
extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x,
                                 float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

// *out += sum(in[0..n)): each block reduces its grid-stride partial sums in shared memory
// (blockDim.x must be a power of two, at most 256), then one atomic add per block.
extern "C" __global__ void __launch_bounds__(256)
    block_sum(int n, const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    acc += in[i];
  partial[t] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, partial[0]);
}
