//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items (probe 27: exclusive int32_t alone; restored after it).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{8, [] { register_type<exclusive_scan_alg, std::int32_t, listed_policies<probe27_policies>>(); }};
}  // namespace
}  // namespace archscan::perf::bench
