//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for integer items. Last: int32 and int64 sums, plain and by key, whose
//! waves folded as a tree or in order (since 3943897 libcu++'s sums keep the tree in every variant:
//! the control).
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{8, [] {
                             register_type<exclusive_scan_alg, std::int32_t, probe>();
                             register_type<exclusive_scan_alg, std::int64_t, probe>();
                             register_type<exclusive_scan_by_key_alg, std::int32_t, probe>();
                             register_type<exclusive_scan_by_key_alg, std::int64_t, probe>();
                           }};
}  // namespace
}  // namespace archscan::perf::bench
