// Kernels written against NVIDIA's real CUDA headers, as a CUDA project has them: cooperative
// groups, warp shuffles, half precision, CUB's block reduce, atomics and libdevice math. Used
// by plugin-tests/cuda to check that nvopt-cc and clang with the plugin compile such code
// (headers from NVIDIA's wheels, scripts/cuda-path.sh) and that ptxas accepts the result.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/block/block_reduce.cuh>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kBlock = 256;

// Sum of a half-precision vector: per-warp tree of shuffles through a cooperative-groups tile,
// then one atomic add per warp.
extern "C" __global__ void half_sum(const __half *__restrict__ in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += __half2float(in[i]);
  for (int offset = warp.size() / 2; offset > 0; offset /= 2)
    acc += warp.shfl_down(acc, offset);
  if (warp.thread_rank() == 0)
    atomicAdd(out, acc);
}

// Row norms with CUB's block reduce and libdevice's sqrtf; cg::reduce over a tile for the
// largest non-negative entry (non-negative floats order as their bits, so atomicMax on ints).
extern "C" __global__ void __launch_bounds__(kBlock)
    row_norms(const float *__restrict__ m, float *norms, float *row_max, int cols) {
  using BlockReduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename BlockReduce::TempStorage temp;
  const float *row = m + static_cast<size_t>(blockIdx.x) * cols;
  float sq = 0.0f, mx = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kBlock) {
    float v = row[c];
    sq = fmaf(v, v, sq);
    mx = fmaxf(mx, v);
  }
  float total = BlockReduce(temp).Sum(sq);
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  float warp_max = cg::reduce(warp, mx, cg::greater<float>());
  if (threadIdx.x == 0)
    norms[blockIdx.x] = sqrtf(total);
  if (warp.thread_rank() == 0)
    atomicMax(reinterpret_cast<int *>(row_max), __float_as_int(warp_max));
}

// Packed half2 arithmetic, libdevice transcendentals, a shuffle with an explicit mask and a
// block-wide barrier between two phases in shared memory.
extern "C" __global__ void half2_softplus(const __half2 *__restrict__ x, __half2 *y, int n) {
  __shared__ float staged[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 v = i < n ? __half22float2(x[i]) : make_float2(0.0f, 0.0f);
  staged[threadIdx.x] = logf(1.0f + expf(v.x)) + sinf(v.y);
  __syncthreads();
  float neighbour = staged[(threadIdx.x + 1) % blockDim.x];
  neighbour += __shfl_xor_sync(0xffffffffu, neighbour, 1);
  if (i < n)
    y[i] = __hmul2(__floats2half2_rn(neighbour, v.y), __float2half2_rn(0.5f));
}
