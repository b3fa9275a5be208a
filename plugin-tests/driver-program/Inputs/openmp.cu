// Host OpenMP beside a kernel, as llm.c's matmul programs build (-Xcompiler -fopenmp): the
// pragma must run in parallel (the reduction counts threads) and omp.h must be found.
#include <omp.h>
#include <cstdio>
__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  int threads = 0;
#pragma omp parallel num_threads(3) reduction(+ : threads)
  threads += 1;
  printf("openmp threads %d of %d\n", threads, 3);
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) {
    printf("no CUDA device\n");
    return 0;
  }
  fill<<<1, 32>>>(d);
  printf("%s\n", cudaDeviceSynchronize() == cudaSuccess ? "PASS" : "FAIL");
  return 0;
}
