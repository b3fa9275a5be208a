// Launch-bounded kernels of moderate register pressure (issue 17; bench corpus): the bounds
// cap the register budget at 64 per thread (65536 registers over 256 x 4 or 128 x 8 resident
// threads), near or below what the code takes without them. A non-separable 5x5 filter marching
// down a column with the 5x5 input window and the 25 weights in registers (no shared memory),
// the covariance prediction of a batch of 6-state Kalman filters (P' = F P F^T + Q per thread,
// P and Q packed symmetric), and a batch of 8-parameter Levenberg-Marquardt steps (homography
// refinement: the 36 + 8 sums of the normal equations accumulated over the patch's residuals,
// then an LDL^T solve). launch_bounds.cu's mv8_bounded is the simpler 8-accumulator case.
#include "nvopt_cuda.h"

// out (w x h) = 5x5 filter `wts` (row-major) over `in`, the image padded by 2 on every side
// ((w + 4) x (h + 4), row pitch w + 4). Each thread walks `rows` rows down column x from row
// blockIdx.y * rows, keeping the 5x5 input window and the 25 weights in registers: a new input
// row per output row. blockDim.x <= 256, blockDim.y = 1.
extern "C" __global__ void __launch_bounds__(256, 4)
filter5x5_window(const float *__restrict__ in, const float *__restrict__ wts,
                 float *__restrict__ out, int w, int h, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * rows;
  if (x >= w || y0 >= h) return;
  int pitch = w + 4;
  float k[5][5], win[5][5];
#pragma unroll
  for (int i = 0; i < 5; ++i)
#pragma unroll
    for (int j = 0; j < 5; ++j) k[i][j] = wts[i * 5 + j];
  const float *src = in + (long)y0 * pitch + x;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 5; ++j) win[i + 1][j] = src[(long)i * pitch + j];
  int y1 = y0 + rows < h ? y0 + rows : h;
  for (int y = y0; y < y1; ++y) {
    // Slide the window down one row and read the new bottom row.
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j) win[i][j] = win[i + 1][j];
    const float *row = in + (long)(y + 4) * pitch + x;
#pragma unroll
    for (int j = 0; j < 5; ++j) win[4][j] = row[j];
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 5; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j) s += k[i][j] * win[i][j];
    out[(long)y * w + x] = s;
  }
}

// Index of (i, j), i <= j, in a packed upper-triangular n x n matrix (row by row).
#define PK(n, i, j) ((i) * (n) - (i) * ((i) - 1) / 2 + (j) - (i))

// For each of n tracks (one per thread): x' = F x and P' = F P F^T + Q, with F the track's
// 6x6 transition (row-major, 36 floats), x its state (6), P and Q packed upper-triangular
// (21 floats each). P' is written in place. blockDim.x <= 128.
extern "C" __global__ void __launch_bounds__(128, 8)
kalman_predict6(const float *__restrict__ F, float *__restrict__ x, float *__restrict__ P,
                const float *__restrict__ Q, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const float *f = F + (long)t * 36;
  float *xs = x + (long)t * 6;
  float *p = P + (long)t * 21;
  const float *q = Q + (long)t * 21;
  float fm[6][6], pm[6][6], xv[6];
#pragma unroll
  for (int i = 0; i < 6; ++i) {
    xv[i] = xs[i];
#pragma unroll
    for (int j = 0; j < 6; ++j) fm[i][j] = f[i * 6 + j];
#pragma unroll
    for (int j = i; j < 6; ++j) pm[i][j] = pm[j][i] = p[PK(6, i, j)];
  }
#pragma unroll
  for (int i = 0; i < 6; ++i) {
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 6; ++j) s += fm[i][j] * xv[j];
    xs[i] = s;
  }
  // fp = F P, then P' = fp F^T + Q (upper triangle only: P' is symmetric).
  float fp[6][6];
#pragma unroll
  for (int i = 0; i < 6; ++i)
#pragma unroll
    for (int j = 0; j < 6; ++j) {
      float s = 0.0f;
#pragma unroll
      for (int k = 0; k < 6; ++k) s += fm[i][k] * pm[k][j];
      fp[i][j] = s;
    }
#pragma unroll
  for (int i = 0; i < 6; ++i)
#pragma unroll
    for (int j = i; j < 6; ++j) {
      float s = q[PK(6, i, j)];
#pragma unroll
      for (int k = 0; k < 6; ++k) s += fp[i][k] * fm[j][k];
      p[PK(6, i, j)] = s;
    }
}

// One Levenberg-Marquardt step per patch (8 homography parameters): accumulate the
// Gauss-Newton matrix H = J^T J (packed upper-triangular, 36 sums) and gradient g = J^T e over
// the patch's m residuals (row r of J: jac[(t * m + r) * 8 ..], residual res[t * m + r]), then
// solve (H + lambda * diag(H)) dx = -g by an LDL^T factorization. A pivot that is not positive
// marks the step as failed (dx = 0, ok = 0). blockDim.x <= 256.
extern "C" __global__ void __launch_bounds__(256, 4)
lm_step8(const float *__restrict__ jac, const float *__restrict__ res, float *__restrict__ dx,
         int *__restrict__ ok, float lambda, int m, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float hs[36], gs[8];
#pragma unroll
  for (int i = 0; i < 36; ++i) hs[i] = 0.0f;
#pragma unroll
  for (int i = 0; i < 8; ++i) gs[i] = 0.0f;
  const float *jr = jac + (long)t * m * 8;
  const float *er = res + (long)t * m;
  for (int r = 0; r < m; ++r) {
    float j[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) j[i] = jr[(long)r * 8 + i];
    float e = er[r];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      gs[i] += j[i] * e;
#pragma unroll
      for (int c = i; c < 8; ++c) hs[PK(8, i, c)] += j[i] * j[c];
    }
  }
  float a[8][8], b[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
#pragma unroll
    for (int c = i; c < 8; ++c) a[i][c] = hs[PK(8, i, c)];
    a[i][i] += lambda * a[i][i];
    b[i] = -gs[i];
  }
  // LDL^T: l[i][c] (i > c) = L_ic, d[c] = D_cc.
  float l[8][8], d[8];
  bool good = true;
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    float dc = a[c][c];
#pragma unroll
    for (int k = 0; k < c; ++k) dc -= l[c][k] * l[c][k] * d[k];
    good = good && dc > 0.0f;
    d[c] = dc;
    float inv = 1.0f / dc;
#pragma unroll
    for (int i = c + 1; i < 8; ++i) {
      float s = a[c][i];
#pragma unroll
      for (int k = 0; k < c; ++k) s -= l[i][k] * l[c][k] * d[k];
      l[i][c] = s * inv;
    }
  }
  // L y = b, D z = y, L^T x = z.
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int k = 0; k < i; ++k) b[i] -= l[i][k] * b[k];
#pragma unroll
  for (int i = 0; i < 8; ++i) b[i] /= d[i];
#pragma unroll
  for (int i = 7; i >= 0; --i)
#pragma unroll
    for (int k = i + 1; k < 8; ++k) b[i] -= l[k][i] * b[k];
#pragma unroll
  for (int i = 0; i < 8; ++i) dx[(long)t * 8 + i] = good ? b[i] : 0.0f;
  ok[t] = good;
}
