// Compile-only: every scan-family overload across the ranks of a communicator (<archscan/nccl.cuh>),
// blocking and nosync. tools/check_warnings.sh compiles it, where nccl.h is found, as it compiles
// public_api.cu. Never run.

#include <cuda/std/functional>
#include <thrust/device_vector.h>

#include <archscan/nccl.cuh>

namespace {

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

}  // namespace

void archscan_public_api_nccl(cudaStream_t s, ncclComm_t comm, thrust::device_vector<int>& k,
                              thrust::device_vector<int>& v, thrust::device_vector<int>& o) {
  every_overload(archscan::native.on(s).across(comm), k, v, o);
  every_overload(archscan::native_nosync.on(s).across(comm), k, v, o);
  every_overload(archscan::turing.across(comm), k, v, o);
}
