// Compile-only: the scans called the way older Thrust code calls them, with every functor and
// iterator that CCCL 3.5.0 deprecates but still accepts (thrust::plus ... thrust::minimum, the
// comparisons, thrust::not_fn, thrust::constant_iterator, thrust::strided_iterator,
// thrust::tabulate_output_iterator; thrust::counting_iterator, transform_iterator and the others are
// not deprecated there), under every archscan policy. tools/check_warnings.sh compiles it twice: as
// it is, and with ARCHSCAN_DEPRECATED_REFERENCE defined, which runs the same calls under
// thrust::cuda::par only. Thrust's own path warns about none of them (CCCL's headers are system
// headers); archscan's path must print no warning that Thrust's does not. Never run.

#include <cstddef>

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/scan.h>
#if __has_include(<thrust/iterator/strided_iterator.h>)  // CCCL 3.1 and later
#include <thrust/iterator/strided_iterator.h>
#endif

#include <archscan/archscan.cuh>

namespace {

using value = long long;

//! The tabulate output iterator's store: writes item i's result.
struct store_at {
  value* out;
  __host__ __device__ void operator()(std::ptrdiff_t i, value x) const { out[i] = x; }
};

template <class Policy>
void deprecated_uses(const Policy& p, thrust::device_vector<int>& k, thrust::device_vector<value>& v,
                     thrust::device_vector<value>& o) {
  const auto n   = static_cast<std::ptrdiff_t>(v.size());
  const auto in  = v.begin();
  const auto out = o.begin();
  // Every deprecated binary operator as the scan's operator.
  thrust::inclusive_scan(p, in, in + n, out, thrust::plus<value>());
  thrust::inclusive_scan(p, in, in + n, out, thrust::minus<value>());
  thrust::inclusive_scan(p, in, in + n, out, thrust::multiplies<value>());
  thrust::inclusive_scan(p, in, in + n, out, thrust::divides<value>());
  thrust::inclusive_scan(p, in, in + n, out, thrust::modulus<value>());
  thrust::exclusive_scan(p, in, in + n, out, value{0}, thrust::maximum<value>());
  thrust::exclusive_scan(p, in, in + n, out, value{0}, thrust::minimum<value>());
  thrust::exclusive_scan(p, in, in + n, out, value{0}, thrust::bit_and<value>());
  thrust::exclusive_scan(p, in, in + n, out, value{0}, thrust::bit_or<value>());
  thrust::exclusive_scan(p, in, in + n, out, value{0}, thrust::bit_xor<value>());
  thrust::inclusive_scan(p, in, in + n, out, thrust::logical_and<value>());
  thrust::inclusive_scan(p, in, in + n, out, thrust::logical_or<value>());
  // The deprecated iterators: constant input, tabulate output, strided input.
  const thrust::constant_iterator<value> ones(1);
  thrust::inclusive_scan(p, ones, ones + n, out, thrust::plus<value>());
  thrust::exclusive_scan(p, thrust::make_constant_iterator(value{2}), thrust::make_constant_iterator(value{2}) + n,
                         thrust::make_tabulate_output_iterator(store_at{thrust::raw_pointer_cast(o.data())}), value{0},
                         thrust::maximum<value>());
#if __has_include(<thrust/iterator/strided_iterator.h>)
  const auto every_other = thrust::make_strided_iterator(in, 2);
  thrust::inclusive_scan(p, every_other, every_other + n / 2, out, thrust::plus<value>());
#endif
  // Every deprecated comparison (and not_fn) as the by-key scans' key predicate.
  const auto keys = k.begin();
  thrust::inclusive_scan_by_key(p, keys, keys + n, in, out, thrust::equal_to<int>(), thrust::plus<value>());
  thrust::inclusive_scan_by_key(p, keys, keys + n, in, out, thrust::not_equal_to<int>(), thrust::maximum<value>());
  thrust::exclusive_scan_by_key(p, keys, keys + n, in, out, value{0}, thrust::greater<int>(), thrust::plus<value>());
  thrust::exclusive_scan_by_key(p, keys, keys + n, in, out, value{0}, thrust::less<int>(), thrust::plus<value>());
  thrust::exclusive_scan_by_key(p, keys, keys + n, in, out, value{0}, thrust::greater_equal<int>(),
                                thrust::minimum<value>());
  thrust::inclusive_scan_by_key(p, keys, keys + n, in, out, thrust::less_equal<int>(), thrust::plus<value>());
  thrust::inclusive_scan_by_key(p, keys, keys + n, in, out, thrust::not_fn(thrust::not_equal_to<int>()),
                                thrust::plus<value>());
  thrust::inclusive_scan_by_key(p, thrust::make_constant_iterator(1), thrust::make_constant_iterator(1) + n, in, out,
                                thrust::equal_to<int>(), thrust::plus<value>());
  // The deprecated unary operators as the transform scans' transform.
  thrust::transform_inclusive_scan(p, in, in + n, out, thrust::negate<value>(), thrust::plus<value>());
  thrust::transform_exclusive_scan(p, in, in + n, out, thrust::negate<value>(), value{0}, thrust::maximum<value>());
  thrust::transform_inclusive_scan(p, ones, ones + n, out, thrust::logical_not<value>(), thrust::plus<value>());
}

}  // namespace

void archscan_deprecated_api(thrust::device_vector<int>& k, thrust::device_vector<value>& v,
                             thrust::device_vector<value>& o) {
#ifdef ARCHSCAN_DEPRECATED_REFERENCE
  deprecated_uses(thrust::cuda::par, k, v, o);
#else
  deprecated_uses(archscan::blelloch, k, v, o);
  deprecated_uses(archscan::blelloch_nosync, k, v, o);
  deprecated_uses(archscan::kepler, k, v, o);
  deprecated_uses(archscan::kepler_nosync, k, v, o);
  deprecated_uses(archscan::turing, k, v, o);
  deprecated_uses(archscan::turing_nosync, k, v, o);
  deprecated_uses(archscan::native, k, v, o);
  deprecated_uses(archscan::native_nosync, k, v, o);
#endif
}
