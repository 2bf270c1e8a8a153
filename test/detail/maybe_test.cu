// detail/maybe.cuh: a value that may be absent and the operator that skips absent values. Host: the flag
// is a full word beside the value (it travels through warp shuffles) and the pair copies as bytes.
// GPU: maybe_op on random pairs, present or not, under a non-commutative operator, against the host's
// rule, and folds of a random sequence with absent items, left to right and as a tree, both equal to
// the host's left fold of the present items in order (absent everywhere: absent).

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/detail/maybe.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"

namespace maybe_test {

using archscan::detail::maybe;
using archscan::detail::maybe_op;

//! x -> a x + b, composed left to right (mod 2^64): associative, not commutative.
struct affine {
  std::uint64_t a, b;
  __host__ __device__ bool operator==(const affine& o) const { return a == o.a && b == o.b; }
};
struct compose {
  __host__ __device__ affine operator()(const affine& f, const affine& g) const { return {f.a * g.a, f.b * g.a + g.b}; }
};
using M = maybe<affine>;

TEST(Maybe, TheFlagIsAWordBesideTheValue) {
  static_assert(std::is_same_v<decltype(M::valid), int>);
  static_assert(std::is_trivially_copyable_v<M> && std::is_trivially_copyable_v<maybe<double>>);
  static_assert(sizeof(maybe<int>) == 2 * sizeof(int));
  static_assert(sizeof(maybe<double>) == 2 * sizeof(double));  // the word, padded to the value's alignment
  SUCCEED();
}

__global__ void combine_pairs(const M* a, const M* b, M* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = maybe_op<compose>{}(a[i], b[i]);
}

//! out[0]: the left fold of items[0, n); out[1]: the pairwise tree over the same items (in place).
__global__ void fold_both_ways(M* items, int n, M* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const maybe_op<compose> op{};
  M left{affine{1, 0}, 0};
  for (int i = 0; i < n; ++i) left = op(left, items[i]);
  out[0] = left;
  for (int width = 1; width < n; width *= 2) {
    for (int i = 0; i + width < n; i += 2 * width) items[i] = op(items[i], items[i + width]);
  }
  out[1] = items[0];
}

std::vector<M> random_maybes(int n, std::uint64_t seed, int present_percent) {
  std::mt19937_64 rng(seed);
  std::vector<M> v(static_cast<std::size_t>(n));
  for (auto& m : v) {
    m.value = affine{rng() | 1, rng()};
    m.valid = static_cast<int>(rng() % 100) < present_percent ? 1 : 0;
  }
  return v;
}

TEST(Maybe, OperatorSkipsAbsentValuesAndKeepsTheOrder) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr int n = 4096;
  const auto a = random_maybes(n, 1, 50), b = random_maybes(n, 2, 50);
  archscan::test::device_buffer<M> da(a), db(b), dout(n);
  dout.poison();
  combine_pairs<<<n / 256, 256>>>(da.get(), db.get(), dout.get(), n);
  ARCHSCAN_CUDA_OK(cudaGetLastError());
  const auto got = dout.to_host();
  int both       = 0;
  for (int i = 0; i < n; ++i) {
    const M expect = !a[i].valid ? b[i] : !b[i].valid ? a[i] : M{compose{}(a[i].value, b[i].value), 1};
    both += a[i].valid && b[i].valid;
    ASSERT_EQ(got[i].valid, expect.valid) << i;
    if (expect.valid) ASSERT_TRUE(got[i].value == expect.value) << i << ": present " << a[i].valid << b[i].valid;
  }
  EXPECT_GT(both, 0);
}

TEST(Maybe, FoldsInAnyAssociationGiveThePresentItemsInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  for (const int present : {0, 10, 90}) {
    const int n  = 1000 + present;
    const auto v = random_maybes(n, 3 + present, present);
    archscan::test::device_buffer<M> items(v), out(2);
    out.poison();
    fold_both_ways<<<1, 32>>>(items.get(), n, out.get());
    ARCHSCAN_CUDA_OK(cudaGetLastError());
    const auto got = out.to_host();
    bool any       = false;
    affine expect{1, 0};
    for (const M& m : v) {
      if (!m.valid) continue;
      expect = any ? compose{}(expect, m.value) : m.value;
      any    = true;
    }
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(got[k].valid != 0, any) << (k ? "tree" : "left") << ", " << present << "% present";
      if (any) EXPECT_TRUE(got[k].value == expect) << (k ? "tree" : "left") << ", " << present << "% present";
    }
  }
}

}  // namespace maybe_test
