#pragma once
#if defined(__GNUC__) && !defined(ARCHSCAN_NO_SYSTEM_HEADER)
#pragma GCC system_header
#endif
//! \file A scan across the ranks of an NCCL communicator (policy.cuh, `comm_policy`), all on the stream:
//!
//!   1. this rank's total, with no look-back (kernel/rank_kernels.cuh; reads n items): chunks of the
//!      slice folded by independent blocks, which write the rank's record; where the chunks outnumber
//!      what a record holds (detail::rank_record_capacity; ~32 tiles of native's shape), one more block
//!      folds their totals into one;
//!   2. `ncclAllGather` of the records, one slot per rank (detail::rank_slot_bytes: 256 bytes, or a
//!      multiple for accumulators over ~220 bytes);
//!   3. the family's scan of the slice (reads n, writes n), whose tiles fold the seed from the lower
//!      ranks' records where they need it (detail::gathered_seed).
//!
//! Traffic: the family's own scan plus one more read of the slice (3n items for the single-pass
//! families' plain scans; by-key scans read the keys in both passes), and one gather of a slot per
//! rank. Launches: one or two first-pass kernels, the collective, and the family's launches. The host
//! never waits in between, so `_nosync` policies never synchronize and can be captured in a CUDA graph
//! (once NCCL has connected the communicator, at its first collective).
//!
//! Determinism: the first pass and the fold of the lower ranks associate in an order fixed by the
//! slices' sizes alone; the last pass is the family's scan. So a rank's bits repeat from run to run
//! and from GPU to GPU wherever the family's own scan does (`native`: every operator; every family:
//! operators exact on their values). With a rounding operator they need not equal a one-GPU scan of
//! the concatenation bit for bit: that associates differently.
//!
//! Errors: a failing NCCL call throws `thrust::system_error` (nccl_category). An error on one rank
//! before the gather (temporary storage, a launch) throws there, and the other ranks wait in the
//! gather until the communicator is aborted (`ncclCommAbort`): NCCL has no way to let them know.
//! Communicators must be blocking (NCCL's default; not `config.blocking = 0`).
//!
//! Needs NCCL (nccl.h, libnccl): include <archscan/nccl.cuh>.

#include <cstdint>
#include <string>
#include <vector>

#include <nccl.h>

#include <thrust/system/error_code.h>
#include <thrust/system_error.h>

#include <archscan/detail/device.cuh>
#include <archscan/detail/error.cuh>
#include <archscan/detail/math.cuh>
#include <archscan/detail/maybe.cuh>
#include <archscan/detail/problem.cuh>
#include <archscan/detail/rank_carry.cuh>
#include <archscan/dispatch/dispatch_scan.cuh>
#include <archscan/dispatch/temporary_storage.cuh>
#include <archscan/kernel/rank_kernels.cuh>
#include <archscan/policy.cuh>
#include <archscan/tuning.cuh>

