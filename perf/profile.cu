//! \file archscan-profile: the kernels of one exclusive sum, archscan's and CUB's, for a profiler.
//!   archscan-profile [log2 n = 24]
//! For each of int8, int16, int32 and double (sums typed, so that they accumulate in the item's width):
//! one warm-up call of each, then one call of native_nosync, turing_nosync, for int8 native with its
//! one-byte sums a word at a time (perf/policies.cuh, native_dot_sums), and
//! cub::DeviceScan::ExclusiveScan (preallocated storage); then the same for exclusive by-key sums of
//! int32 and of double values under int32 keys in random runs: native_nosync, native with its look-back
//! folded as a tree (what the deterministic walk costs by key) and cub::DeviceScan::ExclusiveScanByKey; and
//! the 16-byte matrix product (exclusive, non-commutative): native_nosync, native with the tree fold and
//! CUB, whose waves (2^16..2^21 items) are where the ordered fold costs most. The measured round runs
//! between cudaProfilerStart and cudaProfilerStop, so that e.g.
//!   ncu --profile-from-start off --clock-control none -k regex:'scan_(tiles|wave|cluster)|DeviceScan(ByKey)?Kernel'
//!   archscan-profile
//! sees the measured launches only. Results are checked against CUB.

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <cuda_profiler_api.h>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"
#include "policies.cuh"

namespace {
using namespace archscan::perf;

//! native with its look-back and waves folded as a tree: what the deterministic fold costs.
const archscan::policy<native_tree, false> native_tree_nosync{};

template <class T>
const char* name_of() {
  if constexpr (sizeof(T) == 1)
    return "int8";
  else if constexpr (sizeof(T) == 2)
    return "int16";
  else if constexpr (sizeof(T) == 4)
    return "int32";
  else
    return "double";
}

template <class T>
bool profile(cudaStream_t s, std::size_t n, bool measured) {
  device_buffer<T> in(n), native_out(n), turing_out(n), other_out(sizeof(T) == 1 ? n : 0), ref(n);
  fill_random(in.get(), n, 0x5eedu ^ n, s);
  const cuda::std::plus<T> sum;
  const auto count = static_cast<std::int64_t>(n);
  const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveScan(d_temp, bytes, in.get(), ref.get(), sum, T{}, count, s);
  });
  thrust::exclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, native_out.get(), T{}, sum);
  thrust::exclusive_scan(archscan::turing_nosync.on(s), in.get(), in.get() + n, turing_out.get(), T{}, sum);
  bool ok = true;
  if constexpr (sizeof(T) == 1) {  // one-byte sums a word at a time too (perf/policies.cuh)
    thrust::exclusive_scan(nosync_policy<native_dot_sums>.on(s), in.get(), in.get() + n, other_out.get(), T{}, sum);
  }
  cub_scan();
  check(cudaStreamSynchronize(s), "sync");
  if constexpr (sizeof(T) == 1) ok = compare(other_out.get(), ref.get(), n, s).count == 0;
  ok = ok && compare(native_out.get(), ref.get(), n, s).count == 0 &&
       compare(turing_out.get(), ref.get(), n, s).count == 0;
  if (measured) std::printf("%s n=%zu: %s\n", name_of<T>(), n, ok ? "ok" : "MISMATCH");
  return ok;
}

//! Keys in runs of random length (about 4.5 items on average).
struct run_key {
  __host__ __device__ int operator()(std::uint64_t h) const { return static_cast<int>(h % 8 == 0); }
};

template <class V>
bool profile_by_key(cudaStream_t s, std::size_t n, bool measured) {
  device_buffer<int> keys(n);
  device_buffer<V> in(n), native_out(n), tree_out(n), ref(n);
  fill_random(keys.get(), n, 0x6b657973u ^ n, s, run_key{});
  fill_random(in.get(), n, 0x5eedu ^ n, s);
  const cuda::std::plus<V> sum;
  const cuda::std::equal_to<int> same;
  const auto count = static_cast<std::int64_t>(n);
  const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveScanByKey(d_temp, bytes, keys.get(), in.get(), ref.get(), sum, V{}, count, same,
                                               s);
  });
  thrust::exclusive_scan_by_key(archscan::native_nosync.on(s), keys.get(), keys.get() + n, in.get(), native_out.get(),
                                V{}, same, sum);
  thrust::exclusive_scan_by_key(native_tree_nosync.on(s), keys.get(), keys.get() + n, in.get(), tree_out.get(), V{},
                                same, sum);
  cub_scan();
  check(cudaStreamSynchronize(s), "sync");
  const bool ok =
      compare(native_out.get(), ref.get(), n, s).count == 0 && compare(tree_out.get(), ref.get(), n, s).count == 0;
  if (measured) std::printf("by-key %s n=%zu: %s\n", name_of<V>(), n, ok ? "ok" : "MISMATCH");
  return ok;
}

//! The 16-byte product: native's ordered fold against the tree fold (the same tiles) and CUB.
bool profile_product(cudaStream_t s, std::size_t n, bool measured) {
  device_buffer<mat2x2> in(n), native_out(n), tree_out(n), ref(n);
  fill_random(in.get(), n, 0x5eedu ^ n, s, random_mat{});
  const mat2x2 identity{1, 0, 0, 1};
  const auto count = static_cast<std::int64_t>(n);
  const cub_call cub_scan([&](void* d_temp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveScan(d_temp, bytes, in.get(), ref.get(), mat_mul{}, identity, count, s);
  });
  thrust::exclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, native_out.get(), identity, mat_mul{});
  thrust::exclusive_scan(native_tree_nosync.on(s), in.get(), in.get() + n, tree_out.get(), identity, mat_mul{});
  cub_scan();
  check(cudaStreamSynchronize(s), "sync");
  const bool ok =
      compare(native_out.get(), ref.get(), n, s).count == 0 && compare(tree_out.get(), ref.get(), n, s).count == 0;
  if (measured) std::printf("mat2x2 n=%zu: %s\n", n, ok ? "ok" : "MISMATCH");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return run_program("archscan-profile", [&](const cudaDeviceProp&) {
    const int lg        = argc > 1 ? std::atoi(argv[1]) : 24;
    const std::size_t n = std::size_t{1} << lg;
    stream_handle stream;
    bool ok = true;
    for (bool measured : {false, true}) {  // warm-up round, then the round a profiler should look at
      if (measured) check(cudaProfilerStart(), "cudaProfilerStart");
      ok &= profile<std::int8_t>(stream.get(), n, measured);
      ok &= profile<std::int16_t>(stream.get(), n, measured);
      ok &= profile<int>(stream.get(), n, measured);
      ok &= profile<double>(stream.get(), n, measured);
      ok &= profile_by_key<int>(stream.get(), n, measured);
      ok &= profile_by_key<double>(stream.get(), n, measured);
      ok &= profile_product(stream.get(), n, measured);
      if (measured) check(cudaProfilerStop(), "cudaProfilerStop");
    }
    return ok;
  });
}
