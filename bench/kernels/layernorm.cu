// Layer normalisation: one warp per row, two-pass mean/variance with warp shuffles, then the
// affine transform (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void layernorm_warp(const float *__restrict__ x, const float *__restrict__ gamma,
                                          const float *__restrict__ beta, float *__restrict__ y,
                                          int rows, int cols, float eps) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float *xr = x + (long)row * cols;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += xr[c];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  float mean = __shfl_sync(0xffffffffu, s, 0) / cols;
  float v = 0.0f;
  for (int c = lane; c < cols; c += 32) { float d = xr[c] - mean; v += d * d; }
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  float inv = rsqrtf(__shfl_sync(0xffffffffu, v, 0) / cols + eps);
  float *yr = y + (long)row * cols;
  for (int c = lane; c < cols; c += 32) yr[c] = (xr[c] - mean) * inv * gamma[c] + beta[c];
}
