// detail/problem.cuh: the one description of a scan that every family receives. Host: what a problem's
// parameters make of it (inclusive or exclusive, seeded, seeded on the host or by a source), and the
// identity finish hands back the very accumulator it is given. GPU: a problem's own steps on random
// items, each against the host: load converts an item to the accumulator, seeded folds the seed in on
// the left (a non-commutative operator shows the side) and nothing where there is none, a seed
// source's seed (present or absent) replaces the host's, store writes finish(accumulator), put writes
// as given; nothing past n is written.

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/problem.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace problem_test {

namespace d = archscan::detail;
using accum = long long;

//! Not commutative: which side the seed enters on shows.
struct left_weighted {
  __host__ __device__ accum operator()(accum a, accum b) const { return 3 * a + b; }
};
struct twice_plus_one {
  __host__ __device__ accum operator()(const accum& x) const { return 2 * x + 1; }
};
//! A seed source: ten times the problem's seed, present or not.
struct tenfold_source {
  int valid;
  __device__ d::maybe<accum> operator()(const accum& seed) const { return {10 * seed, valid}; }
};

template <d::scan_kind Kind, bool HasSeed, class Source = d::host_seed>
using problem = d::scan_problem<const int*, accum*, accum, left_weighted, twice_plus_one, Kind, HasSeed, Source>;

TEST(ScanProblem, ParametersMakeTheProblem) {
  using inclusive = problem<d::scan_kind::inclusive, false>;
  using exclusive = problem<d::scan_kind::exclusive, true>;
  using sourced   = problem<d::scan_kind::inclusive, true, tenfold_source>;
  static_assert(!inclusive::exclusive && !inclusive::has_seed && inclusive::host_seeded);
  static_assert(exclusive::exclusive && exclusive::has_seed && exclusive::host_seeded);
  static_assert(!sourced::exclusive && sourced::has_seed && !sourced::host_seeded);
  static_assert(std::is_same_v<exclusive::input_iterator, const int*> &&
                std::is_same_v<exclusive::output_iterator, accum*>);
  static_assert(std::is_same_v<exclusive::accum_type, accum> && std::is_same_v<exclusive::op_type, left_weighted>);
  static_assert(std::is_same_v<exclusive::finish_type, twice_plus_one>);
  SUCCEED();
}

TEST(ScanProblem, IdentityFinishHandsBackItsArgument) {
  const d::identity_finish finish;
  const double x = 2.5;
  static_assert(std::is_same_v<decltype(finish(x)), const double&>);
  EXPECT_EQ(&finish(x), &x);
}

//! Each item: the seeded accumulator stored at i, and put's value at n + i; item 0 also records the seed.
template <class P>
__global__ void run_steps(P p, accum* put_to, d::maybe<accum>* seed) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= p.n) return;
  p.store(i, p.seeded(p.load(i)));
  P q   = p;
  q.out = put_to;
  q.put(i, -p.load(i));
  if (i == 0) *seed = p.seed_maybe();
}

template <class P>
void expect_steps(P p, const std::vector<int>& items, bool seeded, accum seed_value, const char* what) {
  const std::int64_t n = p.n;
  archscan::test::device_buffer<int> in(items);
  archscan::test::device_buffer<accum> out(n + 1), put_to(n + 1);
  archscan::test::device_buffer<d::maybe<accum>> seed(1);
  out.poison();
  put_to.poison();
  seed.poison();
  p.in  = in.get();
  p.out = out.get();
  run_steps<<<static_cast<unsigned>((n + 127) / 128), 128>>>(p, put_to.get(), seed.get());
  ARCHSCAN_CUDA_OK(cudaGetLastError());
  const auto got = out.to_host(), put = put_to.to_host();
  const auto s = seed.to_host()[0];
  EXPECT_EQ(s.valid != 0, seeded) << what;
  if (seeded) EXPECT_EQ(s.value, seed_value) << what;
  for (std::int64_t i = 0; i < n; ++i) {
    const accum x = items[i];
    ASSERT_EQ(got[i], twice_plus_one{}(seeded ? left_weighted{}(seed_value, x) : x)) << what << ", item " << i;
    ASSERT_EQ(put[i], -x) << what << ", item " << i;
  }
  std::vector<unsigned char> tail(sizeof(accum), 0xA5);
  EXPECT_EQ(std::memcmp(&got[n], tail.data(), sizeof(accum)), 0) << what << ": written past n";
  EXPECT_EQ(std::memcmp(&put[n], tail.data(), sizeof(accum)), 0) << what << ": put past n";
}

TEST(ScanProblem, StepsLoadSeedFinishAndStore) {
  ARCHSCAN_REQUIRE_GPU();
  const std::int64_t n = 3001;
  const auto items     = archscan::test::random_values<int>(n, 5);
  const accum seed     = 1 + static_cast<accum>(items[7] + 1000);  // any value, never 0
  using P_none         = problem<d::scan_kind::inclusive, false>;
  using P_host         = problem<d::scan_kind::exclusive, true>;
  using P_source       = problem<d::scan_kind::inclusive, true, tenfold_source>;
  expect_steps(P_none{nullptr, nullptr, n, {}, {}, seed, {}}, items, false, 0, "no seed");
  expect_steps(P_host{nullptr, nullptr, n, {}, {}, seed, {}}, items, true, seed, "the host's seed");
  expect_steps(P_source{nullptr, nullptr, n, {}, {}, seed, {1}}, items, true, 10 * seed, "a source's seed");
  expect_steps(P_source{nullptr, nullptr, n, {}, {}, seed, {0}}, items, false, 0, "a source's absent seed");
}

}  // namespace problem_test
