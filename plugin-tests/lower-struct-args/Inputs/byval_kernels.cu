// Kernels with by-value struct parameters in every shape of use (plugin-tests/lower-struct-args).
#include "nvopt_cuda.h"

struct Window { float w[8]; int n; };
struct Range { int offset; int end; int stride; };
struct Ptrs { const float *in; float *out; int n; };
struct Inner { int a; float b; };
struct Outer { Inner in[2]; double d; };
struct Tiny { int v; };
struct Big { float v[40]; };

__device__ __noinline__ void bump(Range *r) { r->offset += r->stride; }
__device__ __noinline__ int first(Range r) { return r.offset; }

// The issue's reproducer: written on one path.
extern "C" __global__ void one_path(Window win, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) win.n = n / 2;
  if (i < n) x[i] *= win.w[i & 7] * (float)win.n;
}

// Written on every path.
extern "C" __global__ void every_path(Window win, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  win.n += i;
  if (i < n) x[i] = win.w[i & 7] + (float)win.n;
}

// Written through a pointer to a field.
extern "C" __global__ void through_field(Window win, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *slot = &win.w[i & 7];
  *slot += 1.0f;
  if (i < n) x[i] = win.w[(i + 1) & 7] + *slot;
}

// Advanced in a loop (CUB's GridEvenShare shape).
extern "C" __global__ void in_loop(Range r, const float *in, float *out) {
  float s = 0;
  r.offset += blockIdx.x * r.stride;
  while (r.offset < r.end) {
    s += in[r.offset + threadIdx.x];
    r.offset += r.stride * gridDim.x;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Passed on to device functions, by pointer (written there) and by value.
extern "C" __global__ void to_device(Range r, int *out) {
  bump(&r);
  out[threadIdx.x] = r.offset + first(r);
}

// Unused, and only read (constant and dynamic indices), in one kernel.
extern "C" __global__ void read_only(Window unused, Window win, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = win.w[i & 7] * (float)win.n + win.w[3];
}

// Pointers inside a by-value struct, advanced.
extern "C" __global__ void pointers(Ptrs p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.in += i;
  p.out += i;
  *p.out = *p.in * 2.0f;
}

// A nested struct, a 4-byte one and one of 160 bytes, each written.
extern "C" __global__ void shapes(Outer o, Tiny t, Big b, float *x) {
  int i = threadIdx.x;
  o.in[i & 1].b += 1.0f;
  t.v ^= i;
  b.v[i % 40] = (float)t.v;
  x[i] = o.in[0].b + o.in[1].b + (float)o.d + b.v[(i + 3) % 40];
}
