//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside other limits of its cluster route (probe_cluster), for integer items.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_cluster_policies>;
const registrar registered{8, [] {
  register_type<exclusive_scan_alg, std::int8_t, probe>();
  register_type<exclusive_scan_alg, std::int16_t, probe>();
  register_type<exclusive_scan_alg, std::int32_t, probe>();
  register_type<exclusive_scan_alg, std::int64_t, probe>();
  register_type<exclusive_scan_by_key_alg, std::int32_t, probe>();
  register_type<flag_offsets_alg, std::int32_t, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
