// Kernels with by-value struct parameters (bench corpus): the shapes that once made nvopt read
// a struct through a stack or generic address with ld.param (the parameter lowered twice, in
// opt and again in llc). A by-value struct reaches the kernel as `ptr byval(%struct.T)`; a
// kernel that writes it works on a local copy, one that only reads it reads param space. Here:
// the reproducer (one thread writes a field), a CUB GridEvenShare-like reduction that advances
// its struct in a loop, a struct of device pointers advanced by a grid-stride loop, and a
// read-only table indexed by data. Launches: scripts/difftest_kernels/bench.spec (difftest on
// the host, and `bench.py --run` on the GPU through nvopt_tools/bench/gpu_run.py, which builds the struct's
// bytes as scripts/difftest_driver.c does).
#include "nvopt_cuda.h"

struct Window { float w[8]; int n; };
struct EvenShare { int offset, end, stride; };
struct Stream { const float *in; float *out; int n; };
struct Ramp { float y[17]; float x0, inv_dx; };

// The reproducer: thread 0 of each block writes the by-value parameter (on one path only), so
// the struct lives in a local copy that every other thread reads unchanged.
extern "C" __global__ void byval_window_scale(Window win, float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) win.n = n / 2;
  if (i < n) x[i] *= win.w[i & 7] * (float)win.n;
}

// CUB's GridEvenShare, reduced to its loop: the struct describes the grid's range [offset, end)
// and the grid's stride; each thread moves the by-value struct to its first item and advances
// it a stride at a time, as AgentReduce::ConsumeRange advances even_share.block_offset by
// block_stride. Each block's threads add their sums into the block's partial (integer atomics:
// the same result in every order, so the columns compare exactly).
extern "C" __global__ void byval_even_share_sum(EvenShare s, const unsigned *in, unsigned *partial) {
  unsigned acc = 0;
  for (s.offset += blockIdx.x * blockDim.x + threadIdx.x; s.offset < s.end; s.offset += s.stride)
    acc += in[s.offset];
  atomicAdd(&partial[blockIdx.x], acc);
}

// A struct of device pointers (lowering makes them global) that the kernel advances: each thread
// moves both pointers to its first element and walks them and the remaining count by the grid's
// stride.
extern "C" __global__ void byval_stream_ptrs(Stream s, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  s.in += i;
  s.out += i;
  for (s.n -= i; s.n > 0; s.n -= stride, s.in += stride, s.out += stride)
    *s.out = *s.in * scale + *s.out;
}

// A read-only struct read at a dynamic index: piecewise-linear interpolation in a 17-entry
// table; x0 and inv_dx map the inputs onto [0, 16). With inputs k/256 the products are exact,
// so contracted and separate multiply-adds agree.
extern "C" __global__ void byval_ramp_lookup(Ramp r, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = (x[i] - r.x0) * r.inv_dx;
    int k = (int)t;
    k = k < 0 ? 0 : (k > 15 ? 15 : k);
    out[i] = r.y[k] + (t - (float)k) * (r.y[k + 1] - r.y[k]);
  }
}
