// nccl.cuh: scans across the ranks of an NCCL communicator (`policy.on(stream).across(comm)`): each rank scans
// its slice of one global sequence, and its results must equal the same Thrust call on one GPU over
// the whole sequence (thrust::cuda::par, the oracle; bitwise for exact types, within the stated
// tolerance for floating point), and for by-key scans a host reference too. Every one of the sixteen
// overloads, even, uneven and empty slices, non-commutative operators, a 300-byte type, in place,
// floating-point repeatability, graph capture, disagreeing ranks, and more than 2^31 items in total.
//
// Modes (support/ranks.cuh): threads, one per visible GPU (ctest: thrust_across_ranks_test.*), and
// processes, one per rank (ctest: thrust_across_processes, 2 ranks). With one GPU the tests run on a
// communicator of one rank; without a GPU they skip.

#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <archscan/nccl.cuh>

#include "support/by_key.cuh"
#include "support/compare.cuh"
#include "support/ranks.cuh"
#include "support/values.cuh"

namespace {

using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::rank_env;

//! 300 bytes: a record of more than one 256-byte slot.
struct wide {
  std::uint32_t v[75];
  __host__ __device__ friend bool operator==(const wide& a, const wide& b) {
    for (int i = 0; i < 75; ++i)
      if (a.v[i] != b.v[i]) return false;
    return true;
  }
};
std::ostream& operator<<(std::ostream& os, const wide& w) { return os << "wide{" << w.v[0] << ", ...}"; }
struct wide_plus {
  __host__ __device__ wide operator()(const wide& a, const wide& b) const {
    wide r;
    for (int i = 0; i < 75; ++i) r.v[i] = a.v[i] + b.v[i];
    return r;
  }
};

struct negate {
  __host__ __device__ int operator()(int x) const { return -x; }
};

//! Slices of `total` items over `ranks` ranks: rank r holds [bounds[r], bounds[r + 1]).
enum class split { even, first_empty, last_empty, uneven, first_single };
std::vector<std::int64_t> bounds_of(std::int64_t total, int ranks, split how) {
  std::vector<std::int64_t> w(static_cast<std::size_t>(ranks), 1);
  if (how == split::first_empty) w[0] = 0;
  if (how == split::last_empty && ranks > 1) w.back() = 0;
  if (how == split::uneven)
    for (int r = 0; r < ranks; ++r) w[static_cast<std::size_t>(r)] = 1 + 3 * r;
  std::int64_t sum = 0;
  for (auto x : w) sum += x;
  std::vector<std::int64_t> b(static_cast<std::size_t>(ranks) + 1, 0);
  for (int r = 0; r < ranks; ++r)
    b[static_cast<std::size_t>(r) + 1] =
        b[static_cast<std::size_t>(r)] + total * w[static_cast<std::size_t>(r)] / (sum > 0 ? sum : 1);
  b.back() = total;
  if (how == split::first_single && total > 0 && ranks > 1) b[1] = 1;
  return b;
}
const split every_split[] = {split::even, split::first_empty, split::last_empty, split::uneven, split::first_single};
// Per rank, the first pass's totals go into the record (a few tiles: up to ~40000 items here) or are
// folded first (the two largest), for every accumulator here.
const std::int64_t totals[] = {0, 1, 2, 1000, 5121, 40000, (1 << 18) + 3, (1 << 20) + 5};

template <class T>
std::vector<T> slice_of(const std::vector<T>& v, std::int64_t b, std::int64_t e) {
  return std::vector<T>(v.begin() + b, v.begin() + e);
}

template <class T>
std::vector<T> to_host(const thrust::device_vector<T>& d) {
  std::vector<T> h(d.size());
  thrust::copy(d.begin(), d.end(), h.begin());
  return h;
}

//! Runs `call(policy, keys, values, n, out)` across the ranks with Policy, and with thrust::cuda::par on
//! the whole sequence; compares each rank's slice (and with `reference`, when given, the host's).
template <class T>
std::vector<T> values_of(std::int64_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, wide>) {
    const std::vector<int> lanes = archscan::test::random_values<int>(n * 75, seed);
    std::vector<wide> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i)
      for (int l = 0; l < 75; ++l) v[i].v[l] = static_cast<std::uint32_t>(lanes[i * 75 + l]);
    return v;
  } else {
    return archscan::test::random_values<T>(n, seed);
  }
}

