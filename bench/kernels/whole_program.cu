// Whole-program shapes (issue 16, "Whole-program mode"): what only a closed world (nvcc without
// -rdc) lets the optimizer do with device functions. wp_single_call calls a long device function
// once: it is inlined either way, but with external linkage its out-of-line copy stays in the
// PTX as a `.visible .func`. wp_const_arg calls a noinline device function that every call site
// gives the same constant mode: internal, IPSCCP folds the mode and dead-argument elimination
// drops the parameter (bench corpus).
#include "nvopt_cuda.h"

__device__ float long_body(const float *__restrict__ v, int n, float s) {
  float acc = 0.0f;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
    float x = v[i] * s;
    acc += x * x * 0.5f + expf(-x) * 0.0625f + rsqrtf(1.0f + x * x) * 0.25f;
    acc = acc > 1e6f ? acc * 1e-6f : acc;
    acc += (i & 1) ? x * 3.0f : x * 0.3f;
    acc += (i & 2) ? expf(x * 0.5f) : sqrtf(1.0f + x * x);
    acc += (i & 4) ? x / (1.0f + acc * acc) : x * acc * 1e-3f;
    acc = fmaxf(acc, -1e6f) + fminf(x, 2.0f) * rsqrtf(2.0f + acc * acc);
  }
  return acc;
}

__device__ __noinline__ float mode_eval(float x, int mode) {
  if (mode == 0)
    return x * x;
  if (mode == 1)
    return expf(x) + sqrtf(x * x + 1.0f) * x;
  return rsqrtf(x * x + 2.0f) - x;
}

extern "C" __global__ void wp_single_call(const float *__restrict__ v, float *__restrict__ out, int n,
                                          int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = long_body(v + t * len, len, 0.5f);
}

extern "C" __global__ void wp_const_arg(const float *__restrict__ in, float *__restrict__ out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = mode_eval(in[t], 1) + mode_eval(in[t] * 2.0f, 1);
}
