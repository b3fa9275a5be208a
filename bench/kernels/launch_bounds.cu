// __launch_bounds__(256, 4): a register-hungry kernel (8 accumulators over a small dense
// mat-vec per thread) whose register budget the bounds cap at 64 (bench corpus).
#include "nvopt_cuda.h"

extern "C" __global__ void __launch_bounds__(256, 4)
mv8_bounded(const float *__restrict__ mats, const float *__restrict__ vecs, float *__restrict__ out,
            int count, int dim) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const float *m = mats + (long)t * 8 * dim;
  const float *v = vecs + (long)t * dim;
  float a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
  for (int j = 0; j < dim; ++j) {
    float x = v[j];
    a0 += m[0 * dim + j] * x; a1 += m[1 * dim + j] * x; a2 += m[2 * dim + j] * x;
    a3 += m[3 * dim + j] * x; a4 += m[4 * dim + j] * x; a5 += m[5 * dim + j] * x;
    a6 += m[6 * dim + j] * x; a7 += m[7 * dim + j] * x;
  }
  float *o = out + (long)t * 8;
  o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3; o[4] = a4; o[5] = a5; o[6] = a6; o[7] = a7;
}
