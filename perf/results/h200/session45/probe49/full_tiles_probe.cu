// Session 45, probe 49: does a cluster of full tiles beat a wave of small ones now that a cluster
// meets once? native_tuning against the same with full_tiles_max_extra_bytes = 48 KiB (which moves
// int16 at 2^16..2^17-ish and by-key 8-byte values at 2^15..2^16 from a wave of small tiles to one
// cluster of full tiles). CUDA events, 5 warm-up calls, median of 41 timed calls, the two tunings
// and a cudaMemcpyAsync of the same bytes alternated call by call. Integer sums: the variant's
// results are checked equal to native's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <archscan/archscan.cuh>

struct full_48k : archscan::native_tuning {
  static constexpr int full_tiles_max_extra_bytes = 48 * 1024;
};

template <class F>
float time_once(F&& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  f();
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms * 1000.0f;
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class V, bool ByKey>
void run(const char* name, std::int64_t n) {
  thrust::device_vector<int> keys(n);
  thrust::device_vector<V> in(n), out_a(n), out_b(n);
  thrust::sequence(keys.begin(), keys.end());
  // keys in runs of 7 (key = i / 7), values i * 3 + 1 (never all zero)
  thrust::transform(keys.begin(), keys.end(), keys.begin(), [] __device__(int i) { return i / 7; });
  thrust::sequence(in.begin(), in.end(), V(1), V(3));
  const std::size_t bytes = (ByKey ? sizeof(int) : 0) + sizeof(V);
  thrust::device_vector<char> copy_src(n * bytes), copy_dst(n * bytes);
  const auto scan = [&](auto policy, thrust::device_vector<V>& out) {
    if constexpr (ByKey) {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), in.begin(), out.begin());
    } else {
      thrust::exclusive_scan(policy, in.begin(), in.end(), out.begin());
    }
  };
  const auto& base = archscan::native_nosync;
  const archscan::policy<full_48k, false> variant{};
  std::vector<float> tb, tv, tc;
  for (int r = 0; r < 46; ++r) {
    const float b = time_once([&] { scan(base, out_a); });
    const float v = time_once([&] { scan(variant, out_b); });
    const float c = time_once([&] {
      cudaMemcpyAsync(thrust::raw_pointer_cast(copy_dst.data()), thrust::raw_pointer_cast(copy_src.data()),
                      n * bytes, cudaMemcpyDeviceToDevice);
    });
    if (r >= 5) {
      tb.push_back(b);
      tv.push_back(v);
      tc.push_back(c);
    }
  }
  const bool same = thrust::equal(out_a.begin(), out_a.end(), out_b.begin());
  const float mb = median(tb), mv = median(tv), mc = median(tc);
  std::printf("| %s | 2^%d | %.2f | %.2f | %.3f | %.2f | %.2f | %s |\n", name,
              static_cast<int>(std::log2(static_cast<double>(n))), mb, mv, mv / mb, mb / mc, mv / mc,
              same ? "equal" : "DIFFER");
}

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s, %d SMs\n\n", prop.name, prop.multiProcessorCount);
  std::printf("| case | n | native (us) | full 48K (us) | variant / native | native x copy | variant x copy | results |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
  for (int round = 0; round < 2; ++round) {
    for (const int e : {14, 15, 16, 17}) run<std::int16_t, false>("int16", std::int64_t{1} << e);
    for (const int e : {14, 15, 16, 17}) run<std::int64_t, true>("by key int64", std::int64_t{1} << e);
    for (const int e : {14, 15, 16, 17}) run<double, true>("by key double", std::int64_t{1} << e);
  }
  return 0;
}
