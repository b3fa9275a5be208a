// Deep loop nests: a direct convolution layer (4 levels: in-channel, ky, kx inside a per-thread
// out-channel loop) and a 3-level batched tensor contraction (bench corpus).
#include "nvopt_cuda.h"

// out[oc][y][x] = sum_ic sum_ky sum_kx w[oc][ic][ky][kx] * in[ic][y+ky][x+kx]; valid padding.
extern "C" __global__ void conv_layer(const float *__restrict__ in, const float *__restrict__ w,
                                      float *__restrict__ out, int ic_n, int oc_n, int h, int wd, int ks) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int oh = h - ks + 1, ow = wd - ks + 1;
  if (x >= ow || y >= oh) return;
  for (int oc = blockIdx.z; oc < oc_n; oc += gridDim.z) {
    float s = 0.0f;
    for (int ic = 0; ic < ic_n; ++ic)
      for (int ky = 0; ky < ks; ++ky)
        for (int kx = 0; kx < ks; ++kx)
          s += w[((oc * ic_n + ic) * ks + ky) * ks + kx] * in[(ic * h + y + ky) * wd + x + kx];
    out[(oc * oh + y) * ow + x] = s;
  }
}

// c[b][i][j] = sum_p a[b][i][p] * bm[b][p][j], thread per (i, j), looping over batches.
extern "C" __global__ void batched_contract(const float *__restrict__ a, const float *__restrict__ bm,
                                            float *__restrict__ c, int batches, int m, int n, int k) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m || j >= n) return;
  for (int b = 0; b < batches; ++b) {
    const float *ab = a + (long)b * m * k, *bb = bm + (long)b * k * n;
    float s = 0.0f;
    for (int p = 0; p < k; ++p) s += ab[i * k + p] * bb[p * n + j];
    c[((long)b * m + i) * n + j] = s;
  }
}
