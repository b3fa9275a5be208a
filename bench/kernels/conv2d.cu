// 2D convolution with a 5x5 filter, clamped borders, one thread per output pixel (bench corpus).
#include "nvopt_cuda.h"

#define R 2
extern "C" __global__ void conv2d_5x5(const float *__restrict__ img, const float *__restrict__ filt,
                                      float *__restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  for (int fy = -R; fy <= R; ++fy) {
    int yy = y + fy;
    yy = yy < 0 ? 0 : (yy >= h ? h - 1 : yy);
    for (int fx = -R; fx <= R; ++fx) {
      int xx = x + fx;
      xx = xx < 0 ? 0 : (xx >= w ? w - 1 : xx);
      s += filt[(fy + R) * (2 * R + 1) + fx + R] * img[yy * w + xx];
    }
  }
  out[y * w + x] = s;
}
