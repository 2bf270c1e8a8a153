// warp/exchange.cuh: the two exchanges (register shuffles, and a per-warp shared-memory buffer of 4- or
// 8-byte words) give the same scans and the same lane-to-lane reads, for values whose size is and is
// not a multiple of the word, with a non-commutative operator. Checked against the host, exactly.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/warp/exchange.cuh>

#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"

namespace exchange_test {

using namespace archscan::test;

constexpr int warps = 4;
constexpr int n     = 2 * warps * 32;  // two blocks

//! Each thread writes its inclusive scan across its warp and the value of lane `d_src[i]`.
template <class Exchange, class T, class Op>
__global__ void __launch_bounds__(warps * 32)
    exchange_kernel(const T* d_in, const int* d_src, T* d_scan, T* d_read, Op op) {
  __shared__ typename Exchange::storage s[warps];
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  auto& mine  = s[threadIdx.x / 32];
  d_scan[i]   = Exchange::inclusive_scan(d_in[i], op, mine);
  d_read[i]   = Exchange::from_lane(d_in[i], d_src[i], mine);
}

template <class Exchange, class T, class Op>
void check(Op op) {
  const std::vector<T> h     = exact_inputs<T>(n, sizeof(T));
  const std::vector<int> src = random_lanes(n, 5);
  device_buffer<T> d_in(h), d_scan(n), d_read(n);
  device_buffer<int> d_src(src);
  d_scan.poison();
  d_read.poison();
  exchange_kernel<Exchange><<<2, warps * 32>>>(d_in.get(), d_src.get(), d_scan.get(), d_read.get(), op);
  archscan::test::check(cudaGetLastError(), "exchange_kernel launch");
  const std::vector<T> scan = d_scan.to_host(), read = d_read.to_host(), want = per_warp_inclusive(h, op);
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(scan[i] == want[i]) << "inclusive_scan, warp " << i / 32 << ", lane " << i % 32;
    ASSERT_TRUE(read[i] == h[i / 32 * 32 + src[i]]) << "from_lane, warp " << i / 32 << ", lane " << i % 32;
  }
}

template <class T, class Op>
void check_every_exchange(Op op) {
  check<archscan::warp::shuffle_exchange<T>, T>(op);
  check<archscan::warp::smem_exchange<T, 4>, T>(op);
  check<archscan::warp::smem_exchange<T, 8>, T>(op);
}

TEST(WarpExchange, IntPlus) {
  ARCHSCAN_REQUIRE_GPU();
  check_every_exchange<int>(plus{});
}
TEST(WarpExchange, DoublePlus) {
  ARCHSCAN_REQUIRE_GPU();
  check_every_exchange<double>(plus{});
}
TEST(WarpExchange, ThreeByteNonCommutative) {  // a partly filled word
  ARCHSCAN_REQUIRE_GPU();
  check_every_exchange<rgb>(rgb_affine{});
}
TEST(WarpExchange, TwelveByteNonCommutative) {
  ARCHSCAN_REQUIRE_GPU();
  check_every_exchange<affine3>(affine3_compose{});
}
TEST(WarpExchange, SixteenByteMatrices) {
  ARCHSCAN_REQUIRE_GPU();
  check_every_exchange<mat2>(mat2_mul{});
}

//! The slots' word choice: 8-byte words only where the size is a multiple of 8.
TEST(WarpExchange, SlotWords) {
  static_assert(sizeof(archscan::warp::smem_slot<double, 8>) == 8);
  static_assert(archscan::warp::smem_slot<double, 8>::words == 1);
  static_assert(archscan::warp::smem_slot<affine3, 8>::words == 3);  // 12 bytes: 4-byte words
  static_assert(archscan::warp::smem_slot<mat2, 8>::words == 2);
  static_assert(archscan::warp::smem_slot<mat2, 4>::words == 4);
  static_assert(archscan::warp::smem_slot<rgb, 8>::words == 1);  // 3 bytes: one 4-byte word
  EXPECT_EQ(sizeof(archscan::warp::smem_slot<affine3, 8>), 12u);
}

}  // namespace exchange_test
