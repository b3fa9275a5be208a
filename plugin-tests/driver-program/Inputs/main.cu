// Host code of a small program: scale.cu holds the kernel, host.cpp and util.c plain host code.
// Without a GPU the runtime reports no device and the program exits 0 after saying so, so the
// tests can run it on a machine without one; with a GPU it checks the kernel's result.
#include <cstdio>
#include <cuda_runtime.h>

void launch_scale(float *x, float a, int n);
int host_answer();
extern "C" int c_answer(void);

int main() {
  std::printf("host %d %d\n", host_answer(), c_answer());
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  const int n = 1024;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  float *x = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  launch_scale(x, 2.0f, n);
  cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(x);
  for (int i = 0; i < n; ++i)
    if (h[i] != 2.0f * float(i)) {
      std::printf("FAIL at %d\n", i);
      return 1;
    }
  std::printf("PASS\n");
  return 0;
}
