// block/striped_scan.cuh: a tile of warp-striped items scanned in registers, inclusive and exclusive,
// with and without a prefix for the tile, by shuffles and by shared-memory exchange (4- and 8-byte
// words), for one to four items a thread and a non-commutative operator. Checked item for item
// against a sequential host fold, and the tile total that the prefix callback receives as well.

#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/block/striped_scan.cuh>

#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"

namespace striped_scan_test {

using archscan::test::device_buffer;
using archscan::test::exact_inputs;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::plus;

//! One tile a block. Odd blocks have a prefix for their tile (`d_seed`), even ones none. Writes each
//! item's scan (an exclusive scan's first item without a prefix: nothing) and the tile total that
//! thread 0's callback received.
template <class T, int Threads, int Items, bool Shuffle, int WordBytes, class Op>
__global__ void __launch_bounds__(Threads)
    striped_kernel(const T* d_in, const T* d_seed, T* d_out, T* d_tile_total, Op op, bool exclusive) {
  using scan = archscan::block::striped_scan<T, Threads, Items, Shuffle, WordBytes>;
  __shared__ typename scan::storage s;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int base = static_cast<int>(blockIdx.x) * scan::tile_items + warp * scan::warp_items + lane;
  T v[Items];
  for (int j = 0; j < Items; ++j) v[j] = d_in[base + 32 * j];
  const T warp_total = scan::scan_columns(v, op, s);
  if (exclusive) scan::to_exclusive(v, s);
  const bool has_prefix = blockIdx.x % 2 == 1;
  const auto before     = scan::combine_warps(warp_total, op, has_prefix, s, [&](const T& tile_total) {
    d_tile_total[blockIdx.x] = tile_total;
    return d_seed[blockIdx.x];
  });
  for (int j = 0; j < Items; ++j) {
    if (exclusive && lane == 0 && j == 0) {  // the warp's first item: what precedes the warp, if anything
      if (before.valid) d_out[base] = before.value;
    } else {
      d_out[base + 32 * j] = before.valid ? T(op(before.value, v[j])) : v[j];
    }
  }
}

template <class T, int Threads, int Items, bool Shuffle, int WordBytes = 4, class Op>
void check(Op op) {
  using scan             = archscan::block::striped_scan<T, Threads, Items, Shuffle, WordBytes>;
  constexpr int blocks   = 4;
  constexpr int tile     = scan::tile_items;
  const std::vector<T> h = exact_inputs<T>(blocks * tile, Threads * 7 + Items), seed = exact_inputs<T>(blocks, 99);
  for (const bool exclusive : {false, true}) {
    device_buffer<T> d_in(h), d_seed(seed), d_out(blocks * tile), d_tile_total(blocks);
    d_out.poison();
    d_tile_total.poison();
    striped_kernel<T, Threads, Items, Shuffle, WordBytes>
        <<<blocks, Threads>>>(d_in.get(), d_seed.get(), d_out.get(), d_tile_total.get(), op, exclusive);
    archscan::test::check(cudaGetLastError(), "striped_kernel launch");
    const std::vector<T> out = d_out.to_host(), tile_total = d_tile_total.to_host();
    for (int b = 0; b < blocks; ++b) {
      const bool has_prefix = b % 2 == 1;
      T fold                = has_prefix ? seed[b] : h[b * tile];
      bool any              = has_prefix;
      T total               = h[b * tile];
      for (int k = 0; k < tile; ++k) {
        const T x = h[b * tile + k];
        if (k > 0) total = op(total, x);
        if (exclusive && any) ASSERT_TRUE(out[b * tile + k] == fold) << "exclusive, block " << b << ", item " << k;
        if (any) fold = op(fold, x);
        any = true;
        if (!exclusive) ASSERT_TRUE(out[b * tile + k] == fold) << "inclusive, block " << b << ", item " << k;
      }
      ASSERT_TRUE(tile_total[b] == total) << "the tile total passed to the prefix callback, block " << b;
    }
  }
}

TEST(BlockStripedScan, IntByShuffles) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 64, 1, true>(plus{});
  check<int, 256, 3, true>(plus{});
}
TEST(BlockStripedScan, IntBySharedMemory) {
  ARCHSCAN_REQUIRE_GPU();
  check<int, 256, 3, false, 4>(plus{});
  check<int, 1024, 2, false, 4>(plus{});
}
TEST(BlockStripedScan, DoubleByEightByteWords) {
  ARCHSCAN_REQUIRE_GPU();
  check<double, 96, 4, false, 8>(plus{});
  check<double, 96, 4, true>(plus{});
}
TEST(BlockStripedScan, MatricesNonCommutative) {
  ARCHSCAN_REQUIRE_GPU();
  check<mat2, 128, 2, true>(mat2_mul{});
  check<mat2, 128, 2, false, 8>(mat2_mul{});
}

}  // namespace striped_scan_test
