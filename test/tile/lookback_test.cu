// Decoupled look-back under starvation: chosen tiles sleep ~100 us before publishing anything, so
// their successors must wait (bounded, backing off) and still combine every predecessor in order.
// The walks of tile/lookback.cuh over the tile states: the turing family's 32-wide window (and one
// predecessor at a time, with resident blocks looping over tiles) and the kepler family's serial walk,
// with int32 and non-commutative items. Runs through the public Thrust API with test hooks (hooks.cuh)
// attached to the tunings. The native family's segmented walks: tile/segment_lookback_test.cu; the
// walks' association itself: tile/segment_fold_test.cu.

#include <gtest/gtest.h>

#include <archscan/archscan.cuh>

#include "support/gpu.cuh"
#include "support/starved_scans.cuh"

namespace {

using namespace archscan::test::starved;

//! Always the look-back: small problems would otherwise run as one wave (tile/wave.cuh, wave_test.cu).
struct lookback_only_tuning : archscan::turing_tuning {
  static constexpr int wave_max_tiles = 0;
};

//! One predecessor per look-back step (the default reads a 32-wide window).
struct narrow_window_tuning : lookback_only_tuning {
  static constexpr int lookback_window = 1;
};
using starving_tuning        = archscan::with_hooks<lookback_only_tuning, starve_hooks>;
using starving_narrow_tuning = archscan::with_hooks<narrow_window_tuning, starve_resident_hooks>;

//! The kepler family's serial look-back over the same tile states.
using starving_serial_tuning = archscan::with_hooks<archscan::kepler_tuning, starve_hooks>;

TEST(TuringLookbackStarvation, Int32WithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32<starving_tuning>();
}

TEST(TuringLookbackStarvation, NonCommutativeStructWithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_affine<starving_tuning>();
}

TEST(TuringLookbackStarvation, OnePredecessorAtATimeResidentBlocks) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32<starving_narrow_tuning>();
  check_affine<starving_narrow_tuning>();
}

TEST(SerialLookbackStarvation, Int32AndNonCommutativeStructWithDelayedTiles) {
  ARCHSCAN_REQUIRE_GPU();
  check_int32<starving_serial_tuning>();
  check_affine<starving_serial_tuning>();
}

}  // namespace
