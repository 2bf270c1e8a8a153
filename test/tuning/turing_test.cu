// tuning/turing.cuh (host): the Turing guide's recommendations as named data. The rows are what their
// comments say (tiles of 5120 four-byte and 4096 eight-byte items, 64 registers at their guaranteed
// blocks; row_16's odd count needs no padding in the warp transpose) and run on every supported GPU;
// the look-back's window is a power of two up to a warp, its back-off range is ordered, and its spin
// limit gives up after tens of seconds of polls at the longest back-off; the carveout is a
// percentage or one of its two named values, which differ.

#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include <archscan/block/warp_transpose.cuh>
#include <archscan/tuning/turing.cuh>

#include "support/shipped_rows.cuh"

namespace turing_test {

using archscan::turing_tuning;

struct sixteen_bytes {
  double a, b;
};

TEST(TuringTuning, RowsAreWhatTheyClaim) {
  static_assert(std::is_same_v<turing_tuning::family, archscan::turing_family>);
  using r4 = turing_tuning::row_4;
  using r8 = turing_tuning::row_8;
  EXPECT_EQ(r4::block_threads * r4::items_per_thread, 5120);
  EXPECT_EQ(r4::block_threads * r4::items_per_thread * 4, 20 * 1024);
  EXPECT_EQ(r8::block_threads * r8::items_per_thread, 4096);
  EXPECT_EQ(r8::block_threads * r8::items_per_thread * 8, 32 * 1024);
  EXPECT_EQ(archscan::test::register_cap<r4>(), 64);
  EXPECT_EQ(archscan::test::register_cap<r8>(), 64);
  using r16 = turing_tuning::row_16;
  using t16 = archscan::block::warp_transpose<sixteen_bytes, r16::block_threads, r16::items_per_thread>;
  static_assert(r16::items_per_thread % 2 == 1 && !t16::padded && t16::warp_slots == t16::warp_items);
  archscan::test::expect_rows_run_everywhere<turing_tuning>();
}

TEST(TuringTuning, TheLookBacksWaitsAreConsistent) {
  constexpr int window = turing_tuning::lookback_window;
  static_assert(window >= 1 && window <= 32 && (window & (window - 1)) == 0);
  static_assert(turing_tuning::backoff_min_ns <= turing_tuning::backoff_max_ns);
  const double seconds = static_cast<double>(turing_tuning::spin_limit) * turing_tuning::backoff_max_ns * 1e-9;
  EXPECT_GE(seconds, 10.0) << "a waiting warp must not give up while a predecessor may still run";
  EXPECT_LT(seconds, 600.0) << "a broken guarantee should still end in a trap";
}

TEST(TuringTuning, CarveoutIsAPercentageOrANamedChoice) {
  constexpr int c = turing_tuning::carveout_percent;
  static_assert(turing_tuning::carveout_fit != turing_tuning::carveout_unset);
  static_assert(turing_tuning::carveout_fit < 0 && turing_tuning::carveout_unset < 0);
  static_assert(c == turing_tuning::carveout_fit || c == turing_tuning::carveout_unset || (c >= 0 && c <= 100));
  static_assert(turing_tuning::wave_max_tiles >= 0);
  SUCCEED();
}

}  // namespace turing_test
