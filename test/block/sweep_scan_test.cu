// block/sweep_scan.cuh: Harris's up- and down-sweep, padded (Listing 3) and not (Listing 2), for 4-, 12-,
// 16-, 64- and 128-byte items (the last not padded), with a non-commutative operator: every item but the
// first ends holding its exclusive prefix within the tile, and the total comes back to every thread.
// The layout's padding arithmetic is checked on the host.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/block/sweep_scan.cuh>

#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"

namespace sweep_scan_test {

using archscan::test::device_buffer;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::plus;

//! `Words` 4-byte words: the first two an affine map composed left to right, the rest summed; not commutative.
template <int Words>
struct wide {
  std::uint32_t w[Words];
  __host__ __device__ friend bool operator==(const wide& x, const wide& y) {
    for (int i = 0; i < Words; ++i) {
      if (x.w[i] != y.w[i]) return false;
    }
    return true;
  }
};
template <int Words>
struct wide_op {
  __host__ __device__ wide<Words> operator()(const wide<Words>& x, const wide<Words>& y) const {
    wide<Words> r;
    r.w[0] = y.w[0] * x.w[0];
    r.w[1] = y.w[0] * x.w[1] + y.w[1];
    for (int i = 2; i < Words; ++i) r.w[i] = x.w[i] + y.w[i];
    return r;
  }
};

template <class T>
std::vector<T> inputs(std::int64_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, mat2>) {
    return archscan::test::random_values<T>(n, seed);
  } else {
    std::mt19937_64 rng(seed);
    std::vector<T> v(static_cast<std::size_t>(n));
    for (auto& x : v) {
      for (auto& word : x.w) word = static_cast<std::uint32_t>(rng());
      x.w[0] = x.w[0] % 4 * 2 + 1;  // odd: invertible, so a product never forgets earlier items
    }
    return v;
  }
}

//! Each block scans its 2 * Threads items in dynamic shared memory and writes every item but the first
//! (whose prefix is empty) and, in place of the first, the total as thread 0 sees it; `d_total`: each
//! thread's total.
template <class T, int Threads, bool ConflictFree, class Op>
__global__ void __launch_bounds__(Threads) sweep_kernel(const T* d_in, T* d_out, T* d_total, Op op) {
  using sweep = archscan::block::sweep_scan<T, Threads, ConflictFree>;
  extern __shared__ __align__(16) unsigned char smem[];
  T* temp        = reinterpret_cast<T*>(smem);
  const int base = static_cast<int>(blockIdx.x) * sweep::items;
  for (int i = static_cast<int>(threadIdx.x); i < sweep::items; i += Threads) temp[sweep::slot(i)] = d_in[base + i];
  const T total = sweep::sweep(temp, op);
  for (int i = static_cast<int>(threadIdx.x); i < sweep::items; i += Threads) {
    d_out[base + i] = i == 0 ? total : temp[sweep::slot(i)];
  }
  d_total[static_cast<int>(blockIdx.x) * Threads + static_cast<int>(threadIdx.x)] = total;
}

template <class T, int Threads, bool ConflictFree, class Op>
void check(Op op) {
  using sweep            = archscan::block::sweep_scan<T, Threads, ConflictFree>;
  constexpr int blocks   = 3;
  constexpr int n        = blocks * sweep::items;
  const std::vector<T> h = inputs<T>(n, Threads + sizeof(T));
  device_buffer<T> d_in(h), d_out(n), d_total(blocks * Threads);
  d_out.poison();
  d_total.poison();
  const std::size_t smem = sizeof(T) * sweep::smem_slots;
  sweep_kernel<T, Threads, ConflictFree><<<blocks, Threads, smem>>>(d_in.get(), d_out.get(), d_total.get(), op);
  archscan::test::check(cudaGetLastError(), "sweep_kernel launch");
  const std::vector<T> out = d_out.to_host(), total = d_total.to_host();
  for (int b = 0; b < blocks; ++b) {
    const int first = b * sweep::items;
    T fold          = h[first];
    for (int i = 1; i < sweep::items; ++i) {
      ASSERT_TRUE(out[first + i] == fold) << "exclusive prefix, block " << b << ", item " << i;
      fold = op(fold, h[first + i]);
    }
    ASSERT_TRUE(out[first] == fold) << "total, block " << b;
    for (int t = 0; t < Threads; ++t) ASSERT_TRUE(total[b * Threads + t] == fold) << "total, thread " << t;
  }
}

TEST(BlockSweepScan, IntPaddedAndNot) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 32, true>(plus{});
  check<int, 32, false>(plus{});
  check<int, 512, true>(plus{});
  check<int, 512, false>(plus{});
}
TEST(BlockSweepScan, MatricesNonCommutative) {
  ARCHSCAN_REQUIRE_GPU();
  check<mat2, 128, true>(mat2_mul{});
  check<mat2, 128, false>(mat2_mul{});
}
TEST(BlockSweepScan, WideItems) {
  ARCHSCAN_REQUIRE_GPU();
  check<wide<16>, 64, true>(wide_op<16>{});  // 64 bytes: a row of banks holds two, padded
  check<wide<32>, 32, true>(wide_op<32>{});  // 128 bytes: a row each, not padded
  check<wide<3>, 256, true>(wide_op<3>{});   // 12 bytes: a slot per 16 items
}

//! Listing 3's padding: one slot per row of 32 banks, a row holding 32 / words items (rounded up to a
//! power of two), none without ConflictFree or for items of 32 words and more.
TEST(BlockSweepScan, PaddingArithmetic) {
  using archscan::block::sweep_layout;
  EXPECT_EQ((sweep_layout<int, true>::slots(64)), 66);  // a slot per 32 items
  EXPECT_EQ((sweep_layout<int, false>::slots(64)), 64);
  EXPECT_EQ((sweep_layout<double, true>::slots(64)), 68);    // per 16
  EXPECT_EQ((sweep_layout<mat2, true>::slots(64)), 72);      // per 8
  EXPECT_EQ((sweep_layout<wide<3>, true>::slots(64)), 68);   // 3 words: 10.7 a row, a slot per 16
  EXPECT_EQ((sweep_layout<wide<16>, true>::slots(64)), 96);  // per 2
  EXPECT_EQ((sweep_layout<wide<31>, true>::slots(64)), 96);
  EXPECT_FALSE((sweep_layout<wide<32>, true>::padded));
  EXPECT_EQ((sweep_layout<wide<32>, true>::slots(64)), 64);
  EXPECT_EQ((sweep_layout<int, true>::conflict_free_offset(31)), 0);
  EXPECT_EQ((sweep_layout<int, true>::conflict_free_offset(32)), 1);
}

}  // namespace sweep_scan_test
