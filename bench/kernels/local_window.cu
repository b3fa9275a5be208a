// Small private arrays indexed inside loops of constant trip count 16 or 32 (issue 16's 16-32
// byte frames): a 16-tap FIR filter with its taps and a shift-register window in local arrays,
// an interleaved-channel sum that accumulates 32 consecutive values into `float part[8]` by
// `j % 8`, and an RGBA box sum over 16 channel values into `float sum[4]`. Fully unrolling the
// constant-trip loops makes every index constant, so the arrays fit in registers (bench corpus).
#include "nvopt_cuda.h"

#define TAPS 16

// y[i] = sum_t taps[t] * x[i - t] for a strip of `per` outputs per thread (x padded by 15
// values in front: x points at the first real sample).
extern "C" __global__ void fir16_strip(const float *__restrict__ x, const float *__restrict__ coef,
                                       float *__restrict__ y, int n, int per) {
  float taps[TAPS], win[TAPS];
  for (int t = 0; t < TAPS; ++t) taps[t] = coef[t];
  int start = (blockIdx.x * blockDim.x + threadIdx.x) * per;
  if (start >= n) return;
  for (int t = 0; t < TAPS; ++t) win[t] = x[start - t];
  int end = start + per < n ? start + per : n;
  for (int i = start; i < end; ++i) {
    float s = 0.0f;
    for (int t = 0; t < TAPS; ++t) s += taps[t] * win[t];
    y[i] = s;
    for (int t = TAPS - 1; t > 0; --t) win[t] = win[t - 1];
    win[0] = x[i + 1];
  }
}

// Interleaved 8-channel data (channel = index % 8): each thread sums 32 consecutive values of
// its segment into 8 channel partials, then writes the partials and their mean.
extern "C" __global__ void interleaved_sum8(const float *__restrict__ in, float *__restrict__ part_out,
                                            float *__restrict__ mean_out, int segments) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= segments) return;
  const float *p = in + (long)s * 32;
  float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < 32; ++j) part[j % 8] += p[j];
  float total = 0.0f;
  for (int c = 0; c < 8; ++c) {
    part_out[(long)s * 8 + c] = part[c];
    total += part[c];
  }
  mean_out[s] = total * (1.0f / 32.0f);
}

// RGBA box filter over a 2x2 pixel quad: 16 channel values per thread, summed per channel.
extern "C" __global__ void rgba_quad_avg(const float *__restrict__ img, float *__restrict__ out,
                                         int w, int h) {
  int qx = blockIdx.x * blockDim.x + threadIdx.x, qy = blockIdx.y * blockDim.y + threadIdx.y;
  if (2 * qx + 1 >= w || 2 * qy + 1 >= h) return;
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k = 0; k < 16; ++k) {
    int px = 2 * qx + ((k >> 2) & 1), py = 2 * qy + (k >> 3);
    sum[k & 3] += img[((long)py * w + px) * 4 + (k & 3)];
  }
  for (int c = 0; c < 4; ++c) out[((long)qy * (w / 2) + qx) * 4 + c] = 0.25f * sum[c];
}
