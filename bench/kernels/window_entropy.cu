// Brittle loop nests over a small private histogram (bench corpus): Shannon entropy of the high
// nibbles of bytes (16 bins, counts in a private int array indexed by data), the kind of scan
// packers and malware classifiers run over a file.
// - nibble_entropy_sliding: entropy of every 32-byte window; thread t walks positions
//   [run t, run t + run), building the histogram once and then sliding it (one bin up, one
//   down per position) and summing -p log2 p over the 16 bins at every position.
// - nibble_entropy_blocks: entropy of each 256-byte block (both nibbles of 64 words, 512
//   samples), one block per thread, recounted from scratch.
// log2 is written out (exponent and mantissa from the float's bits, an atanh series), so the
// file needs no math library.
#include "nvopt_cuda.h"

// log2(x) for positive normal x.
static __device__ __forceinline__ float log2_pos(float x) {
  unsigned bits = __float_as_uint(x);
  int e = (int)((bits >> 23) & 255u) - 127;
  float m = 1.0f + (float)(bits & 0x7fffffu) * (1.0f / 8388608.0f);
  if (m > 1.41421356f) {
    m *= 0.5f;
    e += 1;
  }
  float f = m - 1.0f, s = f / (2.0f + f), s2 = s * s;
  float p = 1.0f + s2 * (1.0f / 3.0f + s2 * (1.0f / 5.0f + s2 * (1.0f / 7.0f)));
  return (float)e + 2.88539008f * s * p;  // 2 / ln 2
}

// Entropy in bits of a 16-bin histogram of `total` samples.
static __device__ __forceinline__ float entropy16(const int (&hist)[16], float total) {
  float inv = 1.0f / total, h = 0.0f;
  for (int b = 0; b < 16; ++b) {
    int c = hist[b];
    if (c > 0) {
      float p = c * inv;
      h -= p * log2_pos(p);
    }
  }
  return h;
}

// ent[i] for i < n: entropy of the high nibbles of data[i .. i + 32) (data has n + 31 bytes).
extern "C" __global__ void nibble_entropy_sliding(const unsigned char *__restrict__ data, float *__restrict__ ent,
                                                  int n, int run) {
  const int W = 32;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int p0 = t * run;
  if (p0 >= n) return;
  int p1 = p0 + run < n ? p0 + run : n;
  int hist[16];
  for (int b = 0; b < 16; ++b) hist[b] = 0;
  for (int i = 0; i < W; ++i) hist[data[p0 + i] >> 4]++;
  for (int p = p0; p < p1; ++p) {
    ent[p] = entropy16(hist, (float)W);
    hist[data[p] >> 4]--;
    hist[data[p + W] >> 4]++;
  }
}

// ent[b] for b < nblocks: entropy of both nibbles of words[64 b .. 64 b + 64).
extern "C" __global__ void nibble_entropy_blocks(const unsigned *__restrict__ words, float *__restrict__ ent,
                                                 int nblocks) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nblocks) return;
  int hist[16];
  for (int b = 0; b < 16; ++b) hist[b] = 0;
  const unsigned *w = words + (long)t * 64;
  for (int i = 0; i < 64; ++i) {
    unsigned x = w[i];
    for (int s = 0; s < 32; s += 4) hist[(x >> s) & 15u]++;
  }
  ent[t] = entropy16(hist, 512.0f);
}
