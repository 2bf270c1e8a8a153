// Two processes (or more) scan one array that lives in slices on their GPUs, one process per GPU:
//   id=$(mktemp -u); scan_across_processes 0 2 "$id" & scan_across_processes 1 2 "$id"; wait
// Rank 0 makes the NCCL id and leaves it in the file ID_FILE (a fresh path per run), where the other
// ranks wait for it; any launcher that passes the id on (MPI, a job scheduler) does the same job.
// Each rank holds n ones; after the scan its last item is (rank + 1) n. Exit status 0 when it is.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <thrust/device_vector.h>

#include <archscan/nccl.cuh>

namespace {

ncclUniqueId shared_id(int rank, const std::string& path) {
  ncclUniqueId id{};
  if (rank == 0) {
    ncclGetUniqueId(&id);
    std::ofstream(path + ".tmp", std::ios::binary).write(id.internal, sizeof(id.internal));
    std::rename((path + ".tmp").c_str(), path.c_str());  // others never see half a file
  } else {
    std::ifstream in;
    while (!(in = std::ifstream(path, std::ios::binary))) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    in.read(id.internal, sizeof(id.internal));
  }
  return id;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s RANK RANKS ID_FILE\n", argv[0]);
    return 2;
  }
  const int rank = std::atoi(argv[1]), ranks = std::atoi(argv[2]);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "rank %d: no CUDA device\n", rank);
    return 2;
  }
  // --- the example: a communicator, this rank's slice, one Thrust call ---
  const ncclUniqueId id = shared_id(rank, argv[3]);
  cudaSetDevice(rank % devices);
  ncclComm_t comm;
  if (ncclCommInitRank(&comm, ranks, id, rank) != ncclSuccess) return 1;
  const std::int64_t n = 1 << 24;
  thrust::device_vector<int> slice(n, 1), out(n);
  thrust::inclusive_scan(archscan::native.across(comm), slice.begin(), slice.end(), out.begin());
  const int last = out.back();
  // ---
  std::printf("rank %d of %d: last item %d, expected %lld\n", rank, ranks, last,
              static_cast<long long>((rank + 1) * n));
  ncclCommDestroy(comm);
  return last == (rank + 1) * n ? 0 : 1;
}
