// The compile-cost benchmark's program (tools/compile_cost.sh): an ordinary Thrust program with eleven
// scan-family calls, every one through the execution policy POLICY (a macro the script sets:
// thrust::cuda::par, then each archscan policy). WITH_ARCHSCAN includes archscan's headers, so that
// the thrust::cuda::par build parses only what a Thrust user's program does. It runs too (a checksum),
// but the benchmark only compiles it: nvcc -O3 -arch=sm_90 -c.

#include <cstdint>
#include <cstdio>

#include <cuda/std/functional>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>
#include <thrust/tuple.h>

#ifdef WITH_ARCHSCAN
#include <archscan/archscan.cuh>
#endif

#ifndef POLICY
#define POLICY thrust::cuda::par
#endif

namespace {

//! A 16-byte user type: a running count and a running sum.
struct count_sum {
  std::int64_t count;
  double sum;
};

struct add_count_sum {
  __host__ __device__ count_sum operator()(const count_sum& a, const count_sum& b) const {
    return {a.count + b.count, a.sum + b.sum};
  }
};

struct to_count_sum {
  __host__ __device__ count_sum operator()(float x) const { return {1, x}; }
};

struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

struct max_of {
  __host__ __device__ int operator()(int a, int b) const { return a < b ? b : a; }
};

//! Elementwise sum of (int, float) pairs, for the zip iterator's scan.
struct add_pairs {
  __host__ __device__ thrust::tuple<int, float> operator()(const thrust::tuple<int, float>& a,
                                                           const thrust::tuple<int, float>& b) const {
    return {thrust::get<0>(a) + thrust::get<0>(b), thrust::get<1>(a) + thrust::get<1>(b)};
  }
};

struct key_of {
  __host__ __device__ int operator()(int i) const { return i / 100; }
};

}  // namespace

int main() {
  constexpr int n = 1 << 20;
  thrust::device_vector<int> ints(n, 1);
  thrust::device_vector<int> int_out(n);
  thrust::device_vector<float> floats(n, 0.5f);
  thrust::device_vector<float> float_out(n);
  thrust::device_vector<std::int64_t> wide_out(n);
  thrust::device_vector<count_sum> pair_out(n);
  const auto keys       = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), key_of{});
  const auto zipped_in  = thrust::make_zip_iterator(ints.begin(), floats.begin());
  const auto zipped_out = thrust::make_zip_iterator(int_out.begin(), float_out.begin());
  double checksum       = 0;

  // 1-3: inclusive and exclusive scans, plain, with an operator, with an initial value and operator.
  thrust::inclusive_scan(POLICY, ints.begin(), ints.end(), int_out.begin());
  checksum += int_out.back();
  thrust::inclusive_scan(POLICY, ints.begin(), ints.end(), int_out.begin(), 7, max_of{});
  checksum += int_out.back();
  thrust::exclusive_scan(POLICY, floats.begin(), floats.end(), float_out.begin(), 1.0f, ::cuda::std::plus<>{});
  checksum += float_out.back();
  // 4: an exclusive scan into a wider type.
  thrust::exclusive_scan(POLICY, ints.begin(), ints.end(), wide_out.begin(), std::int64_t{0});
  checksum += static_cast<double>(wide_out.back());
  // 5-6: by key, both forms.
  thrust::inclusive_scan_by_key(POLICY, keys, keys + n, floats.begin(), float_out.begin());
  checksum += float_out.back();
  thrust::exclusive_scan_by_key(POLICY, keys, keys + n, ints.begin(), int_out.begin(), 3, ::cuda::std::equal_to<>{},
                                max_of{});
  checksum += int_out.back();
  // 7-8: transform scans, both forms.
  thrust::transform_inclusive_scan(POLICY, floats.begin(), floats.end(), float_out.begin(), square{},
                                   ::cuda::std::plus<>{});
  checksum += float_out.back();
  thrust::transform_exclusive_scan(POLICY, floats.begin(), floats.end(), float_out.begin(), square{}, 0.0f,
                                   ::cuda::std::plus<>{});
  checksum += float_out.back();
  // 9: a zip iterator in and out.
  thrust::inclusive_scan(POLICY, zipped_in, zipped_in + n, zipped_out, add_pairs{});
  checksum += int_out.back() + float_out.back();
  // 10: a transform iterator in.
  const auto squares = thrust::make_transform_iterator(floats.begin(), square{});
  thrust::exclusive_scan(POLICY, squares, squares + n, float_out.begin());
  checksum += float_out.back();
  // 11: the 16-byte user type.
  const auto pairs = thrust::make_transform_iterator(floats.begin(), to_count_sum{});
  thrust::inclusive_scan(POLICY, pairs, pairs + n, pair_out.begin(), add_count_sum{});
  const count_sum last = pair_out.back();
  checksum += static_cast<double>(last.count) + last.sum;

  std::printf("checksum %.1f\n", checksum);
  return 0;
}
