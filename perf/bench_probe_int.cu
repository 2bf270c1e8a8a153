//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Probe 36 varies the 16-byte product's timing alone and
//! registers no integer case.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{8, [] {}};
}  // namespace
}  // namespace archscan::perf::bench
