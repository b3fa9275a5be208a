// Device code written as many small __device__ functions and member functions (issue 16's
// inlining shape): a ChaCha20 keystream block whose quarter-round helper is called 8 times per
// double round on a private state array, a block histogram kept in a __shared__ object whose
// member functions receive `this` of that object, a ray-sphere shader built from a small
// vector class with operator and member helpers, and a 2-D lifting wavelet step on a __shared__
// tile object whose edge variants are template instances of one large device function (the
// shape of Rodinia's dwt2d). nvcc inlines every call here (bench corpus).
#include "nvopt_cuda.h"

__device__ unsigned rotl32(unsigned v, int s) { return (v << s) | (v >> (32 - s)); }

__device__ void quarter_round(unsigned *st, int a, int b, int c, int d) {
  st[a] += st[b]; st[d] = rotl32(st[d] ^ st[a], 16);
  st[c] += st[d]; st[b] = rotl32(st[b] ^ st[c], 12);
  st[a] += st[b]; st[d] = rotl32(st[d] ^ st[a], 8);
  st[c] += st[d]; st[b] = rotl32(st[b] ^ st[c], 7);
}

__device__ void chacha_double_round(unsigned *st) {
  quarter_round(st, 0, 4, 8, 12);
  quarter_round(st, 1, 5, 9, 13);
  quarter_round(st, 2, 6, 10, 14);
  quarter_round(st, 3, 7, 11, 15);
  quarter_round(st, 0, 5, 10, 15);
  quarter_round(st, 1, 6, 11, 12);
  quarter_round(st, 2, 7, 8, 13);
  quarter_round(st, 3, 4, 9, 14);
}

// One 64-byte ChaCha20 block per thread: key[8], nonce[3], counter = base + thread index.
extern "C" __global__ void chacha20_blocks(const unsigned *__restrict__ key, const unsigned *__restrict__ nonce,
                                           unsigned base, unsigned *__restrict__ out, int blocks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= blocks) return;
  unsigned init[16], st[16];
  init[0] = 0x61707865u; init[1] = 0x3320646eu; init[2] = 0x79622d32u; init[3] = 0x6b206574u;
  for (int i = 0; i < 8; ++i) init[4 + i] = key[i];
  init[12] = base + t;
  for (int i = 0; i < 3; ++i) init[13 + i] = nonce[i];
  for (int i = 0; i < 16; ++i) st[i] = init[i];
  for (int r = 0; r < 10; ++r) chacha_double_round(st);
  for (int i = 0; i < 16; ++i) out[(long)t * 16 + i] = st[i] + init[i];
}

// A block-wide histogram living in shared memory; its member functions get `this` of the
// __shared__ object.
struct BlockHistogram {
  unsigned bins[256];
  __device__ void clear(int tid, int nthreads) {
    for (int b = tid; b < 256; b += nthreads) bins[b] = 0;
  }
  __device__ void add(unsigned char v) { atomicAdd(&bins[v], 1u); }
  __device__ void add_word(unsigned w) {
    add(w & 0xff); add((w >> 8) & 0xff); add((w >> 16) & 0xff); add(w >> 24);
  }
  __device__ unsigned count(int b) const { return bins[b]; }
  __device__ void flush(unsigned *out, int tid, int nthreads) const {
    for (int b = tid; b < 256; b += nthreads)
      if (count(b)) atomicAdd(&out[b], count(b));
  }
};

extern "C" __global__ void byte_histogram_obj(const unsigned *__restrict__ words, int n, unsigned *__restrict__ out) {
  __shared__ BlockHistogram h;
  h.clear(threadIdx.x, blockDim.x);
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    h.add_word(words[i]);
  __syncthreads();
  h.flush(out, threadIdx.x, blockDim.x);
}

struct Vec3 {
  float x, y, z;
  __device__ Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  __device__ Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  __device__ Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
  __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  __device__ float length() const { return sqrtf(dot(*this)); }
  __device__ Vec3 normalized() const { return *this * (1.0f / length()); }
};

__device__ Vec3 load_vec3(const float *p) { return {p[0], p[1], p[2]}; }

__device__ bool hit_sphere(const Vec3 &o, const Vec3 &d, const Vec3 &c, float r, float &t) {
  Vec3 oc = o - c;
  float b = oc.dot(d), q = oc.dot(oc) - r * r, disc = b * b - q;
  if (disc < 0.0f) return false;
  t = -b - sqrtf(disc);
  return t > 0.0f;
}

__device__ float shade(const Vec3 &p, const Vec3 &nrm, const Vec3 &light) {
  Vec3 l = (light - p).normalized();
  return fmaxf(nrm.dot(l), 0.0f);
}

