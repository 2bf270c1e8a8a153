//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside other limits of its cluster route (probe_cluster), for other items.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_cluster_policies>;
const registrar registered{9, [] {
  register_type<exclusive_scan_alg, float, probe>();
  register_type<exclusive_scan_alg, double, probe>();
  register_type<exclusive_scan_alg, mat2x2, probe>();
  register_type<exclusive_scan_by_key_alg, double, probe>();
  register_type<transform_inclusive_scan_alg, double, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
