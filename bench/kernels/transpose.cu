// Matrix transpose: naive (uncoalesced writes) and 32x8 shared-memory tiles with padding
// (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out,
                                           int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

#define TILE 32
#define ROWS 8
extern "C" __global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out,
                                           int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
