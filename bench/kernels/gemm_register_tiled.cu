// Register-tiled SGEMM as it is commonly hand-written (issue 17, register pressure; bench
// corpus): a 128x128 block tile with an 8x8 accumulator tile per thread (C = alpha A B + beta C,
// A staged transposed in shared memory, float4 global and shared loads, outer products from
// 8 + 8 register fragments), and a 128x64 block tile with an 8x4 tile per thread for
// C = A B^T (B stored N x K, as a layer's weights) that prefetches the next K slice from global
// memory into registers while the current one is multiplied, with two shared-memory stages.
// gemm_tiled.cu's gemm_regtile (4x4 per thread) and register_tile.cu's linear_relu_tile8x8 (8x8,
// k-contiguous float4 dot products) are the other register-tiled shapes of the corpus.
#include "nvopt_cuda.h"

// C (m x n) = alpha * A (m x k) * B (k x n) + beta * C, all row-major; m and n multiples of
// 128, k a multiple of 8; blockDim = 256, grid = (n / 128, m / 128).
extern "C" __global__ void __launch_bounds__(256)
sgemm_128x128_t8x8(int m, int n, int k, float alpha, const float *__restrict__ a,
                   const float *__restrict__ b, float beta, float *__restrict__ c) {
  __shared__ float as[8][128];  // A tile, transposed: as[kk][row]
  __shared__ float bs[8][128];
  int tid = threadIdx.x;
  int tr = tid / 16, tc = tid % 16;  // this thread's 8x8 tile: rows 8 tr.., columns 8 tc..
  const float *ab = a + (long)blockIdx.y * 128 * k;
  const float *bb = b + blockIdx.x * 128;
  int a_row = tid / 2, a_col = (tid % 2) * 4;    // one float4 of the 128x8 A tile
  int b_row = tid / 32, b_col = (tid % 32) * 4;  // one float4 of the 8x128 B tile
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < k; k0 += 8) {
    float4 av = *(const float4 *)&ab[(long)a_row * k + k0 + a_col];
    as[a_col + 0][a_row] = av.x;
    as[a_col + 1][a_row] = av.y;
    as[a_col + 2][a_row] = av.z;
    as[a_col + 3][a_row] = av.w;
    *(float4 *)&bs[b_row][b_col] = *(const float4 *)&bb[(long)(k0 + b_row) * n + b_col];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      float4 a0 = *(const float4 *)&as[kk][tr * 8], a1 = *(const float4 *)&as[kk][tr * 8 + 4];
      float4 b0 = *(const float4 *)&bs[kk][tc * 8], b1 = *(const float4 *)&bs[kk][tc * 8 + 4];
      float ar[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float br[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += ar[i] * br[j];
    }
    __syncthreads();
  }

  float *cb = c + (long)(blockIdx.y * 128 + tr * 8) * n + blockIdx.x * 128 + tc * 8;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int j = 0; j < 8; j += 4) {
      float4 *p = (float4 *)&cb[(long)i * n + j];
      float4 old = *p;
      *p = make_float4(alpha * acc[i][j] + beta * old.x, alpha * acc[i][j + 1] + beta * old.y,
                       alpha * acc[i][j + 2] + beta * old.z, alpha * acc[i][j + 3] + beta * old.w);
    }
  }
}

// C (m x n) = A (m x k) * B^T, B stored n x k; all row-major; m a multiple of 128, n of 64,
// k of 16; blockDim = 256, grid = (n / 64, m / 128).
extern "C" __global__ void __launch_bounds__(256, 2)
sgemm_nt_128x64_t8x4_prefetch(int m, int n, int k, const float *__restrict__ a,
                              const float *__restrict__ b, float *__restrict__ c) {
  __shared__ float as[2][16][128];  // two stages of the A tile, transposed: as[s][kk][row]
  __shared__ float bs[2][16][64];   // two stages of the B tile, transposed: bs[s][kk][col]
  int tid = threadIdx.x;
  int tr = tid / 16, tc = tid % 16;  // this thread's 8x4 tile: rows 8 tr.., columns 4 tc..
  const float *ab = a + (long)blockIdx.y * 128 * k;
  const float *bb = b + (long)blockIdx.x * 64 * k;
  // The 128x16 A slice is 512 float4s, two per thread (rows r and r + 64); the 64x16 B slice
  // is 256, one per thread.
  int ld_row = tid / 4, ld_col = (tid % 4) * 4;
  float acc[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  float4 pa0 = *(const float4 *)&ab[(long)ld_row * k + ld_col];
  float4 pa1 = *(const float4 *)&ab[(long)(ld_row + 64) * k + ld_col];
  float4 pb = *(const float4 *)&bb[(long)ld_row * k + ld_col];
  int s = 0;
  for (int k0 = 0; k0 < k; k0 += 16) {
    // Store the prefetched slice into stage s, then fetch the next one while computing.
    as[s][ld_col + 0][ld_row] = pa0.x;
    as[s][ld_col + 1][ld_row] = pa0.y;
    as[s][ld_col + 2][ld_row] = pa0.z;
    as[s][ld_col + 3][ld_row] = pa0.w;
    as[s][ld_col + 0][ld_row + 64] = pa1.x;
    as[s][ld_col + 1][ld_row + 64] = pa1.y;
    as[s][ld_col + 2][ld_row + 64] = pa1.z;
    as[s][ld_col + 3][ld_row + 64] = pa1.w;
    bs[s][ld_col + 0][ld_row] = pb.x;
    bs[s][ld_col + 1][ld_row] = pb.y;
    bs[s][ld_col + 2][ld_row] = pb.z;
    bs[s][ld_col + 3][ld_row] = pb.w;
    __syncthreads();
    if (k0 + 16 < k) {
      pa0 = *(const float4 *)&ab[(long)ld_row * k + k0 + 16 + ld_col];
      pa1 = *(const float4 *)&ab[(long)(ld_row + 64) * k + k0 + 16 + ld_col];
      pb = *(const float4 *)&bb[(long)ld_row * k + k0 + 16 + ld_col];
    }
#pragma unroll
    for (int kk = 0; kk < 16; ++kk) {
      float4 a0 = *(const float4 *)&as[s][kk][tr * 8], a1 = *(const float4 *)&as[s][kk][tr * 8 + 4];
      float4 b0 = *(const float4 *)&bs[s][kk][tc * 4];
      float ar[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float br[4] = {b0.x, b0.y, b0.z, b0.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += ar[i] * br[j];
    }
    s ^= 1;  // the next slice goes to the other stage: no second barrier needed
  }

  float *cb = c + (long)(blockIdx.y * 128 + tr * 8) * n + blockIdx.x * 64 + tc * 4;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    *(float4 *)&cb[(long)i * n] = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
}
