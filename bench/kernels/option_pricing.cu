// Option pricing under a 64-register cap (bench corpus, "sinking under pressure"):
// __launch_bounds__(256, 4) leaves 65536 / 1024 = 64 registers per thread. One option per thread.
// - asian_mc_price: Monte Carlo price of an arithmetic-average Asian call with the European
//   call at the same strike as control variate (its Black-Scholes price: log, sqrt, a normal CDF
//   of exp), Gaussian steps by Marsaglia's polar method over a per-thread xorshift generator
//   (log, sqrt and a rejection loop inside the step loop), exp per step.
// - binomial_american_put32: a 32-step Cox-Ross-Rubinstein tree for an American put, the 33
//   node values in a private array and the early-exercise value (an exp) at every node of the
//   triangular backward induction.
// The natural log is written out here (exponent and mantissa from the float's bits, an atanh
// series), as fast-math code does, so the file needs no math library.
#include "nvopt_cuda.h"

// ln(x) for positive normal x: x = 2^e m, m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(f / (2 + f)).
static __device__ __forceinline__ float ln_pos(float x) {
  unsigned bits = __float_as_uint(x);
  int e = (int)((bits >> 23) & 255u) - 127;
  float m = 1.0f + (float)(bits & 0x7fffffu) * (1.0f / 8388608.0f);
  if (m > 1.41421356f) {
    m *= 0.5f;
    e += 1;
  }
  float f = m - 1.0f, s = f / (2.0f + f), s2 = s * s;
  float p = 1.0f + s2 * (1.0f / 3.0f + s2 * (1.0f / 5.0f + s2 * (1.0f / 7.0f + s2 * (1.0f / 9.0f))));
  return (float)e * 0.69314718f + 2.0f * s * p;
}

// Standard normal CDF (Abramowitz-Stegun 26.2.17).
static __device__ __forceinline__ float norm_cdf(float x) {
  float ax = x < 0.0f ? -x : x;
  float k = 1.0f / (1.0f + 0.2316419f * ax);
  float poly = k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  float c = 1.0f - 0.39894228f * expf(-0.5f * ax * ax) * poly;
  return x < 0.0f ? 1.0f - c : c;
}

static __device__ __forceinline__ unsigned xorshift32(unsigned &s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

// Uniform in [-1, 1) on a grid of 2^-23.
static __device__ __forceinline__ float uniform_pm1(unsigned &s) {
  return (float)(xorshift32(s) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

__device__ float gauss_polar(unsigned &s) {
  float u, v, q;
  do {
    u = uniform_pm1(s);
    v = uniform_pm1(s);
    q = u * u + v * v;
  } while (q >= 1.0f || q == 0.0f);
  return u * sqrtf(-2.0f * ln_pos(q) / q);
}

__device__ float bs_call(float s0, float k, float t, float vol, float r) {
  float sq = vol * sqrtf(t);
  float d1 = (ln_pos(s0 / k) + (r + 0.5f * vol * vol) * t) / sq, d2 = d1 - sq;
  return s0 * norm_cdf(d1) - k * expf(-r * t) * norm_cdf(d2);
}

// Option t < nopt: spot S0[t], strike K[t], maturity T[t] (years), volatility vol[t]; rate r.
// npaths paths of nsteps steps each; price[t] and its standard error err[t].
extern "C" __global__ void __launch_bounds__(256, 4)
asian_mc_price(const float *__restrict__ S0, const float *__restrict__ K, const float *__restrict__ T,
               const float *__restrict__ vol, float r, int nopt, int npaths, int nsteps, unsigned seed,
               float *__restrict__ price, float *__restrict__ err) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nopt) return;
  float s0 = S0[t], k = K[t], mat = T[t], sig = vol[t];
  float dt = mat / nsteps, drift = (r - 0.5f * sig * sig) * dt, vs = sig * sqrtf(dt);
  float euro = bs_call(s0, k, mat, sig, r) * expf(r * mat);  // undiscounted expectation
  unsigned st = (seed + (unsigned)t * 0x9E3779B9u) | 1u;
  float sum = 0.0f, sum2 = 0.0f;
  for (int p = 0; p < npaths; ++p) {
    float s = s0, avg = 0.0f;
    for (int i = 0; i < nsteps; ++i) {
      s *= expf(drift + vs * gauss_polar(st));
      avg += s;
    }
    avg /= nsteps;
    float y = fmaxf(avg - k, 0.0f) - (fmaxf(s - k, 0.0f) - euro);
    sum += y;
    sum2 += y * y;
  }
  float disc = expf(-r * mat), mean = sum / npaths;
  float var = fmaxf(sum2 / npaths - mean * mean, 0.0f);
  price[t] = disc * mean;
  err[t] = disc * sqrtf(var / npaths);
}

// Option t < nopt as above, American put on a 32-step tree: up factor exp(vol sqrt(dt)),
// risk-neutral probability pu; node (i, j) has spot S0 exp((2j - i) vol sqrt(dt)).
extern "C" __global__ void __launch_bounds__(256, 4)
binomial_american_put32(const float *__restrict__ S0, const float *__restrict__ K, const float *__restrict__ T,
                        const float *__restrict__ vol, float r, float *__restrict__ price, int nopt) {
  const int NB = 32;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nopt) return;
  float s0 = S0[t], k = K[t], mat = T[t], sig = vol[t];
  float dt = mat / NB, lu = sig * sqrtf(dt);
  float up = expf(lu), down = expf(-lu), growth = expf(r * dt);
  float pu = (growth - down) / (up - down), pd = 1.0f - pu, disc = 1.0f / growth;
  float v[NB + 1];
  for (int j = 0; j <= NB; ++j) v[j] = fmaxf(k - s0 * expf((2 * j - NB) * lu), 0.0f);
  for (int i = NB - 1; i >= 0; --i)
    for (int j = 0; j <= i; ++j) {
      float cont = disc * (pu * v[j + 1] + pd * v[j]);
      v[j] = fmaxf(cont, k - s0 * expf((2 * j - i) * lu));
    }
  price[t] = v[0];
}
