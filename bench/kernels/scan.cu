// Block-level exclusive prefix sums: Blelloch work-efficient (up-sweep/down-sweep) and a
// double-buffered Hillis-Steele inclusive scan (bench corpus).
#include "nvopt_cuda.h"

#define SCAN_N 1024  // elements per block; blockDim.x = SCAN_N / 2
extern "C" __global__ void scan_blelloch(const float *__restrict__ in, float *__restrict__ out,
                                         float *__restrict__ sums) {
  __shared__ float s[SCAN_N];
  int t = threadIdx.x, base = blockIdx.x * SCAN_N;
  s[2 * t] = in[base + 2 * t];
  s[2 * t + 1] = in[base + 2 * t + 1];
  int off = 1;
  for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    off <<= 1;
  }
  if (t == 0) {
    sums[blockIdx.x] = s[SCAN_N - 1];
    s[SCAN_N - 1] = 0.0f;
  }
  for (int d = 1; d < SCAN_N; d <<= 1) {
    off >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
      float v = s[ai];
      s[ai] = s[bi];
      s[bi] += v;
    }
  }
  __syncthreads();
  out[base + 2 * t] = s[2 * t];
  out[base + 2 * t + 1] = s[2 * t + 1];
}

extern "C" __global__ void scan_hillis_steele(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float buf[2][512];
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int src = 0;
  buf[0][t] = g < n ? in[g] : 0.0f;
  __syncthreads();
  for (int d = 1; d < blockDim.x; d <<= 1) {
    float v = buf[src][t];
    if (t >= d) v += buf[src][t - d];
    buf[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  if (g < n) out[g] = buf[src][t];
}
