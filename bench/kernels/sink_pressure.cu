// Sinking under register pressure (bench corpus): code whose fit in the register file depends
// on how far each value is computed (or loaded) from its uses.
// - fwht64_threshold, fwht128_filter: fast Walsh-Hadamard transforms of 64 / 128 values per
//   thread held in registers (fully unrolled butterfly stages over a private array), a
//   coefficient-domain step (hard threshold / per-coefficient weights loaded from global
//   memory), and the inverse transform; 128 live values plus the weights approach 255 registers.
//   Signal t is column t of a row-major 64 (128) x nsig matrix, so loads and stores coalesce.
// - trace_bounces: a small Whitted-style ray tracer of many small __device__ functions (vector
//   ops, sphere and plane intersection, shadow rays, Blinn-Phong shading) called from one
//   kernel, with up to four reflection bounces in a loop. The helpers take their vectors by
//   const reference: LLVM 22's llc -verify-machineinstrs rejects the MOV64_PARAM of a struct
//   passed by value to a .func that stays in the module.
// (The 64-register launch-bounded option pricing kernels are in option_pricing.cu.)
#include "nvopt_cuda.h"

template <int L> __device__ __forceinline__ void fwht_inplace(float (&v)[L]) {
#pragma unroll
  for (int h = 1; h < L; h *= 2)
#pragma unroll
    for (int i = 0; i < L; i += 2 * h)
#pragma unroll
      for (int j = i; j < i + h; ++j) {
        float a = v[j], b = v[j + h];
        v[j] = a + b;
        v[j + h] = a - b;
      }
}

// Hadamard-domain denoising: orthonormal forward transform (scale 1/8), coefficients with
// c^2 < thr2 set to 0, inverse transform. x, y: 64 x nsig row-major.
extern "C" __global__ void fwht64_threshold(const float *__restrict__ x, float *__restrict__ y, int nsig,
                                            float thr2) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nsig) return;
  float v[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) v[i] = x[(long)i * nsig + t];
  fwht_inplace(v);
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    float c = v[i] * 0.125f;
    v[i] = c * c < thr2 ? 0.0f : c;
  }
  fwht_inplace(v);
#pragma unroll
  for (int i = 0; i < 64; ++i) y[(long)i * nsig + t] = v[i] * 0.125f;
}

// Hadamard-domain filter of 128 values: forward, multiply by w[i] (128 weights shared by all
// signals), inverse (scale 1/128 in all), and the filtered signal's energy. x, y: 128 x nsig
// row-major; energy: nsig.
extern "C" __global__ void fwht128_filter(const float *__restrict__ x, const float *__restrict__ w,
                                          float *__restrict__ y, float *__restrict__ energy, int nsig) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nsig) return;
  float v[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) v[i] = x[(long)i * nsig + t];
  fwht_inplace(v);
#pragma unroll
  for (int i = 0; i < 128; ++i) v[i] *= w[i] * (1.0f / 128.0f);
  fwht_inplace(v);
  float e = 0.0f;
#pragma unroll
  for (int i = 0; i < 128; ++i) {
    y[(long)i * nsig + t] = v[i];
    e += v[i] * v[i];
  }
  energy[t] = e;
}

// ---- ray tracer -------------------------------------------------------------------------------

