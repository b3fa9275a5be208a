// 3D 7-point stencil marching along z with the z-neighbours kept in registers (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void stencil3d_march(const float *__restrict__ in, float *__restrict__ out,
                                           int nx, int ny, int nz, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  long plane = (long)nx * ny;
  long i = (long)y * nx + x;
  float below = in[i], cur = in[i + plane];
  for (int z = 1; z < nz - 1; ++z) {
    long c = i + z * plane;
    float above = in[c + plane];
    out[c] = c0 * cur + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + below + above);
    below = cur;
    cur = above;
  }
}
