//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Probes 33-34 vary the 16-byte product's rows alone
//! (perf/policies.cuh): probe 33 measured int32 here as a control, probe 34 registers nothing.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
const registrar registered{8, [] {}};
}  // namespace
}  // namespace archscan::perf::bench
