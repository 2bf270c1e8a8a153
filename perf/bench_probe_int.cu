//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside large tiles for four-byte accumulators (probe_large4), for integer items.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_large4_policies>;
const registrar registered{8, [] {
  register_type<exclusive_scan_alg, std::int32_t, probe>();
  register_type<inclusive_scan_alg, std::int32_t, probe>();
  register_type<transform_inclusive_scan_alg, std::int32_t, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
