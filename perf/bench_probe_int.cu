//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Last: exclusive sums of int8 and int16, and of uint8 flags
//! into int32 offsets, item by item and a word at a time (perf/policies.cuh, probe_policies), and of int32 and
//! int64 on the look-back's two walks (probe_walk_policies).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
using walks = listed_policies<probe_walk_policies>;
const registrar registered{8, [] {
                             register_type<exclusive_scan_alg, std::int8_t, probe>();
                             register_type<exclusive_scan_alg, std::int16_t, probe>();
                             register_type<flag_offsets_alg, std::int32_t, probe>();  // uint8 flags -> int32
                             register_type<exclusive_scan_alg, std::int32_t, walks>();
                             register_type<exclusive_scan_alg, std::int64_t, walks>();
                           }};
}  // namespace
}  // namespace archscan::perf::bench
