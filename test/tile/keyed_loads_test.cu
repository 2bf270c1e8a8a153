// tile/keyed_loads.cuh: the loads of a transposed tile's by-key items, each thread's items as their
// values and one word of flags (bit j: item j closes its segment), read from a by-key input's keys and
// values. Host: which tiles read keys and values as 16-byte vectors. On the GPU: one tile loaded from
// keys in runs of 1 to 5 items (many flags, runs of one item among them), full (the input going on
// past it or not) and partial (the input's last), the first tile or a later one, with keys and values
// 16-byte aligned (vectors, flags formed in registers) and off 16 bytes (item by item, flags gathered
// by ballots): every thread's values blocked, its flags those of its keys against the next key (none
// for the input's last item and for a partial tile's missing items), the missing items' values the
// tile's first.

#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/keyed_loads.cuh>
#include <archscan/tuning/native.cuh>
#include <archscan/tuning/tile_config.cuh>
#include <cuda/std/functional>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/values.cuh"

namespace keyed_loads_test {

namespace detail = archscan::detail;
using archscan::native_tuning;
using archscan::test::device_buffer;

using equal_keys = ::cuda::std::equal_to<int>;
using keyed_in   = decltype(detail::make_keyed_input<int>(static_cast<const int*>(nullptr),
                                                        static_cast<const int*>(nullptr), equal_keys{}, 0));
using problem    = detail::scan_problem<keyed_in, int*, detail::keyed<int>,
                                     detail::callable<detail::segmented_op<::cuda::std::plus<int>>>,
                                     detail::keyed_inclusive_finish, detail::scan_kind::inclusive, false>;
//! native's by-key int32 row at its small tiles (256 threads x 4 items).
using row = native_tuning::keyed_rows::row_4;
using loads =
    archscan::tile::keyed_loads<problem, archscan::tile_config<native_tuning, row, row::small_items_per_thread>>;
constexpr int items = loads::items;

TEST(KeyedLoadsShape, SplitItemsWithVectorLoads) {
  static_assert(loads::splits_keyed && loads::keyed_vector_loads && loads::transposes);
  static_assert(items <= 32, "one word of flags a thread");
  SUCCEED();
}

//! One block loads the tile at `base` (`rest` items): thread t's value j to d_values[t * items + j],
//! flag j to d_closes[t * items + j].
__global__ void load_tile(problem p, std::int64_t base, int rest, int* d_values, int* d_closes) {
  extern __shared__ __align__(16) unsigned char smem[];
  const loads::smem_view s(smem);
  int v[items];
  unsigned closes = 0;
  loads::load_split(p, base, rest, s, v, closes);
  for (int j = 0; j < items; ++j) {
    d_values[threadIdx.x * items + j] = v[j];
    d_closes[threadIdx.x * items + j] = static_cast<int>((closes >> j) & 1u);
  }
}

//! Keys in runs of 1 to 5 items, each run's key 1 or 2 above the last.
std::vector<int> key_runs(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> keys(static_cast<std::size_t>(n));
  int key = 0;
  for (std::size_t i = 0; i < keys.size();) {
    for (std::uint64_t r = rng() % 5 + 1; r > 0 && i < keys.size(); --r, ++i) keys[i] = key;
    key += static_cast<int>(rng() % 2) + 1;
  }
  return keys;
}

TEST(KeyedLoads, ValuesBlockedFlagsAgainstTheNextKey) {
  ARCHSCAN_REQUIRE_GPU();
  constexpr std::int64_t tile = loads::tile_items;
  static_assert(loads::smem_bytes <= 48 * 1024, "launched without the shared memory opt-in");
  const std::int64_t total = 2 * tile + 8;
  const auto keys          = key_runs(total, 3);
  const auto values        = archscan::test::random_values<int>(total, 4);
  device_buffer<int> d_keys(keys), d_values(values), d_got_values(tile), d_got_closes(tile);
  for (const std::int64_t start : {0, 1}) {  // the problem's first item: keys and values aligned or not
    for (const std::int64_t t : {0, 1}) {
      for (const std::int64_t rest : {tile, tile - 1, tile - 33, std::int64_t{1}}) {
        // A full tile with the input going on past it, or ending with it (its last item closes
        // nothing); a partial tile is the input's last.
        for (const bool ends : {false, true}) {
          if (rest < tile && !ends) continue;
          const std::int64_t base   = t * tile;
          const std::int64_t item_n = ends ? start + base + rest : total;
          problem p{};
          p.in = detail::make_keyed_input<int>(static_cast<const int*>(d_keys.get()),
                                               static_cast<const int*>(d_values.get()), equal_keys{}, item_n) +
                 start;
          p.n = base + rest;
          d_got_values.poison();
          d_got_closes.poison();
          load_tile<<<1, loads::threads, loads::smem_bytes>>>(p, base, static_cast<int>(rest), d_got_values.get(),
                                                              d_got_closes.get());
          ARCHSCAN_CUDA_OK(cudaDeviceSynchronize());
          const auto got_values = d_got_values.to_host();
          const auto got_closes = d_got_closes.to_host();
          for (std::int64_t i = 0; i < tile; ++i) {
            const std::int64_t g = start + base + i;  // the item's index in the keys and values
            const bool real      = i < rest;
            const int want_value = real ? values[g] : values[start + base];
            const int want_close = real && g + 1 < item_n && keys[g] != keys[g + 1] ? 1 : 0;
            ASSERT_EQ(got_values[i], want_value) << "value, start " << start << ", tile " << t << ", rest " << rest
                                                 << ", ends " << ends << ", item " << i;
            ASSERT_EQ(got_closes[i], want_close) << "flag, start " << start << ", tile " << t << ", rest " << rest
                                                 << ", ends " << ends << ", item " << i;
          }
        }
      }
    }
  }
}

}  // namespace keyed_loads_test