template <class T>
using reference_fn = std::function<std::vector<T>(const std::vector<int>&, const std::vector<T>&)>;

template <class T, class Policy, class Call>
void expect_matches_one_gpu(const char* what, Policy policy, Call call, reference_fn<T> reference = {}) {
  using Out = T;
  for (const std::int64_t total : totals) {
    const std::vector<int> keys = archscan::test::random_key_runs(total, 7 + total);
    const std::vector<T> values = values_of<T>(total, 11 + total);
    const std::vector<Out> host = reference ? reference(keys, values) : std::vector<Out>{};
    for (const split how : every_split) {
      archscan::test::on_every_rank([&](const rank_env& env) {
        const auto b          = bounds_of(total, env.ranks, how);
        const std::int64_t lo = b[static_cast<std::size_t>(env.rank)], hi = b[static_cast<std::size_t>(env.rank) + 1];
        thrust::device_vector<int> d_keys(keys.begin() + lo, keys.begin() + hi);
        thrust::device_vector<T> d_values(values.begin() + lo, values.begin() + hi);
        thrust::device_vector<Out> d_out(static_cast<std::size_t>(hi - lo));
        thrust::fill(d_out.begin(), d_out.end(), Out{});  // poisoned below, byte by byte
        // On the rank's stream: it does not wait for the legacy default stream (cudaStreamNonBlocking),
        // so a cudaMemset there could land after the call's first work (an in-place copy) began.
        ASSERT_EQ(cudaSuccess, cudaMemsetAsync(thrust::raw_pointer_cast(d_out.data()), 0xA5,
                                               sizeof(Out) * static_cast<std::size_t>(hi - lo), env.stream));
        call(policy.on(env.stream).across(env.comm), thrust::raw_pointer_cast(d_keys.data()),
             thrust::raw_pointer_cast(d_values.data()), hi - lo, thrust::raw_pointer_cast(d_out.data()));
        ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(env.stream));
        const std::vector<Out> got = to_host(d_out);

        thrust::device_vector<int> all_keys(keys);
        thrust::device_vector<T> all_values(values);
        thrust::device_vector<Out> all_out(values.size());
        call(thrust::cuda::par.on(env.stream), thrust::raw_pointer_cast(all_keys.data()),
             thrust::raw_pointer_cast(all_values.data()), total, thrust::raw_pointer_cast(all_out.data()));
        ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(env.stream));
        const std::vector<Out> oracle = slice_of(to_host(all_out), lo, hi);
        const std::string where       = std::string(what) + ", rank " + std::to_string(env.rank) + " of " +
                                  std::to_string(env.ranks) + ", items [" + std::to_string(lo) + ", " +
                                  std::to_string(hi) + ") of " + std::to_string(total) + ", split " +
                                  std::to_string(static_cast<int>(how));
        std::vector<double> scale;
        if constexpr (std::is_floating_point_v<Out>) scale = slice_of(archscan::test::magnitude_prefix(values), lo, hi);
        EXPECT_TRUE(archscan::test::matches_reference(where + " vs thrust::cuda::par on one GPU", got, oracle, scale));
        if (reference) EXPECT_TRUE(archscan::test::matches_reference(where + " vs host", got, slice_of(host, lo, hi)));
      });
    }
  }
}

template <class T, class Op>
std::vector<T> by_key_reference(const std::vector<int>& keys, const std::vector<T>& values, bool exclusive, T init,
                                Op op) {
  return archscan::test::host_scan_by_key(keys, values, op, std::equal_to<int>(), exclusive, init);
}

