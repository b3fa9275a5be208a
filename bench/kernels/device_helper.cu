// A noinline __device__ helper (a small polynomial/complex evaluator) called from a kernel's
// loop: keeps a real call in the PTX (bench corpus).
#include "nvopt_cuda.h"

__device__ __noinline__ float horner(const float *__restrict__ coef, int deg, float x) {
  float r = coef[deg];
  for (int i = deg - 1; i >= 0; --i) r = r * x + coef[i];
  return r;
}

extern "C" __global__ void poly_eval(const float *__restrict__ coef, int deg, const float *__restrict__ xs,
                                     float *__restrict__ ys, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float x = xs[i];
    ys[i] = horner(coef, deg, x) / (1.0f + horner(coef, deg, -x) * horner(coef, deg, -x));
  }
}
