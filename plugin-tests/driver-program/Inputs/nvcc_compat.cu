// Code written for nvcc that clang's CUDA headers alone do not compile: host isfinite and
// min/max at global scope, clock() without <time.h>, assert without <assert.h>, and the
// cache-hinted store __stcs (nvopt-cc includes include/nvopt_nvcc_compat.h first); a
// `register` variable and a narrowing braced initializer (warnings in nvcc, errors in clang).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void store(float *out, float v) { __stcs(out + threadIdx.x, v * threadIdx.x); }

int main() {
  float h = 1.0f;
  clock_t start = clock();
  assert(start >= 0);
  register int three = 3;
  int narrowed[1] = {h * three};
  int small = min(narrowed[0], 7);
  double big = max(2.0, 5.0f);
  std::printf("host %d %g %d\n", small, big, isfinite(h) ? 1 : 0);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  float *d = nullptr, r[32];
  cudaMalloc(&d, sizeof r);
  store<<<1, 32>>>(d, 2.0f);
  cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("%s\n", r[31] == 62.0f ? "PASS" : "FAIL");
  return r[31] == 62.0f ? 0 : 1;
}
