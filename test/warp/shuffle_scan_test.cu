// warp/shuffle_scan.cuh: the shuffles and the warp-wide inclusive scan, for values of one, two, three and
// four words (arithmetic and not, of sizes that are no multiple of 4), with a non-commutative operator
// and one whose operator() is not const. Each warp of a few blocks scans its own 32 random values;
// every result is checked against a sequential fold on the host, exactly (integer-valued doubles).
// Also warp::uniform, a flag as lane 0 holds it.

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/warp/shuffle_scan.cuh>

#include "support/compare.cuh"
#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"

namespace shuffle_scan_test {

using namespace archscan::test;

//! A plus whose operator() is not const (it counts its calls).
struct counting_plus {
  int calls = 0;
  __host__ __device__ int operator()(int x, int y) {
    ++calls;
    return x + y;
  }
};

//! An operator for the calls that take none.
struct first {
  template <class T>
  __host__ __device__ T operator()(const T& x, const T&) const {
    return x;
  }
};

constexpr int warps_per_block = 4;
constexpr int blocks          = 3;
constexpr std::int64_t n      = std::int64_t{blocks} * warps_per_block * 32;

enum class warp_call { inclusive, exclusive, up, idx };

//! Every thread: one value in, one result out. `d_arg`: shfl_up's delta or shfl_idx's source lane.
template <class T, class Op>
__global__ void __launch_bounds__(warps_per_block * 32)
    warp_kernel(const T* d_in, const int* d_arg, T* d_out, Op op, warp_call call) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const T v   = d_in[i];
  T r         = v;
  switch (call) {  // uniform across the launch: every lane of a warp takes the same case
    case warp_call::inclusive:
      r = archscan::warp::inclusive_scan(v, op);
      break;
    case warp_call::exclusive:
      r = archscan::warp::exclusive_from_inclusive(archscan::warp::inclusive_scan(v, op));
      break;
    case warp_call::up:
      r = archscan::warp::shfl_up(v, d_arg[i / 32]);
      break;
    case warp_call::idx:
      r = archscan::warp::shfl_idx(v, d_arg[i]);
      break;
  }
  d_out[i] = r;
}

template <class T, class Op>
std::vector<T> run(const std::vector<T>& h_in, const std::vector<int>& h_arg, Op op, warp_call call) {
  device_buffer<T> d_in(h_in), d_out(n);
  device_buffer<int> d_arg(h_arg);
  d_out.poison();
  warp_kernel<<<blocks, warps_per_block * 32>>>(d_in.get(), d_arg.get(), d_out.get(), op, call);
  archscan::test::check(cudaGetLastError(), "warp_kernel launch");
  return d_out.to_host();
}

template <class T, class Op>
void check_scans(Op op) {
  const std::vector<T> h = exact_inputs<T>(n, 7);
  const std::vector<int> none(1, 0);
  const std::vector<T> inclusive = run(h, none, op, warp_call::inclusive);
  const std::vector<T> exclusive = run(h, none, op, warp_call::exclusive);
  const std::vector<T> want      = per_warp_inclusive(h, op);
  for (std::size_t i = 0; i < want.size(); ++i) {
    // Lane 0 has no predecessor: it gets its own inclusive value back, which is its input.
    const T want_exclusive = i % 32 == 0 ? h[i] : want[i - 1];
    EXPECT_TRUE(exclusive[i] == want_exclusive) << "exclusive, warp " << i / 32 << ", lane " << i % 32;
    ASSERT_TRUE(inclusive[i] == want[i]) << "inclusive, warp " << i / 32 << ", lane " << i % 32;
  }
}

