// Private arrays past the register file (bench corpus): a batch of Kalman filters, one per
// thread, each running one predict/update cycle with its matrices in private `double` arrays:
//   x = F x,  P = F P F^T + Q,  S = H P H^T + R (2x2),  K = P H^T S^-1,
//   x = x + K (z - H x),  P = (I - K H) P.
// F, Q (N x N), H (2 x N) and R (2 x 2) are shared by the batch but copied into private arrays
// as the per-filter code does; P (N x N), x (N) and z (2) are per filter. Every loop over i, j, k
// has a constant trip count and is left to the compiler (no #pragma unroll). One templated
// __device__ function, two entries: N = 4 (F, Q, P, the N x N temporary and the gains, about
// 90 doubles) sits near the register file; N = 8 (four 8x8 matrices plus the gains, over 300
// doubles, 600+ 32-bit registers) is far past 255 registers, so whatever a compiler unrolls
// into scalars must spill, and whatever it keeps as arrays lives in local memory.
#include "nvopt_cuda.h"

template <int N>
__device__ void kalman_cycle(const double *__restrict__ Fg, const double *__restrict__ Qg,
                             const double *__restrict__ Hg, const double *__restrict__ Rg,
                             const double *__restrict__ zg, double *__restrict__ xg,
                             double *__restrict__ Pg, int t) {
  const int M = 2;
  double F[N][N], Q[N][N], P[N][N], T[N][N];
  double H[M][N], PHt[N][M], K[N][M], x[N], xp[N];
  double *Pt = Pg + (long)t * N * N;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      F[i][j] = Fg[i * N + j];
      Q[i][j] = Qg[i * N + j];
      P[i][j] = Pt[i * N + j];
    }
  for (int m = 0; m < M; ++m)
    for (int j = 0; j < N; ++j) H[m][j] = Hg[m * N + j];
  for (int i = 0; i < N; ++i) x[i] = xg[(long)t * N + i];

  // Predict: xp = F x, T = F P, P = T F^T + Q.
  for (int i = 0; i < N; ++i) {
    double s = 0.0;
    for (int k = 0; k < N; ++k) s += F[i][k] * x[k];
    xp[i] = s;
  }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0.0;
      for (int k = 0; k < N; ++k) s += F[i][k] * P[k][j];
      T[i][j] = s;
    }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = Q[i][j];
      for (int k = 0; k < N; ++k) s += T[i][k] * F[j][k];
      P[i][j] = s;
    }

  // Innovation covariance S = H P H^T + R and its inverse (M = 2: closed form).
  for (int i = 0; i < N; ++i)
    for (int m = 0; m < M; ++m) {
      double s = 0.0;
      for (int k = 0; k < N; ++k) s += P[i][k] * H[m][k];
      PHt[i][m] = s;
    }
  double S[M][M];
  for (int a = 0; a < M; ++a)
    for (int b = 0; b < M; ++b) {
      double s = Rg[a * M + b];
      for (int k = 0; k < N; ++k) s += H[a][k] * PHt[k][b];
      S[a][b] = s;
    }
  double rdet = 1.0 / (S[0][0] * S[1][1] - S[0][1] * S[1][0]);
  double Si[M][M] = {{S[1][1] * rdet, -S[0][1] * rdet}, {-S[1][0] * rdet, S[0][0] * rdet}};

  // Gain K = P H^T S^-1, state update.
  for (int i = 0; i < N; ++i)
    for (int m = 0; m < M; ++m) {
      double s = 0.0;
      for (int b = 0; b < M; ++b) s += PHt[i][b] * Si[b][m];
      K[i][m] = s;
    }
  double y[M];
  for (int m = 0; m < M; ++m) {
    double s = zg[(long)t * M + m];
    for (int k = 0; k < N; ++k) s -= H[m][k] * xp[k];
    y[m] = s;
  }
  for (int i = 0; i < N; ++i) {
    double s = xp[i];
    for (int m = 0; m < M; ++m) s += K[i][m] * y[m];
    x[i] = s;
  }

  // Covariance update P = (I - K H) P, written straight out.
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = i == j ? 1.0 : 0.0;
      for (int m = 0; m < M; ++m) s -= K[i][m] * H[m][j];
      T[i][j] = s;
    }
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0.0;
      for (int k = 0; k < N; ++k) s += T[i][k] * P[k][j];
      Pt[i * N + j] = s;
    }
  for (int i = 0; i < N; ++i) xg[(long)t * N + i] = x[i];
}

// Filter t < n: x[t*N .. +N), P[t*N*N .. +N*N) updated in place, z[t*2 .. +2) read; F, Q: N*N,
// H: 2*N, R: 4 doubles.
extern "C" __global__ void kalman_cycle8(const double *__restrict__ F, const double *__restrict__ Q,
                                         const double *__restrict__ H, const double *__restrict__ R,
                                         const double *__restrict__ z, double *__restrict__ x,
                                         double *__restrict__ P, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) kalman_cycle<8>(F, Q, H, R, z, x, P, t);
}

extern "C" __global__ void kalman_cycle4(const double *__restrict__ F, const double *__restrict__ Q,
                                         const double *__restrict__ H, const double *__restrict__ R,
                                         const double *__restrict__ z, double *__restrict__ x,
                                         double *__restrict__ P, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) kalman_cycle<4>(F, Q, H, R, z, x, P, t);
}
