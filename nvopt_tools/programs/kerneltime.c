/* kerneltime: a CUPTI injection library that records the GPU time of every kernel a CUDA
 * program launches, without changing the program (nvopt's program corpus, docs/PROGRAMS.md).
 *
 *   cc -O2 -shared -fPIC -I$CUPTI/include -I$CUDA/include kerneltime.c \
 *      -L$CUPTI/lib64 -lcupti -o kerneltime.so
 *   CUDA_INJECTION64_PATH=$PWD/kerneltime.so NVOPT_KERNELTIME_OUT=k.tsv ./program args
 *
 * The CUDA driver loads the library named by CUDA_INJECTION64_PATH when the program first
 * uses CUDA and calls its InitializeInjection. It enables CUPTI's concurrent-kernel, memcpy and
 * memset activity records and, as CUPTI hands back each filled buffer (and at exit, after a
 * flush), appends one line per kernel launch, copy or set to $NVOPT_KERNELTIME_OUT (default
 * kerneltime.<pid>.tsv):
 *
 *   # nvopt-kerneltime 2 pid=PID
 *   # clock cupti_ns=C realtime_ns=R
 *   kernel<TAB>start_ns<TAB>end_ns<TAB>duration_ns<TAB>grid<TAB>block<TAB>regs<TAB>smem<TAB>stream<TAB>corr
 *
 * kernel is the (mangled) name CUPTI reports, grid and block are XxYxZ, smem is static plus
 * dynamic shared memory in bytes; a copy or a set is a line named [memcpy] or [memset] (grid and
 * block "-"). Lines are in completion-buffer order (sort by start_ns). The clock line pairs
 * CUPTI's timestamp with CLOCK_REALTIME, read together at start, so that the device script can
 * put the GPU activity of programs run side by side on one time line and drop the kernels that
 * overlapped another process's work. Set KT_KERNEL_T (KT_MEMCPY_T, KT_MEMSET_T) to the newest
 * CUpti_ActivityKernelN (MemcpyN, MemsetN) of an older CUPTI's header if needed; the fields read
 * here are in every version since 4. Written for nvopt; not NVIDIA code. */
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef KT_KERNEL_T
#define KT_KERNEL_T CUpti_ActivityKernel10
#endif
#ifndef KT_MEMCPY_T
#define KT_MEMCPY_T CUpti_ActivityMemcpy6
#endif
#ifndef KT_MEMSET_T
#define KT_MEMSET_T CUpti_ActivityMemset4
#endif
#define KT_BUFFER (4u << 20)

static FILE *kt_out;
static pthread_mutex_t kt_lock = PTHREAD_MUTEX_INITIALIZER;
static int kt_started;
static unsigned long long kt_records, kt_dropped;

static void kt_warn(const char *what, CUptiResult r) {
  const char *msg = "?";
  cuptiGetResultString(r, &msg);
  fprintf(stderr, "kerneltime: %s: %s\n", what, msg);
}

static void CUPTIAPI kt_request(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = (uint8_t *)aligned_alloc(8, KT_BUFFER);
  *size = *buffer ? KT_BUFFER : 0;
  *max_records = 0;
}

static void CUPTIAPI kt_complete(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                 size_t valid) {
  CUpti_Activity *rec = NULL;
  (void)ctx;
  (void)stream;
  (void)size;
  pthread_mutex_lock(&kt_lock);
  while (kt_out && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY || rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      int copy = rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY;
      unsigned long long start = copy ? ((const KT_MEMCPY_T *)rec)->start
                                      : ((const KT_MEMSET_T *)rec)->start;
      unsigned long long end = copy ? ((const KT_MEMCPY_T *)rec)->end
                                    : ((const KT_MEMSET_T *)rec)->end;
      unsigned stream = copy ? ((const KT_MEMCPY_T *)rec)->streamId
                             : ((const KT_MEMSET_T *)rec)->streamId;
      unsigned corr = copy ? ((const KT_MEMCPY_T *)rec)->correlationId
                           : ((const KT_MEMSET_T *)rec)->correlationId;
      fprintf(kt_out, "%s\t%llu\t%llu\t%llu\t-\t-\t0\t0\t%u\t%u\n",
              copy ? "[memcpy]" : "[memset]", start, end, end - start, stream, corr);
      continue;
    }
    if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const KT_KERNEL_T *k = (const KT_KERNEL_T *)rec;
    fprintf(kt_out, "%s\t%llu\t%llu\t%llu\t%dx%dx%d\t%dx%dx%d\t%u\t%d\t%u\t%u\n",
            k->name ? k->name : "?", (unsigned long long)k->start, (unsigned long long)k->end,
            (unsigned long long)(k->end - k->start), k->gridX, k->gridY, k->gridZ, k->blockX,
            k->blockY, k->blockZ, (unsigned)k->registersPerThread,
            k->staticSharedMemory + k->dynamicSharedMemory, k->streamId, k->correlationId);
    kt_records++;
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
    kt_dropped += dropped;
  if (kt_out)
    fflush(kt_out);
  pthread_mutex_unlock(&kt_lock);
  free(buffer);
}

static void kt_finish(void) {
  if (!kt_started)
    return;
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  pthread_mutex_lock(&kt_lock);
  if (kt_out) {
    fprintf(kt_out, "# end records=%llu dropped=%llu\n", kt_records, kt_dropped);
    fclose(kt_out);
    kt_out = NULL;
  }
  pthread_mutex_unlock(&kt_lock);
}

int InitializeInjection(void) {
  if (kt_started)
    return 1;
  const char *path = getenv("NVOPT_KERNELTIME_OUT");
  char fallback[64];
  if (!path || !*path) {
    snprintf(fallback, sizeof fallback, "kerneltime.%d.tsv", (int)getpid());
    path = fallback;
  }
  kt_out = fopen(path, "w");
  if (!kt_out) {
    perror("kerneltime: cannot write the output file");
    return 0;
  }
  fprintf(kt_out, "# nvopt-kerneltime 2 pid=%d\n", (int)getpid());
  uint64_t cupti_now = 0;
  struct timespec rt;
  if (cuptiGetTimestamp(&cupti_now) == CUPTI_SUCCESS && clock_gettime(CLOCK_REALTIME, &rt) == 0)
    fprintf(kt_out, "# clock cupti_ns=%llu realtime_ns=%llu\n", (unsigned long long)cupti_now,
            (unsigned long long)rt.tv_sec * 1000000000ull + (unsigned long long)rt.tv_nsec);
  fprintf(kt_out, "kernel\tstart_ns\tend_ns\tduration_ns\tgrid\tblock\tregs\tsmem\tstream\tcorr\n");
  fflush(kt_out);
  CUptiResult r = cuptiActivityRegisterCallbacks(kt_request, kt_complete);
  if (r != CUPTI_SUCCESS) {
    kt_warn("cuptiActivityRegisterCallbacks", r);
    return 0;
  }
  r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (r != CUPTI_SUCCESS) {
    kt_warn("cuptiActivityEnable(CONCURRENT_KERNEL)", r);
    return 0;
  }
  /* copies and sets only mark the GPU busy (for the overlap check); a CUPTI without them still
   * times kernels */
  if ((r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY)) != CUPTI_SUCCESS)
    kt_warn("cuptiActivityEnable(MEMCPY)", r);
  if ((r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET)) != CUPTI_SUCCESS)
    kt_warn("cuptiActivityEnable(MEMSET)", r);
  kt_started = 1;
  atexit(kt_finish);
  return 1;
}
