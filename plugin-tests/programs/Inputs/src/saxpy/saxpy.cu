// nvopt's program-corpus test (plugin-tests/programs): a self-checking program built by one
// nvcc command line. y = a*x + y on the GPU, checked against the CPU; prints a checksum. The
// check runs on host threads (-Xcompiler -fopenmp, as llm.c's matmul programs build), so every
// build links an OpenMP runtime that the pack ships.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("no CUDA device\n");
    return 0;
  }
  float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 100) * 0.5f;
    y[i] = (i % 7) * 1.0f;
  }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 5; ++rep) {
    cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(n, 3.0f, dx, dy);
  }
  float *r = (float *)malloc(n * sizeof(float));
  cudaMemcpy(r, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  int bad = 0;
#pragma omp parallel for reduction(+ : bad, sum)
  for (int i = 0; i < n; ++i) {
    bad += fabsf(r[i] - (3.0f * x[i] + y[i])) > 1e-5f;
    sum += r[i];
  }
  printf("checksum %.1f\n%s\n", sum, bad ? "FAIL" : "PASS");
  return bad != 0;
}
