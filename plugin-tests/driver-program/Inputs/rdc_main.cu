// Relocatable device code: the kernel calls twice(), defined in rdc_lib.cu.
#include <cstdio>
#include <cuda_runtime.h>

__device__ float twice(float x);
__global__ void apply(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  float h[32], *x = nullptr;
  for (int i = 0; i < 32; ++i)
    h[i] = float(i);
  cudaMalloc(&x, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  apply<<<1, 32>>>(x);
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(x);
  std::printf("%s\n", h[31] == 62.0f ? "PASS" : "FAIL");
  return h[31] == 62.0f ? 0 : 1;
}
