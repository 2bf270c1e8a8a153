//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside staging the next tile (probe_staged_*), for floating-point items.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe_4byte = listed_policies<probe_staged_4byte_policies>;
using probe_8byte = listed_policies<probe_staged_8byte_policies>;
const registrar registered{9, [] {
  register_type<exclusive_scan_alg, float, probe_4byte>();
  register_type<exclusive_scan_alg, double, probe_8byte>();
}};
}  // namespace
}  // namespace archscan::perf::bench
