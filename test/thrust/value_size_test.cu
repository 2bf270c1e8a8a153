// User-defined value types of 64 and 256 bytes with every policy (value_size.cuh): inclusive_scan with
// an operator, exclusive_scan with init and operator, inclusive_scan_by_key with an operator, against
// a host reference and thrust::cuda::par. Items of 1024 bytes: value_size_1024_*.cu, same program.

#include "thrust/value_size.cuh"

namespace {

using namespace archscan::test;

template <class C>
class ValueSizeTest : public ::testing::Test {};
TYPED_TEST_SUITE(ValueSizeTest, policy_cases, case_names);

TYPED_TEST(ValueSizeTest, InclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_value_form<value_form::inclusive, blob<64>, oracles::host_and_par>(policy);
  check_value_form<value_form::inclusive, blob<256>, oracles::host_and_par>(policy);
}

TYPED_TEST(ValueSizeTest, ExclusiveScanWithInit) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_value_form<value_form::exclusive_init, blob<64>, oracles::host_and_par>(policy);
  check_value_form<value_form::exclusive_init, blob<256>, oracles::host_and_par>(policy);
}

TYPED_TEST(ValueSizeTest, InclusiveScanByKey) {
  ARCHSCAN_REQUIRE_GPU();
  const typename TypeParam::policy policy{};
  check_value_form<value_form::inclusive_by_key, blob<64>, oracles::host_and_par>(policy);
  // thrust::cuda::par cannot take 256-byte values by key: with CCCL 3.0.1, ptxas rejects CUB's
  // DeviceScanByKeyKernel for them ("uses too much shared data (0x10010 bytes, 0xc000 max)", sm_75).
  check_value_form<value_form::inclusive_by_key, blob<256>, oracles::host_only>(policy);
}

}  // namespace
