//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for the 16-byte product (probe 36: its timing fields), plain and inclusive.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{9, [] {
  register_type<exclusive_scan_alg, mat2x2, probe>();
  register_type<inclusive_scan_alg, mat2x2, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
