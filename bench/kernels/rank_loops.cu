// Block-stride loops over a 3-D thread rank, the shape of llm.c's
// softmax_autoregressive_backward_kernel7/8: `for (j = block.thread_rank(); j <= t; j += 256)`
// twice around a block reduction (cooperative groups' thread_block::thread_rank() is
// (tz * ny + ty) * nx + tx). LLVM's LSR starts each loop's pointer IVs at an offset built from
// that rank in 64 bits; rank_dot_scale4 repeats the pair over 4 rows per block, the way kernel8
// does (bench corpus, issue 16: registers and SASS against nvcc for this shape). Launched with
// 256 threads (bench/gpu.spec): acc[] holds the 8 warp sums, its other entries stay 0.
#include "nvopt_cuda.h"

static __device__ __forceinline__ unsigned rank3() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

static __device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Row t of matrix blockIdx.y: out[j] = scale * a[j] * (b[j] - sum_k a[k] * b[k]), j, k <= t.
static __device__ __forceinline__ void scale_row(float *out, const float *a, const float *b,
                                                 int t, float scale, float *acc) {
  const int block_size = 256;
  unsigned r = rank3();
  float s = 0.0f;
  for (int j = r; j <= t; j += block_size) s += a[j] * b[j];
  s = warp_sum(s);
  if ((r & 31) == 0) acc[r >> 5] = s;
  __syncthreads();
  s = warp_sum(acc[r & 31]);
  for (int j = r; j <= t; j += block_size) out[j] = scale * a[j] * (b[j] - s);
  __syncthreads();
}

extern "C" __global__ void rank_dot_scale(float *out, const float *a, const float *b, int T,
                                           float scale) {
  __shared__ float acc[32];
  unsigned r = rank3();
  if (r < 32) acc[r] = 0.0f;
  __syncthreads();
  int base = blockIdx.y * T * T + blockIdx.x * T;
  scale_row(out + base, a + base, b + base, blockIdx.x, scale, acc);
}

extern "C" __global__ void rank_dot_scale4(float *out, const float *a, const float *b, int T,
                                            float scale) {
  __shared__ float acc[32];
  unsigned r = rank3();
  if (r < 32) acc[r] = 0.0f;
  __syncthreads();
  int t0 = T - 1 - 4 * blockIdx.x;
  for (int k = 0; k < 4; ++k) {
    int t = t0 - k;
    if (t < 0) return;
    int base = blockIdx.y * T * T + t * T;
    scale_row(out + base, a + base, b + base, t, scale, acc);
  }
}
