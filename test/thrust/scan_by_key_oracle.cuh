#pragma once
// The by-key suite's oracles (declared in scan_by_key.cuh): cub::DeviceScanByKey and
// thrust::cuda::par. Included where they are compiled: scan_by_key_oracles.cu for the typed cases,
// and any unit that checks other value types or operators (scan_by_key_test.cu).

#include <cub/device/device_scan.cuh>
#include <thrust/scan.h>

#include "support/cub.cuh"
#include "thrust/scan_by_key.cuh"

namespace archscan::test::by_key_suite {

template <class T, class Op, class Pred>
void oracle_scan_by_key(device_buffer<int>& keys, device_buffer<T>& in, device_buffer<T>& cub_out,
                        device_buffer<T>& par_out, std::int64_t n, bool exclusive, T init, Op op, Pred pred) {
  if (n > 0) {
    ARCHSCAN_CUDA_OK(cub_two_phase([&](void* d_temp, std::size_t& bytes) {
      if (exclusive) {
        return cub::DeviceScan::ExclusiveScanByKey(d_temp, bytes, keys.get(), in.get(), cub_out.get(), op, init, n,
                                                   pred);
      }
      return cub::DeviceScan::InclusiveScanByKey(d_temp, bytes, keys.get(), in.get(), cub_out.get(), op, n, pred);
    }));
  }
  if (exclusive) {
    thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), par_out.begin(), init, pred,
                                  op);
  } else {
    thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in.begin(), par_out.begin(), pred, op);
  }
}

}  // namespace archscan::test::by_key_suite

//! The explicit instantiation of oracle_scan_by_key for value type T, operator Op and predicate Pred,
//! in namespace archscan::test::by_key_suite: what scan_by_key_oracles*.cu expand for each value type.
#define ARCHSCAN_BY_KEY_ORACLE(T, Op, Pred)                                                                \
  template void oracle_scan_by_key<T, Op, Pred>(device_buffer<int>&, device_buffer<T>&, device_buffer<T>&, \
                                                device_buffer<T>&, std::int64_t, bool, T, Op, Pred);
