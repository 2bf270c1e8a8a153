// CUDA minor-version compatibility: built by the newest CUDA compiler on PyPI (tools/cuda_compat.sh
// build, sm_90 machine code, the runtime linked statically) and run on a GPU machine whose driver is
// older (tools/cuda_compat.sh run). Scans several sizes with archscan::native (exclusive, with and
// without an init) and checks each against the host. Prints one line per size, then PASS (exit 0) or
// FAIL (exit 1); without a CUDA device, or when the driver refuses the binary, it prints why and FAIL.

#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <archscan/archscan.cuh>

namespace {

//! A mixed pattern of small values: any lost, doubled or misplaced item changes a sum after it.
long long item(std::size_t i) { return static_cast<long long>((static_cast<std::uint32_t>(i) * 2654435761u) >> 26); }

//! Scans `n` items on `stream` with an init of `init`; returns the first mismatching index or -1.
long long check(std::size_t n, long long init, cudaStream_t stream) {
  std::vector<long long> h_in(n);
  for (std::size_t i = 0; i < n; ++i) h_in[i] = item(i);
  const thrust::device_vector<long long> in(h_in);
  thrust::device_vector<long long> out(n);
  thrust::exclusive_scan(archscan::native.on(stream), in.begin(), in.end(), out.begin(), init);
  std::vector<long long> got(n);
  thrust::copy(out.begin(), out.end(), got.begin());  // one copy (a range constructor reads item by item)
  long long sum = init;
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != sum) return static_cast<long long>(i);
    sum += h_in[i];
  }
  return -1;
}

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is printed, should a scan hang
  int runtime = 0, driver = 0, devices = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  const cudaError_t found = cudaGetDeviceCount(&devices);
  std::printf("cuda_compat: runtime %d, driver %d\n", runtime, driver);
  if (found != cudaSuccess || devices == 0) {
    std::printf("cuda_compat: no usable CUDA device (%s)\nFAIL\n", cudaGetErrorString(found));
    return 1;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("cuda_compat: device 0: %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  bool ok                   = true;
  const std::size_t sizes[] = {1, 1000, 4097, std::size_t{1} << 20, 10'000'019, std::size_t{1} << 26};
  for (const std::size_t n : sizes) {
    for (const long long init : {0LL, -12345LL}) {
      long long at = -1;
      try {
        at = check(n, init, stream);
      } catch (const std::exception& e) {  // thrust::system_error: a launch or copy the driver refused
        std::printf("n=%zu init=%lld: error: %s\n", n, init, e.what());
        ok = false;
        continue;
      }
      const cudaError_t last = cudaGetLastError();
      if (at >= 0 || last != cudaSuccess) {
        std::printf("n=%zu init=%lld: FAIL (first mismatch %lld, %s)\n", n, init, at, cudaGetErrorString(last));
        ok = false;
      } else {
        std::printf("n=%zu init=%lld: ok\n", n, init);
      }
    }
  }
  cudaStreamDestroy(stream);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
