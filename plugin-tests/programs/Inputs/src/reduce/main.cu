// nvopt's program-corpus test: sums 2^20 values on the GPU, checks against the CPU.
#include "reduce.h"
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("no CUDA device\n");
    return 0;
  }
  const int n = 1 << 20;
  std::vector<float> x(n);
  double ref = 0;
  for (int i = 0; i < n; ++i)
    ref += x[i] = (i % 1000) * 0.25f;
  double got = gpu_sum(x.data(), n);
  printf("sum %.3f reference %.3f\n", got, ref);
  bool ok = fabs(got - ref) <= 1e-6 * fabs(ref);
  printf("Test %s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}
