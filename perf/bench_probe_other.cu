//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for other types. Last: exclusive sums of double on the look-back's two walks
//! (perf/policies.cuh, probe_walk_policies).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using walks = listed_policies<probe_walk_policies>;
const registrar registered{9, [] { register_type<exclusive_scan_alg, double, walks>(); }};
}  // namespace
}  // namespace archscan::perf::bench
