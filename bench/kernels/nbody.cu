// All-pairs n-body force step with bodies staged through shared-memory tiles (bench corpus).
#include "nvopt_cuda.h"

#define NB_TILE 128
extern "C" __global__ void nbody_step(const float4 *__restrict__ pos, float4 *__restrict__ vel,
                                      int n, float dt, float eps2) {
  __shared__ float4 sh[NB_TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int t = 0; t < n; t += NB_TILE) {
    int j = t + threadIdx.x;
    sh[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
    for (int k = 0; k < NB_TILE; ++k) {
      float4 q = sh[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrtf(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += dt * ax; v.y += dt * ay; v.z += dt * az;
    vel[i] = v;
  }
}
