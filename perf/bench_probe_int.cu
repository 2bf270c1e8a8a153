//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! against its variants for one- and two-byte items and for uint8 flags to int32 offsets.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using narrow = listed_policies<narrow_probe_policies>;
using wide   = listed_policies<wide_probe_policies>;
const registrar registered{8, [] {
  register_type<exclusive_scan_alg, std::int8_t, narrow>();
  register_type<exclusive_scan_alg, std::int16_t, narrow>();
  register_type<flag_offsets_alg, std::int32_t, wide>();
}};
}  // namespace
}  // namespace archscan::perf::bench
