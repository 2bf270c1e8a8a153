// archscan on one GPU: a plain scan, a by-key scan and a floating-point scan on a stream, each checked
// against the host. Build it with the project (target `exclusive_scan_example`) or alone:
//   nvcc -std=c++17 -arch=native -Iinclude examples/exclusive_scan.cu src/*.cpp -o exclusive_scan
// Prints OK and exits 0 when every result matches; prints the first mismatch and exits 1 otherwise.
// Without a CUDA device it prints one line saying so and exits 0: nothing has been checked then.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

#include <archscan/archscan.cuh>

namespace {

//! A device vector's items on the host, in one copy (a std::vector built from device iterators would
//! read them one by one).
template <class T>
std::vector<T> to_host(const thrust::device_vector<T>& d) {
  const thrust::host_vector<T> h = d;
  return std::vector<T>(h.begin(), h.end());
}

//! The first index where `got` departs from `want` (bit for bit), or -1.
template <class T>
long first_mismatch(const std::vector<T>& want, const thrust::device_vector<T>& d_got) {
  const std::vector<T> got = to_host(d_got);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&want[i], &got[i], sizeof(T)) != 0) return static_cast<long>(i);
  }
  return -1;
}

bool report(const char* what, long at) {
  if (at >= 0) std::printf("%s: mismatch at index %ld\n", what, at);
  return at < 0;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("exclusive_scan example: no CUDA device, nothing run\n");
    return 0;
  }
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  const std::size_t n = std::size_t{1} << 22;
  std::vector<int> h_in(n), h_keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    h_in[i]   = static_cast<int>(static_cast<std::uint32_t>(i * 2654435761u) >> 28);  // 0..15, mixed
    h_keys[i] = static_cast<int>(i / 1000);                                           // runs of 1000 equal keys
  }
  const thrust::device_vector<int> in(h_in), keys(h_keys);
  thrust::device_vector<int> out(n);
  bool ok = true;

  // 1. A plain exclusive sum with an init, on `stream`: archscan's native kernels. A blocking policy
  //    returns with the result ready.
  thrust::exclusive_scan(archscan::native.on(stream), in.begin(), in.end(), out.begin(), 7);
  std::vector<int> want(n);
  std::exclusive_scan(h_in.begin(), h_in.end(), want.begin(), 7);
  ok &= report("exclusive_scan", first_mismatch(want, out));

  // 2. A by-key scan: each run of equal keys starts again from the init (0 here, as in Thrust).
  thrust::exclusive_scan_by_key(archscan::native.on(stream), keys.begin(), keys.end(), in.begin(), out.begin());
  for (std::size_t i = 0; i < n; ++i) want[i] = (i == 0 || h_keys[i] != h_keys[i - 1]) ? 0 : want[i - 1] + h_in[i - 1];
  ok &= report("exclusive_scan_by_key", first_mismatch(want, out));

  // 3. Floating point with native_nosync, which never synchronizes: the caller waits on the stream.
  //    Rounding makes a float sum depend on its association; native fixes every association by tile
  //    indices, so two calls give the same bits.
  const std::size_t m = std::size_t{1} << 20;
  std::vector<float> h_x(m);
  for (std::size_t i = 0; i < m; ++i) h_x[i] = 0.1f * static_cast<float>(h_in[i]) + 0.01f;
  const thrust::device_vector<float> x(h_x);
  thrust::device_vector<float> first(m), second(m);
  thrust::exclusive_scan(archscan::native_nosync.on(stream), x.begin(), x.end(), first.begin());
  thrust::exclusive_scan(archscan::native_nosync.on(stream), x.begin(), x.end(), second.begin());
  cudaStreamSynchronize(stream);
  const std::vector<float> h_first = to_host(first);
  ok &= report("float exclusive_scan, two calls", first_mismatch(h_first, second));
  double prefix = 0;  // the exact sum, nearly: double, in order; items are positive, so no cancellation
  long far      = -1;
  for (std::size_t i = 0; i < m && far < 0; prefix += h_x[i], ++i) {
    if (std::abs(h_first[i] - prefix) > 1e-4 * prefix + 1e-6) far = static_cast<long>(i);
  }
  ok &= report("float exclusive_scan (relative error over 1e-4)", far);

  // Every other Thrust algorithm runs on Thrust's CUDA backend, on the same stream.
  thrust::device_vector<int> sorted(in);
  thrust::sort(archscan::native.on(stream), sorted.begin(), sorted.end());
  const std::vector<int> h_sorted = to_host(sorted);
  if (!std::is_sorted(h_sorted.begin(), h_sorted.end())) {
    std::printf("thrust::sort: not sorted\n");
    ok = false;
  }

  cudaStreamDestroy(stream);
  std::printf(ok ? "OK\n" : "FAILED\n");
  return ok ? 0 : 1;
}
