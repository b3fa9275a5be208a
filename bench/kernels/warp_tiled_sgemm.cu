// Warp-tiled SGEMM with a shared-memory double buffer (bench corpus, "brittle loop nests"):
// C = alpha A B + beta C, A (M x K), B (K x N), C (M x N) row-major, M % 128 == 0,
// N % 256 == 0, K % 8 == 0. A thread block computes a 128 x 256 tile of C over 8-deep slices of
// K; its warps tile the block tile (a warp's sub-tile is WM x WN), and each lane of a warp holds
// a (WM / 4) x 8 accumulator tile fed by register fragments read from shared memory: a lane's
// rows are 4-row groups 16 apart, its columns two 4-column groups 32 apart (lane = 8 r + c owns
// rows 16 g + 4 r + {0..3} and columns 32 h + 4 c + {0..3} of the warp tile). The k-loop keeps
// two shared buffers: while the block multiplies the slice in one, each thread has already
// loaded its share of the next slice into registers (the prefetch) and writes it into the
// other after the multiply; one barrier per slice. Two shapes of the same template:
// - sgemm_wt128x256_w32x64: 16 warps (512 threads) of 32 x 64, 8 x 8 = 64 accumulators per lane;
// - sgemm_wt128x256_w64x64: 8 warps (256 threads) of 64 x 64, 16 x 8 = 128 accumulators per lane
//   (with the fragments and the prefetch, near the 255-register limit).
// Uses __syncthreads and shared memory, so difftest cannot run it (not in bench.spec).
#include "nvopt_cuda.h"

template <int WM, int WN, int THREADS>
__device__ __forceinline__ void sgemm_warp_tiled(const float *__restrict__ A, const float *__restrict__ B,
                                                 float *__restrict__ C, int M, int N, int K, float alpha,
                                                 float beta) {
  const int BM = 128, BN = 256, BK = 8;
  const int TM = WM / 4, TN = WN / 8;              // lanes form 4 rows x 8 columns
  const int WARPS_N = BN / WN;
  const int A_PER = BM * BK / THREADS, B_PER = BK * BN / THREADS;
  __shared__ float As[2][BK][BM];  // A slice, transposed: As[buf][k][m]
  __shared__ float Bs[2][BK][BN];

  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int wr = warp / WARPS_N, wc = warp % WARPS_N;
  int lr = lane / 8, lc = lane % 8;
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  float pa[A_PER], pb[B_PER];
  // This thread's share of a slice: A element e = tid + l THREADS is (row e / BK, col e % BK),
  // B element e is (row e / BN, col e % BN).
#pragma unroll
  for (int l = 0; l < A_PER; ++l) {
    int e = tid + l * THREADS;
    pa[l] = A[(long)(bm + e / BK) * K + e % BK];
  }
#pragma unroll
  for (int l = 0; l < B_PER; ++l) {
    int e = tid + l * THREADS;
    pb[l] = B[(long)(e / BN) * N + bn + e % BN];
  }
#pragma unroll
  for (int l = 0; l < A_PER; ++l) {
    int e = tid + l * THREADS;
    As[0][e % BK][e / BK] = pa[l];
  }
#pragma unroll
  for (int l = 0; l < B_PER; ++l) {
    int e = tid + l * THREADS;
    Bs[0][e / BN][e % BN] = pb[l];
  }
  __syncthreads();

  int cur = 0;
  for (int k0 = 0; k0 < K; k0 += BK) {
    bool more = k0 + BK < K;
    if (more) {  // prefetch the next slice into registers
#pragma unroll
      for (int l = 0; l < A_PER; ++l) {
        int e = tid + l * THREADS;
        pa[l] = A[(long)(bm + e / BK) * K + k0 + BK + e % BK];
      }
#pragma unroll
      for (int l = 0; l < B_PER; ++l) {
        int e = tid + l * THREADS;
        pb[l] = B[(long)(k0 + BK + e / BN) * N + bn + e % BN];
      }
    }
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float fa[TM], fb[TN];
#pragma unroll
      for (int g = 0; g < TM / 4; ++g)
#pragma unroll
        for (int i = 0; i < 4; ++i) fa[4 * g + i] = As[cur][kk][wr * WM + 16 * g + 4 * lr + i];
#pragma unroll
      for (int h = 0; h < TN / 4; ++h)
#pragma unroll
        for (int j = 0; j < 4; ++j) fb[4 * h + j] = Bs[cur][kk][wc * WN + 32 * h + 4 * lc + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += fa[i] * fb[j];
    }
    if (more) {  // the other buffer was last read before the previous barrier
#pragma unroll
      for (int l = 0; l < A_PER; ++l) {
        int e = tid + l * THREADS;
        As[cur ^ 1][e % BK][e / BK] = pa[l];
      }
#pragma unroll
      for (int l = 0; l < B_PER; ++l) {
        int e = tid + l * THREADS;
        Bs[cur ^ 1][e / BN][e % BN] = pb[l];
      }
    }
    __syncthreads();
    cur ^= 1;
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = bm + wr * WM + 16 * (i / 4) + 4 * lr + i % 4;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = bn + wc * WN + 32 * (j / 4) + 4 * lc + j % 4;
      float *c = C + (long)row * N + col;
      *c = alpha * acc[i][j] + beta * *c;
    }
  }
}

extern "C" __global__ void __launch_bounds__(512)
sgemm_wt128x256_w32x64(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                       int N, int K, float alpha, float beta) {
  sgemm_warp_tiled<32, 64, 512>(A, B, C, M, N, K, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(256)
sgemm_wt128x256_w64x64(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                       int N, int K, float alpha, float beta) {
  sgemm_warp_tiled<64, 64, 256>(A, B, C, M, N, K, alpha, beta);
}
