//! \file archscan-profile: the kernels of one exclusive sum, archscan's and CUB's, for a profiler.
//!   archscan-profile [log2 n = 24]
//! For each of int8, int16, int32 and double (sums typed, so that they accumulate in the item's width):
//! one warm-up call of each, then one call of native_nosync, turing_nosync and
//! cub::DeviceScan::ExclusiveScan (preallocated storage), so that e.g.
//!   ncu --clock-control none -k regex:'scan_tiles|DeviceScanKernel' --launch-skip 12 archscan-profile
//! sees the measured launches only. Results are checked against CUB.

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"

namespace {
using namespace archscan::perf;

template <class T>
const char* name_of() {
  if constexpr (sizeof(T) == 1) return "int8";
  else if constexpr (sizeof(T) == 2) return "int16";
  else if constexpr (sizeof(T) == 4) return "int32";
  else return "double";
}

template <class T>
bool profile(cudaStream_t s, std::size_t n, bool measured) {
  device_buffer<T> in(n), native_out(n), turing_out(n), ref(n);
  fill_random(in.get(), n, 0x5eedu ^ n, s);
  const cuda::std::plus<T> sum;
  const auto count  = static_cast<std::int64_t>(n);
  std::size_t bytes = 0;
  check(cub::DeviceScan::ExclusiveScan(nullptr, bytes, in.get(), ref.get(), sum, T{}, count, s), "cub");
  device_buffer<unsigned char> temp(bytes);
  thrust::exclusive_scan(archscan::native_nosync.on(s), in.get(), in.get() + n, native_out.get(), T{}, sum);
  thrust::exclusive_scan(archscan::turing_nosync.on(s), in.get(), in.get() + n, turing_out.get(), T{}, sum);
  check(cub::DeviceScan::ExclusiveScan(temp.get(), bytes, in.get(), ref.get(), sum, T{}, count, s), "cub");
  check(cudaStreamSynchronize(s), "sync");
  const bool ok = compare(native_out.get(), ref.get(), n, s).count == 0 && compare(turing_out.get(), ref.get(), n, s).count == 0;
  if (measured) std::printf("%s n=%zu: %s\n", name_of<T>(), n, ok ? "ok" : "MISMATCH");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return run_program("archscan-profile", [&](const cudaDeviceProp&) {
    const int lg = argc > 1 ? std::atoi(argv[1]) : 24;
    const std::size_t n = std::size_t{1} << lg;
    stream_handle stream;
    bool ok = true;
    for (bool measured : {false, true}) {  // warm-up round, then the round a profiler should look at
      ok &= profile<std::int8_t>(stream.get(), n, measured);
      ok &= profile<std::int16_t>(stream.get(), n, measured);
      ok &= profile<int>(stream.get(), n, measured);
      ok &= profile<double>(stream.get(), n, measured);
    }
    return ok;
  });
}
