/* Host driver for scripts/difftest.py (issue 7, "Differential execution"). Linked by llvm-link
 * with a host-ified kernel module (NVPTX special-register and math intrinsics renamed to the
 * __dt_nvvm_* functions below) and run by lli-22. difftest.py appends one generated function,
 * dt_launch(kernel, args), that calls the kernel with its exact C signature.
 *
 * argv: KERNEL SEED GX GY GZ BX BY BZ PARAM...
 *   PARAM is `s:VALUE` (a scalar; integer or float text) or `b:TYPE:COUNT:MODE:A:B`, a buffer of
 *   COUNT elements of TYPE (f32 f64 i8 u8 i16 i32 u32 i64) filled from SEED: MODE r = random
 *   (floats k/256 for k in [-2048, 2048), exact in every type; integers in [A, B]), ramp = i*A.
 *
 * The grid runs sequentially, block by block in x-y-z order and thread by thread within a block,
 * so kernels must not need barriers, shared memory or warp shuffles. Each buffer sits between
 * two guard zones of 256 bytes; afterwards every buffer's bytes are printed as an FNV-1a hash
 * (NaNs canonicalized: LLVM leaves NaN payloads unspecified) with the number of elements the
 * kernel changed, and any guard byte a kernel wrote is reported. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT_MAX_PARAMS 32
#define DT_GUARD 256
#define DT_GUARD_BYTE 0xA5

unsigned __dt_tid[3], __dt_ntid[3], __dt_ctaid[3], __dt_nctaid[3];
static unsigned dt_linear_tid;

#define DT_SREG(name, arr, i) \
  unsigned __dt_nvvm_read_ptx_sreg_##name(void) { return arr[i]; }
DT_SREG(tid_x, __dt_tid, 0)
DT_SREG(tid_y, __dt_tid, 1)
DT_SREG(tid_z, __dt_tid, 2)
DT_SREG(ntid_x, __dt_ntid, 0)
DT_SREG(ntid_y, __dt_ntid, 1)
DT_SREG(ntid_z, __dt_ntid, 2)
DT_SREG(ctaid_x, __dt_ctaid, 0)
DT_SREG(ctaid_y, __dt_ctaid, 1)
DT_SREG(ctaid_z, __dt_ctaid, 2)
DT_SREG(nctaid_x, __dt_nctaid, 0)
DT_SREG(nctaid_y, __dt_nctaid, 1)
DT_SREG(nctaid_z, __dt_nctaid, 2)
unsigned __dt_nvvm_read_ptx_sreg_warpsize(void) { return 32; }
unsigned __dt_nvvm_read_ptx_sreg_laneid(void) { return dt_linear_tid % 32; }

/* Math intrinsics: any deterministic host meaning will do, since both sides use the same one. */
float __dt_nvvm_sqrt_rn_f(float x) { return __builtin_sqrtf(x); }
float __dt_nvvm_rsqrt_approx_f(float x) { return 1.0f / __builtin_sqrtf(x); }
float __dt_nvvm_ex2_approx_f32(float x) { return __builtin_exp2f(x); }
float __dt_nvvm_ex2_approx_f(float x) { return __builtin_exp2f(x); }
float __dt_nvvm_fmax_f(float a, float b) { return __builtin_fmaxf(a, b); }
float __dt_nvvm_fmin_f(float a, float b) { return __builtin_fminf(a, b); }

typedef union {
  long long i;
  double f;
  void *p;
} dt_arg;

static void dt_launch(int kernel, dt_arg *a);

