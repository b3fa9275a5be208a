// Sliding windows held in registers under a launch-bounds register cap (issue 16; bench
// corpus): each thread walks a run of outputs with a runtime trip count, keeping its filter
// taps and the part of the input window the next output reuses in registers, so the loop
// carries most of the register budget the bounds allow (32, 40 or 64 per thread: 65536
// registers over the resident threads, ptxas rounding down to a multiple of 8). The shape of
// launch_bounded.cu's filter5x5_window, varied: a 1D FIR along a row, a 3x5 filter down a
// column, a 5x5 filter whose rows the source advances by pointer, and a 3x7 filter along a row
// (the window slides sideways). These loops are where LSR's pointer induction variables and
// ptxas's own unrolling of a runtime-trip loop meet the cap.
#include "nvopt_cuda.h"

// out[i] = sum_k c[k] * x[i + k], k < 9, for i in [t * run, t * run + run) below n; x has
// n + 8 elements. 9 taps + 8 carried samples. 256 x 8 threads: 32 registers.
extern "C" __global__ void __launch_bounds__(256, 8)
fir9_runs(const float *__restrict__ x, const float *__restrict__ c, float *__restrict__ out,
          int n, int run) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i0 = t * run;
  if (i0 >= n) return;
  float k[9], win[9];
#pragma unroll
  for (int j = 0; j < 9; ++j) k[j] = c[j];
#pragma unroll
  for (int j = 0; j < 8; ++j) win[j + 1] = x[i0 + j];
  int i1 = i0 + run < n ? i0 + run : n;
  for (int i = i0; i < i1; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) win[j] = win[j + 1];
    win[8] = x[i + 8];
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 9; ++j) s += k[j] * win[j];
    out[i] = s;
  }
}

// out (w x h) = 3x5 filter (3 rows, 5 columns) over `in`, padded to (w + 4) x (h + 2), pitch
// w + 4; each thread walks `rows` rows down column x. 15 taps + 10 carried inputs. 256 x 6
// threads: 40 registers.
extern "C" __global__ void __launch_bounds__(256, 6)
filter3x5_window(const float *__restrict__ in, const float *__restrict__ wts,
                 float *__restrict__ out, int w, int h, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * rows;
  if (x >= w || y0 >= h) return;
  int pitch = w + 4;
  float k[3][5], win[3][5];
#pragma unroll
  for (int i = 0; i < 3; ++i)
#pragma unroll
    for (int j = 0; j < 5; ++j) k[i][j] = wts[i * 5 + j];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 5; ++j) win[i + 1][j] = in[(long)(y0 + i) * pitch + x + j];
  int y1 = y0 + rows < h ? y0 + rows : h;
  for (int y = y0; y < y1; ++y) {
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j) win[i][j] = win[i + 1][j];
#pragma unroll
    for (int j = 0; j < 5; ++j) win[2][j] = in[(long)(y + 2) * pitch + x + j];
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 3; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j) s += k[i][j] * win[i][j];
    out[(long)y * w + x] = s;
  }
}

// filter5x5_window with the row addresses advanced by the source: `src` and `dst` step one
// pitch per output row. 25 taps + 20 carried inputs. 128 x 8 threads: 64 registers.
extern "C" __global__ void __launch_bounds__(128, 8)
filter5x5_rowptr(const float *__restrict__ in, const float *__restrict__ wts,
                 float *__restrict__ out, int w, int h, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * rows;
  if (x >= w || y0 >= h) return;
  int pitch = w + 4;
  float k[5][5], win[5][5];
#pragma unroll
  for (int i = 0; i < 5; ++i)
#pragma unroll
    for (int j = 0; j < 5; ++j) k[i][j] = wts[i * 5 + j];
  const float *src = in + (long)y0 * pitch + x;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 5; ++j) win[i + 1][j] = src[(long)i * pitch + j];
  src += 4 * (long)pitch;
  float *dst = out + (long)y0 * w + x;
  int n = (y0 + rows < h ? y0 + rows : h) - y0;
  for (int r = 0; r < n; ++r) {
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j) win[i][j] = win[i + 1][j];
#pragma unroll
    for (int j = 0; j < 5; ++j) win[4][j] = src[j];
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 5; ++i)
#pragma unroll
      for (int j = 0; j < 5; ++j) s += k[i][j] * win[i][j];
    *dst = s;
    src += pitch;
    dst += w;
  }
}

// out (w x h) = 3x7 filter (3 rows, 7 columns) over `in`, padded to (w + 6) x (h + 2), pitch
// w + 6; each thread walks `cols` outputs along row y from column blockIdx.x * cols, so the
// window slides sideways: one new input column (3 values) per output. 21 taps + 18 carried
// inputs. 128 x 8 threads: 64 registers.
extern "C" __global__ void __launch_bounds__(128, 8)
filter3x7_along_row(const float *__restrict__ in, const float *__restrict__ wts,
                    float *__restrict__ out, int w, int h, int cols) {
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * cols;
  if (y >= h || x0 >= w) return;
  int pitch = w + 6;
  float k[3][7], win[3][7];
#pragma unroll
  for (int i = 0; i < 3; ++i)
#pragma unroll
    for (int j = 0; j < 7; ++j) k[i][j] = wts[i * 7 + j];
#pragma unroll
  for (int i = 0; i < 3; ++i)
#pragma unroll
    for (int j = 0; j < 6; ++j) win[i][j + 1] = in[(long)(y + i) * pitch + x0 + j];
  int x1 = x0 + cols < w ? x0 + cols : w;
  for (int x = x0; x < x1; ++x) {
#pragma unroll
    for (int i = 0; i < 3; ++i) {
#pragma unroll
      for (int j = 0; j < 6; ++j) win[i][j] = win[i][j + 1];
      win[i][6] = in[(long)(y + i) * pitch + x + 6];
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 3; ++i)
#pragma unroll
      for (int j = 0; j < 7; ++j) s += k[i][j] * win[i][j];
    out[(long)y * w + x] = s;
  }
}
