//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items: plain scans and transforms of every width (transforms
//! read through a transform iterator: their vector loads against the plain scans').
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{8, [] {
  register_type<exclusive_scan_alg, std::int8_t, probe>();
  register_type<exclusive_scan_alg, std::int16_t, probe>();
  register_type<exclusive_scan_alg, std::int32_t, probe>();
  register_type<transform_inclusive_scan_alg, std::int8_t, probe>();
  register_type<transform_inclusive_scan_alg, std::int16_t, probe>();
  register_type<transform_inclusive_scan_alg, std::int32_t, probe>();
  register_type<transform_inclusive_scan_alg, std::int64_t, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
