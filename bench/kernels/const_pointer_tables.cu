// Device pointers loaded from a __constant__ struct (bench corpus): feature tracking in the
// Lucas-Kanade style, with every buffer and size in one parameter block that the host uploads
// once per frame (cudaMemcpyToSymbol) instead of passing it to every launch. The kernels read
// the pointers and sizes from constant memory inside their loops and store through them to
// global memory: a compiler must know that those stores cannot change constant memory to keep
// the pointers in registers.
// - track_gradients_const: image gradient by central differences, grid-stride over the pixels.
// - track_update_const: per track (one per thread), `iters` Gauss-Newton steps of its
//   translation: gather the frame bilinearly at each template point (offsets from `offs`), its
//   gradient and residual against the template (stored per point), a damped 2x2 solve, update.
// The *_byval twins run the same bodies on the struct passed by value (a kernel parameter), so
// that nvopt_tools/difftest.py (bench.spec) can launch them; it cannot fill a __constant__ symbol.
#include "nvopt_cuda.h"

struct TrackFrame {
  const float *img;   // w x h frame, row-major
  const float *tmpl;  // ntracks x npts template intensities
  const int *offs;    // ntracks x npts x 2 point offsets (dx, dy) from the track's position
  float *gimg;        // w x h x 2 image gradient (gx, gy)
  float *grad;        // ntracks x npts x 2 gradient at each point, last step
  float *resid;       // ntracks x npts residual at each point, last step
  float *pos;         // ntracks x 2 track positions, updated
  int w, h, ntracks, npts, iters;
  float step;
};

__constant__ TrackFrame TF;

__device__ __forceinline__ void gradients_body(const TrackFrame &f) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < f.w * f.h; i += stride) {
    int y = i / f.w, x = i - y * f.w;
    int xl = x > 0 ? x - 1 : x, xr = x < f.w - 1 ? x + 1 : x;
    int yu = y > 0 ? y - 1 : y, yd = y < f.h - 1 ? y + 1 : y;
    const float *row = f.img + (long)y * f.w;
    f.gimg[2 * (long)i] = 0.5f * (row[xr] - row[xl]);
    f.gimg[2 * (long)i + 1] = 0.5f * (f.img[(long)yd * f.w + x] - f.img[(long)yu * f.w + x]);
  }
}

__device__ __forceinline__ void update_body(const TrackFrame &f, int t) {
  if (t >= f.ntracks) return;
  float x = f.pos[2 * t], y = f.pos[2 * t + 1];
  for (int it = 0; it < f.iters; ++it) {
    float h00 = 1.0f, h01 = 0.0f, h11 = 1.0f, b0 = 0.0f, b1 = 0.0f;  // damped normal equations
    for (int k = 0; k < f.npts; ++k) {
      long q = (long)t * f.npts + k;
      float fx = fminf(fmaxf(x + f.offs[2 * q], 0.0f), f.w - 2.0f);
      float fy = fminf(fmaxf(y + f.offs[2 * q + 1], 0.0f), f.h - 2.0f);
      int ix = (int)fx, iy = (int)fy;
      float ax = fx - ix, ay = fy - iy;
      const float *p = f.img + (long)iy * f.w + ix;
      float i00 = p[0], i01 = p[1], i10 = p[f.w], i11 = p[f.w + 1];
      float top = i00 + ax * (i01 - i00), bot = i10 + ax * (i11 - i10);
      float val = top + ay * (bot - top);
      float gx = (i01 - i00) + ay * ((i11 - i10) - (i01 - i00));
      float gy = bot - top;
      float r = val - f.tmpl[q];
      f.grad[2 * q] = gx;
      f.grad[2 * q + 1] = gy;
      f.resid[q] = r;
      h00 += gx * gx;
      h01 += gx * gy;
      h11 += gy * gy;
      b0 += gx * r;
      b1 += gy * r;
    }
    float rdet = 1.0f / (h00 * h11 - h01 * h01);
    x -= f.step * (h11 * b0 - h01 * b1) * rdet;
    y -= f.step * (h00 * b1 - h01 * b0) * rdet;
  }
  f.pos[2 * t] = x;
  f.pos[2 * t + 1] = y;
}

extern "C" __global__ void track_gradients_const() { gradients_body(TF); }

extern "C" __global__ void track_update_const() { update_body(TF, blockIdx.x * blockDim.x + threadIdx.x); }

extern "C" __global__ void track_gradients_byval(TrackFrame f) { gradients_body(f); }

extern "C" __global__ void track_update_byval(TrackFrame f) { update_body(f, blockIdx.x * blockDim.x + threadIdx.x); }
