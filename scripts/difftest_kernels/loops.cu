// Loop kernels for nvopt_tools/difftest.py (issue 7, "Differential execution"): the CUDA loop idioms
// nv-scev-sources and the address-mode passes rewrite (docs/CICC-FACTS.md "GPU SCEV sources and
// stride idioms"; the proofs of plugin-tests/scev-sources), written so that the flags and ranges
// the passes add hold and a sequential host run can execute them: no barriers, no shared memory,
// no shuffles; integer arithmetic on random data is unsigned or bounded (no signed overflow).
// Each `difftest:` line is one kernel's launch (syntax: nvopt_tools/difftest.py, class Spec).
#include "nvopt_cuda.h"

// difftest: grid_copy64 n=1..6000 grid=1|2|9 block=32|128|256 args=f32[n],f32[n],n
// 64-bit grid-stride loop up to an unsigned bound: the increment gets nuw nsw.
extern "C" __global__ void grid_copy64(const float *x, float *y, unsigned n) {
  for (unsigned long i = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (unsigned long)blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i] - y[i];
}

// difftest: grid_long n=1..6000 grid=1|3|5 block=64|96 args=f64[n],f64[n],f64[n],n
// Signed 64-bit grid-stride with three streams and a double update.
extern "C" __global__ void grid_long(const double *a, const double *b, double *c, long n) {
  long stride = (long)blockDim.x * gridDim.x;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] * b[i] + c[i] * 0.5;
}

// difftest: block_rows rows=1..12 cols=1..700 grid=rows block=32|128|256 args=f32[rows*cols],f32[rows],rows,cols
// One block per row; block-stride over an unsigned short column count (c + ntid cannot wrap),
// each thread writes its own elements, thread 0 the row's first element sum.
extern "C" __global__ void block_rows(float *m, float *first, int rows, unsigned short cols) {
  float *row = m + (long)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] = row[c] * 0.5f + (float)c;
  if (threadIdx.x == 0) first[blockIdx.x] = row[0] + row[cols - 1];
}

// difftest: warp_rows rows=1..20 cols=1..300 grid=(rows*32+bx-1)//bx block=32|64|128 args=f32[rows*cols],f32[rows*32],rows,cols
// One warp per row, lanes 32 apart (no shuffle: each lane stores its partial sum).
extern "C" __global__ void warp_rows(const float *m, float *part, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const float *row = m + (long)warp * cols;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32) s += row[c] * row[c];
  part[warp * 32 + lane] = s;
}

// difftest: warpsize_rows rows=1..20 cols=1..300 grid=(rows*32+bx-1)//bx block=32|64 args=f32[rows*cols],f32[rows*32],rows,cols
// The same with the warpSize register as the stride, an unsigned short bound.
extern "C" __global__ void warpsize_rows(const float *m, float *part, int rows, unsigned short cols) {
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  unsigned lane = threadIdx.x % warpSize;
  if (warp >= (unsigned)rows) return;
  float s = 1.0f;
  for (unsigned c = lane; c < cols; c += warpSize) s = s * 0.75f + m[warp * cols + c];
  part[warp * 32 + lane] = s;
}

// difftest: bounded128 n=1..4096 grid=1|2 block=128|64,2|32,4 args=u32[4096]{0..100000},u32[4096],n
// __launch_bounds__(128) (nvvm.maxntid): ranges on tid/ntid; a 2-D block within the bound; the
// block-stride loop is bounded by a constant, unsigned hash arithmetic.
extern "C" __global__ void __launch_bounds__(128) bounded128(const unsigned *in, unsigned *out, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int nt = blockDim.x * blockDim.y;
  for (int c = t + blockIdx.x * nt; c < 4096; c += nt * gridDim.x) {
    unsigned v = in[c];
    unsigned h = (v * 2654435761u) ^ (v >> 7) ^ (unsigned)c;
    out[c] = c < n ? h : h / 3u + h % 5u;
  }
}

// difftest: grid2d_y nx=1..64 ny=1..90 grid=(nx+bx-1)//bx,1|(nx+bx-1)//bx,3 block=16,4|32,8 args=f32[nx*ny],f32[nx*ny],nx,ny
// 2-D indexing: x from the thread, a 64-bit grid-stride loop over y.
extern "C" __global__ void grid2d_y(const float *u, float *v, int nx, unsigned ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  for (unsigned long y = (unsigned long)blockIdx.y * blockDim.y + threadIdx.y; y < ny;
       y += (unsigned long)blockDim.y * gridDim.y)
    v[y * nx + x] = u[y * nx + x] * 3.0f - (x > 0 ? u[y * nx + x - 1] : 0.0f);
}

// difftest: planes_z nx=1..40 nz=1..20 grid=(nx+bx-1)//bx,1,1|(nx+bx-1)//bx,1,4 block=32,1,2|16,1,4 args=f32[nx*nz],f32[nx*nz],nx,nz
// A z-dimension block/grid-stride loop over planes.
extern "C" __global__ void planes_z(const float *in, float *out, int nx, unsigned short nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= nx) return;
  for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += blockDim.z * gridDim.z)
    out[z * nx + x] = in[z * nx + x] + (float)z;
}

// difftest: aos_fields n=1..500 stride=12..20 grid=1|3 block=64|128 args=f32[n*stride+16],n,stride,0.25
// Many accesses off one base at constant offsets, records `stride` floats apart (strided loads).
extern "C" __global__ void aos_fields(float *rec, int n, int stride, float dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float *p = rec + i * stride;
    float a = p[0], b = p[1], c = p[2], d = p[3], e = p[5], f = p[8];
    p[4] = a * b - c;
    p[6] = d + dt * e;
    p[7] = f * f + a;
    p[9] = p[10] + p[11] * dt;
  }
}

// difftest: int_mix n=1..3000 grid=1|4 block=64|256 args=i32[n]{-100000..100000},i32[n],u32[n],n,7
// Signed division and remainder by a constant and by a positive variable; unsigned shifts.
extern "C" __global__ void int_mix(const int *a, int *q, unsigned *r, int n, int d) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = a[i];
    q[i] = v / 3 + v % d - (v >> 2);
    r[i] = ((unsigned)v >> 3) * 33u + (unsigned)(v % 7) + (unsigned)i;
  }
}

// difftest: reverse_rows rows=1..8 cols=1..500 grid=rows block=32|128 args=f32[rows*cols],f32[rows*cols],cols
// Down-counting block-stride loop (c -= ntid) with an i64 row offset.
extern "C" __global__ void reverse_rows(const float *in, float *out, int cols) {
  long base = (long)blockIdx.x * cols;
  for (int c = cols - 1 - (int)threadIdx.x; c >= 0; c -= blockDim.x)
    out[base + cols - 1 - c] = in[base + c] * 1.5f;
}

// difftest: first_above rows=1..300 cols=1..64 grid=(rows+bx-1)//bx block=32|64 args=f32[rows*cols],i32[rows],rows,cols,2.5
// A loop with an early exit: the first column above a threshold, per row.
extern "C" __global__ void first_above(const float *m, int *idx, int rows, int cols, float thr) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int found = -1;
  for (int c = 0; c < cols; ++c)
    if (m[r * cols + c] > thr) {
      found = c;
      break;
    }
  idx[r] = found;
}

// difftest: short_idx n=1..2000 grid=1|2 block=128|256 args=i16[n]{-300..300},f32[n],n
// 16-bit data and unsigned short indices, a block-stride loop over a 16-bit bound.
extern "C" __global__ void short_idx(const short *s, float *out, unsigned short n) {
  for (unsigned short i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = (float)s[i] * 0.5f + (float)(s[i] & 7);
}