template <class Policy>
class AcrossRanks : public ::testing::Test {};
using policies =
    ::testing::Types<archscan::policy<archscan::native_tuning>, archscan::policy<archscan::native_tuning, false>>;
TYPED_TEST_SUITE(AcrossRanks, policies);

TYPED_TEST(AcrossRanks, InclusiveScan) {
  ARCHSCAN_REQUIRE_RANKS();
  const TypeParam p{};
  expect_matches_one_gpu<int>("inclusive_scan", p, [](auto q, const int*, const int* in, std::int64_t n, int* out) {
    thrust::inclusive_scan(q, in, in + n, out);
  });
  expect_matches_one_gpu<mat2>("inclusive_scan op (2x2 matrix product)", p,
                               [](auto q, const int*, const mat2* in, std::int64_t n, mat2* out) {
                                 thrust::inclusive_scan(q, in, in + n, out, mat2_mul{});
                               });
  expect_matches_one_gpu<int>("inclusive_scan init op", p,
                              [](auto q, const int*, const int* in, std::int64_t n, int* out) {
                                thrust::inclusive_scan(q, in, in + n, out, 7, thrust::maximum<int>());
                              });
  expect_matches_one_gpu<wide>("inclusive_scan of a 300-byte type", p,
                               [](auto q, const int*, const wide* in, std::int64_t n, wide* out) {
                                 thrust::inclusive_scan(q, in, in + n, out, wide_plus{});
                               });
}

TYPED_TEST(AcrossRanks, ExclusiveScan) {
  ARCHSCAN_REQUIRE_RANKS();
  const TypeParam p{};
  expect_matches_one_gpu<int>("exclusive_scan", p, [](auto q, const int*, const int* in, std::int64_t n, int* out) {
    thrust::exclusive_scan(q, in, in + n, out);
  });
  expect_matches_one_gpu<int>("exclusive_scan init", p,
                              [](auto q, const int*, const int* in, std::int64_t n, int* out) {
                                thrust::exclusive_scan(q, in, in + n, out, 5);
                              });
  expect_matches_one_gpu<mat2>("exclusive_scan init op (2x2 matrix product)", p,
                               [](auto q, const int*, const mat2* in, std::int64_t n, mat2* out) {
                                 thrust::exclusive_scan(q, in, in + n, out, mat2{2, 1, 0, 1}, mat2_mul{});
                               });
}

TYPED_TEST(AcrossRanks, ScanByKeyRunsCrossRanks) {
  ARCHSCAN_REQUIRE_RANKS();
  const TypeParam p{};
  using V = std::vector<int>;
  expect_matches_one_gpu<int>(
      "inclusive_scan_by_key", p,
      [](auto q, const int* k, const int* in, std::int64_t n, int* out) {
        thrust::inclusive_scan_by_key(q, k, k + n, in, out);
      },
      [](const V& k, const V& v) { return by_key_reference(k, v, false, 0, std::plus<int>()); });
  expect_matches_one_gpu<int>(
      "inclusive_scan_by_key pred", p,
      [](auto q, const int* k, const int* in, std::int64_t n, int* out) {
        thrust::inclusive_scan_by_key(q, k, k + n, in, out, thrust::equal_to<int>());
      },
      [](const V& k, const V& v) { return by_key_reference(k, v, false, 0, std::plus<int>()); });
  expect_matches_one_gpu<mat2>("inclusive_scan_by_key pred op (2x2 matrix product)", p,
                               [](auto q, const int* k, const mat2* in, std::int64_t n, mat2* out) {
                                 thrust::inclusive_scan_by_key(q, k, k + n, in, out, thrust::equal_to<int>(),
                                                               mat2_mul{});
                               });
  expect_matches_one_gpu<int>(
      "exclusive_scan_by_key", p,
      [](auto q, const int* k, const int* in, std::int64_t n, int* out) {
        thrust::exclusive_scan_by_key(q, k, k + n, in, out);
      },
      [](const V& k, const V& v) { return by_key_reference(k, v, true, 0, std::plus<int>()); });
  expect_matches_one_gpu<int>(
      "exclusive_scan_by_key init", p,
      [](auto q, const int* k, const int* in, std::int64_t n, int* out) {
        thrust::exclusive_scan_by_key(q, k, k + n, in, out, 3);
      },
      [](const V& k, const V& v) { return by_key_reference(k, v, true, 3, std::plus<int>()); });
  expect_matches_one_gpu<int>(
      "exclusive_scan_by_key init pred", p,
      [](auto q, const int* k, const int* in, std::int64_t n, int* out) {
        thrust::exclusive_scan_by_key(q, k, k + n, in, out, 3, thrust::equal_to<int>());
      },
      [](const V& k, const V& v) { return by_key_reference(k, v, true, 3, std::plus<int>()); });
  expect_matches_one_gpu<mat2>(
      "exclusive_scan_by_key init pred op (2x2 matrix product)", p,
      [](auto q, const int* k, const mat2* in, std::int64_t n, mat2* out) {
        thrust::exclusive_scan_by_key(q, k, k + n, in, out, mat2{1, 2, 0, 1}, thrust::equal_to<int>(), mat2_mul{});
      });
}