template <class T>
void check_shuffles() {
  const std::vector<T> h     = exact_inputs<T>(n, 11);
  std::vector<int> delta     = random_lanes(static_cast<std::size_t>(n / 32), 3);
  const std::vector<int> src = random_lanes(static_cast<std::size_t>(n), 4);
  delta[0]                   = 1;
  delta[1]                   = 31;
  const std::vector<T> up    = run(h, delta, first{}, warp_call::up);
  const std::vector<T> idx   = run(h, src, first{}, warp_call::idx);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t base = i / 32 * 32, lane = i % 32, d = delta[static_cast<std::size_t>(i / 32)];
    const std::size_t want_up = static_cast<std::size_t>(lane >= d ? i - d : i);  // below delta: its own
    EXPECT_TRUE(up[static_cast<std::size_t>(i)] == h[want_up]) << "shfl_up, item " << i << ", delta " << d;
    EXPECT_TRUE(idx[static_cast<std::size_t>(i)] ==
                h[static_cast<std::size_t>(base + src[static_cast<std::size_t>(i)])])
        << "shfl_idx, item " << i;
  }
}

//! Every thread: warp::uniform of its own flag (d_flag[i]) and of `threadIdx.x < 32`, as 0 or 1.
__global__ void __launch_bounds__(warps_per_block * 32) uniform_kernel(const int* d_flag, int* d_own, int* d_first) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  d_own[i]    = archscan::warp::uniform(d_flag[i] != 0) ? 1 : 0;
  d_first[i]  = archscan::warp::uniform(threadIdx.x < 32) ? 1 : 0;
}

TEST(WarpUniform, EveryLaneTakesLaneZerosFlag) {
  // The tiles put warp 0's work under warp::uniform(threadIdx.x < 32): it must hold in warp 0 of
  // every block and nowhere else, and a flag on which the lanes disagree comes out as lane 0's.
  ARCHSCAN_REQUIRE_GPU();
  std::vector<int> flags = random_lanes(static_cast<std::size_t>(n), 9);
  for (int& f : flags) f = f % 2;
  flags[0]  = 1;  // warp 0 of block 0: lane 0 set, others mixed
  flags[32] = 0;  // warp 1: lane 0 clear
  device_buffer<int> d_flag(flags), d_own(n), d_first(n);
  d_own.poison();
  d_first.poison();
  uniform_kernel<<<blocks, warps_per_block * 32>>>(d_flag.get(), d_own.get(), d_first.get());
  archscan::test::check(cudaGetLastError(), "uniform_kernel launch");
  const std::vector<int> own = d_own.to_host(), first_warp = d_first.to_host();
  for (std::int64_t i = 0; i < n; ++i) {
    const auto at = static_cast<std::size_t>(i);
    EXPECT_EQ(own[at], flags[static_cast<std::size_t>(i / 32 * 32)]) << "item " << i;
    EXPECT_EQ(first_warp[at], i % (warps_per_block * 32) < 32 ? 1 : 0) << "item " << i;
  }
}

TEST(WarpShuffleScan, IntPlus) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<int>(plus{});
}
TEST(WarpShuffleScan, IntPlusWithNonConstOperator) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<int>(counting_plus{});
}
TEST(WarpShuffleScan, DoublePlus) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<double>(plus{});
}
TEST(WarpShuffleScan, ThreeByteNonCommutative) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<rgb>(rgb_affine{});
}
TEST(WarpShuffleScan, EightByteNonArithmetic) {  // two words, one shuffle each
  ARCHSCAN_REQUIRE_GPU();
  check_scans<affine2>(affine2_compose{});
}
TEST(WarpShuffleScan, TwelveByteNonCommutative) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<affine3>(affine3_compose{});
}
TEST(WarpShuffleScan, SixteenByteMatrices) {
  ARCHSCAN_REQUIRE_GPU();
  check_scans<mat2>(mat2_mul{});
}
TEST(WarpShuffles, UpAndIndexOfEveryWidth) {
  ARCHSCAN_REQUIRE_GPU();
  check_shuffles<int>();
  check_shuffles<double>();
  check_shuffles<rgb>();
  check_shuffles<affine2>();
  check_shuffles<affine3>();
  check_shuffles<mat2>();
}

}  // namespace shuffle_scan_test
