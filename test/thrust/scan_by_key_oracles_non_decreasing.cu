// The by-key suite's oracles with the non_decreasing predicate (scan_by_key_oracles.cu says why a unit
// of their own): each value type and operator of the scan suite (ARCHSCAN_SCAN_VALUE_OPS).

#include <cstdint>

#include <thrust/functional.h>

#include "thrust/scan_by_key_oracle.cuh"

namespace archscan::test::by_key_suite {

#define ARCHSCAN_ORACLE(T, Op, Pred)                                                                       \
  template void oracle_scan_by_key<T, Op, Pred>(device_buffer<int>&, device_buffer<T>&, device_buffer<T>&, \
                                                device_buffer<T>&, std::int64_t, bool, T, Op, Pred);
#define ARCHSCAN_ORACLES(T, Op) ARCHSCAN_ORACLE(T, Op, non_decreasing)
ARCHSCAN_SCAN_VALUE_OPS(ARCHSCAN_ORACLES)
#undef ARCHSCAN_ORACLES
#undef ARCHSCAN_ORACLE

}  // namespace archscan::test::by_key_suite
