/* Host driver for nvopt_tools/difftest.py (issue 7, "Differential execution"). Linked by llvm-link
 * with a host-ified kernel module (NVPTX special-register and math intrinsics renamed to the
 * __dt_nvvm_* functions below) and run by lli-22. difftest.py appends one generated function,
 * dt_launch(kernel, args), that calls the kernel with its exact C signature, or, for a kernel with
 * by-value struct parameters, the IR launcher `__dt_launch_KERNEL(args)` host_ify adds to the
 * kernel's module (it passes `ptr byval(%T) align N`, which no C call can express).
 *
 * argv: KERNEL SEED GX GY GZ BX BY BZ PARAM...
 *   PARAM is `s:VALUE` (a scalar; integer or float text) or `b:TYPE:COUNT:MODE:A:B`, a buffer of
 *   COUNT elements of TYPE (f32 f64 i8 u8 i16 i32 u32 i64) filled from SEED: MODE r = random
 *   (floats k/256 for k in [-2048, 2048), exact in every type; integers in [A, B]), fr = random
 *   floats k/256 in [A, B), ramp = i*A; or `v:SIZE:FIELD/FIELD/...`, a by-value struct of SIZE
 *   bytes (zeroed, then each FIELD `OFF:e:TYPE:COUNT:MODE:A:B` fills COUNT elements at byte OFF
 *   as a buffer is filled, MODE c = the constant A; `OFF:p:TYPE:COUNT:MODE:A:B` stores at OFF a
 *   pointer to a new buffer, checked and printed as `bufI.J`).
 *
 * The grid runs sequentially, block by block in x-y-z order and thread by thread within a block,
 * so kernels must not need barriers, shared memory or warp shuffles. Each buffer sits between
 * two guard zones of 256 bytes; afterwards every buffer's bytes are printed as an FNV-1a hash
 * (NaNs canonicalized: LLVM leaves NaN payloads unspecified) with the number of elements the
 * kernel changed, and any guard byte a kernel wrote is reported.
 *
 * Address spaces (host_ify turns these casts and intrinsics into calls of the __dt_as_* checks
 * below; any failed check prints `difftest driver: ADDRSPACE ...` and exits with status 3):
 *  - param (101): at entry each kernel registers its byval parameters (address and size of the
 *    callee's copy; each thread's call gets a fresh copy, as each GPU thread sees its own).
 *    llvm.nvvm.internal.addrspace.wrap.p101.p0(p) means "p is this kernel's by-value parameter,
 *    viewed in param space": p must lie in a parameter registered by the current call (a local
 *    copy or a generic pointer there is the double-lowering bug). A param -> generic conversion
 *    (addrspacecast, llvm.nvvm.ptr.param.to.gen: cvta.param) gives an address in a read-only
 *    mirror of the parameter, as on the GPU the generic window of param space is a different
 *    address from the param offset and cannot be written; generic -> param maps the mirror back
 *    and accepts the registered copy itself.
 *  - local (5): generic -> local needs an address on the stack of the current call.
 *  - global (1): generic -> global needs an address off that stack and outside the mirrors.
 *  - shared (3) and generic pointers stay plain host pointers. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* ---- Address spaces ------------------------------------------------------------------------ */

#define DT_MAX_BYVAL 16
#define DT_MIRROR_BYTES (1 << 16)
static struct {
  unsigned char *base;
  long long size;
  long long mirror; /* offset in dt_mirror, or -1 before the first param -> generic conversion */
} dt_params[DT_MAX_BYVAL];
static int dt_nparams;
static unsigned char *dt_mirror; /* read-only except while a mirror is filled */
static long long dt_mirror_used;
static unsigned char *dt_stack_top; /* an address in main's frame: every call's frames lie below */
#define DT_STACK_SPAN (64ll << 20)

static void __attribute__((noreturn, format(printf, 1, 2))) dt_as_fail(const char *fmt, ...);
static void dt_as_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "difftest driver: ADDRSPACE thread (%u,%u,%u) block (%u,%u,%u): ", __dt_tid[0],
          __dt_tid[1], __dt_tid[2], __dt_ctaid[0], __dt_ctaid[1], __dt_ctaid[2]);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stdout);
  exit(3);
}