static uint64_t dt_rng;
static uint64_t dt_next(void) { /* splitmix64 */
  uint64_t z = (dt_rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int dt_size(const char *t) {
  if (!strcmp(t, "f32") || !strcmp(t, "i32") || !strcmp(t, "u32")) return 4;
  if (!strcmp(t, "f64") || !strcmp(t, "i64")) return 8;
  if (!strcmp(t, "i16")) return 2;
  if (!strcmp(t, "i8") || !strcmp(t, "u8")) return 1;
  fprintf(stderr, "difftest driver: unknown element type %s\n", t);
  exit(2);
}

static void dt_fill(unsigned char *p, const char *t, long long n, const char *mode, long long a,
                    long long b) {
  int sz = dt_size(t);
  for (long long i = 0; i < n; ++i) {
    unsigned char *e = p + i * sz;
    if (!strcmp(t, "f32")) {
      float v = (float)((long long)(dt_next() % 4096) - 2048) / 256.0f;
      memcpy(e, &v, 4);
    } else if (!strcmp(t, "f64")) {
      double v = (double)((long long)(dt_next() % 4096) - 2048) / 256.0;
      memcpy(e, &v, 8);
    } else {
      long long v = !strcmp(mode, "ramp") ? i * a : a + (long long)(dt_next() % (uint64_t)(b - a + 1));
      memcpy(e, &v, sz); /* little-endian truncation */
    }
  }
}

static uint64_t dt_hash(const unsigned char *p, const char *t, long long n, long long *changed,
                        const unsigned char *orig) {
  int sz = dt_size(t);
  uint64_t h = 0xcbf29ce484222325ull;
  *changed = 0;
  for (long long i = 0; i < n; ++i) {
    unsigned char e[8];
    memcpy(e, p + i * sz, sz);
    if (!strcmp(t, "f32")) {
      float v;
      memcpy(&v, e, 4);
      if (v != v) { uint32_t q = 0x7fc00000u; memcpy(e, &q, 4); }
    } else if (!strcmp(t, "f64")) {
      double v;
      memcpy(&v, e, 8);
      if (v != v) { uint64_t q = 0x7ff8000000000000ull; memcpy(e, &q, 8); }
    }
    if (memcmp(p + i * sz, orig + i * sz, sz)) ++*changed;
    for (int k = 0; k < sz; ++k) h = (h ^ e[k]) * 0x100000001b3ull;
  }
  return h;
}

int main(int argc, char **argv) {
  if (argc < 9) {
    fprintf(stderr, "usage: KERNEL SEED GX GY GZ BX BY BZ PARAM...\n");
    return 2;
  }
  int kernel = atoi(argv[1]);
  unsigned long long seed = strtoull(argv[2], 0, 10);
  unsigned grid[3], block[3];
  for (int d = 0; d < 3; ++d) {
    grid[d] = (unsigned)atoi(argv[3 + d]);
    block[d] = (unsigned)atoi(argv[6 + d]);
  }
  int np = argc - 9;
  if (np > DT_MAX_PARAMS) return 2;
  dt_arg args[DT_MAX_PARAMS];
  unsigned char *base[DT_MAX_PARAMS] = {0}, *orig[DT_MAX_PARAMS] = {0};
  char types[DT_MAX_PARAMS][8];
  long long counts[DT_MAX_PARAMS];
  for (int i = 0; i < np; ++i) {
    const char *s = argv[9 + i];
    if (s[0] == 's') {
      const char *v = s + 2;
      if (strpbrk(v, ".eEn")) args[i].f = strtod(v, 0);
      else args[i].i = strtoll(v, 0, 10);
      continue;
    }
    char mode[8];
    long long a = 0, b = 0;
    if (sscanf(s, "b:%7[^:]:%lld:%7[^:]:%lld:%lld", types[i], &counts[i], mode, &a, &b) != 5) {
      fprintf(stderr, "difftest driver: bad parameter %s\n", s);
      return 2;
    }
    dt_rng = seed * 1000003ull + (uint64_t)i * 7919ull + 1;
    long long bytes = counts[i] * dt_size(types[i]);
    base[i] = malloc(bytes + 2 * DT_GUARD);
    orig[i] = malloc(bytes + 1);
    memset(base[i], DT_GUARD_BYTE, bytes + 2 * DT_GUARD);
    dt_fill(base[i] + DT_GUARD, types[i], counts[i], mode, a, b);
    memcpy(orig[i], base[i] + DT_GUARD, bytes);
    args[i].p = base[i] + DT_GUARD;
  }
  for (int d = 0; d < 3; ++d) {
    __dt_nctaid[d] = grid[d];
    __dt_ntid[d] = block[d];
  }
  for (unsigned bz = 0; bz < grid[2]; ++bz)
    for (unsigned by = 0; by < grid[1]; ++by)
      for (unsigned bx = 0; bx < grid[0]; ++bx)
        for (unsigned tz = 0; tz < block[2]; ++tz)
          for (unsigned ty = 0; ty < block[1]; ++ty)
            for (unsigned tx = 0; tx < block[0]; ++tx) {
              __dt_ctaid[0] = bx, __dt_ctaid[1] = by, __dt_ctaid[2] = bz;
              __dt_tid[0] = tx, __dt_tid[1] = ty, __dt_tid[2] = tz;
              dt_linear_tid = (tz * block[1] + ty) * block[0] + tx;
              dt_launch(kernel, args);
            }
  for (int i = 0; i < np; ++i) {
    if (!base[i]) continue;
    long long changed, bytes = counts[i] * dt_size(types[i]);
    uint64_t h = dt_hash(base[i] + DT_GUARD, types[i], counts[i], &changed, orig[i]);
    printf("buf%d %s[%lld] %016llx changed %lld\n", i, types[i], counts[i], (unsigned long long)h,
           changed);
    for (long long k = 0; k < DT_GUARD; ++k)
      if (base[i][k] != DT_GUARD_BYTE || base[i][DT_GUARD + bytes + k] != DT_GUARD_BYTE) {
        printf("GUARD buf%d written out of bounds\n", i);
        break;
      }
  }
  return 0;
}
