//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for other types. Last: exclusive sums of float and double, with and without
//! waves, small tiles, staging and large tiles (perf/policies.cuh).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{9, [] {
                             register_type<exclusive_scan_alg, float, probe>();
                             register_type<exclusive_scan_alg, double, probe>();
                           }};
}  // namespace
}  // namespace archscan::perf::bench
