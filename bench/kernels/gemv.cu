// Dense matrix-vector products: y = A x with a thread per row (strided rows), and y = A^T x
// with a thread per column (coalesced) (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void gemv_rows(const float *__restrict__ a, const float *__restrict__ x,
                                     float *__restrict__ y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += a[(long)r * cols + c] * x[c];
  y[r] = s;
}

extern "C" __global__ void gemv_t_cols(const float *__restrict__ a, const float *__restrict__ x,
                                       float *__restrict__ y, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) s += a[(long)r * cols + c] * x[r];
  y[c] = s;
}
