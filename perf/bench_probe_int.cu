//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items (probe 28: none; restored after it).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{8, [] {}};  // probe 28: no integer cases
}  // namespace
}  // namespace archscan::perf::bench
