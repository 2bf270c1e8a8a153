#pragma once
// The scan suite's oracles (declared in scan.cuh): cub::DeviceScan and thrust::cuda::par. Included where
// they are compiled: scan_oracles.cu for the typed cases, and any unit that checks other value types or
// operators (scan_test.cu).

#include <thrust/scan.h>

#include "thrust/scan.cuh"

namespace archscan::test::scan_suite {

template <class T, class Op>
void oracle_scan(scan_form f, device_buffer<T>& in, device_buffer<T>& cub_out, device_buffer<T>& par_out,
                 std::int64_t n, T init, Op op) {
  ARCHSCAN_CUDA_OK(cub_scan(f, in.get(), cub_out.get(), op, init, n));
  if (f == scan_form::inclusive) {
    thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), op);
  } else if (f == scan_form::inclusive_init) {
    thrust::inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), init, op);
  } else {
    thrust::exclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), init, op);
  }
}

}  // namespace archscan::test::scan_suite
