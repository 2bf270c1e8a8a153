//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Last: exclusive sums of int32 and int64, with and without
//! waves, small tiles, staging and large tiles (perf/policies.cuh).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{8, [] {
                             register_type<exclusive_scan_alg, std::int32_t, probe>();
                             register_type<exclusive_scan_alg, std::int64_t, probe>();
                           }};
}  // namespace
}  // namespace archscan::perf::bench
