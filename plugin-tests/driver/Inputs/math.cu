// A division and a square root, without CUDA headers: how nvcc's floating-point options reach
// the PTX (fast-math.test).
#include "nvopt_cuda.h"

extern "C" __global__ void quot(float *p) {
  unsigned i = threadIdx.x;
  p[i] = p[i] / p[i + 32] + __builtin_sqrtf(p[i + 64]);
}
