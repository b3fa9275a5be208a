// corpus_eval test input (validate half of corpus "tiny"): linear_relu_tile8x8 of
// bench/kernels/register_tile.cu, whose 8x8 accumulator tile lives in registers only when
// nv-local-array-unroll fully unrolls its loops (a 256-byte frame without it).
#include "nvopt_cuda.h"

#define TILE 128  // output tile of one block (rows and columns)
#define KS 32     // slice of the reduction dimension staged in shared memory per step
#define R 8       // per-thread tile edge

// out[row][col] = relu(sum_k x[row][k] * w[col][k] + bias[col]); blockDim = (16, 16);
// rows and cols multiples of 128, k a multiple of 32.
extern "C" __global__ void __launch_bounds__(256)
linear_relu_tile8x8(float *__restrict__ out, const float *__restrict__ x,
                    const float *__restrict__ w, const float *__restrict__ bias, int k, int cols) {
  __shared__ float xs[TILE][KS];
  __shared__ float ws[TILE][KS];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const float *xb = x + (long)blockIdx.x * TILE * k;
  const float *wb = w + (long)blockIdx.y * TILE * k;
  int col0 = blockIdx.y * TILE + R * ty;

  float acc[R][R];
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < R; ++j) acc[i][j] = bias ? bias[col0 + j] : 0.0f;

  for (int k0 = 0; k0 < k; k0 += KS) {
    __syncthreads();
    // 256 threads stage 128 rows x 32 floats of x and w, one float4 each per pass.
    for (int e = tid; e < TILE * KS / 4; e += 256) {
      int r = e / (KS / 4), c = 4 * (e % (KS / 4));
      *(float4 *)&xs[r][c] = *(const float4 *)&xb[(long)r * k + k0 + c];
      *(float4 *)&ws[r][c] = *(const float4 *)&wb[(long)r * k + k0 + c];
    }
    __syncthreads();
    for (int kk = 0; kk < KS; kk += 4) {
      float4 wv[R];
      for (int j = 0; j < R; ++j) wv[j] = *(const float4 *)&ws[R * ty + j][kk];
      for (int i = 0; i < R; ++i) {
        float4 xv = *(const float4 *)&xs[R * tx + i][kk];
        for (int j = 0; j < R; ++j)
          acc[i][j] += xv.x * wv[j].x + xv.y * wv[j].y + xv.z * wv[j].z + xv.w * wv[j].w;
      }
    }
  }

  float *ob = out + (long)(blockIdx.x * TILE + R * tx) * cols + col0;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < R; j += 4) {
      float4 v = make_float4(fmaxf(acc[i][j], 0.0f), fmaxf(acc[i][j + 1], 0.0f),
                             fmaxf(acc[i][j + 2], 0.0f), fmaxf(acc[i][j + 3], 0.0f));
      *(float4 *)&ob[(long)i * cols + j] = v;
    }
}
