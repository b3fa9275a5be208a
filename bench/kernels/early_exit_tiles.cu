// Constant maximum trip counts (bench corpus): 8x8 register tiles of triangular matrix products
// whose loops over the tile have a constant maximum trip count (8) but leave early at the
// diagonal (`if (c0 + j > r0 + i) break;`), so a full unroll must keep the exits as branches
// while the accumulator tile float v[8][8] stays indexed by constants. Tiles off the diagonal
// never take the exit; diagonal tiles take it on every row. Thread (tc, tr) owns the tile at
// rows 8 tr, columns 8 tc.
#include "nvopt_cuda.h"

// Lower triangle of C (n x n, n = 8 nt, row-major) = alpha A A^T + beta C, A n x k row-major
// (a SYRK): tiles above the diagonal return at once.
extern "C" __global__ void syrk_lower_tile8x8(const float *__restrict__ A, float *__restrict__ C, int nt,
                                              int k, float alpha, float beta) {
  int tc = blockIdx.x * blockDim.x + threadIdx.x, tr = blockIdx.y * blockDim.y + threadIdx.y;
  if (tr >= nt || tc > tr) return;
  int n = nt * 8, r0 = tr * 8, c0 = tc * 8;
  float v[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) v[i][j] = 0.0f;
  for (int p = 0; p < k; ++p)
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        if (c0 + j > r0 + i) break;
        v[i][j] += A[(long)(r0 + i) * k + p] * A[(long)(c0 + j) * k + p];
      }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      if (c0 + j > r0 + i) break;
      float *c = C + (long)(r0 + i) * n + c0 + j;
      *c = alpha * v[i][j] + beta * *c;
    }
}

// out (n x m, n = 8 nt, m = 8 mt, row-major) = L B with L (n x n) lower triangular and B
// (n x m) row-major (a TRMM): the k-loop runs over 8-wide blocks up to the diagonal one, whose
// middle loop leaves at the diagonal; the inner j loop is a full 8.
extern "C" __global__ void trmm_lower_tile8x8(const float *__restrict__ L, const float *__restrict__ B,
                                              float *__restrict__ out, int nt, int mt) {
  int tc = blockIdx.x * blockDim.x + threadIdx.x, tr = blockIdx.y * blockDim.y + threadIdx.y;
  if (tr >= nt || tc >= mt) return;
  int n = nt * 8, m = mt * 8, r0 = tr * 8, c0 = tc * 8;
  float v[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) v[i][j] = 0.0f;
  for (int kb = 0; kb <= r0; kb += 8)
    for (int i = 0; i < 8; ++i)
      for (int kk = 0; kk < 8; ++kk) {
        if (kb + kk > r0 + i) break;
        float l = L[(long)(r0 + i) * n + kb + kk];
        for (int j = 0; j < 8; ++j) v[i][j] += l * B[(long)(kb + kk) * m + c0 + j];
      }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) out[(long)(r0 + i) * m + c0 + j] = v[i][j];
}
