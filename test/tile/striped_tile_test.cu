// tile/striped_tile.cuh: the kepler family's tile: a tile id from the counter, the tile warp-striped in
// registers, scanned, its prefix from the serial look-back over the tile states, stored from
// registers. Host: a tile's items. On the GPU, one block per tile, with an affine map that does not
// commute (odd factors, so that a composition never forgets a map), against the host: one tile with no
// states, partial last tiles (padded with a copy of the last item), many tiles; an inclusive scan on
// packed states, and a seeded exclusive scan in place (the output aliasing the input) on states of a
// flag and values; with and without a sleep before the look-back.

#include <cstdint>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <archscan/tile/striped_tile.cuh>
#include <archscan/tuning/kepler.cuh>
#include <archscan/tuning/tile_config.cuh>

#include "support/device_buffer.cuh"
#include "support/gpu.cuh"
#include "support/primitives.cuh"
#include "support/tile_states.cuh"
#include "support/values.cuh"

namespace striped_tile_test {

namespace detail = archscan::detail;
using archscan::kepler_tuning;
using archscan::test::affine2;
using archscan::test::affine2_compose;
using archscan::test::device_buffer;

struct flag_and_values_tuning : kepler_tuning {
  static constexpr archscan::tile_status_kind tile_status = archscan::tile_status_kind::flag_and_values;
};
//! kepler's 8-byte row at its small tiles (256 x 4 items): many tiles from few items.
template <class Tuning>
using config_of = archscan::striped_config<Tuning, kepler_tuning::row_8, kepler_tuning::row_8::small_items_per_thread>;
using inclusive_problem = detail::scan_problem<const affine2*, affine2*, affine2, affine2_compose,
                                               detail::identity_finish, detail::scan_kind::inclusive, false>;
using exclusive_problem = detail::scan_problem<affine2*, affine2*, affine2, affine2_compose, detail::identity_finish,
                                               detail::scan_kind::exclusive, true>;
using packed_tile       = archscan::tile::striped_tile<inclusive_problem, config_of<kepler_tuning>>;
using split_tile        = archscan::tile::striped_tile<exclusive_problem, config_of<flag_and_values_tuning>>;
static_assert(std::is_same_v<packed_tile::state_t, archscan::tile::tile_state<affine2, true>>);
static_assert(std::is_same_v<split_tile::state_t, archscan::tile::tile_state<affine2, false>>);

TEST(StripedTileShape, ItemsOfEveryThread) {
  static_assert(packed_tile::tile_items == 256 * kepler_tuning::row_8::small_items_per_thread);
  static_assert(packed_tile::items == kepler_tuning::row_8::small_items_per_thread);
  SUCCEED();
}

template <class Tile, class Problem>
__global__ void run_tiles(Problem p, typename Tile::state_t st, std::int64_t tiles, unsigned delay_ns) {
  __shared__ typename Tile::storage s;
  Tile::run(p, st, tiles, delay_ns, s);
}

const affine2_compose op{};

//! The host's scan of `h` from `*seed` (none: from the first item).
std::vector<affine2> host_scan(const std::vector<affine2>& h, bool exclusive, const affine2* seed) {
  return archscan::test::host_scan(h, op, exclusive, seed != nullptr, seed != nullptr ? *seed : affine2{});
}

//! `Tile` over `p` (n items) in one block per tile, its states (where more than one tile) zeroed first.
template <class Tile, class Problem>
void run_all(const Problem& p, unsigned delay_ns) {
  using state_t            = typename Tile::state_t;
  const std::int64_t tiles = (p.n + Tile::tile_items - 1) / Tile::tile_items;
  const archscan::test::owned_tile_states<state_t, affine2> states(tiles);
  const state_t st = tiles > 1 ? states.bound() : state_t{};
  run_tiles<Tile><<<static_cast<unsigned>(tiles), Tile::block_scan::tile_items / Tile::items>>>(p, st, tiles, delay_ns);
  archscan::test::check(cudaDeviceSynchronize(), "run_tiles");
}

std::vector<std::int64_t> sizes(std::int64_t tile) {
  return {1, tile - 1, tile, tile + 1, 7 * tile - 1, 40 * tile + 3};
}

TEST(StripedTile, InclusiveOnPackedStates) {
  ARCHSCAN_REQUIRE_GPU();
  for (const unsigned delay_ns : {0u, 2000u}) {
    for (const std::int64_t n : sizes(packed_tile::tile_items)) {
      const auto h = archscan::test::exact_inputs<affine2>(n, static_cast<std::uint64_t>(n));
      device_buffer<affine2> d_in(h), d_out(n);
      d_out.poison();
      run_all<packed_tile>(inclusive_problem{d_in.get(), d_out.get(), n, op, {}, {}, {}}, delay_ns);
      const auto out  = d_out.to_host();
      const auto want = host_scan(h, false, nullptr);
      for (std::int64_t i = 0; i < n; ++i) ASSERT_TRUE(out[i] == want[i]) << "n = " << n << ", i = " << i;
    }
  }
}

TEST(StripedTile, SeededExclusiveInPlaceOnFlagAndValueStates) {
  ARCHSCAN_REQUIRE_GPU();
  const affine2 seed{3, 9};
  for (const unsigned delay_ns : {0u, 2000u}) {
    for (const std::int64_t n : sizes(split_tile::tile_items)) {
      const auto h = archscan::test::exact_inputs<affine2>(n, static_cast<std::uint64_t>(n) + 7);
      device_buffer<affine2> d(h);
      run_all<split_tile>(exclusive_problem{d.get(), d.get(), n, op, {}, seed, {}}, delay_ns);
      const auto out  = d.to_host();
      const auto want = host_scan(h, true, &seed);
      for (std::int64_t i = 0; i < n; ++i) ASSERT_TRUE(out[i] == want[i]) << "n = " << n << ", i = " << i;
    }
  }
}

}  // namespace striped_tile_test