TYPED_TEST(AcrossRanks, TransformScan) {
  ARCHSCAN_REQUIRE_RANKS();
  const TypeParam p{};
  expect_matches_one_gpu<int>("transform_inclusive_scan", p,
                              [](auto q, const int*, const int* in, std::int64_t n, int* out) {
                                thrust::transform_inclusive_scan(q, in, in + n, out, negate{}, thrust::plus<int>());
                              });
  expect_matches_one_gpu<int>("transform_inclusive_scan init", p,
                              [](auto q, const int*, const int* in, std::int64_t n, int* out) {
                                thrust::transform_inclusive_scan(q, in, in + n, out, negate{}, 9, thrust::plus<int>());
                              });
  expect_matches_one_gpu<int>("transform_exclusive_scan", p,
                              [](auto q, const int*, const int* in, std::int64_t n, int* out) {
                                thrust::transform_exclusive_scan(q, in, in + n, out, negate{}, 9, thrust::plus<int>());
                              });
}

TYPED_TEST(AcrossRanks, FloatSumWithinToleranceAndRepeatsBitwise) {
  ARCHSCAN_REQUIRE_RANKS();
  const TypeParam p{};
  expect_matches_one_gpu<float>("inclusive_scan float", p,
                                [](auto q, const int*, const float* in, std::int64_t n, float* out) {
                                  thrust::inclusive_scan(q, in, in + n, out);
                                });
  const std::int64_t total     = (1 << 22) + 17;
  const std::vector<float> all = archscan::test::random_values<float>(total, 5);
  archscan::test::on_every_rank([&](const rank_env& env) {
    const auto b = bounds_of(total, env.ranks, split::uneven);
    thrust::device_vector<float> in(all.begin() + b[env.rank], all.begin() + b[env.rank + 1]);
    thrust::device_vector<float> first(in.size()), again(in.size());
    thrust::inclusive_scan(p.on(env.stream).across(env.comm), in.begin(), in.end(), first.begin());
    for (int run = 0; run < 5; ++run) {
      thrust::inclusive_scan(p.on(env.stream).across(env.comm), in.begin(), in.end(), again.begin());
      ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(env.stream));
      const auto x = to_host(first), y = to_host(again);
      ASSERT_EQ(0, std::memcmp(x.data(), y.data(), sizeof(float) * x.size())) << "rank " << env.rank << ", run " << run;
    }
  });
}

TYPED_TEST(AcrossRanks, InPlace) {
  ARCHSCAN_REQUIRE_RANKS();
  const TypeParam p{};
  expect_matches_one_gpu<int>("inclusive_scan in place", p,
                              [](auto q, const int*, const int* in, std::int64_t n, int* out) {
                                thrust::copy(thrust::cuda::par.on(thrust::cuda_cub::stream(q)), in, in + n, out);
                                thrust::inclusive_scan(q, out, out + n, out);
                              });
  expect_matches_one_gpu<int>("exclusive_scan_by_key over its keys", p,
                              [](auto q, const int* k, const int* in, std::int64_t n, int* out) {
                                thrust::copy(thrust::cuda::par.on(thrust::cuda_cub::stream(q)), k, k + n, out);
                                thrust::exclusive_scan_by_key(q, out, out + n, in, out);
                              });
}

