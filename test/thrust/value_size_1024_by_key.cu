// 1024-byte user-defined values with every policy (value_size.cuh): inclusive_scan_by_key with an operator.
// A translation unit of its own: its kernels alone take minutes of ptxas time.

#include "thrust/value_size.cuh"

namespace {

using namespace archscan::test;

template <class C>
class ValueSize1024ByKeyTest : public ::testing::Test {};
TYPED_TEST_SUITE(ValueSize1024ByKeyTest, policy_cases, case_names);

TYPED_TEST(ValueSize1024ByKeyTest, InclusiveScanByKey) {
  ARCHSCAN_REQUIRE_GPU();
  // thrust::cuda::par cannot take 1024-byte values by key: with CCCL 3.0.1, ptxas rejects CUB's
  // DeviceScanByKeyKernel for them ("uses too much shared data (0x40010 bytes, 0xc000 max)", sm_75).
  check_value_form<value_form::inclusive_by_key, blob<1024>, oracles::host_only>(typename TypeParam::policy{});
}

}  // namespace
