// Loops over bfloat16 data converted with inline PTX, as CUDA's cuda_bf16.hpp does for sm_90
// (`__bfloat162float` is `cvt.f32.bf16`, `__float2bfloat16` is `cvt.rn.bf16.f32`), and a
// streaming copy through `ld.global.cs`/`st.global.cs` asm as llm.c's load128cs/store128cs
// (issue 16; src/asm_convergence.rs). clang marks each asm call convergent, which keeps LLVM's
// unroller from runtime-unrolling the loops; nvcc unrolls them 4 times.
#include "nvopt_cuda.h"

__device__ __forceinline__ float bf2f(unsigned short h) {
  float f;
  asm("{ cvt.f32.bf16 %0, %1;}\n" : "=f"(f) : "h"(h));
  return f;
}

__device__ __forceinline__ unsigned short f2bf(float f) {
  unsigned short h;
  asm("{  cvt.rn.bf16.f32 %0, %1;}\n" : "=h"(h) : "f"(f));
  return h;
}

// One thread per row: mean and variance of a bf16 row, then the normalized row (llm.c's
// layernorm_forward_kernel1 shape: three counted loops with a run-time trip count).
extern "C" __global__ void bf16_row_norm(const unsigned short *__restrict__ x, unsigned short *__restrict__ y,
                                         float *__restrict__ stats, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned short *xr = x + (long)r * cols;
  float m = 0.0f;
  for (int i = 0; i < cols; i++) m += bf2f(xr[i]);
  m /= cols;
  float v = 0.0f;
  for (int i = 0; i < cols; i++) { float d = bf2f(xr[i]) - m; v += d * d; }
  float s = rsqrtf(v / cols + 1e-5f);
  unsigned short *yr = y + (long)r * cols;
  for (int i = 0; i < cols; i++) yr[i] = f2bf((bf2f(xr[i]) - m) * s);
  stats[2 * r] = m;
  stats[2 * r + 1] = s;
}

// Block-stride residual add over one row per block (llm.c's residual kernels).
extern "C" __global__ void bf16_residual_rows(const unsigned short *__restrict__ a, const unsigned short *__restrict__ b,
                                              unsigned short *__restrict__ out, int cols) {
  long base = (long)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[base + c] = f2bf(bf2f(a[base + c]) + bf2f(b[base + c]));
}

// Grid-stride streaming scale with cache-streaming loads and stores in asm.
extern "C" __global__ void stream_scale_cs(const float *__restrict__ x, float *__restrict__ y, float s, long n) {
  long stride = (long)blockDim.x * gridDim.x;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    float v;
    asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(v) : "l"(x + i));
    asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(y + i), "f"(v * s));
  }
}
