// tuning/kepler.cuh (host): the Kepler guide's advice as named data. Each row holds its items in
// registers under the cap its guaranteed blocks leave (4 blocks of 256 threads: 64 registers, as the
// row's comment says), rows shrink as accumulators widen, and every row runs on every supported GPU;
// the recommendations are on (read-only loads, shuffles, 64-bit shared-memory words, grid filling below
// one tile per SM, packed tile states) and the look-back's waits are consistent (no back-off range
// upside down; spin_limit 0: no count).

#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/tuning/kepler.cuh>

#include "support/shipped_rows.cuh"

namespace kepler_test {

using archscan::kepler_tuning;

TEST(KeplerTuning, RowsKeepTheirItemsInRegistersOnEveryGpu) {
  static_assert(std::is_same_v<kepler_tuning::family, archscan::kepler_family>);
  EXPECT_EQ(archscan::test::register_cap<kepler_tuning::row_4>(), 64);
  EXPECT_EQ(archscan::test::register_cap<kepler_tuning::row_8>(), 64);
  // Wider accumulators take fewer items: about the same bytes a thread, never more.
  EXPECT_GE(kepler_tuning::row_4::items_per_thread * 4, kepler_tuning::row_8::items_per_thread * 8);
  EXPECT_GE(kepler_tuning::row_8::items_per_thread * 8, kepler_tuning::row_16::items_per_thread * 16);
  static_assert(std::is_same_v<archscan::row_for<kepler_tuning, 4>, kepler_tuning::row_4>);
  static_assert(std::is_same_v<archscan::row_for<kepler_tuning, 8>, kepler_tuning::row_8>);
  static_assert(std::is_same_v<archscan::row_for<kepler_tuning, 12>, kepler_tuning::row_16>);
  archscan::test::expect_rows_run_everywhere<kepler_tuning>();
}

TEST(KeplerTuning, EveryRecommendationIsOn) {
  static_assert(kepler_tuning::load == archscan::load_kind::read_only);
  static_assert(kepler_tuning::warp_exchange == archscan::warp_exchange_kind::shuffle);
  static_assert(kepler_tuning::smem_word_bytes == 8);
  static_assert(kepler_tuning::tile_status == archscan::tile_status_kind::packed_word);
  static_assert(kepler_tuning::fill_grid);
  EXPECT_GT(kepler_tuning::fill_blocks_per_sm, 0.0);
  EXPECT_LE(kepler_tuning::fill_blocks_per_sm, 1.0) << "shrinking pays only below one tile per SM";
  EXPECT_LE(kepler_tuning::backoff_min_ns, kepler_tuning::backoff_max_ns);
  EXPECT_EQ(kepler_tuning::spin_limit, 0u) << "a count of polls spilled the 8-byte rows";
}

// A tuning derived from kepler's that overrides one field switches that recommendation alone.
struct without_shuffles : kepler_tuning {
  static constexpr archscan::warp_exchange_kind warp_exchange = archscan::warp_exchange_kind::shared_memory;
};

TEST(KeplerTuning, ADerivedTuningSwitchesOneRecommendationOff) {
  static_assert(without_shuffles::warp_exchange == archscan::warp_exchange_kind::shared_memory);
  static_assert(without_shuffles::load == kepler_tuning::load && without_shuffles::fill_grid);
  static_assert(std::is_same_v<archscan::row_for<without_shuffles, 4>, kepler_tuning::row_4>);
  SUCCEED();
}

}  // namespace kepler_test
