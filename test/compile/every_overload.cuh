#pragma once
// Compile-only: every scan-family overload of Thrust called with one policy (public_api.cu and
// public_api_nccl.cu; tools/check_warnings.sh). Never run.

#include <cuda/std/functional>
#include <thrust/device_vector.h>

namespace archscan::compile_check {

struct twice {
  __host__ __device__ int operator()(int x) const { return 2 * x; }
};

template <class Policy>
void every_overload(const Policy& p, thrust::device_vector<int>& k, thrust::device_vector<int>& v,
                    thrust::device_vector<int>& o) {
  const ::cuda::std::plus<> plus;
  const ::cuda::std::equal_to<> eq;
  thrust::inclusive_scan(p, v.begin(), v.end(), o.begin());
  thrust::inclusive_scan(p, v.begin(), v.end(), o.begin(), plus);
  thrust::inclusive_scan(p, v.begin(), v.end(), o.begin(), 1, plus);
  thrust::exclusive_scan(p, v.begin(), v.end(), o.begin());
  thrust::exclusive_scan(p, v.begin(), v.end(), o.begin(), 1);
  thrust::exclusive_scan(p, v.begin(), v.end(), o.begin(), 1, plus);
  thrust::inclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin());
  thrust::inclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin(), eq);
  thrust::inclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin(), eq, plus);
  thrust::exclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin());
  thrust::exclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin(), 1);
  thrust::exclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin(), 1, eq);
  thrust::exclusive_scan_by_key(p, k.begin(), k.end(), v.begin(), o.begin(), 1, eq, plus);
  thrust::transform_inclusive_scan(p, v.begin(), v.end(), o.begin(), twice{}, plus);
  thrust::transform_inclusive_scan(p, v.begin(), v.end(), o.begin(), twice{}, 1, plus);
  thrust::transform_exclusive_scan(p, v.begin(), v.end(), o.begin(), twice{}, 1, plus);
}

}  // namespace archscan::compile_check
