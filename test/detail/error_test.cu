// detail/error.cuh: a CUDA status other than success becomes a thrust::system_error in the CUDA category,
// with the status as its code and the caller's words in its message, as Thrust's CUDA backend reports
// them; success throws nothing. Host only: the statuses are passed in, no CUDA call has to fail.

#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include <archscan/detail/error.cuh>

namespace error_test {

TEST(Error, SuccessThrowsNothing) { EXPECT_NO_THROW(archscan::detail::throw_on_error(cudaSuccess, "a call")); }

TEST(Error, AFailureIsAThrustSystemErrorInTheCudaCategory) {
  try {
    archscan::detail::throw_on_error(cudaErrorMemoryAllocation, "archscan: temporary storage");
    FAIL() << "no exception";
  } catch (const thrust::system_error& e) {
    EXPECT_EQ(e.code().value(), static_cast<int>(cudaErrorMemoryAllocation));
    EXPECT_EQ(&e.code().category(), &thrust::cuda_category());
    EXPECT_NE(std::strstr(e.what(), "archscan: temporary storage"), nullptr) << e.what();
  }
}

TEST(Error, EveryFailingStatusThrows) {
  for (const cudaError_t status : {cudaErrorInvalidValue, cudaErrorLaunchFailure, cudaErrorNoDevice}) {
    EXPECT_THROW(archscan::detail::throw_on_error(status, "a call"), thrust::system_error) << status;
  }
}

}  // namespace error_test
