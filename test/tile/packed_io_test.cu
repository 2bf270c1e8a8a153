// tile/packed_io.cuh: the moves of a transposed tile's packed items, one- and two-byte values kept in
// the words of their 16-byte vectors from the load to the store. Host: which tiles pack, and that a
// thread's packed items take a quarter (a half) of the words they would unpacked. On the GPU: one tile of
// int8 and one of int16 loaded packed and stored back, full and partial, from and to 16-byte aligned
// memory (vectors) and memory off 16 bytes (item by item): every thread holds its items blocked, the
// missing items of a partial tile repeat the tile's first, and the stores write the tile's real items
// and nothing past them.

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/packed_io.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace packed_io_test {

namespace detail = archscan::detail;
using archscan::native_tuning;
using archscan::test::device_buffer;

template <class T, class Accum = T>
using problem = detail::scan_problem<const T*, T*, Accum, detail::callable<::cuda::std::plus<Accum>>,
                                     detail::identity_finish, detail::scan_kind::inclusive, false>;
//! A packed row's small tiles (256 threads, 16 and 8 items a thread).
template <class Row>
using config_of = archscan::tile_config<native_tuning, Row, Row::small_items_per_thread>;
using row_1     = native_tuning::packed_rows::row_1;
using row_2     = native_tuning::packed_rows::row_2;
using int8_io   = archscan::tile::packed_io<problem<std::int8_t>, config_of<row_1>>;
using int16_io  = archscan::tile::packed_io<problem<std::int16_t>, config_of<row_2>>;

TEST(PackedIoShape, NarrowItemsPackFourOrTwoAWord) {
  static_assert(int8_io::packs_items && int16_io::packs_items);
  static_assert(sizeof(int8_io::packed_vectors::packed) == int8_io::items * sizeof(std::int8_t));
  static_assert(sizeof(int16_io::packed_vectors::packed) == int16_io::items * sizeof(std::int16_t));
  // Narrow items stored wider: the input's and the output's vectors differ in width, so nothing packs.
  using widened = archscan::tile::packed_io<
      detail::scan_problem<const std::int8_t*, int*, int, detail::callable<::cuda::std::plus<int>>,
                           detail::identity_finish, detail::scan_kind::inclusive, false>,
      config_of<native_tuning::row_4>>;
  static_assert(!widened::packs_items);
  SUCCEED();
}

//! One block loads the tile at `base` (`rest` items) packed, writes each thread's items in its blocked
//! order to `d_blocked` (thread t's item j at t * items + j) and stores them back through `p.out`.
template <class Io, class Problem, class T>
__global__ void load_and_store(Problem p, std::int64_t base, int rest, T* d_blocked) {
  extern __shared__ __align__(16) unsigned char smem[];
  const typename Io::smem_view s(smem);
  typename Io::packed_vectors::packed x;
  Io::load_packed(p, base, rest, s, x);
  for (int j = 0; j < Io::items; ++j) d_blocked[threadIdx.x * Io::items + j] = x.get(j);
  __syncthreads();
  Io::store_packed(p, base, rest, s, x);
}

template <class Io, class T>
void check_moves() {
  using P                     = problem<T>;
  constexpr std::int64_t tile = Io::tile_items;
  static_assert(Io::smem_bytes <= 48 * 1024, "launched without the shared memory opt-in");
  const std::int64_t size = 2 * tile + 32;  // room for 16-byte offsets of the input and the output
  const auto h            = archscan::test::random_values<T>(size, sizeof(T));
  device_buffer<T> d_in(h), d_out(size), d_blocked(tile);
  const int off = 16 / static_cast<int>(sizeof(T)) / 2;  // half a vector: 8 bytes off
  for (const int in_off : {0, off}) {
    for (const int out_off : {0, off}) {
      for (const std::int64_t t : {0, 1}) {
        for (const std::int64_t rest : {tile, tile - 1, tile - 17, std::int64_t{1}}) {
          const std::int64_t base = t * tile;
          const P p{d_in.get() + in_off, d_out.get() + out_off, base + rest, {}, {}, T{}, {}};
          d_out.poison();
          d_blocked.poison();
          load_and_store<Io><<<1, Io::threads, Io::smem_bytes>>>(p, base, static_cast<int>(rest), d_blocked.get());
          ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
          const auto blocked = d_blocked.to_host();
          const auto out     = d_out.to_host();
          const T* in        = h.data() + in_off;
          T poison;
          std::memset(&poison, 0xA5, sizeof(T));
          for (std::int64_t i = 0; i < tile; ++i) {
            const T want = i < rest ? in[base + i] : in[base];
            ASSERT_EQ(blocked[i], want) << sizeof(T) << "-byte items, in +" << in_off << ", tile " << t << ", rest "
                                        << rest << ", item " << i;
          }
          for (std::int64_t i = 0; i < size - out_off; ++i) {
            const bool real = i >= base && i < base + rest;
            ASSERT_EQ(out[out_off + i], real ? in[i] : poison)
                << sizeof(T) << "-byte items, out +" << out_off << ", in +" << in_off << ", tile " << t << ", rest "
                << rest << ", index " << i;
          }
        }
      }
    }
  }
}

TEST(PackedIoMoves, Int8LoadBlockedPadWithTheFirstItemStoreOnlyTheRealItems) {
  ARCHSCAN_REQUIRE_GPU();
  check_moves<int8_io, std::int8_t>();
}

TEST(PackedIoMoves, Int16LoadBlockedPadWithTheFirstItemStoreOnlyTheRealItems) {
  ARCHSCAN_REQUIRE_GPU();
  check_moves<int16_io, std::int16_t>();
}

}  // namespace packed_io_test
