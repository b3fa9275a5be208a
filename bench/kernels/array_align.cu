// Statically sized shared and private arrays whose accesses become vector ld/st only when the
// array is aligned to 16 bytes (issue 16, item 6): a __shared__ float tile read back as float4,
// a 32x32 __shared__ tile read four consecutive floats at a time, a private float[8] window
// copied in and indexed by data, and a private int[16] histogram zeroed and written out. clang
// gives each array its element's alignment (4), which keeps every access scalar (bench corpus).
#include "nvopt_cuda.h"

// Each block stages 1024 floats in shared memory (coalesced), then each thread reads its 4
// consecutive values as one float4 and writes their weighted sum.
extern "C" __global__ void shared_tile_float4(const float *__restrict__ in, float *__restrict__ out,
                                              int n4) {
  __shared__ float tile[1024];
  int t = threadIdx.x, base = blockIdx.x * 1024;
  for (int k = t; k < 1024; k += blockDim.x)
    tile[k] = base + k < 4 * n4 ? in[base + k] : 0.0f;
  __syncthreads();
  for (int q = t; q < 256; q += blockDim.x) {
    float4 v = reinterpret_cast<const float4 *>(tile)[q];
    if (blockIdx.x * 256 + q < n4) out[blockIdx.x * 256 + q] = v.x + 2.0f * v.y + 3.0f * v.z + 4.0f * v.w;
  }
}

// A 32x32 tile of a row-major matrix in shared memory; thread (tx, ty) of an 8x32 block then
// sums the four consecutive floats tile[ty][4tx .. 4tx+3] of its row (a 4-wide row reduction).
extern "C" __global__ void shared_rows4(const float *__restrict__ a, float *__restrict__ out, int cols) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col0 = blockIdx.x * 32;
  for (int c = tx; c < 32; c += 8) tile[ty][c] = a[(long)row * cols + col0 + c];
  __syncthreads();
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k) s += tile[ty][4 * tx + k];
  out[(long)row * (cols / 4) + blockIdx.x * 8 + tx] = s;
}

// A private window of 8 floats, loaded from the input and then read at data-dependent
// positions: it stays in local memory, where the copy in is 8 scalar stores or 2 v4 stores.
extern "C" __global__ void private_window8(const float *__restrict__ in, const int *__restrict__ idx,
                                           float *__restrict__ out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float w[8];
  for (int k = 0; k < 8; ++k) w[k] = in[(long)i * 8 + k];
  float s = 0.0f;
  for (int j = 0; j < m; ++j) s += w[idx[j] & 7];
  out[i] = s;
}

// A per-thread 16-bin histogram of the low nibbles of 32 input words: zeroed, updated at
// data-dependent bins, then written out (the zeroing and the copy out are vector stores and
// loads of local memory once the array is 16-byte aligned).
extern "C" __global__ void private_hist16(const unsigned *__restrict__ in, int *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int h[16];
  for (int b = 0; b < 16; ++b) h[b] = 0;
  for (int k = 0; k < 32; ++k) h[in[(long)i * 32 + k] & 15] += 1;
  for (int b = 0; b < 16; ++b) out[(long)i * 16 + b] = h[b];
}

// Per-row accumulators zeroed for each row, summed over a strided loop, then read back at the
// lane's own position: the dynamic index keeps the array an alloca until ptxas, which moves it
// to registers only when every access has the element's width. The zeroing is a memset of the
// whole array (the shape of llm.c's softmax_autoregressive_backward_kernel4).
extern "C" __global__ void private_acc8_lane(const float *__restrict__ in, float *__restrict__ out,
                                             int rows, int cols) {
  int lane = threadIdx.x & 31;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float acc[8] = {};
    for (int c = lane; c < cols; c += 32) {
      float v = in[(long)r * cols + c];
#pragma unroll
      for (int k = 0; k < 8; ++k) acc[k] += v * (float)(k + 1);
    }
    if (lane < 8) out[(long)r * 8 + lane] = acc[lane];
  }
}
