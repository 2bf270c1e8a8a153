// Compiles and links against an installed archscan (tools/consumer_check.sh); CI never runs it.
#include <archscan/archscan.cuh>

#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <cstdio>

int main() {
  constexpr int n = 1 << 10;
  cudaStream_t stream{};
  if (cudaStreamCreate(&stream) != cudaSuccess) {
    std::puts("no usable CUDA device");
    return 1;
  }

  thrust::device_vector<int> in(n, 1);
  thrust::device_vector<int> out(n);
  thrust::exclusive_scan(archscan::turing.on(stream), in.begin(), in.end(), out.begin(), 0, cuda::std::plus<>{});

  thrust::host_vector<int> h_keys(n);
  for (int i = 0; i < n; ++i) {
    h_keys[i] = i / 100;
  }
  thrust::device_vector<int> keys = h_keys;
  thrust::device_vector<int> sums(n);
  thrust::inclusive_scan_by_key(archscan::blelloch, keys.begin(), keys.end(), in.begin(), sums.begin(),
                                cuda::std::equal_to<>{}, cuda::std::plus<>{});

  const int last_exclusive = out[n - 1];
  const int last_by_key    = sums[n - 1];
  cudaStreamDestroy(stream);
  // n - 1 ones before the last item; the last key (n - 1) / 100 holds n - 100 * ((n - 1) / 100) items.
  const bool ok = last_exclusive == n - 1 && last_by_key == n - 100 * ((n - 1) / 100);
  std::printf("archscan consumer: %s\n", ok ? "ok" : "wrong result");
  return ok ? 0 : 1;
}
