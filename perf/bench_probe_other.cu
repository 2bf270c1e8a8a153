//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for floating-point and 16-byte items (probe 28: exclusive mat2x2 alone; restored after it).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{9, [] { register_type<exclusive_scan_alg, mat2x2, listed_policies<probe28_policies>>(); }};
}  // namespace
}  // namespace archscan::perf::bench
