//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! against its variants for four-byte items.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using wide = listed_policies<wide_probe_policies>;
const registrar registered{9, [] {
  register_type<exclusive_scan_alg, std::int32_t, wide>();
  register_type<exclusive_scan_alg, float, wide>();
}};
}  // namespace
}  // namespace archscan::perf::bench