// One primary ray per pixel against `ns` spheres (x, y, z, r), Lambert shading of the nearest.
extern "C" __global__ void ray_spheres(const float *__restrict__ spheres, int ns, const float *__restrict__ eye,
                                       const float *__restrict__ light, float *__restrict__ img, int w, int h) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  Vec3 o = load_vec3(eye), L = load_vec3(light);
  Vec3 d = Vec3{(px + 0.5f) / w - 0.5f, (py + 0.5f) / h - 0.5f, 1.0f}.normalized();
  float best = 1e30f, val = 0.0f;
  for (int s = 0; s < ns; ++s) {
    Vec3 c = load_vec3(spheres + 4 * s);
    float t;
    if (hit_sphere(o, d, c, spheres[4 * s + 3], t) && t < best) {
      best = t;
      Vec3 p = o + d * t;
      val = shade(p, (p - c).normalized(), L);
    }
  }
  img[py * w + px] = val;
}

// A lifting (CDF 5/3 style) wavelet step on a 32x32 tile kept in a __shared__ object; its
// member functions get `this` of the shared tile; the edge variants are template arguments.
template <int N> struct LiftTile {
  float v[N][N + 1];
  __device__ static int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }
  __device__ void load(const float *src, int ld, int x0, int y0, int w, int h) {
    for (int k = threadIdx.y * blockDim.x + threadIdx.x; k < N * N; k += blockDim.x * blockDim.y) {
      int r = k / N, c = k % N;
      int y = mirror(y0 + r, h), x = mirror(x0 + c, w);
      v[r][c] = src[(long)y * ld + x];
    }
  }
  __device__ void store(float *dst, int ld, int x0, int y0, int w, int h) const {
    for (int k = threadIdx.y * blockDim.x + threadIdx.x; k < N * N; k += blockDim.x * blockDim.y) {
      int r = k / N, c = k % N;
      if (y0 + r < h && x0 + c < w) dst[(long)(y0 + r) * ld + x0 + c] = v[r][c];
    }
  }
  template <bool Edge> __device__ void predict_rows(float a) {
    for (int r = threadIdx.y; r < N; r += blockDim.y)
      for (int c = 1 + 2 * threadIdx.x; c < N; c += 2 * blockDim.x) {
        float right = (Edge && c + 1 >= N) ? v[r][c - 1] : v[r][c + 1];
        v[r][c] += a * (v[r][c - 1] + right);
      }
  }
  template <bool Edge> __device__ void update_rows(float b) {
    for (int r = threadIdx.y; r < N; r += blockDim.y)
      for (int c = 2 * threadIdx.x; c < N; c += 2 * blockDim.x) {
        float left = (Edge && c == 0) ? v[r][1] : v[r][c == 0 ? 1 : c - 1];
        float right = c + 1 < N ? v[r][c + 1] : v[r][c - 1];
        v[r][c] += b * (left + right);
      }
  }
  template <bool Edge> __device__ void predict_cols(float a) {
    for (int c = threadIdx.x; c < N; c += blockDim.x)
      for (int r = 1 + 2 * threadIdx.y; r < N; r += 2 * blockDim.y) {
        float below = (Edge && r + 1 >= N) ? v[r - 1][c] : v[r + 1][c];
        v[r][c] += a * (v[r - 1][c] + below);
      }
  }
  template <bool Edge> __device__ void update_cols(float b) {
    for (int c = threadIdx.x; c < N; c += blockDim.x)
      for (int r = 2 * threadIdx.y; r < N; r += 2 * blockDim.y) {
        float above = (Edge && r == 0) ? v[1][c] : v[r == 0 ? 1 : r - 1][c];
        float below = r + 1 < N ? v[r + 1][c] : v[r - 1][c];
        v[r][c] += b * (above + below);
      }
  }
};

template <bool EdgeX, bool EdgeY, int N>
__device__ void lift_tile(LiftTile<N> &t, const float *src, float *dst, int ld, int x0, int y0, int w, int h) {
  t.load(src, ld, x0, y0, w, h);
  __syncthreads();
  t.template predict_rows<EdgeX>(-0.5f);
  __syncthreads();
  t.template update_rows<EdgeX>(0.25f);
  __syncthreads();
  t.template predict_cols<EdgeY>(-0.5f);
  __syncthreads();
  t.template update_cols<EdgeY>(0.25f);
  __syncthreads();
  t.store(dst, ld, x0, y0, w, h);
}

template <int N>
__device__ void lift_run(LiftTile<N> &t, const float *src, float *dst, int ld, int w, int h) {
  int x0 = blockIdx.x * N, y0 = blockIdx.y * N;
  bool ex = x0 + N >= w, ey = y0 + N >= h;
  if (ex && ey) lift_tile<true, true>(t, src, dst, ld, x0, y0, w, h);
  else if (ex) lift_tile<true, false>(t, src, dst, ld, x0, y0, w, h);
  else if (ey) lift_tile<false, true>(t, src, dst, ld, x0, y0, w, h);
  else lift_tile<false, false>(t, src, dst, ld, x0, y0, w, h);
}

// One 2-D lifting level, a 32x32 tile per block (blockDim 16x8); w, h at least 2.
extern "C" __global__ void lifting53_tile(const float *__restrict__ src, float *__restrict__ dst, int ld, int w, int h) {
  __shared__ LiftTile<32> tile;
  lift_run(tile, src, dst, ld, w, h);
}
