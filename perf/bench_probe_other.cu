//! \file archscan-bench, probe build only (ARCHSCAN_BENCH_SCANS=probe, perf/native_probe.sh): native
//! beside its variants for the 16-byte product. Last: the product declared exactly associative
//! (mat2x2d, archscan/associativity.cuh), plain, inclusive and by key, whose waves fold as a tree or
//! in order; the undeclared product (mat2x2), which every variant folds in order, as the control.
#include "bench.cuh"

namespace archscan::perf::bench {
namespace {
using probe = listed_policies<probe_policies>;
const registrar registered{9, [] {
                             register_type<exclusive_scan_alg, mat2x2, probe>();
                             register_type<exclusive_scan_alg, declared_mat2x2, probe>();
                             register_type<inclusive_scan_alg, declared_mat2x2, probe>();
                             register_type<exclusive_scan_by_key_alg, declared_mat2x2, probe>();
                           }};
}  // namespace
}  // namespace archscan::perf::bench
