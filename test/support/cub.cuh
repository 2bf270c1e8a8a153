#pragma once
// CUB as the oracle: the three scan forms the suite checks, run the documented two-phase way
// (query temporary storage, allocate it, run), and the comparison every scan test ends with.

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/device/device_scan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/device_buffer.cuh"

namespace archscan::test {

enum class scan_form { inclusive, inclusive_init, exclusive_init };

//! `call(d_temp, bytes)` twice: to size CUB's temporary storage, then to run; waits for the result.
template <class Call>
cudaError_t cub_two_phase(Call call) {
  std::size_t bytes = 0;
  cudaError_t e     = call(nullptr, bytes);
  if (e != cudaSuccess) return e;
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  e = call(temp.get(), bytes);
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

//! cub::DeviceScan in the form `f` (init unused by the inclusive form).
template <class In, class T, class Op>
cudaError_t cub_scan(scan_form f, In in, T* out, Op op, const T& init, std::int64_t n) {
  return cub_two_phase([&](void* d_temp, std::size_t& bytes) {
    if (f == scan_form::inclusive) return cub::DeviceScan::InclusiveScan(d_temp, bytes, in, out, op, n);
    if (f == scan_form::inclusive_init) return cub::DeviceScan::InclusiveScanInit(d_temp, bytes, in, out, op, init, n);
    return cub::DeviceScan::ExclusiveScan(d_temp, bytes, in, out, op, init, n);
  });
}

//! Checks archscan's, CUB's and thrust::cuda::par's results of one scan of `items` against the host
//! reference of form `f`, with the floating-point scale of the items (and init, where one is used).
template <class T, class Op>
::testing::AssertionResult scan_results_agree(const std::string& what, scan_form f, const std::vector<T>& items,
                                              const T& init, const device_buffer<T>& ours,
                                              const device_buffer<T>& cub_out, const device_buffer<T>& par_out) {
  const bool has_init = f != scan_form::inclusive;
  const auto ref      = host_scan(items, Op{}, f == scan_form::exclusive_init, has_init, init);
  double init_mag     = 0;
  if constexpr (std::is_arithmetic_v<T>) init_mag = has_init ? std::fabs(static_cast<double>(init)) : 0.0;
  return agree(what, ours.to_host(), cub_out.to_host(), par_out.to_host(), ref, magnitude_prefix(items, init_mag));
}

}  // namespace archscan::test
