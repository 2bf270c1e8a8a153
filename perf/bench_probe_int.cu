//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items (int32 plain and by key: operators exact under any
//! association, a control for changes to the ordered fold).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{8, [] {
  register_type<exclusive_scan_alg, std::int32_t, probe>();
  register_type<exclusive_scan_by_key_alg, std::int32_t, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