namespace archscan::dispatch {

//! NCCL's results as a Thrust error category: a failing NCCL call throws `thrust::system_error` with it.
class nccl_error_category : public thrust::error_category {
 public:
  const char* name() const override { return "nccl"; }
  std::string message(int ev) const override { return ncclGetErrorString(static_cast<ncclResult_t>(ev)); }
};

inline const thrust::error_category& nccl_category() {
  static const nccl_error_category category;
  return category;
}

//! Throws `thrust::system_error` (nccl_category) unless `status` is ncclSuccess; the message names
//! `what` and carries NCCL's last error for `comm`.
inline void throw_on_nccl(ncclResult_t status, ncclComm_t comm, const char* what) {
  if (status == ncclSuccess) return;
  std::string message(what);
  const char* detail = comm != nullptr ? ncclGetLastError(comm) : nullptr;
  if (detail != nullptr && *detail != '\0') message += std::string(" (") + detail + ")";
  throw thrust::system_error(static_cast<int>(status), nccl_category(), message);
}

//! Where one call's temporary storage goes: the family's storage for the scan, the chunks' totals of
//! the first pass (when they do not go into the record), then the gathered records; each part
//! 256-byte aligned.
struct rank_layout {
  std::size_t chunks_offset;
  std::size_t records_offset;
  std::size_t bytes;
};

constexpr rank_layout make_rank_layout(std::size_t family_bytes, std::size_t chunk_bytes, int ranks,
                                       std::size_t slot_bytes) {
  const std::size_t chunks  = detail::align_up(family_bytes, detail::storage_alignment);
  const std::size_t records = chunks + detail::align_up(chunk_bytes, detail::storage_alignment);
  return rank_layout{chunks, records, records + static_cast<std::size_t>(ranks) * slot_bytes};
}

//! Chunks the first pass aims at when they do not fit the record: enough to fill any GPU several
//! times over (~1000 blocks are resident on an H100), few enough for one block to fold their totals
//! in a few microseconds.
constexpr std::int64_t rank_target_chunks = 4096;

//! Full tiles per chunk of the first pass: a function of the tile count alone (so that totals, and
//! every seed, depend on n and not on the GPU); fewer than 2 x rank_target_chunks chunks.
constexpr std::int64_t rank_tiles_per_chunk(std::int64_t full_tiles) {
  const std::int64_t per = full_tiles / rank_target_chunks;
  return per > 1 ? per : 1;
}

//! The first pass over n items in tiles of `tile_items`: where at most `capacity` chunks, one per
//! full tile and one for the items after them (so that the partial tile's fold runs beside the full
//! tiles, not after one), whose totals go straight into the record; else chunks of
//! rank_tiles_per_chunk tiles, the last with the items after them, folded into one total by a second
//! kernel.
constexpr kernel::rank_chunks make_rank_chunks(std::int64_t n, std::int64_t tile_items, int capacity) {
  const std::int64_t full = n / tile_items;
  const std::int64_t own  = full + (n % tile_items > 0 ? 1 : 0);
  if (own <= capacity) return {full, 1, own > 0 ? own : 1, static_cast<int>(own), true};
  const std::int64_t per = rank_tiles_per_chunk(full);
  return {full, per, detail::ceil_div(full, per), 1, false};
}

//! The communicator's size and this process's rank in it.
struct rank_facts {
  int ranks;
  int rank;
};

//! `comm`'s size and rank, after checking that its rank lives on the current device (throws
//! `thrust::system_error` otherwise, and for a null communicator).
inline rank_facts comm_facts(ncclComm_t comm) {
  if (comm == nullptr) {
    throw thrust::system_error(static_cast<int>(ncclInvalidArgument), nccl_category(),
                               "archscan: across(comm) needs a communicator, not nullptr");
  }
  rank_facts f{};
  int comm_device = -1, device = -1;
  throw_on_nccl(ncclCommCount(comm, &f.ranks), comm, "archscan: ncclCommCount");
  throw_on_nccl(ncclCommUserRank(comm, &f.rank), comm, "archscan: ncclCommUserRank");
  throw_on_nccl(ncclCommCuDevice(comm, &comm_device), comm, "archscan: ncclCommCuDevice");
  detail::throw_on_error(cudaGetDevice(&device), "archscan: cudaGetDevice");
  if (comm_device != device) {
    throw thrust::system_error(static_cast<int>(ncclInvalidUsage), nccl_category(),
                               "archscan: the communicator's rank lives on device " + std::to_string(comm_device) +
                                   ", but the current device is " + std::to_string(device));
  }
  return f;
}

//! Runs `problem` (n items: this rank's slice; may be 0) as this rank's part of a scan across the
//! ranks of `policy.comm`. Temporary storage: the family's for n items, one accumulator per chunk of
//! the first pass where the record cannot hold them (fewer than 8192) and one slot of
//! detail::rank_slot_bytes per rank, from archscan's stream-ordered pool. Blocking policies
//! synchronize the stream and then throw `thrust::system_error` when the ranks disagreed on the call
//! (form, accumulator, operator or key types; each rank's record carries a signature of them), with
//! the output already overwritten by a meaningless scan. `_nosync` policies cannot report that disagreement. Either
//! kind can detect it only where every rank's record fits one 256-byte slot (detail::rank_slot_bytes).
template <class Tuning, bool Blocking, class Problem>
void scan_across(across_tag, comm_policy<Tuning, Blocking>& policy, const Problem& problem) {
  using T        = typename Problem::accum_type;
  using family   = family_dispatch<typename Tuning::family>;
  using hooks    = hooks_of<Tuning>;
  using in_t     = typename Problem::input_iterator;
  using op_t     = typename Problem::op_type;
  using boundary = typename detail::boundary_of<in_t>::type;
  using key_t    = typename boundary::key_type;
  using total_problem =
      detail::scan_problem<in_t, T*, T, op_t, detail::identity_finish, detail::scan_kind::inclusive, false>;
  using reduce_row   = row_for_accum<native_tuning, T>;  // the first pass: native's tiles, any family
  using chunk_config = tile_config<native_tuning, reduce_row, reduce_row::items_per_thread>;
  using chunk        = tile::chunk_total<total_problem, chunk_config>;
  using seed_source  = detail::gathered_seed<T, key_t, op_t, boundary>;
  using seeded_problem =
      detail::scan_problem<in_t, typename Problem::output_iterator, T, op_t, typename Problem::finish_type,
                           Problem::exclusive ? detail::scan_kind::exclusive : detail::scan_kind::inclusive, true,
                           seed_source>;
  constexpr std::size_t slot_bytes = detail::rank_slot_bytes<T, key_t>();

  ncclComm_t comm               = policy.comm;
  const rank_facts f            = comm_facts(comm);
  const cudaStream_t stream     = detail::thrust_internals::stream(policy);
  const std::int64_t n          = problem.n > 0 ? problem.n : 0;
  const std::uint64_t signature = detail::rank_signature<std::integral_constant<bool, Problem::exclusive>,
                                                         std::integral_constant<bool, Problem::has_seed>, T, op_t,
                                                         key_t, typename boundary::pred_type>();
  const boundary bound          = detail::boundary_of<in_t>::get(problem.in);

  // The plan: the first pass's chunks, the family's for the scan; then one allocation for the call.
  const auto facts                 = detail::current_device_facts();
  const kernel::rank_chunks chunks = make_rank_chunks(n, chunk::tile_items, detail::rank_record_capacity<T, key_t>());
  const total_problem total{problem.in, nullptr, n, problem.op, {}, problem.seed, {}};
  seeded_problem seeded{problem.in,
                        problem.out,
                        n,
                        problem.op,
                        problem.finish,
                        problem.seed,
                        seed_source{nullptr, f.rank, Problem::has_seed ? 1 : 0, problem.op, bound}};
  decltype(family::template plan<Tuning, hooks>(seeded, facts)) seeded_plan{};
  if (n > 0) seeded_plan = family::template plan<Tuning, hooks>(seeded, facts);
  const auto chunk_kernel = kernel::rank_chunk_totals<chunk_config, total_problem, boundary>;
  opt_in_dynamic_smem(chunk_kernel, chunk::smem_bytes, facts, "archscan: a scan across ranks");
  const rank_layout layout =
      make_rank_layout(n > 0 ? seeded_plan.temp_bytes : 0,
                       chunks.in_record ? 0 : static_cast<std::size_t>(chunks.chunks) * sizeof(T), f.ranks, slot_bytes);
  temporary_storage<comm_policy<Tuning, Blocking>> storage(policy, layout.bytes);
  auto* d_temp   = static_cast<unsigned char*>(storage.data());
  auto* d_chunks = reinterpret_cast<T*>(d_temp + layout.chunks_offset);
  auto* d_slots  = d_temp + layout.records_offset;
  auto* d_record =
      reinterpret_cast<detail::rank_record<T, key_t>*>(d_slots + static_cast<std::size_t>(f.rank) * slot_bytes);

  check_grid(chunks.chunks, "archscan: a scan across ranks: too many chunks");
  chunk_kernel<<<static_cast<unsigned>(chunks.chunks), reduce_row::block_threads, chunk::smem_bytes, stream>>>(
      total, chunks, chunks.in_record ? d_record->totals : d_chunks, d_record, signature, bound);
  detail::throw_on_launch_error("archscan: rank_chunk_totals");
  if (!chunks.in_record) {
    kernel::rank_fold_totals<<<1, kernel::rank_fold_threads, 0, stream>>>(d_chunks, chunks.chunks, problem.op,
                                                                          d_record->totals);
    detail::throw_on_launch_error("archscan: rank_fold_totals");
  }
  throw_on_nccl(ncclAllGather(d_record, d_slots, slot_bytes, ncclUint8, comm, stream), comm,
                "archscan: ncclAllGather of the ranks' records");
  if (n > 0) {
    seeded.seed_source.d_slots = d_slots;
    family::template launch<Tuning, hooks>(seeded, seeded_plan, facts, d_temp, stream);
  }
  if constexpr (Blocking) {
    std::vector<unsigned char> slots(static_cast<std::size_t>(f.ranks) * slot_bytes);
    detail::throw_on_error(cudaMemcpyAsync(slots.data(), d_slots, slots.size(), cudaMemcpyDeviceToHost, stream),
                           "archscan: reading the ranks' records");
    storage.release();
    detail::throw_on_error(cudaStreamSynchronize(stream), "archscan: scan failed to synchronize");
    const int other = detail::rank_disagreeing<T, key_t>(slots.data(), f.ranks, signature);
    if (other >= 0) {
      throw thrust::system_error(static_cast<int>(ncclInvalidUsage), nccl_category(),
                                 "archscan: rank " + std::to_string(f.rank) + " and rank " + std::to_string(other) +
                                     " called different scans (form, accumulator, operator or key types differ)");
    }
  }
}

}  // namespace archscan::dispatch
