// Kernels with by-value struct parameters for nvopt_tools/difftest.py, above all for its lowering
// mode (--lowering: the IR llc hands to instruction selection, after NVPTXLowerArgs, SROA,
// NVPTXLowerAlloca, InferAddressSpaces, LSR, CodeGenPrepare and nvopt's llc IR passes). A
// by-value struct reaches the kernel as `ptr byval(%struct.T)`; lowering reads it through
// param-space pointers (llvm.nvvm.internal.addrspace.wrap) and copies it into a local alloca
// when the kernel may write it. The kernels write their struct on every path, on one path,
// through a pointer to a field and in a loop; pass it on by value and by pointer; leave it
// unused; read it with dynamic and constant indices; hold pointers (lowered as global), a nested
// struct, 4 bytes and 148 bytes. Each thread gets its own copy of the struct (the driver calls
// the kernel once per thread with a fresh byval copy, as a GPU thread sees its parameter), so
// writes of one thread are invisible to the next. Syntax of `difftest:` lines, struct arguments
// `byval(FIELD,...)` included: nvopt_tools/difftest.py, class Spec.
// difftest-modes: lowering
// (without --lowering, this file joins a run only when --kernels names it or one of its kernels:
// the quick opt-mode run, plugin-tests/robustness/difftest-quick.test, keeps its kernel set)
#include "nvopt_cuda.h"

struct Window { float w[8]; int n; };
struct Poly { float c[4]; int deg; };
struct Acc { int v[16]; int len; };
struct Lut { int t[32]; };
struct Coef { float a, b, c; int shift; };
struct Bufs { const float *x; float *y; int n; float alpha; };
struct Inner { short lo; int hi; };
struct Outer { Inner in[2]; char tag; double scale; };
struct Tiny { unsigned char r, g, b, a; };
struct Big { float m[36]; int rows; };

// difftest: window_scale n=1..600 grid=(n+bx-1)//bx block=32|128 args=byval(f32[8]{-4..4},i32{1..9}),f32[n],n
// The reproducer of the double-lowering bug: thread 0 writes the by-value parameter (one path).
extern "C" __global__ void window_scale(Window win, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) win.n = n / 2;
  if (i < n) x[i] *= win.w[i & 7] * (float)win.n;
}

// difftest: bv_write_all n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[4],i32{0..3}),f32[n],n
// Written on every path: one coefficient and the degree, per thread.
extern "C" __global__ void bv_write_all(Poly p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.c[threadIdx.x & 3] += 1.0f;
  p.deg = (p.deg + i) & 3;
  if (i < n) y[i] = p.c[p.deg] * y[i] + p.c[i & 3];
}

// difftest: bv_write_ptr n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[4]{-2..2},i32),f32[n],n
// Written through a pointer to a field, read back at another index.
extern "C" __global__ void bv_write_ptr(Poly p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *f = &p.c[i & 3];
  *f = *f * 2.0f + (float)(i & 7);
  if (i < n) y[i] += p.c[(i + 1) & 3] + p.c[i & 3];
}

// difftest: bv_write_loop n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(i32[16]{-50..50},i32{1..16}),i32[n],n
// Written in a loop: an in-place prefix sum over the struct's array.
extern "C" __global__ void bv_write_loop(Acc a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < a.len; ++k) a.v[k] += a.v[k - 1];
  if (i < n) out[i] += a.v[i % a.len];
}

__device__ __noinline__ float eval_by_value(Poly p, float x) {
  p.c[0] += x;
  return p.c[0] + x * (p.c[1] + x * (p.c[2] + x * p.c[3])) + (float)p.deg;
}

// difftest: bv_pass_value n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[4]{-2..2},i32{-3..3}),f32[n],n
// Passed on by value to a device function (which writes its own copy).
extern "C" __global__ void bv_pass_value(Poly p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = eval_by_value(p, y[i]);
}

__device__ __noinline__ float eval_by_ptr(const Poly *p, float x) {
  return p->c[0] + x * (p->c[1] + x * p->c[2]) - (float)p->deg;
}

