// tile/transposed_tile.cuh, host: the shared memory the tile adds to its shape's (transposed_io.cuh,
// tested in tile/transposed_io_test.cu): the cluster's slots, one per tile of a cluster, placed after
// the tile's own bytes and within its limit for the shipped rows; and the aggregates an ordered wave
// stages in the exchange regions, whole segments of 32 that fit there with their bank padding. What
// the tile scans is checked on the GPU through its routes and kernels (tile/routed_tile_test.cu,
// kernel/transposed_kernels_test.cu) and by every scan test.

#include <cstdint>

#include <gtest/gtest.h>

#include <archscan/tile/transposed_tile.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/values.cuh"

namespace transposed_tile_test {

namespace detail = archscan::detail;
using archscan::native_tuning;

template <class T, class Op>
using problem = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
template <class T, class Op = ::cuda::std::plus<T>>
using tile_of =
    archscan::tile::transposed_tile<problem<T, Op>,
                                    archscan::tile_config<native_tuning, archscan::row_for_accum<native_tuning, T>,
                                                          archscan::row_for_accum<native_tuning, T>::items_per_thread>>;

template <class Tile>
void expect_cluster_slots_and_staged_aggregates() {
  using T = typename Tile::T;
  // The slots start 16-byte aligned after the tile's own shared memory and hold a cluster's tiles.
  EXPECT_GE(Tile::cluster_slots_at, static_cast<std::size_t>(Tile::smem_bytes));
  EXPECT_EQ(Tile::cluster_slots_at % 16, 0u);
  EXPECT_GE(static_cast<std::size_t>(Tile::cluster_smem_bytes),
            Tile::cluster_slots_at + archscan::tile::cluster_exchange::max_blocks * sizeof(T));
  // Every shipped row's tile has room for them: the cluster route is open to every width.
  EXPECT_TRUE(Tile::cluster_fits);
  EXPECT_LE(static_cast<std::size_t>(Tile::cluster_smem_bytes), Tile::smem_limit);
  // Whole segments, and the padded slot of the last staged aggregate inside the exchange regions.
  constexpr std::int64_t staged = Tile::staged_aggregates;
  EXPECT_EQ(staged % archscan::tile::segment_tiles, 0);
  if (staged > 0) {
    const std::int64_t last_slot = staged - 1 + (staged - 1) / archscan::tile::segment_tiles;
    EXPECT_LE(static_cast<std::size_t>(last_slot + 1) * sizeof(T), (Tile::threads / 32) * Tile::region_bytes);
  }
}

TEST(TransposedTileSharedMemory, ClusterSlotsAndStagedAggregatesFit) {
  expect_cluster_slots_and_staged_aggregates<tile_of<std::int8_t>>();
  expect_cluster_slots_and_staged_aggregates<tile_of<int>>();
  expect_cluster_slots_and_staged_aggregates<tile_of<double>>();
  expect_cluster_slots_and_staged_aggregates<tile_of<archscan::test::mat2, archscan::test::mat2_mul>>();
  // A transposing tile of 4-byte items stages more than one segment's aggregates.
  static_assert(tile_of<int>::transposes && tile_of<int>::staged_aggregates > archscan::tile::segment_tiles);
}

}  // namespace transposed_tile_test
