// tile/transposed_io.cuh: the transposed tile's shape and the moves of its items. Host: which full
// tiles store by the bulk copy unit (the tuning's bulk_store_min_bytes): only segments of unpacked
// items in an odd count of 16-byte vectors a lane, whose blocked items are already the memory's
// order, of at least that many bytes a warp; which tiles the staged look-back may take (stages_fit,
// stage_bytes); and that a tile's items fit its shared memory limit, fewer of them a thread where the
// accumulator is large. What the bulk stores write is checked on the GPU by the scan tests
// (thrust/scan_test.cu's NativeLargeTiles; the determinism test compares these tiles' bits with the
// item-by-item stores of a misaligned output). On the GPU: one tile loaded and stored back, full and
// partial, through 16-byte vectors and item by item: every thread holds its items blocked, the
// missing items of a partial tile repeat the tile's first, and the stores write the tile's real
// items and nothing past them.

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/transposed_io.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <archscan/tuning/turing.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/sized_problem.cuh"
#include "support/values.cuh"

namespace transposed_io_test {

namespace detail = archscan::detail;
using archscan::native_tuning;
using archscan::test::device_buffer;

using archscan::test::mat2;
using archscan::test::mat2_mul;
using int_plus  = ::cuda::std::plus<int>;
using int8_plus = ::cuda::std::plus<std::int8_t>;

template <class Tuning, class Row, int Items>
using config = archscan::tile_config<Tuning, Row, Items>;
template <class T, class Op>
using problem = detail::scan_problem<const T*, T*, T, detail::callable<Op>, detail::identity_finish,
                                     detail::scan_kind::inclusive, false>;
template <class Tuning, class Row, class T, class Op, int Items>
using io_for = archscan::tile::transposed_io<problem<T, Op>, config<Tuning, Row, Items>>;
template <class Tuning, class Row, class T, class Op, int Items>
constexpr bool bulk_fit = io_for<Tuning, Row, T, Op, Items>::bulk_store_fit;

struct native_without_bulk_stores : native_tuning {
  static constexpr std::size_t bulk_store_min_bytes = 0;
};
struct native_bulk_from_2k : native_tuning {
  static constexpr std::size_t bulk_store_min_bytes = 2048;
};
struct native_bulk_from_256 : native_tuning {
  static constexpr std::size_t bulk_store_min_bytes = 256;
};

TEST(TransposedIoBulkStores, OnlyLargeSegmentsOfAnOddVectorCount) {
  using row_16        = native_tuning::row_16;
  using row_4         = native_tuning::row_4;
  constexpr int large = detail::large_tiles<row_16>::items_per_thread;
  static_assert(large % 2 == 1, "the product's large tiles: an odd count of vectors a lane");
  // The product's large tiles: 21 vectors a lane, 10.5 KB a warp.
  static_assert(bulk_fit<native_tuning, row_16, mat2, mat2_mul, large>);
  // Its other tiles: 16 vectors a lane (even).
  static_assert(!bulk_fit<native_tuning, row_16, mat2, mat2_mul, row_16::items_per_thread>);
  // int32 256x32: 8 vectors a lane (even).
  static_assert(!bulk_fit<native_tuning, row_4, int, int_plus, 32>);
  // 5 vectors a lane, 2.5 KB a warp: under 8 KB, over 2 KB.
  static_assert(!bulk_fit<native_tuning, row_4, int, int_plus, 20>);
  static_assert(bulk_fit<native_bulk_from_2k, row_4, int, int_plus, 20>);
  // Packed one-byte items (16 a lane: one vector, 512 B a warp) store through their own path: never,
  // whatever the threshold.
  using packed_1 = native_tuning::packed_rows::row_1;
  static_assert(io_for<native_bulk_from_256, packed_1, std::int8_t, int8_plus, 16>::packs_items);
  static_assert(!bulk_fit<native_bulk_from_256, packed_1, std::int8_t, int8_plus, 16>);
  // 0, or no such field (turing): never.
  static_assert(!bulk_fit<native_without_bulk_stores, row_16, mat2, mat2_mul, large>);
  static_assert(!bulk_fit<archscan::turing_tuning, archscan::turing_tuning::row_16, mat2, mat2_mul, large>);
  SUCCEED();
}

// The staged look-back (tuning/shape.cuh, example_staged_row) takes full tiles of 16-byte vectors of one width
// in and out, packed or not, items not split by key (the staged block's own size: tile/staged_tile_test.cu).
template <class Row, class T, class Op, int Items>
using tile_for = io_for<native_tuning, Row, T, Op, Items>;

TEST(TransposedIoStages, FullVectorTilesOfOneWidth) {
  using row_4      = native_tuning::row_4;
  using int32_tile = tile_for<row_4, int, int_plus, row_4::items_per_thread>;
  static_assert(int32_tile::stages_fit);
  static_assert(int32_tile::stage_bytes == int32_tile::tile_items * 4);
  // Packed one- and two-byte items (a stage is read a vector at a time): their full tiles, 16 and 32 KiB.
  using packed_1   = native_tuning::packed_rows::row_1;
  using packed_2   = native_tuning::packed_rows::row_2;
  using int8_tile  = tile_for<packed_1, std::int8_t, int8_plus, packed_1::items_per_thread>;
  using int16_tile = tile_for<packed_2, std::int16_t, ::cuda::std::plus<std::int16_t>, packed_2::items_per_thread>;
  static_assert(int8_tile::packs_items && int8_tile::stages_fit && int8_tile::stage_bytes == int8_tile::tile_items);
  static_assert(int16_tile::packs_items && int16_tile::stages_fit &&
                int16_tile::stage_bytes == int16_tile::tile_items * 2);
  // Packed two-byte items in a four-byte accumulator (row_4's tiles): not staged, never measured so.
  using int16_into_int = detail::scan_problem<const std::int16_t*, std::int16_t*, int, detail::callable<int_plus>,
                                              detail::identity_finish, detail::scan_kind::inclusive, false>;
  using row_4_packed =
      archscan::tile::transposed_io<int16_into_int, config<native_tuning, row_4, row_4::items_per_thread>>;
  static_assert(row_4_packed::packs_items && !row_4_packed::stages_fit);
  // Items read one by one (an odd count of 8-byte items does not split into vectors): never.
  using row_8 = native_tuning::row_8;
  static_assert(
      !tile_for<row_8, double, ::cuda::std::plus<double>, detail::large_tiles<row_8>::items_per_thread>::stages_fit);
  SUCCEED();
}

//! A tile of opaque `Bytes`-byte items under native's row for them: the shape the dispatch would launch.
template <int Bytes>
using sized_io = archscan::tile::transposed_io<archscan::test::problem_of<Bytes>,
                                               config<native_tuning, archscan::row_for<native_tuning, Bytes>,
                                                      archscan::row_for<native_tuning, Bytes>::items_per_thread>>;

//! Every tile fits its shared memory limit: the warp transpose where one item a thread fits, fewer
//! items a thread where the row's would not, and each thread its own items (no transpose) where even
//! one item a thread would overflow the exchange regions.
template <class Io>
void expect_fits(int row_items) {
  EXPECT_LE(static_cast<std::size_t>(Io::smem_bytes), Io::smem_limit);
  EXPECT_GE(Io::items, 1);
  EXPECT_LE(Io::items, row_items);
  EXPECT_EQ(Io::tile_items, Io::threads * Io::items);
  EXPECT_EQ(Io::stride, Io::transposes ? 32 : 1);
  if (Io::transposes) EXPECT_GE(static_cast<std::size_t>(Io::smem_bytes), (Io::threads / 32) * Io::region_bytes);
}

TEST(TransposedIoShape, EveryTileFitsItsSharedMemory) {
  using row_4 = native_tuning::row_4;
  using int32 = tile_for<row_4, int, int_plus, row_4::items_per_thread>;
  static_assert(int32::transposes && int32::items == row_4::items_per_thread);
  expect_fits<int32>(row_4::items_per_thread);
  expect_fits<sized_io<16>>(archscan::row_for<native_tuning, 16>::items_per_thread);
  expect_fits<sized_io<48>>(archscan::row_for<native_tuning, 48>::items_per_thread);
  expect_fits<sized_io<1024>>(archscan::row_for<native_tuning, 1024>::items_per_thread);
  // A kilobyte an item: one item a thread in every warp's region would pass 64 KiB.
  static_assert(!sized_io<1024>::transposes);
}

// --- the moves, on the GPU -----------------------------------------------------------------------------

using row_4    = native_tuning::row_4;
using int_io   = tile_for<row_4, int, int_plus, row_4::items_per_thread>;
using int_prob = problem<int, int_plus>;
static_assert(int_io::vector_loads && int_io::vector_stores && !int_io::packs_items && !int_io::bulk_stores);

//! One block loads the tile at `base` (`rest` items) of `p` into registers, writes each thread's items
//! in its blocked order to `d_blocked` (thread t's item j at t * items + j), and stores them back
//! through `p.out`.
__global__ void load_and_store(int_prob p, std::int64_t base, int rest, int* d_blocked) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int_io::smem_view s(smem);
  int x[int_io::items];
  int_io::load_items(p, base, rest, s, x);
  for (int j = 0; j < int_io::items; ++j) d_blocked[threadIdx.x * int_io::items + j] = x[j];
  __syncthreads();  // the loads' exchange regions are the stores' too
  int_io::store_items(p, base, rest, s, x);
}

