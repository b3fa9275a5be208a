// Naive GEMM: one thread per C element, inner product over k from global memory (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void gemm_naive(int m, int n, int k, float alpha, const float *__restrict__ a,
                                      const float *__restrict__ b, float beta, float *__restrict__ c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += a[row * k + p] * b[p * n + col];
  c[row * n + col] = alpha * acc + beta * c[row * n + col];
}
