// Warp shuffles under run-time member masks (issue 16, registers on real code; bench corpus):
// the lanes that take part in a shuffle are known only at run time (a __ballot_sync of the
// lanes holding data, the __activemask() of a data-dependent branch), as in the last step of
// a block reduction, the tail of a stream compaction and a per-key aggregation. ptxas gives
// every shuffle with a register mask a divergent fallback path; nv-shuffle-loop-unroll keeps
// these loops rolled. block_sum_full_mask is the same reduction under immediate masks only
// (a control: nothing to keep rolled). Every result is well defined: a lane adds a shuffled
// value only when its source lane is in the mask.
#include "nvopt_cuda.h"

// Per-block sum of doubles: grid-stride accumulation, a full-warp shuffle reduction, one
// shared slot per warp, then the first warp reduces the per-warp sums under the ballot of the
// lanes that hold one. blockDim.x is a multiple of 32, at most 1024.
extern "C" __global__ void block_sum_ballot_f64(const double *__restrict__ in, double *__restrict__ out, int n) {
  __shared__ double part[32];
  double v = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  if (lane == 0) part[warp] = v;
  __syncthreads();
  unsigned holders = __ballot_sync(0xffffffffu, threadIdx.x < nwarps);
  if (threadIdx.x < nwarps) {
    v = part[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) {
      double t = __shfl_down_sync(holders, v, o);
      if (lane + o < nwarps) v += t;
    }
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}

// The same reduction in float with immediate masks only: the tail warp reduces 32 slots,
// zero-filled (the control).
extern "C" __global__ void block_sum_full_mask(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float part[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? part[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// Stream compaction of the elements above `cut`, one warp-wide pass per 32 elements: the
// output slot of a kept element is the inclusive scan (shfl_up) of the keep flags under the
// ballot of the lanes still in range (the last, partial group of the array runs with fewer
// lanes). `count` gets each warp's total. blockDim.x is a multiple of 32.
extern "C" __global__ void compact_above(const float *__restrict__ in, float *__restrict__ out,
                                         unsigned *__restrict__ count, int n, float cut) {
  int lane = threadIdx.x & 31;
  int gwarp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int nwarps = (gridDim.x * blockDim.x) >> 5;
  for (int base = gwarp * 32; base < n; base += nwarps * 32) {
    int i = base + lane;
    unsigned live = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
      float x = in[i];
      int keep = x > cut, pos = keep;
      for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(live, pos, d);
        if (lane >= d) pos += t;
      }
      int total = __shfl_sync(live, pos, 31 - __clz((int)live));
      unsigned at = 0;
      if (lane == 0) at = atomicAdd(count, (unsigned)total);
      at = (unsigned)__shfl_sync(live, (int)at, 0);
      if (keep) out[at + pos - 1] = x;
    }
  }
}

// The maximum of the scores above `floor`, taken in a data-dependent branch: the lanes that
// pass combine their scores by reading each active lane's in turn (shfl_idx under
// __activemask(), a loop of run-time trip count: the number of active lanes), then the first
// active lane publishes with atomicMax on the bit pattern (scores are non-negative).
extern "C" __global__ void active_lane_max(const float *__restrict__ score, unsigned *__restrict__ out,
                                           int n, float floor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = score[i];
  if (s > floor) {
    unsigned m = __activemask();
    float best = s;
    for (unsigned r = m; r; r &= r - 1) best = fmaxf(best, __shfl_sync(m, s, __ffs((int)r) - 1));
    if ((threadIdx.x & 31) == __ffs((int)m) - 1) atomicMax(out, __float_as_uint(best));
  }
}
