#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file The blelloch family's tuning: Harris's work-efficient scan as the paper has it.

#include <archscan/tuning/shape.cuh>

namespace archscan {

//! The paper's scan: B = 2 * block_threads elements per block, two per thread, at every size.
struct blelloch_tuning {
  using family = blelloch_family;
  struct row_4 {  // H100, int32 exclusive sum, 2^30: 928 GB/s (0.38x CUB)
    static constexpr int block_threads          = 512;
    static constexpr int items_per_thread       = 2;  //!< the paper's: fixed
    static constexpr int small_items_per_thread = 2;
    static constexpr int min_blocks_per_sm      = 1;
  };
  using row_8                         = row_4;  // H100, double exclusive sum, 2^30: 1280 GB/s (0.47x CUB)
  using row_16                        = row_4;  // not measured separately; blocks that do not fit shrink (dispatch)
  using row_large                     = row_4;
  static constexpr bool conflict_free = true;  //!< the paper's padding of shared-memory indices
};

}  // namespace archscan
