// Grid-stride accumulation, warp-shuffle reduction, one shared slot per warp, then one
// atomicAdd per block (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void reduce_shuffle(const float *__restrict__ in, float *__restrict__ total, int n) {
  __shared__ float warps[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warps[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? warps[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) atomicAdd(total, v);
  }
}
