// Loops of a constant 32 trips over a constant table, the shape of curand's Sobol direction
// vectors (cuda-samples' initRNG<curandStateSobol32>, issue 16): LLVM's first loop-unroll finds
// the full unroll too big and unrolls them 4 times; the second, full-unroll-only slot of cicc's
// O2/O3 table then sees 8 trips, small enough for the analysis that folds the table loads, and
// unrolls the rest, as nvcc does. That costs registers (table_mix32 14 -> 24, dirvec32 24 -> 32;
// nvcc 31 and 32) and pays in time: on an H200, keeping the second slot off these loops made
// table_mix32 1.9 times slower (git show 7a2261e, issue 16). Written for the shape:
// - dirvec32: each thread runs a 32-step shift/xor recurrence through the table and stores
//   every step (32 strided stores);
// - table_mix32: the same recurrence repeated `reps` times, accumulated, one store per thread
//   (compute-bound, for kernel time).
#include "nvopt_cuda.h"

static __device__ const unsigned kTable[32] = {
    1,  3,  5,  7,  11, 13, 17, 19, 23, 29, 31, 37,  41,  43,  47,  53,
    59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131};

extern "C" __global__ void dirvec32(unsigned *out, unsigned x, int stride) {
  unsigned *o = out + (blockIdx.x * blockDim.x + threadIdx.x);
  unsigned s = x + threadIdx.x;
  for (int i = 0; i < 32; ++i) {
    s = (s << 1) ^ (s >> 3) ^ kTable[i];
    o[i * stride] = s * kTable[31 - i];
  }
}

extern "C" __global__ void table_mix32(unsigned *out, unsigned x, int reps) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = x ^ t, acc = 0;
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < 32; ++i) {
      s = (s << 1) ^ (s >> 3) ^ kTable[i];
      acc += s * kTable[31 - i];
    }
  out[t] = acc;
}
