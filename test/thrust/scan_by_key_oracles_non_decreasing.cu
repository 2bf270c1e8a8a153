// The by-key suite's oracles with the non_decreasing predicate (scan_by_key_oracles.cu says why a unit
// of their own): each value type and operator of the scan suite (ARCHSCAN_SCAN_VALUE_OPS).

#include <cstdint>

#include <thrust/functional.h>

#include "thrust/scan_by_key_oracle.cuh"

namespace archscan::test::by_key_suite {

#define ARCHSCAN_ORACLES(T, Op) ARCHSCAN_BY_KEY_ORACLE(T, Op, non_decreasing)
ARCHSCAN_SCAN_VALUE_OPS(ARCHSCAN_ORACLES)
#undef ARCHSCAN_ORACLES

}  // namespace archscan::test::by_key_suite