static void dt_params_reset(void) {
  if (dt_mirror_used) mprotect(dt_mirror, DT_MIRROR_BYTES, PROT_READ);
  dt_nparams = 0;
  dt_mirror_used = 0;
}

static int dt_on_stack(const unsigned char *p) {
  return p < dt_stack_top + 4096 && p > dt_stack_top - DT_STACK_SPAN;
}

/* Kernel entry: one call per byval parameter, in the callee (`p` is this call's copy). */
void __dt_as_register(unsigned char *p, long long size) {
  if (dt_nparams == DT_MAX_BYVAL) {
    fprintf(stderr, "difftest driver: more than %d byval parameters\n", DT_MAX_BYVAL);
    exit(2);
  }
  dt_params[dt_nparams].base = p;
  dt_params[dt_nparams].size = size;
  dt_params[dt_nparams].mirror = -1;
  ++dt_nparams;
}

static int dt_param_of(const unsigned char *p) {
  for (int k = 0; k < dt_nparams; ++k)
    if (p >= dt_params[k].base && p < dt_params[k].base + (dt_params[k].size ? dt_params[k].size : 1))
      return k;
  return -1;
}

static int dt_mirror_of(const unsigned char *p) {
  for (int k = 0; k < dt_nparams; ++k)
    if (dt_params[k].mirror >= 0 && p >= dt_mirror + dt_params[k].mirror &&
        p < dt_mirror + dt_params[k].mirror + (dt_params[k].size ? dt_params[k].size : 1))
      return k;
  return -1;
}

/* llvm.nvvm.internal.addrspace.wrap.p101.p0 */
void *__dt_as_wrap_param(unsigned char *p) {
  if (dt_param_of(p) >= 0) return p;
  if (dt_mirror_of(p) >= 0)
    dt_as_fail("param-space wrap of %p, a generic pointer into by-value parameter %d (cvta.param "
               "result), not the parameter", (void *)p, dt_mirror_of(p));
  dt_as_fail("param-space wrap of %p, which is no by-value kernel parameter of this call (%s)",
             (void *)p, dt_on_stack(p) ? "a local/stack address" : "not on the stack");
}

