//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside the variants of the probe's list for floating-point and 16-byte items (perf/policies.cuh;
//! earlier probes' lists stay there, and their registrations in this file's history).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_trough_policies>;
const registrar registered{9, [] {
  register_type<exclusive_scan_alg, float, probe>();
  register_type<exclusive_scan_alg, double, probe>();
  register_type<exclusive_scan_alg, mat2x2, probe>();
  register_type<exclusive_scan_by_key_alg, double, probe>();
}};
}  // namespace
}  // namespace archscan::perf::bench
