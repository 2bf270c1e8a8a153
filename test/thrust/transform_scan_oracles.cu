// The transform scan suite's oracles (transform_scan.cuh), explicitly instantiated once for the typed
// cases of every family's unit (transform_scan_family.cu.in): each value type and operator of
// ARCHSCAN_SCAN_VALUE_OPS (support/cases.cuh).

#include <cstdint>

#include <thrust/functional.h>
#include <thrust/iterator/transform_iterator.h>

#include "support/cub.cuh"
#include "thrust/transform_scan.cuh"

namespace archscan::test::transform_suite {

template <class T, class Op>
void transform_oracle(scan_form f, device_buffer<T>& in, device_buffer<T>& cub_out, device_buffer<T>& par_out,
                      std::int64_t n, T init) {
  using U = twice<T, Op>;
  ARCHSCAN_CUDA_OK(cub_scan(f, thrust::make_transform_iterator(in.get(), U{}), cub_out.get(), Op{}, init, n));
  if (f == scan_form::inclusive) {
    thrust::transform_inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, Op{});
  } else if (f == scan_form::inclusive_init) {
    thrust::transform_inclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, init, Op{});
  } else {
    thrust::transform_exclusive_scan(thrust::cuda::par, in.begin(), in.end(), par_out.begin(), U{}, init, Op{});
  }
}

#define ARCHSCAN_ORACLE(T, Op)                                                                              \
  template void transform_oracle<T, Op>(scan_form, device_buffer<T>&, device_buffer<T>&, device_buffer<T>&, \
                                        std::int64_t, T);
ARCHSCAN_SCAN_VALUE_OPS(ARCHSCAN_ORACLE)
#undef ARCHSCAN_ORACLE

}  // namespace archscan::test::transform_suite
