// Compatibility header: lets one .cu file compile with NVIDIA's nvcc and with clang-22 in CUDA
// device mode without any CUDA SDK (docs/ARCHITECTURE.md "Platform facts": `-nocudainc -nocudalib`,
// define `__global__` etc. yourself). Under nvcc, and under clang with a CUDA installation
// (--cuda-path, whose runtime wrapper clang includes first), the real CUDA headers are already in
// effect and this is a no-op.
#ifndef NVOPT_CUDA_H
#define NVOPT_CUDA_H

// clang itself defines __CUDA_ARCH_LIST__ (900 for sm_90), so only __NVCC__ tells nvcc apart.
#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__) &&                           \
    !defined(__CUDACC_VER_MAJOR__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
#include "__clang_cuda_builtin_vars.h"
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
static __device__ __forceinline__ float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
static __device__ __forceinline__ int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
static __device__ __forceinline__ unsigned atomicAdd(unsigned *p, unsigned v) {
  return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v);
}
static __device__ __forceinline__ float __shfl_down_sync(unsigned m, float v, unsigned d, int w = 32) {
  return __nvvm_shfl_sync_down_f32(m, v, d, ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ int __shfl_down_sync(unsigned m, int v, unsigned d, int w = 32) {
  return __nvvm_shfl_sync_down_i32(m, v, d, ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ float __shfl_sync(unsigned m, float v, int src, int w = 32) {
  return __nvvm_shfl_sync_idx_f32(m, v, src, ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ int __shfl_up_sync(unsigned m, int v, unsigned d, int w = 32) {
  return __nvvm_shfl_sync_up_i32(m, v, d, (32 - w) << 8);
}
static __device__ __forceinline__ float __shfl_xor_sync(unsigned m, float v, int lane, int w = 32) {
  return __nvvm_shfl_sync_bfly_f32(m, v, lane, ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ double __shfl_down_sync(unsigned m, double v, unsigned d, int w = 32) {
  int lo = __shfl_down_sync(m, __nvvm_d2i_lo(v), d, w);
  int hi = __shfl_down_sync(m, __nvvm_d2i_hi(v), d, w);
  return __nvvm_lohi_i2d(lo, hi);
}
static __device__ __forceinline__ unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
static __device__ __forceinline__ unsigned __activemask() { return __nvvm_activemask(); }
static __device__ __forceinline__ int __popc(unsigned x) { return __builtin_popcount(x); }
static __device__ __forceinline__ int __ffs(int x) { return __builtin_ffs(x); }
static __device__ __forceinline__ int __clz(int x) { return __builtin_clz((unsigned)x); }
static __device__ __forceinline__ int __shfl_sync(unsigned m, int v, int src, int w = 32) {
  return __nvvm_shfl_sync_idx_i32(m, v, src, ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
static __device__ __forceinline__ unsigned atomicMax(unsigned *p, unsigned v) {
  return (unsigned)__nvvm_atom_max_gen_ui(p, v);
}
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
static __device__ __forceinline__ float4 make_float4(float x, float y, float z, float w) {
  float4 r = {x, y, z, w};
  return r;
}
static __device__ __forceinline__ float __ldg(const float *p) { return __nvvm_ldg_f(p); }
static __device__ __forceinline__ float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
static __device__ __forceinline__ float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
static __device__ __forceinline__ float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
static __device__ __forceinline__ float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
static __device__ __forceinline__ float expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
#endif

#endif
