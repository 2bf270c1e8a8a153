//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Probe 35 (the look-back's waits on the H200): int32's
//! exclusive sum, the H200 target's case.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{8, [] { register_type<exclusive_scan_alg, std::int32_t, probe>(); }};
}  // namespace
}  // namespace archscan::perf::bench
