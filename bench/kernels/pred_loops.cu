// Loops whose body tests more loop-invariant conditions than SASS has predicate registers
// (seven): LICM hoists each compare out of the loop and the results live across it (bench
// corpus, issue 16: llm.c's softmax_autoregressive_backward_kernel4 tests `t < t3 + k` for eight
// k inside its inner loop). Written for that shape, not copied from it:
// - band_rows8: each thread owns 8 consecutive rows r0..r0+7 of a banded matrix and, for each
//   column c, loads row k's weight w[c][k] and adds a[c][j] * w[c][k] to row k's sum, both
//   only when the row reaches that column (c >= r0 + k): the tests depend on the outer
//   column, so they are computed in the outer loop and read in the inner one as well.
// - band_rows8_indicator: band_rows8 with kernel4's indicator term, x * (w - (j == r0 + k)):
//   the r0 + k values are then live in the inner loop anyway (nv-pred-remat's case: 64
//   registers without it, 46 with it; nvcc 44).
// - tail_masks10: a strided loop over x with 10 tail conditions `i0 + 64k < n`, one per
//   output, all invariant in the loop.
// Both use no shared memory, barriers or shuffles (nvopt_tools/difftest.py runs them on the host).
#include "nvopt_cuda.h"

// Row k's weight minus, with Indicator, 1 where column j is the row's own (j == r0 + k).
template <bool Indicator>
static __device__ __forceinline__ void band_rows8_body(float *out, const float *a,
                                                       const float *w, int cols, int width) {
  int r0 = 8 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (r0 >= cols) return;
  float acc[8] = {};
  for (int c = r0; c < cols; ++c) {
    const float *row = a + c * width;
    float wk[8];
    for (int k = 0; k < 8; ++k)
      if (c >= r0 + k) wk[k] = w[c * 8 + k];
    for (int j = 0; j < width; ++j) {
      float x = row[j];
      for (int k = 0; k < 8; ++k)
        if (c >= r0 + k) acc[k] += x * (Indicator ? wk[k] - (j == r0 + k ? 1.0f : 0.0f) : wk[k]);
    }
  }
  for (int k = 0; k < 8; ++k)
    if (r0 + k < cols) out[r0 + k] = acc[k];
}

extern "C" __global__ void band_rows8(float *out, const float *a, const float *w, int cols,
                                      int width) {
  band_rows8_body<false>(out, a, w, cols, width);
}

extern "C" __global__ void band_rows8_indicator(float *out, const float *a, const float *w,
                                                int cols, int width) {
  band_rows8_body<true>(out, a, w, cols, width);
}

extern "C" __global__ void tail_masks10(float *out, const float *x, int n, int m) {
  int i0 = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[10] = {};
  for (int j = 0; j < m; ++j) {
    float v = x[j * 64 + (i0 & 63)];
    for (int k = 0; k < 10; ++k)
      if (i0 + 64 * k < n) acc[k] += v * (float)(k + 1);
  }
  for (int k = 0; k < 10; ++k) out[i0 * 10 + k] = acc[k];
}
