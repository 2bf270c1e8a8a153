// tile/chunk_total.cuh: the total of one chunk of a slice by one block, with no look-back (a scan
// across ranks finds each rank's total so): a run of full tiles folded as the transposed tile reduces
// them, then the items after the last full tile. Host: its shared memory holds both parts. On the
// GPU, with a matrix product that does not commute (invertible matrices, so that no product forgets
// an item) and wrapping int32 sums: full tiles from the first or a later tile, the items after them
// (one, or all but one of a tile), both, through 16-byte vectors and item by item; every thread gets
// the host's left fold of those items, and nothing (absent) when there are none.

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/chunk_total.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace chunk_total_test {

namespace detail = archscan::detail;
using archscan::native_tuning;
using archscan::test::device_buffer;
using archscan::test::mat2;
using archscan::test::mat2_mul;

template <class T, class Op>
using problem = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
template <class T, class Op>
using chunk_of =
    archscan::tile::chunk_total<problem<T, Op>,
                                archscan::tile_config<native_tuning, archscan::row_for_accum<native_tuning, T>,
                                                      archscan::row_for_accum<native_tuning, T>::items_per_thread>>;
using mat2_chunk = chunk_of<mat2, mat2_mul>;
using int_chunk  = chunk_of<int, ::cuda::std::plus<int>>;

template <class Chunk>
void expect_room_for_both_parts() {
  EXPECT_GE(Chunk::smem_bytes, Chunk::tiles::smem_bytes);
  EXPECT_GE(static_cast<std::size_t>(Chunk::smem_bytes), sizeof(typename Chunk::tail::storage));
  EXPECT_EQ(Chunk::tile_items, Chunk::tiles::tile_items);
}

TEST(ChunkTotalShape, SharedMemoryHoldsTheTilesAndTheTail) {
  expect_room_for_both_parts<mat2_chunk>();
  expect_room_for_both_parts<int_chunk>();
}

//! One block: the chunk's total, each thread's to d_out[t] and whether present to d_valid[t].
template <class Chunk, class Problem>
__global__ void chunk_kernel(Problem p, std::int64_t first_tile, std::int64_t count, std::int64_t tail_begin,
                             typename Problem::accum_type* d_out, int* d_valid) {
  extern __shared__ __align__(16) unsigned char smem[];
  const auto total     = Chunk::fold(p, first_tile, count, tail_begin, smem);
  d_out[threadIdx.x]   = total.value;
  d_valid[threadIdx.x] = total.valid;
}

//! Random items: matrices of odd determinant (invertible mod 2^32), int32 in [-100, 100].
template <class T>
std::vector<T> items_of(std::int64_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, mat2>) {
    return archscan::test::invertible_mat2s(n, seed);
  } else {
    return archscan::test::random_values<T>(n, seed);
  }
}

struct chunk_case {
  std::int64_t n, first_tile, count, tail_begin;
};

template <class Chunk, class T, class Op>
void check_chunks(Op op) {
  using P                     = problem<T, Op>;
  constexpr std::int64_t tile = Chunk::tile_items;
  constexpr int threads       = Chunk::tiles::threads;
  static_assert(Chunk::smem_bytes <= 48 * 1024, "launched without the shared memory opt-in");
  const std::vector<chunk_case> cases = {
      {3 * tile + 5, 0, 3, 3 * tile},      // every full tile and the items after them
      {3 * tile + 5, 1, 2, 3 * tile + 5},  // tiles 1 and 2 alone
      {3 * tile + 5, 0, 0, 3 * tile},      // the items after the full tiles alone
      {2 * tile + 1, 0, 2, 2 * tile},      // one item after them
      {tile - 1, 0, 0, 0},                 // a slice shorter than a tile: the items alone
      {2 * tile, 1, 1, 2 * tile},          // the last full tile, nothing after it
      {3 * tile + 5, 0, 0, 3 * tile + 5},  // nothing: absent
  };
  const auto h = items_of<T>(3 * tile + 6, 17);
  device_buffer<T> d_in(h), d_out(threads);
  device_buffer<int> d_valid(threads);
  for (const int offset : {0, 1}) {  // 16-byte aligned tiles (vectors), or item by item
    for (const chunk_case& c : cases) {
      const T* in = h.data() + offset;
      std::vector<T> folded;
      for (std::int64_t i = c.first_tile * tile; i < (c.first_tile + c.count) * tile; ++i) folded.push_back(in[i]);
      for (std::int64_t i = c.tail_begin; i < c.n; ++i) folded.push_back(in[i]);
      const P p{d_in.get() + offset, nullptr, c.n, detail::callable<Op>{op}, {}, h[0], {}};
      d_out.poison();
      d_valid.poison();
      chunk_kernel<Chunk>
          <<<1, threads, Chunk::smem_bytes>>>(p, c.first_tile, c.count, c.tail_begin, d_out.get(), d_valid.get());
      ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
      const auto out   = d_out.to_host();
      const auto valid = d_valid.to_host();
      const auto what  = [&] {
        return "n " + std::to_string(c.n) + ", tiles " + std::to_string(c.first_tile) + " +" + std::to_string(c.count) +
               ", tail from " + std::to_string(c.tail_begin) + ", input +" + std::to_string(offset);
      };
      for (int t = 0; t < threads; ++t) ASSERT_EQ(valid[t], folded.empty() ? 0 : 1) << what() << ", thread " << t;
      if (folded.empty()) continue;
      T want = folded[0];
      for (std::size_t i = 1; i < folded.size(); ++i) want = static_cast<T>(op(want, folded[i]));
      for (int t = 0; t < threads; ++t) ASSERT_TRUE(out[t] == want) << what() << ", thread " << t;
    }
  }
}

TEST(ChunkTotal, MatrixProductsInItemOrder) {
  ARCHSCAN_REQUIRE_GPU();
  check_chunks<mat2_chunk, mat2>(mat2_mul{});
}

TEST(ChunkTotal, Int32Sums) {
  ARCHSCAN_REQUIRE_GPU();
  check_chunks<int_chunk, int>(::cuda::std::plus<int>{});
}

}  // namespace chunk_total_test