TEST(AcrossRanksFamilies, EveryFamilyScansAcrossRanks) {
  ARCHSCAN_REQUIRE_RANKS();
  auto call = [](auto q, const int*, const int* in, std::int64_t n, int* out) {
    thrust::exclusive_scan(q, in, in + n, out, 1);
  };
  expect_matches_one_gpu<int>("turing", archscan::turing, call);
  expect_matches_one_gpu<int>("kepler", archscan::kepler, call);
  expect_matches_one_gpu<int>("blelloch", archscan::blelloch, call);
}

// A nosync scan across ranks is captured in a CUDA graph, and each launch of the graph gives the result.
TEST(AcrossRanksGraph, NosyncScanIsCaptured) {
  ARCHSCAN_REQUIRE_RANKS();
  const std::int64_t total   = 100003;
  const std::vector<int> all = archscan::test::random_values<int>(total, 3);
  std::vector<int> expected(all.size());
  std::inclusive_scan(all.begin(), all.end(), expected.begin());
  archscan::test::on_every_rank([&](const rank_env& env) {
    const auto b = bounds_of(total, env.ranks, split::uneven);
    thrust::device_vector<int> in(all.begin() + b[env.rank], all.begin() + b[env.rank + 1]);
    thrust::device_vector<int> out(in.size());
    const auto policy = archscan::native_nosync.on(env.stream).across(env.comm);
    // A first call outside the capture: NCCL connects a communicator's ranks at its first collective,
    // and archscan makes its memory pool at its first call; neither may happen while capturing.
    thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin());
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(env.stream));
    cudaGraph_t graph = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamBeginCapture(env.stream, cudaStreamCaptureModeThreadLocal));
    try {
      thrust::inclusive_scan(policy, in.begin(), in.end(), out.begin());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "rank " << env.rank << ": the captured call threw: " << e.what();
    }
    ASSERT_EQ(cudaSuccess, cudaStreamEndCapture(env.stream, &graph));  // ends the capture whatever happened
    cudaGraphExec_t exec = nullptr;
    ASSERT_EQ(cudaSuccess, cudaGraphInstantiate(&exec, graph, 0));
    for (int launch = 0; launch < 2; ++launch) {
      cudaMemsetAsync(thrust::raw_pointer_cast(out.data()), 0xA5, sizeof(int) * out.size(), env.stream);
      ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, env.stream));
      ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(env.stream));
      EXPECT_TRUE(archscan::test::matches_reference(
          "graph launch " + std::to_string(launch) + ", rank " + std::to_string(env.rank), to_host(out),
          slice_of(expected, b[env.rank], b[env.rank + 1])));
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  });
}

// The blocking form returns with the result in memory: a copy on an unrelated non-blocking stream,
// made straight after the call, reads it.
TEST(AcrossRanksBlocking, ResultIsReadyOnReturn) {
  ARCHSCAN_REQUIRE_RANKS();
  const std::int64_t total        = (std::int64_t{1} << 25) + 3;
  const std::vector<unsigned> all = archscan::test::random_values<unsigned>(total, 5);
  std::vector<unsigned> expected(all.size());
  std::inclusive_scan(all.begin(), all.end(), expected.begin());
  archscan::test::on_every_rank([&](const rank_env& env) {
    const auto b          = bounds_of(total, env.ranks, split::uneven);
    const std::int64_t lo = b[env.rank], n = b[env.rank + 1] - lo;
    thrust::device_vector<unsigned> in(all.begin() + lo, all.begin() + lo + n);
    thrust::device_vector<unsigned> out(static_cast<std::size_t>(n));
    cudaMemset(thrust::raw_pointer_cast(out.data()), 0xA5, sizeof(unsigned) * n);
    cudaDeviceSynchronize();
    cudaStream_t other = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    std::vector<unsigned> got(static_cast<std::size_t>(n));
    thrust::inclusive_scan(archscan::native.on(env.stream).across(env.comm), in.begin(), in.end(), out.begin());
    ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(got.data(), thrust::raw_pointer_cast(out.data()), sizeof(unsigned) * n,
                                           cudaMemcpyDeviceToHost, other));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(other));
    cudaStreamDestroy(other);
    EXPECT_TRUE(
        archscan::test::matches_reference("rank " + std::to_string(env.rank), got, slice_of(expected, lo, lo + n)));
  });
}

