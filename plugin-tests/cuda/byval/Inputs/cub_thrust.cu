// CUB and Thrust reduce and scan, as a program calls them: the host calls instantiate
// cub's DeviceReduceKernel / DeviceScanKernel (which advance by-value parameters).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

float cub_sum(const float *in, float *out, int n, void *tmp, size_t bytes) {
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  return 0;
}

void cub_scan(const int *in, int *out, int n, void *tmp, size_t bytes) {
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
}

float thrust_sum(const float *in, int n) {
  return thrust::reduce(thrust::device, in, in + n, 0.0f);
}

void thrust_scan(const int *in, int *out, int n) {
  thrust::inclusive_scan(thrust::device, in, in + n, out);
}
