// Address-pass inputs (plugin-tests/addr): a 3-D stencil marching along z, whose rows share one
// base pitch apart (BASR), and a 1-D stencil with six accesses off one base (CBE).
#include "nvopt_cuda.h"

extern "C" __global__ void march(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (x >= nx - 1 || y >= ny - 1) return;
  long plane = (long)nx * ny;
  for (int z = 1; z < nz - 1; ++z) {
    long c = (long)z * plane + (long)y * nx + x;
    out[c] = in[c] + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - plane] + in[c + plane];
  }
}

extern "C" __global__ void six(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 3 || i >= n - 3) return;
  out[i] = in[i - 3] + in[i - 2] + in[i - 1] + in[i + 1] + in[i + 2] + in[i + 3];
}