struct V3 {
  float x, y, z;
};
__device__ V3 v3(float x, float y, float z) { return V3{x, y, z}; }
__device__ V3 vadd(const V3 &a, const V3 &b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ V3 vsub(const V3 &a, const V3 &b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
__device__ V3 vscale(const V3 &a, float s) { return v3(a.x * s, a.y * s, a.z * s); }
__device__ V3 vmul(const V3 &a, const V3 &b) { return v3(a.x * b.x, a.y * b.y, a.z * b.z); }
__device__ float vdot(const V3 &a, const V3 &b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ V3 vnormalize(const V3 &a) { return vscale(a, 1.0f / sqrtf(vdot(a, a))); }
__device__ V3 vreflect(const V3 &d, const V3 &n) { return vsub(d, vscale(n, 2.0f * vdot(d, n))); }
__device__ V3 vload(const float *p) { return v3(p[0], p[1], p[2]); }

struct Ray {
  V3 o, d;
};
struct Hit {
  float t;
  V3 p, n, albedo;
  float refl;
};

constexpr float kFar = 1e30f, kEps = 1e-3f, kPlaneY = -1.0f;

// Sphere s: centre (s[0], s[1], s[2]), radius s[3]. Nearest t in (kEps, tmax), or false.
__device__ bool sphere_hit(const float *s, const Ray &r, float tmax, float &t) {
  V3 oc = vsub(r.o, vload(s));
  float b = vdot(oc, r.d), c = vdot(oc, oc) - s[3] * s[3];
  float disc = b * b - c;
  if (disc < 0.0f) return false;
  float q = sqrtf(disc), t0 = -b - q;
  if (t0 <= kEps) t0 = -b + q;
  if (t0 <= kEps || t0 >= tmax) return false;
  t = t0;
  return true;
}

// The ground plane y = kPlaneY.
__device__ bool plane_hit(const Ray &r, float tmax, float &t) {
  if (r.d.y > -1e-6f && r.d.y < 1e-6f) return false;
  float t0 = (kPlaneY - r.o.y) / r.d.y;
  if (t0 <= kEps || t0 >= tmax) return false;
  t = t0;
  return true;
}

__device__ V3 checker(const V3 &p) {
  int cx = (int)(fminf(fmaxf(p.x, -1000.0f), 1000.0f) + 1024.0f);
  int cz = (int)(fminf(fmaxf(p.z, -1000.0f), 1000.0f) + 1024.0f);
  return ((cx + cz) & 1) ? v3(0.9f, 0.9f, 0.9f) : v3(0.2f, 0.25f, 0.3f);
}

// Spheres: 8 floats each (centre, radius, albedo rgb, reflectivity).
__device__ bool scene_hit(const float *spheres, int ns, const Ray &r, Hit &h) {
  float best = kFar, t;
  int which = -1;
  for (int s = 0; s < ns; ++s)
    if (sphere_hit(spheres + 8 * s, r, best, t)) {
      best = t;
      which = s;
    }
  bool ground = plane_hit(r, best, t);
  if (ground) best = t;
  if (!ground && which < 0) return false;
  h.t = best;
  h.p = vadd(r.o, vscale(r.d, best));
  if (ground) {
    h.n = v3(0.0f, 1.0f, 0.0f);
    h.albedo = checker(h.p);
    h.refl = 0.1f;
  } else {
    const float *s = spheres + 8 * which;
    h.n = vnormalize(vsub(h.p, vload(s)));
    h.albedo = vload(s + 4);
    h.refl = s[7];
  }
  return true;
}

__device__ bool occluded(const float *spheres, int ns, const V3 &p, const V3 &dir, float dist) {
  Ray r{p, dir};
  float t;
  for (int s = 0; s < ns; ++s)
    if (sphere_hit(spheres + 8 * s, r, dist, t)) return true;
  return false;
}

__device__ float spec16(float c) {
  c = c * c;
  c = c * c;
  c = c * c;
  return c * c;
}

__device__ V3 shade(const float *spheres, int ns, const Hit &h, const V3 &view, const V3 &light,
                   const V3 &lcol) {
  V3 tol = vsub(light, h.p);
  float dist = sqrtf(vdot(tol, tol));
  V3 l = vscale(tol, 1.0f / dist);
  V3 ambient = vscale(h.albedo, 0.05f);
  float nl = vdot(h.n, l);
  if (nl <= 0.0f || occluded(spheres, ns, vadd(h.p, vscale(h.n, kEps)), l, dist)) return ambient;
  V3 half = vnormalize(vsub(l, view));
  float sp = spec16(fmaxf(vdot(h.n, half), 0.0f));
  return vadd(ambient, vmul(lcol, vadd(vscale(h.albedo, nl), v3(sp, sp, sp))));
}

// Pixel (px, py) of a w x h image, camera at cam[0..3) looking down +z; light position
// light[0..3), colour light[3..6). rgb: 3 floats per pixel. Up to 4 bounces: each reflection
// adds the shaded colour weighted by the product of the surfaces' reflectivities.
extern "C" __global__ void trace_bounces(const float *__restrict__ spheres, int ns, const float *__restrict__ cam,
                                         const float *__restrict__ light, float *__restrict__ rgb, int w, int h) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  V3 lpos = vload(light), lcol = vload(light + 3);
  Ray r{vload(cam), vnormalize(v3((px + 0.5f) / w - 0.5f, 0.5f - (py + 0.5f) / h, 1.0f))};
  V3 col = v3(0.0f, 0.0f, 0.0f), weight = v3(1.0f, 1.0f, 1.0f);
  for (int bounce = 0; bounce < 4; ++bounce) {
    Hit hit;
    if (!scene_hit(spheres, ns, r, hit)) {
      float sky = 0.5f + 0.5f * r.d.y;
      col = vadd(col, vmul(weight, v3(0.4f * sky, 0.6f * sky, sky)));
      break;
    }
    col = vadd(col, vmul(weight, vscale(shade(spheres, ns, hit, r.d, lpos, lcol), 1.0f - hit.refl)));
    if (hit.refl <= 0.0f) break;
    weight = vscale(weight, hit.refl);
    r.d = vreflect(r.d, hit.n);
    r.o = vadd(hit.p, vscale(hit.n, kEps));
  }
  float *o = rgb + 3 * ((long)py * w + px);
  o[0] = col.x;
  o[1] = col.y;
  o[2] = col.z;
}
