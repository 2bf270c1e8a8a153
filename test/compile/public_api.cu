// Compile-only: every scan-family overload of Thrust with every archscan policy form (plain, .on(stream),
// allocator, _nosync), with functors spelled the way current CCCL recommends (cuda::std::plus,
// cuda::std::equal_to, user lambdas-free functors). tools/check_warnings.sh compiles this file with
// warnings on against a CCCL and fails on any warning whose location is in include/archscan/: archscan's
// own headers must compile cleanly on every CCCL it supports. Never run.

#include <cstddef>

#include <cuda/std/functional>
#include <thrust/device_vector.h>
#include <thrust/device_allocator.h>

#include <archscan/archscan.cuh>

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

template <class Policy>
void every_form(const Policy& p, cudaStream_t s, thrust::device_vector<int>& k, thrust::device_vector<int>& v,
                thrust::device_vector<int>& o) {
  thrust::device_allocator<char> alloc;
  every_overload(p, k, v, o);
  every_overload(p.on(s), k, v, o);
  every_overload(p(alloc), k, v, o);
  every_overload(p(alloc).on(s), k, v, o);
}

}  // namespace

void archscan_public_api(cudaStream_t s, thrust::device_vector<int>& k, thrust::device_vector<int>& v,
                         thrust::device_vector<int>& o) {
  every_form(archscan::blelloch, s, k, v, o);
  every_form(archscan::blelloch_nosync, s, k, v, o);
  every_form(archscan::kepler, s, k, v, o);
  every_form(archscan::kepler_nosync, s, k, v, o);
  every_form(archscan::turing, s, k, v, o);
  every_form(archscan::turing_nosync, s, k, v, o);
  every_form(archscan::native, s, k, v, o);
  every_form(archscan::native_nosync, s, k, v, o);
}
