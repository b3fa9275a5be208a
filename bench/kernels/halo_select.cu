// Stencils whose neighbour comes from shared memory inside the tile and from global memory at the
// tile's edge: `v = edge ? g[...] : tile[...]` (the shape of Parboil's coarsened 3D stencil).
// Written as two loads in the arms of a branch; LLVM's instcombine folds such loads into one
// load through a PHI of the two pointers, and a shared and a global pointer then meet in a
// generic pointer: a generic load where nvcc keeps ld.shared and ld.global (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void halo_row(const float *__restrict__ in, float *__restrict__ out, int n,
                                    float c0, float c1) {
  extern __shared__ float tile[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < 1 || i >= n - 1) return;
  float left = t == 0 ? in[i - 1] : tile[t - 1];
  float right = t == blockDim.x - 1 ? in[i + 1] : tile[t + 1];
  out[i] = c1 * (left + right) - c0 * tile[t];
}

// The 2D form over the z planes of a 3D grid: up and down neighbours from the tile except on
// the tile's first and last rows, the plane below and above carried in registers.
extern "C" __global__ void halo_planes(const float *__restrict__ a, float *__restrict__ b, int nx,
                                       int ny, int nz, float c0, float c1) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.x * blockDim.x + tx;
  int j = blockIdx.y * blockDim.y + ty;
  int s = ty * blockDim.x + tx;
  bool inside = i > 0 && j > 0 && i < nx - 1 && j < ny - 1;
  float below = 0.0f, here = 0.0f;
  if (i < nx && j < ny) {
    below = a[j * nx + i];
    here = a[(nx * ny) + j * nx + i];
  }
  tile[s] = here;
  __syncthreads();
  for (int k = 1; k < nz - 1; ++k) {
    float above = (i < nx && j < ny) ? a[(k + 1) * nx * ny + j * nx + i] : 0.0f;
    if (inside) {
      float up = ty == blockDim.y - 1 ? a[k * nx * ny + (j + 1) * nx + i] : tile[s + blockDim.x];
      float down = ty == 0 ? a[k * nx * ny + (j - 1) * nx + i] : tile[s - blockDim.x];
      float left = tx == 0 ? a[k * nx * ny + j * nx + i - 1] : tile[s - 1];
      float right = tx == blockDim.x - 1 ? a[k * nx * ny + j * nx + i + 1] : tile[s + 1];
      b[k * nx * ny + j * nx + i] = c1 * (below + above + up + down + left + right) - c0 * tile[s];
    }
    __syncthreads();
    below = tile[s];
    tile[s] = above;
    __syncthreads();
  }
}
