// Grid-stride loops: saxpy and a three-stream triad, latency-bound and as a large stream (bench
// corpus, docs/ARCHITECTURE.md "Measuring").
#include "nvopt_cuda.h"

extern "C" __global__ void saxpy_gridstride(int n, float a, const float *__restrict__ x,
                                            float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void triad_gridstride(long n, float s, const float *__restrict__ b,
                                            const float *__restrict__ c, float *__restrict__ a) {
  long stride = (long)blockDim.x * gridDim.x;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    a[i] = b[i] + s * c[i];
}

// The triad as a large stream (GPU mode launches it over millions of elements with a grid of
// one or two waves, bench/gpu.spec): the grid-stride loop's typical use, where each thread runs
// a few trips and memory bandwidth, not latency, bounds the time.
extern "C" __global__ void triad_stream(long n, float s, const float *__restrict__ b,
                                        const float *__restrict__ c, float *__restrict__ a) {
  long stride = (long)blockDim.x * gridDim.x;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    a[i] = b[i] + s * c[i];
}
