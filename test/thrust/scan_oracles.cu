// The scan suite's oracles (scan_oracle.cuh), explicitly instantiated once for the typed cases of every
// family's unit (scan_family.cu.in), which see their declarations alone: each value type and operator
// of ARCHSCAN_SCAN_VALUE_OPS (support/cases.cuh).

#include <cstdint>

#include <thrust/functional.h>

#include "thrust/scan_oracle.cuh"

namespace archscan::test::scan_suite {

#define ARCHSCAN_ORACLE(T, Op)                                                                                       \
  template void oracle_scan<T, Op>(scan_form, device_buffer<T>&, device_buffer<T>&, device_buffer<T>&, std::int64_t, \
                                   T, Op);
ARCHSCAN_SCAN_VALUE_OPS(ARCHSCAN_ORACLE)
#undef ARCHSCAN_ORACLE

}  // namespace archscan::test::scan_suite
