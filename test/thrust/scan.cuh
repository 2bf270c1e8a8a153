#pragma once
// The scan suite's check, shared by scan_test.cu and the scan_<family>.cu files of the same test program
// (generated from scan_family.cu.in): every policy crossed with every value type is too many kernels for
// one translation unit, which compiled for longer than any other in the build; one unit per family
// compiles side by side. run_form runs inclusive_scan (with and without an initial value) or
// exclusive_scan with a policy, against cub::DeviceScan and thrust::cuda::par (oracle_scan) and a
// sequential host reference (scan_results_agree).

#include <cstdint>
#include <string>
#include <vector>

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace archscan::test::scan_suite {

//! cub::DeviceScan into `cub_out` and thrust::cuda::par into `par_out`, both over the n items of `in`.
//! Defined in scan_oracle.cuh and explicitly instantiated once for scan_value_ops (scan_oracles.cu):
//! in each family's unit their kernels would compile again.
template <class T, class Op>
void oracle_scan(scan_form f, device_buffer<T>& in, device_buffer<T>& cub_out, device_buffer<T>& par_out,
                 std::int64_t n, T init, Op op);

template <class C>
void run_form(scan_form f, const std::vector<std::int64_t>& sizes = test_sizes()) {
  using T  = typename C::value;
  using Op = typename C::op;
  const typename C::policy policy{};
  for (const std::int64_t n : sizes) {
    const auto items = random_values<T>(n, static_cast<std::uint64_t>(n) + 7 * static_cast<int>(f));
    const T init     = random_values<T>(1, static_cast<std::uint64_t>(n) + 99)[0];
    device_buffer<T> in(items), out(n), cub_out(n), par_out(n);
    out.poison();
    cub_out.poison();
    par_out.poison();
    oracle_scan(f, in, cub_out, par_out, n, init, Op{});

    T* end = nullptr;
    if (f == scan_form::inclusive) {
      end = thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), Op{});
    } else if (f == scan_form::inclusive_init) {
      end = thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin(), init, Op{});
    } else {
      end = thrust::exclusive_scan(policy, in.begin(), in.end(), out.begin(), init, Op{});
    }
    ASSERT_EQ(end, out.end()) << "n=" << n;
    ASSERT_TRUE((scan_results_agree<T, Op>)("n=" + std::to_string(n), f, items, init, out, cub_out, par_out));
  }
}

}  // namespace archscan::test::scan_suite
