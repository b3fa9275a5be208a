// 2D stencils on a row-major grid: 5-point Jacobi step and a 9-point smoothing (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void jacobi5(const float *__restrict__ u, float *__restrict__ v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx]);
}

extern "C" __global__ void smooth9(const float *__restrict__ u, float *__restrict__ v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  float s = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      s += (dx == 0 && dy == 0 ? 4.0f : (dx == 0 || dy == 0 ? 2.0f : 1.0f)) * u[(y + dy) * nx + x + dx];
  v[y * nx + x] = s * (1.0f / 16.0f);
}
