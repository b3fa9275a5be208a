// nvopt's program-corpus test: a program that reads its input file from its working folder
// (packed as data) and writes a result line compared with nvcc's build.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void smooth(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "input.txt";
  FILE *f = fopen(path, "r");
  int n = 0, steps = 0;
  if (!f || fscanf(f, "%d %d", &n, &steps) != 2) {
    printf("cannot read %s\n", path);
    return 2;
  }
  fclose(f);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("no CUDA device\n");
    return 0;
  }
  float *h = new float[n];
  for (int i = 0; i < n; ++i)
    h[i] = (i * 37 % 101) * 0.01f;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice);
  for (int s = 0; s < steps; ++s) {
    smooth<<<(n + 255) / 256, 256>>>(a, b, n);
    float *t = a;
    a = b;
    b = t;
  }
  cudaMemcpy(h, a, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += h[i] * (i % 13);
  printf("weighted sum %.4f after %d steps\n", sum, steps);
  delete[] h;
  return 0;
}
