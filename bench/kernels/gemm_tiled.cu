// Shared-memory tiled GEMM (16x16 tiles) and a 64x64 block / 4x4 register-tiled variant
// (bench corpus).
#include "nvopt_cuda.h"

#define T 16
extern "C" __global__ void gemm_tiled(int m, int n, int k, const float *__restrict__ a,
                                      const float *__restrict__ b, float *__restrict__ c) {
  __shared__ float as[T][T];
  __shared__ float bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += T) {
    as[ty][tx] = (row < m && t + tx < k) ? a[row * k + t + tx] : 0.0f;
    bs[ty][tx] = (col < n && t + ty < k) ? b[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < T; ++p) acc += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

#define BM 64
#define BK 16
#define RT 4
// blockDim = (16, 16); each thread computes a 4x4 block of C; m, n multiples of 64, k of 16.
extern "C" __global__ void gemm_regtile(int m, int n, int k, const float *__restrict__ a,
                                        const float *__restrict__ b, float *__restrict__ c) {
  __shared__ float as[BK][BM];
  __shared__ float bs[BK][BM];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  int r0 = blockIdx.y * BM, c0 = blockIdx.x * BM;
  float acc[RT][RT];
  for (int i = 0; i < RT; ++i)
    for (int j = 0; j < RT; ++j) acc[i][j] = 0.0f;
  for (int t = 0; t < k; t += BK) {
    for (int l = tid; l < BM * BK; l += 256) {
      int ar = l / BK, ac = l % BK;
      as[ac][ar] = a[(r0 + ar) * k + t + ac];
      int br = l / BM, bc = l % BM;
      bs[br][bc] = b[(t + br) * n + c0 + bc];
    }
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
      float av[RT], bv[RT];
      for (int i = 0; i < RT; ++i) av[i] = as[p][ty * RT + i];
      for (int j = 0; j < RT; ++j) bv[j] = bs[p][tx * RT + j];
      for (int i = 0; i < RT; ++i)
        for (int j = 0; j < RT; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < RT; ++i)
    for (int j = 0; j < RT; ++j) c[(r0 + ty * RT + i) * n + c0 + tx * RT + j] = acc[i][j];
}
