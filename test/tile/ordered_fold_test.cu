// tile/ordered_fold.cuh: one block's fold, in order, of a short sequence (a rank's total folds its
// chunks' totals so). Host: the loads a thread keeps in flight, about 128 bytes of registers. On the
// GPU: with operators that do not commute (a 16-byte matrix product and a 3-byte affine map, which
// read 8 and 32 items a batch; invertible items, so that no product forgets the items before it), every thread gets the
// host's left fold, present, at counts of one item, fewer items than threads, one run a thread and around whole batches
// a thread.

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/ordered_fold.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"
#include "support/values.cuh"

namespace ordered_fold_test {

using archscan::test::device_buffer;
using archscan::test::mat2;
using archscan::test::mat2_mul;
using archscan::test::rgb;
using archscan::test::rgb_affine;
using archscan::tile::ordered_fold;

struct bytes_256 {
  unsigned char b[256];
};

TEST(OrderedFoldBatch, AboutOneHundredTwentyEightBytesOfLoadsAThread) {
  static_assert(ordered_fold<int, 256>::batch * sizeof(int) == 128);
  static_assert(ordered_fold<double, 256>::batch * sizeof(double) == 128);
  static_assert(ordered_fold<mat2, 128>::batch * sizeof(mat2) == 128);
  // Narrow items: at most 32 loads in flight; items past 128 bytes one at a time.
  static_assert(ordered_fold<rgb, 256>::batch == 32 && ordered_fold<std::int8_t, 256>::batch == 32);
  static_assert(ordered_fold<bytes_256, 256>::batch == 1);
  SUCCEED();
}

//! One block of `Threads` folds d_items[0, count); thread t writes what it got to d_out[t] and whether
//! it was present to d_valid[t].
template <class T, int Threads, class Op>
__global__ void fold_items(const T* d_items, std::int64_t count, Op op, T* d_out, int* d_valid) {
  using fold = ordered_fold<T, Threads>;
  __shared__ typename fold::storage s;
  const archscan::detail::maybe<T> total = fold::fold(
      count, [d_items](std::int64_t i) { return d_items[i]; }, op, s);
  d_out[threadIdx.x]   = total.value;
  d_valid[threadIdx.x] = total.valid;
}

//! Random items whose products never forget one: matrices of odd determinant (invertible mod 2^32),
//! maps of odd factor.
template <class T>
std::vector<T> invertible_items(std::int64_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, mat2>) {
    return archscan::test::invertible_mat2s(n, seed);
  } else {
    return archscan::test::exact_inputs<T>(n, seed);
  }
}

template <class T, int Threads, class Op>
void check_folds(Op op, std::uint64_t seed) {
  constexpr std::int64_t batch           = ordered_fold<T, Threads>::batch;
  const std::vector<std::int64_t> counts = {1,
                                            2,
                                            31,
                                            Threads - 1,
                                            Threads,
                                            Threads + 1,
                                            2 * Threads,
                                            Threads * batch - 1,
                                            Threads * batch,
                                            Threads * batch + 1,
                                            3 * Threads * batch + 7,
                                            5000};
  for (const std::int64_t count : counts) {
    const auto h = invertible_items<T>(count, seed + static_cast<std::uint64_t>(count));
    T want       = h[0];
    for (std::int64_t i = 1; i < count; ++i) want = op(want, h[static_cast<std::size_t>(i)]);
    device_buffer<T> d_items(h), d_out(Threads);
    device_buffer<int> d_valid(Threads);
    d_out.poison();
    d_valid.poison();
    fold_items<T, Threads><<<1, Threads>>>(d_items.get(), count, op, d_out.get(), d_valid.get());
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    const auto out   = d_out.to_host();
    const auto valid = d_valid.to_host();
    for (int t = 0; t < Threads; ++t) {
      ASSERT_EQ(valid[t], 1) << "count " << count << ", thread " << t;
      ASSERT_TRUE(out[t] == want) << "count " << count << ", thread " << t;
    }
  }
}

TEST(OrderedFold, EveryThreadGetsTheLeftFoldOfMatrices) {
  ARCHSCAN_REQUIRE_GPU();
  check_folds<mat2, 128>(mat2_mul{}, 3);
}

TEST(OrderedFold, EveryThreadGetsTheLeftFoldOfNarrowMaps) {
  ARCHSCAN_REQUIRE_GPU();
  check_folds<rgb, 256>(rgb_affine{}, 5);
}

}  // namespace ordered_fold_test