/* param -> generic (addrspacecast, llvm.nvvm.ptr.param.to.gen): cvta.param */
void *__dt_as_param_to_gen(unsigned char *p) {
  int k = dt_param_of(p);
  if (k < 0)
    dt_as_fail("param -> generic conversion of %p, which is no by-value kernel parameter of this "
               "call", (void *)p);
  if (dt_params[k].mirror < 0) {
    long long need = (dt_params[k].size + 15) & ~15ll;
    if (!dt_mirror) {
      dt_mirror = mmap(0, DT_MIRROR_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (dt_mirror == MAP_FAILED) { perror("mmap"); exit(2); }
    }
    if (dt_mirror_used + need > DT_MIRROR_BYTES) {
      fprintf(stderr, "difftest driver: byval parameters over %d bytes\n", DT_MIRROR_BYTES);
      exit(2);
    }
    mprotect(dt_mirror, DT_MIRROR_BYTES, PROT_READ | PROT_WRITE);
    memcpy(dt_mirror + dt_mirror_used, dt_params[k].base, dt_params[k].size);
    mprotect(dt_mirror, DT_MIRROR_BYTES, PROT_READ);
    dt_params[k].mirror = dt_mirror_used;
    dt_mirror_used += need;
  }
  return dt_mirror + dt_params[k].mirror + (p - dt_params[k].base);
}

/* generic -> param */
void *__dt_as_gen_to_param(unsigned char *p) {
  int k = dt_mirror_of(p);
  if (k >= 0) return dt_params[k].base + (p - (dt_mirror + dt_params[k].mirror));
  if (dt_param_of(p) >= 0) return p;
  dt_as_fail("generic -> param conversion of %p, which is no by-value kernel parameter of this "
             "call", (void *)p);
}

/* generic -> local */
void *__dt_as_gen_to_local(unsigned char *p) {
  if (!dt_on_stack(p))
    dt_as_fail("generic -> local conversion of %p, which is not on this thread's stack%s",
               (void *)p, dt_mirror_of(p) >= 0 ? " (a generic pointer into a by-value parameter)" : "");
  return p;
}

/* generic -> global */
void *__dt_as_gen_to_global(unsigned char *p) {
  if (dt_on_stack(p))
    dt_as_fail("generic -> global conversion of %p, a local/stack address%s", (void *)p,
               dt_param_of(p) >= 0 ? " (a by-value kernel parameter)" : "");
  if (dt_mirror_of(p) >= 0)
    dt_as_fail("generic -> global conversion of %p, a generic pointer into by-value parameter %d",
               (void *)p, dt_mirror_of(p));
  return p;
}

/* The launcher's check that the spec's struct has the kernel's byval type's size. */
static long long dt_struct_bytes[DT_MAX_PARAMS];
void __dt_byval_check(int param, long long size) {
  if (param < 0 || param >= DT_MAX_PARAMS || dt_struct_bytes[param] != size) {
    fprintf(stderr, "difftest driver: the spec's struct for parameter %d is %lld bytes, the kernel's "
            "byval type %lld bytes\n", param, param >= 0 && param < DT_MAX_PARAMS ? dt_struct_bytes[param] : -1, size);
    exit(2);
  }
}

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

static void dt_fill(unsigned char *p, const char *t, long long n, const char *mode, const char *a,
                    const char *b) {
  int sz = dt_size(t);
  long long ia = strtoll(a, 0, 10), ib = strtoll(b, 0, 10);
  for (long long i = 0; i < n; ++i) {
    unsigned char *e = p + i * sz;
    if (!strcmp(mode, "c")) {
      if (!strcmp(t, "f32")) { float v = (float)strtod(a, 0); memcpy(e, &v, 4); }
      else if (!strcmp(t, "f64")) { double v = strtod(a, 0); memcpy(e, &v, 8); }
      else memcpy(e, &ia, sz); /* little-endian truncation */
    } else if (!strcmp(t, "f32") || !strcmp(t, "f64")) {
      long long k = !strcmp(mode, "fr")
                        ? ia * 256 + (long long)(dt_next() % (uint64_t)((ib - ia) * 256 > 0 ? (ib - ia) * 256 : 1))
                        : (long long)(dt_next() % 4096) - 2048;
      if (sz == 4) { float v = (float)k / 256.0f; memcpy(e, &v, 4); }
      else { double v = (double)k / 256.0; memcpy(e, &v, 8); }
    } else {
      long long v = !strcmp(mode, "ramp") ? i * ia : ia + (long long)(dt_next() % (uint64_t)(ib - ia + 1));
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

/* Buffers the kernel can write: top-level buffer parameters and buffers a struct points to. */
#define DT_MAX_BUFS 64
static struct {
  char name[16], type[8];
  long long count;
  unsigned char *base, *orig;
} dt_bufs[DT_MAX_BUFS];
static int dt_nbufs;

static unsigned char *dt_new_buf(const char *name, const char *t, long long count, const char *mode,
                                 const char *a, const char *b) {
  if (dt_nbufs == DT_MAX_BUFS) {
    fprintf(stderr, "difftest driver: more than %d buffers\n", DT_MAX_BUFS);
    exit(2);
  }
  long long bytes = count * dt_size(t);
  unsigned char *base = malloc(bytes + 2 * DT_GUARD), *orig = malloc(bytes + 1);
  memset(base, DT_GUARD_BYTE, bytes + 2 * DT_GUARD);
  dt_fill(base + DT_GUARD, t, count, mode, a, b);
  memcpy(orig, base + DT_GUARD, bytes);
  snprintf(dt_bufs[dt_nbufs].name, sizeof dt_bufs[0].name, "%s", name);
  snprintf(dt_bufs[dt_nbufs].type, sizeof dt_bufs[0].type, "%s", t);
  dt_bufs[dt_nbufs].count = count;
  dt_bufs[dt_nbufs].base = base;
  dt_bufs[dt_nbufs].orig = orig;
  ++dt_nbufs;
  return base + DT_GUARD;
}

/* Splits s at sep into at most n fields (s is modified); returns the number found. */
static int dt_split(char *s, char sep, char **out, int n) {
  int k = 0;
  out[k++] = s;
  for (char *c = s; *c && k < n; ++c)
    if (*c == sep) {
      *c = 0;
      out[k++] = c + 1;
    }
  return k;
}

static void *dt_struct(int param, unsigned long long seed, char *spec) {
  char *parts[3];
  if (dt_split(spec, ':', parts, 3) != 3) {
    fprintf(stderr, "difftest driver: bad struct parameter\n");
    exit(2);
  }
  long long size = strtoll(parts[1], 0, 10);
  dt_struct_bytes[param] = size;
  unsigned char *s = calloc(1, size + 16);
  char *fields[256];
  int nf = *parts[2] ? dt_split(parts[2], '/', fields, 256) : 0;
  for (int f = 0; f < nf; ++f) {
    char *x[7];
    if (dt_split(fields[f], ':', x, 7) != 7) {
      fprintf(stderr, "difftest driver: bad struct field %s\n", fields[f]);
      exit(2);
    }
    long long off = strtoll(x[0], 0, 10), count = strtoll(x[3], 0, 10);
    dt_rng = seed * 1000003ull + (uint64_t)param * 7919ull + (uint64_t)(f + 1) * 104729ull + 1;
    if (x[1][0] == 'p') {
      char name[16];
      snprintf(name, sizeof name, "buf%d.%d", param, f);
      void *p = dt_new_buf(name, x[2], count, x[4], x[5], x[6]);
      memcpy(s + off, &p, sizeof p);
    } else {
      if (off + count * dt_size(x[2]) > size) {
        fprintf(stderr, "difftest driver: struct field %d past the struct's %lld bytes\n", f, size);
        exit(2);
      }
      dt_fill(s + off, x[2], count, x[4], x[5], x[6]);
    }
  }
  return s;
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
  for (int i = 0; i < np; ++i) {
    char *s = argv[9 + i];
    if (s[0] == 's') {
      const char *v = s + 2;
      if (strpbrk(v, ".eEn")) args[i].f = strtod(v, 0);
      else args[i].i = strtoll(v, 0, 10);
      continue;
    }
    if (s[0] == 'v') {
      args[i].p = dt_struct(i, seed, s);
      continue;
    }
    char type[8], mode[8], a[32], b[32];
    long long count;
    if (sscanf(s, "b:%7[^:]:%lld:%7[^:]:%31[^:]:%31s", type, &count, mode, a, b) != 5) {
      fprintf(stderr, "difftest driver: bad parameter %s\n", s);
      return 2;
    }
    dt_rng = seed * 1000003ull + (uint64_t)i * 7919ull + 1;
    char name[16];
    snprintf(name, sizeof name, "buf%d", i);
    args[i].p = dt_new_buf(name, type, count, mode, a, b);
  }
  for (int d = 0; d < 3; ++d) {
    __dt_nctaid[d] = grid[d];
    __dt_ntid[d] = block[d];
  }
  volatile unsigned char frame_mark = 0;
  dt_stack_top = (unsigned char *)&frame_mark;
  for (unsigned bz = 0; bz < grid[2]; ++bz)
    for (unsigned by = 0; by < grid[1]; ++by)
      for (unsigned bx = 0; bx < grid[0]; ++bx)
        for (unsigned tz = 0; tz < block[2]; ++tz)
          for (unsigned ty = 0; ty < block[1]; ++ty)
            for (unsigned tx = 0; tx < block[0]; ++tx) {
              __dt_ctaid[0] = bx, __dt_ctaid[1] = by, __dt_ctaid[2] = bz;
              __dt_tid[0] = tx, __dt_tid[1] = ty, __dt_tid[2] = tz;
              dt_linear_tid = (tz * block[1] + ty) * block[0] + tx;
              dt_params_reset();
              dt_launch(kernel, args);
            }
  for (int i = 0; i < dt_nbufs; ++i) {
    long long changed, bytes = dt_bufs[i].count * dt_size(dt_bufs[i].type);
    unsigned char *base = dt_bufs[i].base;
    uint64_t h = dt_hash(base + DT_GUARD, dt_bufs[i].type, dt_bufs[i].count, &changed, dt_bufs[i].orig);
    printf("%s %s[%lld] %016llx changed %lld\n", dt_bufs[i].name, dt_bufs[i].type, dt_bufs[i].count,
           (unsigned long long)h, changed);
    for (long long k = 0; k < DT_GUARD; ++k)
      if (base[k] != DT_GUARD_BYTE || base[DT_GUARD + bytes + k] != DT_GUARD_BYTE) {
        printf("GUARD %s written out of bounds\n", dt_bufs[i].name);
        break;
      }
  }
  return 0;
}
