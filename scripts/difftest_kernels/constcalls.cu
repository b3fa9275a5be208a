// Kernels for nvopt_tools/difftest.py whose device functions nv-fold-const-calls folds: pure
// integer helpers (recursion, loops, switches, signed division and remainders of negative
// numbers, shifts, narrow types) called with constants, kept out of line (__noinline__) so that
// the calls reach the pass; the results are mixed into every output element, so a wrong fold
// is a wrong output. Also calls the pass must keep (a store, a division by zero on the path
// taken is never executed here: only defined calls run). Syntax of `difftest:` lines:
// nvopt_tools/difftest.py, class Spec.
#include "nvopt_cuda.h"

__device__ __noinline__ constexpr unsigned ilog2(unsigned x) { return x == 1 ? 0 : 1 + ilog2(x / 2); }

__device__ __noinline__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

__device__ __noinline__ unsigned collatz(unsigned n) {
  unsigned steps = 0;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    ++steps;
  }
  return steps;
}

__device__ __noinline__ int pick(int k) {
  switch (k) {
  case -3: return 11;
  case 0: return 22;
  case 7: return -33;
  default: return k * k - 1;
  }
}

__device__ __noinline__ int mix(int a, int b) {
  signed char c = (signed char)(a * 37);
  short s = (short)(b << 9);
  return (a / b) * 1000 + (a % b) * 100 + (a >> 3) + c + s + ((unsigned)a >> 28);
}

__device__ __noinline__ long long wide(long long a, unsigned sh) {
  return (a << sh) - (a >> (sh / 2)) + (long long)((unsigned long long)a / 7u);
}

__device__ int counter;

__device__ __noinline__ int counted(int k) {
  if (k > 4) counter += k; // kept when taken: it writes memory
  return k * 3;
}

// difftest: const_calls n=1..3000 grid=1|3 block=32|128 args=i32[n]{-1000..1000},i32[n],n
extern "C" __global__ void const_calls(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = (int)ilog2(64) + (int)ilog2(1u << 31) * 3 + gcd(1071, 462) + (int)collatz(27);
  k += pick(-3) + pick(0) + pick(7) + pick(12) + pick(-5);
  k += mix(-1234567, 37) + mix(1 << 20, -7) + mix(-7, 2);
  long long w = wide(-123456789012LL, 13) + wide(987654321, 40);
  k += (int)(w ^ (w >> 32));
  k += counted(2) + counted(in[i] & 7);
  out[i] = in[i] * k + (int)ilog2((unsigned)(in[i] & 255) + 1);
}
