// A kernel calling a noinline device helper, and a __device__ variable (plugin-tests/driver/rdc.test).
#include "nvopt_cuda.h"

__device__ float scale;

__device__ __noinline__ float twice(const float *p) { return 2.0f * *p * scale; }

extern "C" __global__ void apply(float *out) { out[threadIdx.x] = twice(out + threadIdx.x); }
