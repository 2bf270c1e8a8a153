#pragma once
// Running one test body on every rank of an NCCL communicator, in either of two modes:
//  - threads (the default): one process, one thread per visible GPU, communicators from ncclCommInitAll;
//  - processes (ranks_main with --ranks=R): the program starts R copies of itself, one rank each,
//    communicators from one ncclUniqueId that the parent makes and passes on the command line.
// A body gets its rank's environment and checks its own slice with gtest assertions.
// Where no GPU is usable, the tests skip; with one GPU they run on a communicator of one rank.

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nccl.h>

#include "support/gpu.cuh"

extern char** environ;

namespace archscan::test {

struct rank_env {
  int rank;
  int ranks;
  ncclComm_t comm;
  cudaStream_t stream;
};

//! This process's rank in processes mode (ranks > 0), set by ranks_main.
struct process_rank {
  int rank  = 0;
  int ranks = 0;
  ncclUniqueId id{};
};
inline process_rank& this_process() {
  static process_rank p;
  return p;
}

inline void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#define ARCHSCAN_CUDA_CHECK_THROW(call) ::archscan::test::cuda_ok((call), #call)

inline void nccl_ok(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r));
}

//! The communicators of threads mode (one per visible GPU, made once), or this process's one.
inline std::vector<ncclComm_t>& communicators() {
  static std::vector<ncclComm_t> comms = [] {
    std::vector<ncclComm_t> c;
    const process_rank& p = this_process();
    if (p.ranks > 0) {
      ARCHSCAN_CUDA_CHECK_THROW(cudaSetDevice(p.rank));
      c.resize(1);
      nccl_ok(ncclCommInitRank(&c[0], p.ranks, p.id, p.rank), "ncclCommInitRank");
    } else {
      int devices = 0;
      ARCHSCAN_CUDA_CHECK_THROW(cudaGetDeviceCount(&devices));
      c.resize(static_cast<std::size_t>(devices));
      nccl_ok(ncclCommInitAll(c.data(), devices, nullptr), "ncclCommInitAll");
    }
    return c;
  }();
  return comms;
}

//! Number of ranks the tests run on: every visible GPU in threads mode, R in processes mode.
inline int rank_count() {
  const process_rank& p = this_process();
  return p.ranks > 0 ? p.ranks : static_cast<int>(communicators().size());
}

//! Runs `body(env)` on every rank (threads mode) or on this process's rank; an exception fails the test.
template <class Body>
void on_every_rank(Body body) {
  auto run_rank = [&](int rank, int ranks, ncclComm_t comm) {
    try {
      ARCHSCAN_CUDA_CHECK_THROW(cudaSetDevice(rank));
      cudaStream_t stream = nullptr;
      ARCHSCAN_CUDA_CHECK_THROW(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      body(rank_env{rank, ranks, comm, stream});
      ARCHSCAN_CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
      ARCHSCAN_CUDA_CHECK_THROW(cudaStreamDestroy(stream));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "rank " << rank << " threw: " << e.what();
    }
  };
  const process_rank& p = this_process();
  if (p.ranks > 0) {
    run_rank(p.rank, p.ranks, communicators()[0]);
    return;
  }
  std::vector<ncclComm_t>& comms = communicators();
  std::vector<std::thread> threads;
  for (int r = 0; r < static_cast<int>(comms.size()); ++r) {
    threads.emplace_back(run_rank, r, static_cast<int>(comms.size()), comms[static_cast<std::size_t>(r)]);
  }
  for (auto& t : threads) t.join();
}

inline std::string hex_of(const ncclUniqueId& id) {
  std::string s;
  char buf[3];
  for (unsigned char c : std::string(id.internal, sizeof(id.internal))) {
    std::snprintf(buf, sizeof(buf), "%02x", c);
    s += buf;
  }
  return s;
}

inline ncclUniqueId id_of(const std::string& hex) {
  ncclUniqueId id{};
  for (std::size_t i = 0; i < sizeof(id.internal) && 2 * i + 1 < hex.size(); ++i) {
    id.internal[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return id;
}

//! main() of a ranks test program. `prog --ranks=R [gtest flags]`: starts R copies of itself, one per
//! rank (`--rank=r --ranks=R --nccl-id=...`), and fails unless every copy passes; exits 77 (ctest's
//! skip code for this test) where fewer than R GPUs are usable. Without --ranks: gtest in threads mode.
inline int ranks_main(int argc, char** argv) {
  std::vector<std::string> passed;
  int ranks = 0, rank = -1;
  std::string id_hex;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--ranks=", 0) == 0) {
      ranks = std::stoi(a.substr(8));
    } else if (a.rfind("--rank=", 0) == 0) {
      rank = std::stoi(a.substr(7));
    } else if (a.rfind("--nccl-id=", 0) == 0) {
      id_hex = a.substr(10);
    } else {
      passed.push_back(a);
    }
  }
  if (ranks > 0 && rank < 0) {  // the parent: one child per rank
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < ranks) {
      std::printf("SKIPPED: %d ranks need %d GPUs; %d usable\n", ranks, ranks, devices);
      return 77;
    }
    ncclUniqueId id{};
    nccl_ok(ncclGetUniqueId(&id), "ncclGetUniqueId");
    std::vector<pid_t> children;
    for (int r = 0; r < ranks; ++r) {
      std::vector<std::string> args = {argv[0], "--rank=" + std::to_string(r), "--ranks=" + std::to_string(ranks),
                                       "--nccl-id=" + hex_of(id)};
      args.insert(args.end(), passed.begin(), passed.end());
      std::vector<char*> cargs;
      for (auto& s : args) cargs.push_back(s.data());
      cargs.push_back(nullptr);
      pid_t pid = 0;
      if (posix_spawn(&pid, argv[0], nullptr, nullptr, cargs.data(), environ) != 0) {
        std::perror("posix_spawn");
        return 1;
      }
      children.push_back(pid);
    }
    int failed = 0;
    for (pid_t pid : children) {
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
    }
    std::printf("%d of %d rank processes failed\n", failed, ranks);
    return failed == 0 ? 0 : 1;
  }
  if (ranks > 0) {
    this_process().rank  = rank;
    this_process().ranks = ranks;
    this_process().id    = id_of(id_hex);
  }
  std::vector<char*> gargs = {argv[0]};
  for (auto& s : passed) gargs.push_back(s.data());
  int gargc = static_cast<int>(gargs.size());
  ::testing::InitGoogleTest(&gargc, gargs.data());
  return RUN_ALL_TESTS();
}

}  // namespace archscan::test

//! First statement of every ranks test: skips where no GPU is usable.
#define ARCHSCAN_REQUIRE_RANKS() ARCHSCAN_REQUIRE_GPU()
