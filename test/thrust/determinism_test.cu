// What the policies promise about run-to-run determinism (policy.cuh, README), checked bit for bit:
// the same scan, run many times while another stream keeps part of the GPU busy (so that tiles are
// scheduled differently each time), must give the same bits wherever the documentation says it does:
//  - every family, any n, for operators that are exact on their values (integer sums, non-commutative
//    matrix products mod 2^32);
//  - floating-point sums (plain, by key with float values, through a transform): blelloch and native
//    at any n; turing for n <= (SMs x 4096) items; kepler for n <= 1024;
//  - native, across GPUs: the same bits whatever the number of blocks resident at once (forced to
//    several values by a test hook), as a stand-in for GPUs of other sizes;
//  - native, staged or not (two tiles a block in shared memory, or one in registers);
//  - native, whatever path a tile's items take: 16-byte vectors (one- and two-byte items packed in
//    registers), the same tiles off 16-byte alignment, or a tuning without vectors; by key as well,
//    where keys and values load as vectors or item by item, in one cluster, in a wave or over the
//    look-back.
// Where nothing is promised (turing and kepler floats beyond those sizes) the number of distinct
// results is recorded as a test property, not asserted. Here: every family's promise, and native's
// bits whatever the blocks resident; determinism_routes_test.cu: native's routes over the same tiles;
// determinism_{staged,vectors,by_key,exact}_test.cu: native's load paths, the staged look-back, by key and
// declared operators.
// Six units, so that they compile side by side (as one they were the suite's longest compile).

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda/std/functional>
#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "support/by_key.cuh"
#include "support/cases.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/plan.cuh"
#include "support/policies.cuh"

namespace {

using namespace archscan::test;

constexpr int repetitions = 16;

//! Occupies the blocks it is given for about `ns` nanoseconds (global timer), so that the scan launched
//! next finds a different set of free SMs each time.
__global__ void keep_busy(unsigned long long ns) {
  unsigned long long start = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (;;) {
    unsigned long long now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start >= ns) return;
    __nanosleep(1000);
  }
}

int sm_count() {
  int device = 0, sms = 0;
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  return sms;
}

//! The scan forms a promise covers: inclusive_scan, inclusive_scan_by_key (keys in random runs) and
//! transform_inclusive_scan (each item halved first).
enum class scan_form { plain, by_key, transform };

template <class T>
struct halve {
  __host__ __device__ T operator()(T x) const { return x * T(0.5); }
};

