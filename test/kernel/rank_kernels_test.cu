// kernel/rank_kernels.cuh: a scan across ranks' first pass, before the gather: independent blocks fold
// chunks of the rank's slice (block 0 also writing its record's header), and one block folds the
// chunks' totals into one. Host: the fold's block. On the GPU, with a matrix product that does not
// commute (invertible matrices, so that no product forgets an item): chunks of full tiles, the last
// also the items after them, and a chunk past the full tiles that folds those items alone, each total
// the host's left fold of its items; the record's header (signature, n, totals); an empty slice that
// writes its header alone; and the fold of 1 to 1000 chunk totals, against the host's.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/kernel/rank_kernels.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace rank_kernels_test {

namespace detail = archscan::detail;
namespace kernel = archscan::kernel;
using archscan::native_tuning;
using archscan::test::device_buffer;
using archscan::test::mat2;
using archscan::test::mat2_mul;

using problem = detail::scan_problem<const mat2*, mat2*, mat2, detail::callable<mat2_mul>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
using row     = archscan::row_for_accum<native_tuning, mat2>;
using config  = archscan::tile_config<native_tuning, row, row::items_per_thread>;
using chunk   = archscan::tile::chunk_total<problem, config>;
using record  = detail::rank_record<mat2, detail::no_key>;
static_assert(chunk::smem_bytes <= 48 * 1024, "launched without the shared memory opt-in");

TEST(RankKernelsShape, OneBlockFoldsTheTotals) {
  static_assert(kernel::rank_fold_threads % 32 == 0 && kernel::rank_fold_threads <= 1024);
  // A record holds the chunks' totals where they are few.
  static_assert(detail::rank_record_capacity<mat2, detail::no_key>() >= 4);
  SUCCEED();
}

mat2 fold(const std::vector<mat2>& h, std::int64_t first, std::int64_t last) {
  mat2 r = h[static_cast<std::size_t>(first)];
  for (std::int64_t i = first + 1; i < last; ++i) r = mat2_mul{}(r, h[static_cast<std::size_t>(i)]);
  return r;
}

TEST(RankKernels, ChunkTotalsAndTheRecordsHeader) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t tile   = chunk::tile_items;
  const std::uint64_t signature = 0x5eed5eedull;
  struct plan_case {
    std::int64_t n;
    kernel::rank_chunks chunks;
  };
  const std::vector<plan_case> cases = {
      {5 * tile + 7, {5, 2, 3, 3, true}},  // tiles 0-1, 2-3, then tile 4 and the 7 items after it
      {4 * tile + 1, {4, 2, 3, 3, true}},  // tiles 0-1, 2-3, then the one item after them alone
      {3 * tile, {3, 1, 3, 3, true}},      // one tile a chunk, nothing after them
      {tile - 1, {0, 1, 1, 1, true}},      // no full tile: the items alone
  };
  for (const plan_case& c : cases) {
    const auto h = archscan::test::invertible_mat2s(c.n, static_cast<std::uint64_t>(c.n));
    device_buffer<mat2> d_in(h);
    device_buffer<unsigned char> d_record(sizeof(record));
    d_record.poison();
    auto* rec = reinterpret_cast<record*>(d_record.get());
    const problem p{d_in.get(), nullptr, c.n, {}, {}, mat2{1, 0, 0, 1}, {}};
    kernel::rank_chunk_totals<config, problem, detail::no_boundary>
        <<<static_cast<unsigned>(c.chunks.chunks), config::threads, chunk::smem_bytes>>>(p, c.chunks, rec->totals, rec,
                                                                                         signature, {});
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    record got;
    ARCHSCAN_CUDA_OK(cudaMemcpy(&got, rec, sizeof(got), cudaMemcpyDeviceToHost));
    EXPECT_EQ(got.header.signature, signature);
    EXPECT_EQ(got.header.n, c.n);
    EXPECT_EQ(got.header.totals, c.chunks.record_totals);
    for (std::int64_t b = 0; b < c.chunks.chunks; ++b) {
      const std::int64_t first = b * c.chunks.tiles_per_chunk * tile;
      const bool last          = b + 1 == c.chunks.chunks;
      const std::int64_t end   = last ? c.n : std::min(c.chunks.full_tiles, (b + 1) * c.chunks.tiles_per_chunk) * tile;
      EXPECT_TRUE(got.totals[b] == fold(h, first, end)) << "n = " << c.n << ", chunk " << b;
    }
  }
}

TEST(RankKernels, EmptySliceWritesItsHeaderAlone) {
  ARCHSCAN_REQUIRE_GPU();
  device_buffer<mat2> d_in(1);
  device_buffer<unsigned char> d_record(sizeof(record));
  d_record.poison();
  auto* rec = reinterpret_cast<record*>(d_record.get());
  const problem p{d_in.get(), nullptr, 0, {}, {}, mat2{1, 0, 0, 1}, {}};
  kernel::rank_chunk_totals<config, problem, detail::no_boundary>
      <<<1, config::threads, chunk::smem_bytes>>>(p, kernel::rank_chunks{0, 1, 1, 0, true}, rec->totals, rec, 9u, {});
  ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
  record got, poisoned;
  std::memset(&poisoned, 0xA5, sizeof(poisoned));
  ARCHSCAN_CUDA_OK(cudaMemcpy(&got, rec, sizeof(got), cudaMemcpyDeviceToHost));
  EXPECT_EQ(got.header.signature, 9u);
  EXPECT_EQ(got.header.n, 0);
  EXPECT_EQ(got.header.totals, 0);
  EXPECT_EQ(std::memcmp(&got.totals[0], &poisoned.totals[0], sizeof(mat2)), 0) << "no total for an empty slice";
}

TEST(RankKernels, FoldOfTheChunksTotalsInOrder) {
  ARCHSCAN_REQUIRE_GPU();
  for (const std::int64_t chunks :
       {std::int64_t{1}, std::int64_t{kernel::rank_fold_threads - 1}, std::int64_t{kernel::rank_fold_threads},
        std::int64_t{kernel::rank_fold_threads + 1}, std::int64_t{1000}}) {
    const auto h = archscan::test::invertible_mat2s(chunks, static_cast<std::uint64_t>(chunks) + 1);
    device_buffer<mat2> d_totals(h), d_total(1);
    d_total.poison();
    kernel::rank_fold_totals<<<1, kernel::rank_fold_threads>>>(d_totals.get(), chunks, mat2_mul{}, d_total.get());
    ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
    EXPECT_TRUE(d_total.to_host()[0] == fold(h, 0, chunks)) << chunks << " chunks";
  }
}

}  // namespace rank_kernels_test
