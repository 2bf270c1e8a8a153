// 1024-byte user-defined values with every policy (value_size.cuh): inclusive_scan with an operator.
// A translation unit of its own: its kernels alone take minutes of ptxas time.

#include "thrust/value_size.cuh"

namespace {

using namespace archscan::test;

template <class C>
class ValueSize1024InclusiveTest : public ::testing::Test {};
TYPED_TEST_SUITE(ValueSize1024InclusiveTest, policy_cases, case_names);

TYPED_TEST(ValueSize1024InclusiveTest, InclusiveScan) {
  ARCHSCAN_REQUIRE_GPU();
  check_value_form<value_form::inclusive, blob<1024>, oracles::host_only>(typename TypeParam::policy{});
}

}  // namespace