//! Distinct results (as bytes) of `repetitions` inclusive scans of the same input under `Op`.
template <class Policy, class T, scan_form Form = scan_form::plain, class Op>
std::size_t distinct_results(std::int64_t n, Op op, std::uint64_t seed) {
  const auto items = random_values<T>(n, seed);
  device_buffer<T> in(items), out(n);
  device_buffer<int> keys(Form == scan_form::by_key ? random_key_runs(n, seed) : std::vector<int>{});
  cudaStream_t scan_stream = nullptr, busy_stream = nullptr;
  check(cudaStreamCreateWithFlags(&scan_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaStreamCreateWithFlags(&busy_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const int sms = sm_count();
  std::set<std::vector<unsigned char>> seen;
  for (int r = 0; r < repetitions; ++r) {
    out.poison();
    // A different share of the SMs busy, for a different time, each repetition.
    const unsigned busy_blocks = static_cast<unsigned>(1 + (r * 7) % (sms > 1 ? sms : 1));
    keep_busy<<<busy_blocks, 32, 0, busy_stream>>>(2000ull * static_cast<unsigned long long>(1 + r % 5));
    check(cudaGetLastError(), "keep_busy launch");
    if constexpr (Form == scan_form::by_key) {
      thrust::inclusive_scan_by_key(Policy{}.on(scan_stream), keys.begin(), keys.end(), in.begin(), out.begin(),
                                    ::cuda::std::equal_to<int>{}, op);
    } else if constexpr (Form == scan_form::transform) {
      thrust::transform_inclusive_scan(Policy{}.on(scan_stream), in.begin(), in.end(), out.begin(), halve<T>{}, op);
    } else {
      thrust::inclusive_scan(Policy{}.on(scan_stream), in.begin(), in.end(), out.begin(), op);
    }
    check(cudaStreamSynchronize(scan_stream), "scan");
    seen.insert(bytes_of(out.to_host()));
  }
  check(cudaStreamDestroy(scan_stream), "cudaStreamDestroy");
  check(cudaStreamDestroy(busy_stream), "cudaStreamDestroy");
  return seen.size();
}

template <class C>
class DeterminismTest : public ::testing::Test {};
TYPED_TEST_SUITE(DeterminismTest, policy_cases, case_names);

template <class Policy>
using family_of = typename Policy::tuning::family;

//! Floating-point sizes up to which the family promises bitwise repetition (policy.cuh); -1: any n.
template <class Family>
std::int64_t float_promise(int sms);
template <>
std::int64_t float_promise<archscan::blelloch_family>(int) {
  return -1;
}
template <>
std::int64_t float_promise<archscan::turing_family>(int sms) {
  return std::int64_t{sms} * 4096;
}
template <>
std::int64_t float_promise<archscan::kepler_family>(int) {
  return 1024;
}
template <>
std::int64_t float_promise<archscan::native_family>(int) {
  return -1;
}

TYPED_TEST(DeterminismTest, ExactOperatorsRepeatAtAnySize) {
  ARCHSCAN_REQUIRE_GPU();
  using P = typename TypeParam::policy;
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{1} << 20, (std::int64_t{1} << 22) + 1}) {
    EXPECT_EQ(1u, (distinct_results<P, int>(n, ::cuda::std::plus<>{}, 1))) << "int32 sum, n=" << n;
    EXPECT_EQ(1u, (distinct_results<P, mat2>(n, mat2_mul{}, 2))) << "mat2 product, n=" << n;
  }
}

TYPED_TEST(DeterminismTest, FloatingPointRepeatsWherePromised) {
  ARCHSCAN_REQUIRE_GPU();
  using P                         = typename TypeParam::policy;
  const std::int64_t limit        = float_promise<family_of<P>>(sm_count());
  const std::int64_t large        = (std::int64_t{1} << 22) + 1;
  std::vector<std::int64_t> sizes = {1, 1000, 1024};
  if (limit < 0) {
    sizes.push_back(std::int64_t{1} << 20);
    sizes.push_back(large);
  } else if (limit > 1024) {
    sizes.push_back(limit / 3 + 1);
    sizes.push_back(limit);
  }
  for (const std::int64_t n : sizes) {
    EXPECT_EQ(1u, (distinct_results<P, float>(n, ::cuda::std::plus<>{}, 3))) << "float sum, n=" << n;
    EXPECT_EQ(1u, (distinct_results<P, double>(n, ::cuda::std::plus<>{}, 4))) << "double sum, n=" << n;
    // By key and through a transform too (policy.cuh): keyed floats take the 8-byte accumulators' tiles,
    // a transform's values its result type's.
    EXPECT_EQ(1u, (distinct_results<P, float, scan_form::by_key>(n, ::cuda::std::plus<>{}, 6)))
        << "by-key float sum, n=" << n;
    EXPECT_EQ(1u, (distinct_results<P, double, scan_form::transform>(n, ::cuda::std::plus<>{}, 7)))
        << "transform double sum, n=" << n;
  }
  if (limit >= 0) {  // no promise here: what happened is recorded, not asserted
    const std::size_t distinct = distinct_results<P, float>(std::int64_t{1} << 24, ::cuda::std::plus<>{}, 5);
    ::testing::Test::RecordProperty("float_sum_2p24_distinct_of_" + std::to_string(repetitions),
                                    static_cast<int>(distinct));
    std::printf("[ info ] float sum, n=2^24: %zu distinct results in %d runs\n", distinct, repetitions);
  }
}

//! A grid of `Blocks` resident blocks per SM looping over tiles (hooks.cuh), 0: one block per tile.
template <int Blocks>
struct resident_blocks {
  static constexpr int resident_blocks_per_sm = Blocks;
};

template <int Blocks, class T, class Op>
std::vector<T> native_scan_with_resident(const std::vector<T>& items, Op op) {
  using tuning         = std::conditional_t<Blocks == 0, archscan::native_tuning,
                                    archscan::with_hooks<archscan::native_tuning, resident_blocks<Blocks>>>;
  const std::int64_t n = static_cast<std::int64_t>(items.size());
  device_buffer<T> in(items), out(n);
  out.poison();
  thrust::inclusive_scan(archscan::policy<tuning>{}, in.begin(), in.end(), out.begin(), op);
  return out.to_host();
}

//! The association of native's results depends on n and the tuning alone: scans with 1, 2 and 5
//! resident blocks per SM (tiles wait for other tiles in a different order and place each time) give
//! the bits of the default grid of one block per tile.
TEST(NativeDeterminism, SameBitsWhateverTheResidentBlocks) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t n : {std::int64_t{5121}, (std::int64_t{1} << 22) + 7, (std::int64_t{1} << 24) + 3}) {
    const auto f  = random_values<float>(n, 11);
    const auto d  = random_values<double>(n, 12);
    const auto f0 = bytes_of(native_scan_with_resident<0>(f, ::cuda::std::plus<>{}));
    const auto d0 = bytes_of(native_scan_with_resident<0>(d, ::cuda::std::plus<>{}));
    EXPECT_EQ(f0, bytes_of(native_scan_with_resident<1>(f, ::cuda::std::plus<>{}))) << "float, 1 block/SM, n=" << n;
    EXPECT_EQ(f0, bytes_of(native_scan_with_resident<2>(f, ::cuda::std::plus<>{}))) << "float, 2 blocks/SM, n=" << n;
    EXPECT_EQ(f0, bytes_of(native_scan_with_resident<5>(f, ::cuda::std::plus<>{}))) << "float, 5 blocks/SM, n=" << n;
    EXPECT_EQ(d0, bytes_of(native_scan_with_resident<1>(d, ::cuda::std::plus<>{}))) << "double, 1 block/SM, n=" << n;
    EXPECT_EQ(d0, bytes_of(native_scan_with_resident<5>(d, ::cuda::std::plus<>{}))) << "double, 5 blocks/SM, n=" << n;
  }
}

}  // namespace
