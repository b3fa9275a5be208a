// Member functions that stay calls (__noinline__) on objects whose address space the caller
// knows (issue 16 item 4, nv-ipmsp): a block histogram and a tile kept in __shared__ objects
// whose member functions receive `this` of that object (generic in the callee unless the
// space is propagated across the call), and running statistics whose member functions are
// called both on a private object (local memory, its address is taken) and on an element of a
// global array (same function, two spaces: cloned per space). nvcc keeps every call here too.
#include "nvopt_cuda.h"

struct SharedBins {
  unsigned bins[64];
  __device__ __noinline__ void clear(int tid, int nthreads) {
    for (int b = tid; b < 64; b += nthreads) bins[b] = 0;
  }
  __device__ __noinline__ void add(unsigned v) { atomicAdd(&bins[v & 63], 1u); }
  __device__ __noinline__ void flush(unsigned *out, int tid, int nthreads) const {
    for (int b = tid; b < 64; b += nthreads)
      if (bins[b]) atomicAdd(&out[b], bins[b]);
  }
};

// 64-bin histograms of the low and the high half of each word, per block in two shared
// objects (so `this` is not one constant that IPSCCP could fold into the callee), merged into
// out[0..63] and out[64..127].
extern "C" __global__ void shared_bins_members(const unsigned *__restrict__ words, int n, unsigned *__restrict__ out) {
  __shared__ SharedBins lo, hi;
  lo.clear(threadIdx.x, blockDim.x);
  hi.clear(threadIdx.x, blockDim.x);
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned w = words[i];
    lo.add(w);
    hi.add(w >> 16);
  }
  __syncthreads();
  lo.flush(out, threadIdx.x, blockDim.x);
  hi.flush(out + 64, threadIdx.x, blockDim.x);
}

template <int N> struct Tile {
  float v[N][N + 1];
  __device__ __noinline__ void load(const float *src, int ld, int x0, int y0, int w, int h) {
    for (int k = threadIdx.y * blockDim.x + threadIdx.x; k < N * N; k += blockDim.x * blockDim.y) {
      int r = k / N, c = k % N;
      v[r][c] = (y0 + r < h && x0 + c < w) ? src[(long)(y0 + r) * ld + x0 + c] : 0.0f;
    }
  }
  __device__ __noinline__ void blur_rows_into(Tile &d) const {
    for (int r = threadIdx.y; r < N; r += blockDim.y)
      for (int c = threadIdx.x; c < N; c += blockDim.x) {
        float l = v[r][c > 0 ? c - 1 : c], m = v[r][c], rt = v[r][c + 1 < N ? c + 1 : c];
        d.v[r][c] = 0.25f * l + 0.5f * m + 0.25f * rt;
      }
  }
  __device__ __noinline__ float col_sum(int c) const {
    float s = 0.0f;
    for (int r = 0; r < N; ++r) s += v[r][c];
    return s;
  }
};

// Per 32x32 tile (blockDim 32x8): load into a __shared__ tile object, blur its rows twice
// between two shared tiles (ping-pong), write the column sums of both.
extern "C" __global__ void shared_tile_members(const float *__restrict__ src, float *__restrict__ colsum, int ld, int w, int h) {
  __shared__ Tile<32> a, b;
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
  a.load(src, ld, x0, y0, w, h);
  __syncthreads();
  a.blur_rows_into(b);
  __syncthreads();
  b.blur_rows_into(a);
  __syncthreads();
  if (threadIdx.y == 0 && x0 + threadIdx.x < w)
    colsum[(long)blockIdx.y * w + x0 + threadIdx.x] = a.col_sum(threadIdx.x) + b.col_sum(threadIdx.x);
}

struct Stats {
  float lo, hi, sum, count;
  __device__ __noinline__ void reset() { lo = 1e30f; hi = -1e30f; sum = 0.0f; count = 0.0f; }
  __device__ __noinline__ void push(float x) {
    lo = fminf(lo, x); hi = fmaxf(hi, x); sum += x; count += 1.0f;
  }
  __device__ __noinline__ void merge(const Stats &o) {
    lo = fminf(lo, o.lo); hi = fmaxf(hi, o.hi); sum += o.sum; count += o.count;
  }
};

// Row statistics: accumulated in a private Stats (local memory), merged into the row's global
// Stats together with the row's first element pushed again; mean[r] = sum / count of the row.
extern "C" __global__ void stats_rows_members(const float *__restrict__ x, int rows, int cols, Stats *__restrict__ row_stats, float *__restrict__ mean) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  Stats s;
  s.reset();
  for (int c = 0; c < cols; ++c) s.push(x[(long)r * cols + c]);
  Stats &g = row_stats[r];
  g.reset();
  g.merge(s);
  g.push(x[(long)r * cols]);
  mean[r] = s.count > 0.0f ? s.sum / s.count : 0.0f;
}
