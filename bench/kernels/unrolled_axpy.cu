// Manually unrolled-by-4 grid-stride loop with a scalar remainder, and a strided gather with
// an index array (bench corpus: loop shapes LSR and address folding see in practice).
#include "nvopt_cuda.h"

extern "C" __global__ void axpy_unroll4(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int stride = blockDim.x * gridDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    y[i] += a * x[i];
    y[i + stride] += a * x[i + stride];
    y[i + 2 * stride] += a * x[i + 2 * stride];
    y[i + 3 * stride] += a * x[i + 3 * stride];
  }
  for (; i < n; i += stride) y[i] += a * x[i];
}

extern "C" __global__ void gather_scale(const int *__restrict__ idx, const float *__restrict__ src,
                                        float *__restrict__ dst, int n, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    dst[i] = s * __ldg(&src[idx[i]]);
}
