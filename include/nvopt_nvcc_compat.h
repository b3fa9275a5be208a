/* nvopt_nvcc_compat.h: what CUDA sources get from nvcc's headers and not from clang's CUDA
 * wrapper headers. nvopt-cc includes it first (-include) in every CUDA compile of a program
 * build (docs/DRIVER.md), so that code written for nvcc compiles unchanged; under any other
 * compiler it is empty. Written for nvopt; not NVIDIA code.
 *
 * 1. Host code: nvcc's crt/math_functions.hpp declares min and max for the integer and
 *    floating types at global scope and includes <math.h> (isfinite, isnan, ... at global
 *    scope), and crt/common_functions.h includes <time.h> and <assert.h>. In clang's CUDA mode
 *    only the __device__ overloads are there.
 * 2. Device code: the cache-hinted stores __stcs, __stcg and __stwb of CUDA's
 *    sm_32_intrinsics.h (clang 22's __clang_cuda_intrinsics.h has the loads and __stwt only),
 *    one st.global.{cs,cg,wb} each, for the types CUDA declares them for. */
#ifndef NVOPT_NVCC_COMPAT_H
#define NVOPT_NVCC_COMPAT_H
#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__) && defined(__cplusplus)
#include <cuda_runtime.h>
#include <math.h>
#include <time.h>
#include <assert.h>

#define NVOPT_COMPAT_MINMAX(R, A, B)                                                           \
  inline __host__ R max(A __a, B __b) { return (R)__a > (R)__b ? (R)__a : (R)__b; }            \
  inline __host__ R min(A __a, B __b) { return (R)__a < (R)__b ? (R)__a : (R)__b; }
NVOPT_COMPAT_MINMAX(int, int, int)
NVOPT_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
NVOPT_COMPAT_MINMAX(unsigned int, int, unsigned int)
NVOPT_COMPAT_MINMAX(unsigned int, unsigned int, int)
NVOPT_COMPAT_MINMAX(long, long, long)
NVOPT_COMPAT_MINMAX(unsigned long, unsigned long, unsigned long)
NVOPT_COMPAT_MINMAX(unsigned long, long, unsigned long)
NVOPT_COMPAT_MINMAX(unsigned long, unsigned long, long)
NVOPT_COMPAT_MINMAX(long long, long long, long long)
NVOPT_COMPAT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
NVOPT_COMPAT_MINMAX(unsigned long long, long long, unsigned long long)
NVOPT_COMPAT_MINMAX(unsigned long long, unsigned long long, long long)
NVOPT_COMPAT_MINMAX(float, float, float)
NVOPT_COMPAT_MINMAX(double, double, double)
NVOPT_COMPAT_MINMAX(double, float, double)
NVOPT_COMPAT_MINMAX(double, double, float)
#undef NVOPT_COMPAT_MINMAX

#define NVOPT_COMPAT_ST(FN, OP, T, CT, C)                                                      \
  inline __device__ void FN(T *__ptr, T __value) {                                             \
    asm volatile(OP " [%0], %1;" ::"l"(__ptr), C((CT)__value) : "memory");                   \
  }
#define NVOPT_COMPAT_ST2(FN, OP, T, CT, C)                                                     \
  inline __device__ void FN(T *__ptr, T __value) {                                             \
    asm volatile(OP " [%0], {%1, %2};" ::"l"(__ptr), C((CT)__value.x), C((CT)__value.y)        \
                 : "memory");                                                                  \
  }
#define NVOPT_COMPAT_ST4(FN, OP, T, CT, C)                                                     \
  inline __device__ void FN(T *__ptr, T __value) {                                             \
    asm volatile(OP " [%0], {%1, %2, %3, %4};" ::"l"(__ptr), C((CT)__value.x),                \
                 C((CT)__value.y), C((CT)__value.z), C((CT)__value.w)                          \
                 : "memory");                                                                  \
  }
#define NVOPT_COMPAT_STORES(FN, Q)                                                             \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".s8", char, int, "r")                                   \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".s8", signed char, int, "r")                            \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".s16", short, short, "h")                               \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".s32", int, int, "r")                                   \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".s64", long long, long long, "l")                       \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".s64", long, long long, "l")                            \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".u8", unsigned char, unsigned, "r")                     \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".u16", unsigned short, unsigned short, "h")             \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".u32", unsigned int, unsigned int, "r")                 \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".u64", unsigned long long, unsigned long long, "l")     \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".u64", unsigned long, unsigned long long, "l")          \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".f32", float, float, "f")                               \
  NVOPT_COMPAT_ST(FN, "st.global." Q ".f64", double, double, "d")                             \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.s16", short2, short, "h")                          \
  NVOPT_COMPAT_ST4(FN, "st.global." Q ".v4.s16", short4, short, "h")                          \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.s32", int2, int, "r")                              \
  NVOPT_COMPAT_ST4(FN, "st.global." Q ".v4.s32", int4, int, "r")                              \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.s64", longlong2, long long, "l")                   \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.u16", ushort2, unsigned short, "h")                \
  NVOPT_COMPAT_ST4(FN, "st.global." Q ".v4.u16", ushort4, unsigned short, "h")                \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.u32", uint2, unsigned int, "r")                    \
  NVOPT_COMPAT_ST4(FN, "st.global." Q ".v4.u32", uint4, unsigned int, "r")                    \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.u64", ulonglong2, unsigned long long, "l")         \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.f32", float2, float, "f")                          \
  NVOPT_COMPAT_ST4(FN, "st.global." Q ".v4.f32", float4, float, "f")                          \
  NVOPT_COMPAT_ST2(FN, "st.global." Q ".v2.f64", double2, double, "d")
NVOPT_COMPAT_STORES(__stcs, "cs")
NVOPT_COMPAT_STORES(__stcg, "cg")
NVOPT_COMPAT_STORES(__stwb, "wb")
#undef NVOPT_COMPAT_STORES
#undef NVOPT_COMPAT_ST4
#undef NVOPT_COMPAT_ST2
#undef NVOPT_COMPAT_ST
#endif
#endif