__device__ __noinline__ void scale_by_ptr(Poly *p, float s) {
  for (int k = 0; k < 4; ++k) p->c[k] *= s;
  p->deg += 1;
}

// difftest: bv_pass_ptr n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[4]{-2..2},i32{-3..3}),f32[n],n
// Passed on by pointer to a device function that writes it, then to one that reads it.
extern "C" __global__ void bv_pass_ptr(Poly p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scale_by_ptr(&p, (float)(threadIdx.x & 3) * 0.5f);
  if (i < n) y[i] = eval_by_ptr(&p, y[i]);
}

// difftest: bv_pass_ptr_ro n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[4]{-2..2},i32{-3..3}),f32[n],n
// Passed on by pointer to a device function that only reads it.
extern "C" __global__ void bv_pass_ptr_ro(Poly p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = eval_by_ptr(&p, y[i]);
}

// difftest: bv_unused n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[4],i32),f32[n],n
// Never used.
extern "C" __global__ void bv_unused(Poly p, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * 2.0f + 1.0f;
}

// difftest: bv_lut n=1..800 grid=(n+bx-1)//bx block=64|128 args=byval(i32[32]{-1000..1000}),i32[n]{0..10000},i32[n],n
// Read-only, dynamic index.
extern "C" __global__ void bv_lut(Lut l, const int *idx, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += l.t[idx[i] & 31];
}

// difftest: bv_coef n=1..800 grid=(n+bx-1)//bx block=64|128 args=byval(f32{-2..2},f32{-2..2},f32,i32{0..7}),f32[n],n
// Read-only, constant indices (scalar fields).
extern "C" __global__ void bv_coef(Coef k, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = k.a * y[i] * y[i] + k.b * y[i] + k.c + (float)(i >> k.shift);
}

// difftest: bv_bufs n=2..800 grid=(n+bx-1)//bx block=64|128 args=byval(*f32[n],*f32[n],i32=n,f32{-2..2}),7
// A struct holding pointers (lowering marks them global); the output is reached only through it.
extern "C" __global__ void bv_bufs(Bufs b, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n) b.y[i] = b.alpha * b.x[i] + b.y[i] + (float)(i % k);
}

// difftest: bv_nested n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval((i16{-300..300},i32{-5000..5000})[2],i8{0..3},f64{-2..2}),f64[n],n
// A nested struct (an array of structs with padding, a char, a double); one path writes it.
extern "C" __global__ void bv_nested(Outer o, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i & 1) o.in[o.tag & 1].hi += i;
  const Inner &s = o.in[(i >> 1) & 1];
  if (i < n) out[i] = out[i] * o.scale + (double)(s.lo * 3 + s.hi) + (double)o.tag;
}

// difftest: bv_tiny n=1..800 grid=(n+bx-1)//bx block=64|128 args=byval(u8[4]),u32[n],n
// A 4-byte struct, written on one path.
extern "C" __global__ void bv_tiny(Tiny t, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 3 == 0) t.g = (unsigned char)(t.g + i);
  if (i < n) out[i] = out[i] * 7u + t.r + (t.g << 8) + (t.b << 16) + ((unsigned)t.a << 24);
}

// difftest: bv_big n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[36]{-4..4},i32{1..6}),f32[n],n
// A 148-byte struct: dynamic reads of a row, then a write at a dynamic index.
extern "C" __global__ void bv_big(Big b, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int r = i % b.rows;
  float s = 0.0f;
  for (int c = 0; c < 6; ++c) s += b.m[r * 6 + c];
  b.m[(i * 5) % 36] = s;
  if (i < n) y[i] = s + b.m[(i * 7) % 36] - y[i];
}

// difftest: bv_big_ro n=1..500 grid=(n+bx-1)//bx block=32|64 args=byval(f32[36]{-4..4},i32{1..6}),f32[n],n
// The same struct read only (a param-space read with a dynamic index).
extern "C" __global__ void bv_big_ro(Big b, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int r = i % b.rows;
  float s = 0.0f;
  for (int c = 0; c < 6; ++c) s += b.m[r * 6 + c];
  if (i < n) y[i] = s * b.m[(i * 7) % 36] - y[i];
}
