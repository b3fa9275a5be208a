// Sparse matrix-vector product, CSR: scalar (thread per row) and vector (warp per row)
// (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void spmv_csr_scalar(int rows, const int *__restrict__ rowptr,
                                           const int *__restrict__ colidx, const float *__restrict__ val,
                                           const float *__restrict__ x, float *__restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int j = rowptr[r]; j < rowptr[r + 1]; ++j) s += val[j] * __ldg(&x[colidx[j]]);
  y[r] = s;
}

extern "C" __global__ void spmv_csr_vector(int rows, const int *__restrict__ rowptr,
                                           const int *__restrict__ colidx, const float *__restrict__ val,
                                           const float *__restrict__ x, float *__restrict__ y) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (r >= rows) return;
  float s = 0.0f;
  for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += 32) s += val[j] * __ldg(&x[colidx[j]]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[r] = s;
}
