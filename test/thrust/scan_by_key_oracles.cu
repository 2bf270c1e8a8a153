// The by-key suite's oracles (scan_by_key_oracle.cuh), explicitly instantiated once for the typed
// cases of every family's unit (scan_by_key_family.cu.in), which see their declarations alone: each
// value type and operator of the scan suite (ARCHSCAN_SCAN_VALUE_OPS, support/cases.cuh), with
// thrust::equal_to<int>; scan_by_key_oracles_non_decreasing.cu holds the other predicate's (one unit
// of both was the suite's longest compile after the typed cases were split).

#include <cstdint>

#include <thrust/functional.h>

#include "thrust/scan_by_key_oracle.cuh"

namespace archscan::test::by_key_suite {

#define ARCHSCAN_ORACLES(T, Op) ARCHSCAN_BY_KEY_ORACLE(T, Op, thrust::equal_to<int>)
ARCHSCAN_SCAN_VALUE_OPS(ARCHSCAN_ORACLES)
#undef ARCHSCAN_ORACLES

}  // namespace archscan::test::by_key_suite
