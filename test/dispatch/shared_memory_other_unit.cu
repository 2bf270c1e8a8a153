// The second translation unit of dispatch_shared_memory_test (see KernelCopiesOfTwoUnits and
// PlanHereLaunchThere there). It is
// linked first, so the linker keeps this unit's copy of every inline host function the two units
// share, among them blelloch's launch of its block-sums level, while its kernels are this unit's
// copies (nvcc 13's internal stubs for __global__ templates).

#include <thrust/scan.h>

#include <archscan/archscan.cuh>

#include "dispatch/shared_memory_wide.cuh"
#include "support/device_buffer.cuh"

namespace archscan::test::shared_memory {

std::vector<std::vector<wide>> scan_in_other_unit(const std::vector<wide>& h) {
  device_buffer<wide> in(h);
  device_buffer<wide> out(static_cast<std::int64_t>(h.size()));
  std::vector<std::vector<wide>> results;
  out.poison();
  thrust::exclusive_scan(archscan::blelloch, in.begin(), in.end(), out.begin(), item(-1), combine{});
  results.push_back(out.to_host());
  out.poison();
  thrust::inclusive_scan(archscan::turing, in.begin(), in.end(), out.begin(), combine{});
  results.push_back(out.to_host());
  return results;
}

void launch_in_other_unit(const wide_problem& p, const dispatch::single_pass_plan& pl, void* d_temp) {
  dispatch::family_dispatch<turing_family>::launch<turing_tuning, no_hooks>(p, pl, detail::current_device_facts(),
                                                                            d_temp, nullptr);
}

void launch_in_other_unit(const wide_problem& p, const dispatch::blelloch_plan& pl, void* d_temp) {
  dispatch::family_dispatch<blelloch_family>::launch<blelloch_tuning, no_hooks>(p, pl, detail::current_device_facts(),
                                                                                d_temp, nullptr);
}

void launch_in_other_unit(const double_problem& p, const dispatch::single_pass_plan& pl, void* d_temp) {
  dispatch::family_dispatch<native_family>::launch<native_tuning, no_hooks>(p, pl, detail::current_device_facts(),
                                                                            d_temp, nullptr);
}

}  // namespace archscan::test::shared_memory