TEST(TransposedIoMoves, LoadBlockedPadWithTheFirstItemStoreOnlyTheRealItems) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t tile = int_io::tile_items;
  // Two tiles of input and output, one element more, so that +1 makes each misaligned.
  const auto h = archscan::test::random_values<int>(2 * tile + 4, 11);
  device_buffer<int> d_in(h), d_out(2 * tile + 4), d_blocked(tile);
  for (const int in_off : {0, 1}) {          // 16-byte aligned (vectors for full tiles), or not
    for (const int out_off : {0, 1}) {       // the same for the stores
      for (const std::int64_t t : {0, 1}) {  // the first tile, or the second (base past 0)
        for (const std::int64_t rest : {tile, tile - 1, tile - 33, std::int64_t{1}}) {
          const std::int64_t base = t * tile;
          const int_prob p{d_in.get() + in_off, d_out.get() + out_off, base + rest, {}, {}, 0, {}};
          d_out.poison();
          d_blocked.poison();
          load_and_store<<<1, int_io::threads, int_io::smem_bytes>>>(p, base, static_cast<int>(rest), d_blocked.get());
          ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
          const auto blocked = d_blocked.to_host();
          const auto out     = d_out.to_host();
          const int* in      = h.data() + in_off;
          std::vector<int> poison(1);
          std::memset(poison.data(), 0xA5, sizeof(int));
          for (std::int64_t i = 0; i < tile; ++i) {
            const int want = i < rest ? in[base + i] : in[base];
            ASSERT_EQ(blocked[i], want) << "in +" << in_off << ", tile " << t << ", rest " << rest << ", item " << i;
          }
          for (std::int64_t i = 0; i < 2 * tile + 4 - out_off; ++i) {
            const bool real = i >= base && i < base + rest;
            ASSERT_EQ(out[out_off + i], real ? in[i] : poison[0])
                << "out +" << out_off << ", in +" << in_off << ", tile " << t << ", rest " << rest << ", index " << i;
          }
        }
      }
    }
  }
}

}  // namespace transposed_io_test
