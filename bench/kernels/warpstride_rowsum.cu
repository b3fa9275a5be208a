// Warp-stride loop: one warp per matrix row, lanes walk the columns 32 apart, then a shuffle
// reduction (bench corpus, docs/ARCHITECTURE.md "Measuring").
#include "nvopt_cuda.h"

extern "C" __global__ void rowsum_warpstride(const float *__restrict__ m, float *__restrict__ out,
                                             int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const float *row = m + (long)warp * cols;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += row[c] * row[c];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) out[warp] = sqrtf(s);
}
