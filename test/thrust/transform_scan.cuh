#pragma once
// The typed transform scan check, shared by the transform_scan_<family>.cu units of one test program
// (generated from transform_scan_family.cu.in; every policy crossed with every value type was the
// suite's longest compile in one unit). run_transform runs transform_inclusive_scan (with and without
// an initial value) or transform_exclusive_scan with a policy, against CUB over a transform iterator
// and thrust::cuda::par (transform_oracle) and a host reference of the transformed items.

#include <cstdint>
#include <string>
#include <vector>

#include <thrust/transform_scan.h>

#include <archscan/archscan.cuh>

#include "support/cases.cuh"
#include "support/compare.cuh"
#include "support/cub.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace archscan::test::transform_suite {

//! A transform that changes every value and keeps the type: x -> x op x for numbers, squares for mat2.
template <class T, class Op>
struct twice {
  __host__ __device__ T operator()(const T& x) const { return static_cast<T>(Op{}(x, x)); }
};

//! CUB over a transform iterator into `cub_out` and thrust::cuda::par into `par_out`, both of the n
//! items of `in` under twice<T, Op>. Defined in transform_scan_oracles.cu and explicitly instantiated
//! there once for scan_value_ops: in each family's unit their kernels would compile again.
template <class T, class Op>
void transform_oracle(scan_form f, device_buffer<T>& in, device_buffer<T>& cub_out, device_buffer<T>& par_out,
                      std::int64_t n, T init);

template <class C>
void run_transform(scan_form f) {
  using T  = typename C::value;
  using Op = typename C::op;
  using U  = twice<T, Op>;
  const typename C::policy policy{};
  for (const std::int64_t n : short_sizes()) {
    const auto items = random_values<T>(n, static_cast<std::uint64_t>(n) + 31);
    const T init     = random_values<T>(1, static_cast<std::uint64_t>(n) + 32)[0];
    std::vector<T> transformed(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) transformed[i] = U{}(items[i]);
    device_buffer<T> in(items), out(n), cub_out(n), par_out(n);
    out.poison();
    cub_out.poison();
    par_out.poison();
    transform_oracle<T, Op>(f, in, cub_out, par_out, n, init);

    T* end = nullptr;
    if (f == scan_form::inclusive) {
      end = thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, Op{});
    } else if (f == scan_form::inclusive_init) {
      end = thrust::transform_inclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, init, Op{});
    } else {
      end = thrust::transform_exclusive_scan(policy, in.begin(), in.end(), out.begin(), U{}, init, Op{});
    }
    ASSERT_EQ(end, out.end());
    ASSERT_TRUE((scan_results_agree<T, Op>)("n=" + std::to_string(n), f, transformed, init, out, cub_out, par_out));
  }
}

}  // namespace archscan::test::transform_suite
