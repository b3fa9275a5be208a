// corpus_eval test input (validate half of corpus "tiny"): a grid-stride axpy.
#include "nvopt_cuda.h"

extern "C" __global__ void axpy(float a, const float *x, float *y, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
