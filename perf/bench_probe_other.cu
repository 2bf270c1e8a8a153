//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for other types. Last: exclusive sums of int32, which a word-at-a-time sum of
//! packed bytes leaves alone (the control: the same kernels under both policies).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{9, [] { register_type<exclusive_scan_alg, std::int32_t, probe>(); }};
}  // namespace
}  // namespace archscan::perf::bench