// Ranks that call different scans (here: different accumulator types) get an error, not a wrong result.
TEST(AcrossRanksErrors, RanksThatDisagreeThrow) {
  ARCHSCAN_REQUIRE_RANKS();
  if (archscan::test::rank_count() < 2) GTEST_SKIP() << "needs two ranks";
  archscan::test::on_every_rank([&](const rank_env& env) {
    const auto policy = archscan::native.on(env.stream).across(env.comm);
    thrust::device_vector<int> i(1000, 1);
    thrust::device_vector<float> f(1000, 1.0f);
    if (env.rank == 0) {
      EXPECT_THROW(thrust::inclusive_scan(policy, i.begin(), i.end(), i.begin()), thrust::system_error);
    } else {
      EXPECT_THROW(thrust::inclusive_scan(policy, f.begin(), f.end(), f.begin()), thrust::system_error);
    }
  });
}

TEST(AcrossRanksErrors, CommunicatorOfAnotherDeviceThrows) {
  ARCHSCAN_REQUIRE_RANKS();
  if (archscan::test::this_process().ranks > 0 || archscan::test::rank_count() < 2)
    GTEST_SKIP() << "needs two ranks in one process";
  ASSERT_EQ(cudaSuccess, cudaSetDevice(0));
  thrust::device_vector<int> v(10, 1);
  EXPECT_THROW(thrust::inclusive_scan(archscan::native.across(archscan::test::communicators()[1]), v.begin(), v.end(),
                                      v.begin()),
               thrust::system_error);
}

// More than 2^31 items in total: item i of the global sequence is i mod 3 (no input memory), and every
// result is checked on the device against the closed form of the prefix sum.
struct mod3 {
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i % 3; }
};
struct prefix_mismatch {
  const std::int64_t* out;
  std::int64_t lo;
  __device__ bool operator()(std::int64_t j) const {
    const std::int64_t count = lo + j + 1, q = count / 3, r = count % 3;
    return out[j] != 3 * q + (r == 2 ? 1 : 0);
  }
};
TEST(AcrossRanksLarge, MoreThan2To31ItemsInTotal) {
  ARCHSCAN_REQUIRE_RANKS();
  const std::int64_t total = (std::int64_t{1} << 31) + 5;
  archscan::test::on_every_rank([&](const rank_env& env) {
    const auto b          = bounds_of(total, env.ranks, split::even);
    const std::int64_t lo = b[env.rank], n = b[env.rank + 1] - lo;
    thrust::device_vector<std::int64_t> out(static_cast<std::size_t>(n));
    thrust::counting_iterator<std::int64_t> first(lo);
    thrust::transform_inclusive_scan(archscan::native.on(env.stream).across(env.comm), first, first + n, out.begin(),
                                     mod3{}, thrust::plus<std::int64_t>());
    const auto bad = thrust::count_if(thrust::cuda::par.on(env.stream), thrust::counting_iterator<std::int64_t>(0),
                                      thrust::counting_iterator<std::int64_t>(n),
                                      prefix_mismatch{thrust::raw_pointer_cast(out.data()), lo});
    EXPECT_EQ(0, bad) << "rank " << env.rank << ": items [" << lo << ", " << lo + n << ")";
  });
}

}  // namespace

int main(int argc, char** argv) { return archscan::test::ranks_main(argc, argv); }
