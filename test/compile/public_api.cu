// Compile-only: every scan-family overload of Thrust with every archscan policy form (plain, .on(stream),
// allocator, _nosync), with functors spelled the way current CCCL recommends (cuda::std::plus,
// cuda::std::equal_to, user lambdas-free functors). tools/check_warnings.sh compiles this file with
// warnings on against a CCCL and fails on any warning whose location is in include/archscan/: archscan's
// own headers must compile cleanly on every CCCL it supports. A user operator declared exactly
// associative (associativity.cuh) takes native's other fold in waves: compiled here too. Never run.

#include <cstddef>

#include <thrust/device_allocator.h>
#include <thrust/device_vector.h>

#include <archscan/archscan.cuh>

#include "every_overload.cuh"

namespace {

using archscan::compile_check::every_overload;

//! A user's sum, declared exact on int below.
struct declared_sum {
  __host__ __device__ int operator()(int a, int b) const { return a + b; }
};

}  // namespace

template <>
struct archscan::exactly_associative<declared_sum, int> : std::true_type {};

namespace {

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
  thrust::inclusive_scan(archscan::native_nosync.on(s), v.begin(), v.end(), o.begin(), declared_sum{});
  thrust::exclusive_scan_by_key(archscan::native.on(s), k.begin(), k.end(), v.begin(), o.begin(), 0,
                                ::cuda::std::equal_to<int>{}, declared_sum{});
}
