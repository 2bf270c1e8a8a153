// Compile-only: every scan-family overload across the ranks of a communicator (<archscan/nccl.cuh>),
// blocking and nosync. tools/check_warnings.sh compiles it, where nccl.h is found, as it compiles
// public_api.cu. Never run.

#include <archscan/nccl.cuh>

#include "every_overload.cuh"

using archscan::compile_check::every_overload;

void archscan_public_api_nccl(cudaStream_t s, ncclComm_t comm, thrust::device_vector<int>& k,
                              thrust::device_vector<int>& v, thrust::device_vector<int>& o) {
  every_overload(archscan::native.on(s).across(comm), k, v, o);
  every_overload(archscan::native_nosync.on(s).across(comm), k, v, o);
  every_overload(archscan::turing.across(comm), k, v, o);
}
