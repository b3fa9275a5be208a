// Many accesses off one base pointer: a 13-point star stencil on a row-major field and a
// struct-of-arrays update touching 10 fields at constant offsets (bench corpus; the CBE/BASR
// address-mode case of docs/CICC-FACTS.md "Address optimization").
#include "nvopt_cuda.h"

extern "C" __global__ void star13(const float *__restrict__ u, float *__restrict__ v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 3;
  int y = blockIdx.y * blockDim.y + threadIdx.y + 3;
  if (x >= nx - 3 || y >= ny - 3) return;
  const float *c = u + y * nx + x;
  float s = 0.5f * c[0];
  s += 0.1f * (c[-1] + c[1] + c[-nx] + c[nx]);
  s += 0.05f * (c[-2] + c[2] + c[-2 * nx] + c[2 * nx]);
  s += 0.025f * (c[-3] + c[3] + c[-3 * nx] + c[3 * nx]);
  v[y * nx + x] = s;
}

// Ten fields of one particle record, 16 floats wide, updated in place, grid-stride.
extern "C" __global__ void particle_fields(float *__restrict__ rec, int n, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float *p = rec + (long)i * 16;
    float px = p[0], py = p[1], pz = p[2], vx = p[3], vy = p[4], vz = p[5];
    float fx = p[6], fy = p[7], fz = p[8], m = p[9];
    float im = 1.0f / m;
    vx += dt * fx * im; vy += dt * fy * im; vz += dt * fz * im;
    p[0] = px + dt * vx; p[1] = py + dt * vy; p[2] = pz + dt * vz;
    p[3] = vx; p[4] = vy; p[5] = vz;
    p[10] = 0.5f * m * (vx * vx + vy * vy + vz * vz);
    p[11] = p[11] + dt;
  }
}
