//! \file archscan-profile: the kernels of one exclusive sum, archscan's and CUB's, for a profiler.
//!   archscan-profile [log2 n = 24]
//! For each of int32 and double: one warm-up call of each, then one call of turing_nosync,
//! kepler_nosync and cub::DeviceScan::ExclusiveSum (preallocated storage), so that e.g.
//!   ncu --clock-control none -k regex:'scan_tiles|chained_scan|DeviceScanKernel' --launch-skip 6 archscan-profile
//! sees the measured launches only. Results are checked against CUB.

#include <cstdio>
#include <cstdlib>

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "common.cuh"

namespace {
using namespace archscan::perf;

template <class T>
bool profile(cudaStream_t s, std::size_t n, bool measured) {
  device_buffer<T> in(n), out(n), ref(n);
  fill_random(in.get(), n, 0x5eedu ^ n, s);
  std::size_t bytes = 0;
  check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s), "cub");
  device_buffer<unsigned char> temp(bytes);
  thrust::exclusive_scan(archscan::turing_nosync.on(s), in.get(), in.get() + n, out.get());
  thrust::exclusive_scan(archscan::kepler_nosync.on(s), in.get(), in.get() + n, out.get());
  check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, in.get(), ref.get(), static_cast<std::int64_t>(n), s), "cub");
  check(cudaStreamSynchronize(s), "sync");
  const bool ok = compare(out.get(), ref.get(), n, s).count == 0;
  if (measured) std::printf("%s n=%zu: %s\n", sizeof(T) == 4 ? "int32" : "double", n, ok ? "ok" : "MISMATCH");
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
      ok &= profile<int>(stream.get(), n, measured);
      ok &= profile<double>(stream.get(), n, measured);
    }
    return ok;
  });
}
