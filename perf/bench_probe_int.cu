//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Last: exclusive sums of int8, item by item and a word at a
//! time (perf/policies.cuh), and of int16, packed too but summed item by item under both (a control).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{8, [] {
                             register_type<exclusive_scan_alg, std::int8_t, probe>();
                             register_type<exclusive_scan_alg, std::int16_t, probe>();
                           }};
}  // namespace
}  // namespace archscan::perf::bench
