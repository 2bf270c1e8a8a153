//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items, plain and by key (by-key shapes: probe_keyed).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe       = listed_policies<probe_policies>;
using probe_8byte = listed_policies<probe_8byte_policies>;
using probe_keyed = listed_policies<probe_keyed_policies>;
const registrar registered{8, [] {
  register_type<exclusive_scan_alg, std::int8_t, probe>();
  register_type<exclusive_scan_alg, std::int16_t, probe>();
  register_type<exclusive_scan_alg, std::int32_t, probe>();
  register_type<exclusive_scan_alg, std::int64_t, probe_8byte>();
  register_type<exclusive_scan_by_key_alg, std::int8_t, probe>();
  register_type<exclusive_scan_by_key_alg, std::int16_t, probe_keyed>();
  register_type<exclusive_scan_by_key_alg, std::int32_t, probe_keyed>();
  register_type<exclusive_scan_by_key_alg, std::int64_t, probe_keyed>();
}};
}  // namespace
}  // namespace archscan::perf::bench
