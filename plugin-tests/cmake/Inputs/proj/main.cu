#include <cstdio>
#include <cuda_runtime.h>

void launch_scale(float *x, float a, int n);

// Without a GPU the runtime reports no device: the program says so and exits 0, so the test
// can run it on a machine without one.
int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  float *x = nullptr;
  cudaMalloc(&x, 1024 * sizeof(float));
  launch_scale(x, 2.0f, 1024);
  cudaError_t err = cudaDeviceSynchronize();
  cudaFree(x);
  std::printf("%s\n", err == cudaSuccess ? "PASS" : cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}
