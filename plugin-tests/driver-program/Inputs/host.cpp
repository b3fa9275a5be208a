#include <cuda_runtime.h> // nvcc gives its host compiler the CUDA headers too
#include <vector>

int host_answer() { return int(std::vector<int>(42).size()); }
