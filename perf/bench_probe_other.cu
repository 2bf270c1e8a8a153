//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for floating-point items. Probe 35 (the look-back's waits on the H200):
//! double's exclusive sum, which stops at the same fraction of a copy there as int32.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{9, [] { register_type<exclusive_scan_alg, double, probe>(); }};
}  // namespace
}  // namespace archscan::perf::bench
