// gpusort/nccl.cuh — nccl::sort_keys / sort_pairs: the multi-GPU pivot merge sort (Tanasic
// et al.) over NCCL, one rank per GPU on any number of hosts.
//
// Every rank calls it with its own shard (count may differ per rank, may be 0); afterwards
// the concatenation of the shards in rank order is sorted and every rank keeps its count.
// The same algorithm as multi::sort_keys (detail/multi_merge.cuh): local sort by the fastest
// single-GPU policy, then merge stages of pivot (k-ary search: O(log_k n) rounds of k
// candidate keys, not one key a round), swap of two equal-length ranges (ncclSend /
// ncclRecv in one group call) and local merge (device::merge). Stable over the rank order
// while the local policy is (policy::automatic is).
//
// Preconditions: a communicator whose ranks each own one GPU (the current device is set to
// the communicator's); cmp a strict weak ordering callable in device code; every rank calls
// with the same Key, Value and Compare.
// Memory per rank: a shard-sized buffer plus small scratch, cudaMallocAsync on `stream`,
// given back on every path (from the device's current pool: keep its memory between sorts
// by raising cudaMemPoolAttrReleaseThreshold, as multi_gpu.cuh says). Synchronous: the sort
// synchronizes `stream` between steps and returns when it is complete.
//
// Errors: a null communicator, count < 0 or a null array with count > 0 on ANY rank: every
// rank returns ncclInvalidArgument before any work (the ranks agree through one allgather of
// the counts), data untouched; so does an allocation failure on any rank (then
// ncclUnhandledCudaError). A CUDA or NCCL failure mid-way returns an error on the ranks that
// see it (ncclUnhandledCudaError, or NCCL's own code). A swap receives into the buffer only
// and a rank overwrites its shard only after its sends and receives completed, so a rank
// whose step failed still holds its data from before that step. Ranks that did not see the
// failure may wait for the failed one: abort the communicator (ncclCommAbort) then, as with
// any NCCL failure; the data is then not guaranteed to be a permutation across ranks.
#pragma once

#if defined(__has_include)
#if !__has_include(<nccl.h>)
#error "gpusort/nccl.cuh needs NCCL (nccl.h): link the target gpusort::nccl, which CMake defines only where it finds NCCL (in the CUDA Toolkit, or under $NCCL_HOME)"
#endif
#endif

#include <gpusort/compare.cuh>
#include <gpusort/detail/multi_merge.cuh>
#include <gpusort/detail/multi_nccl.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/validate.cuh>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

// The NCCL sort with a bench-only hook: stage times into *times when not null.
template <class Key, class Value, class Compare>
ncclResult_t multi_sort_nccl(ncclComm_t comm, Key* keys, Value* values, std::int64_t count,
                             Compare cmp, cudaStream_t stream, multi_stage_times* times) {
  static_assert(std::is_trivially_copyable<Key>::value, "keys must be trivially copyable");
  static_assert(std::is_trivially_copyable<Value>::value, "values must be trivially copyable");
  if (comm == nullptr) return ncclInvalidArgument;
  int rank = 0, ranks = 0, device = 0, caller_device = 0;
  if (ncclResult_t r = ncclCommUserRank(comm, &rank)) return r;
  if (ncclResult_t r = ncclCommCount(comm, &ranks)) return r;
  if (ncclResult_t r = ncclCommCuDevice(comm, &device)) return r;
  if (cudaGetDevice(&caller_device) != cudaSuccess || cudaSetDevice(device) != cudaSuccess)
    return ncclUnhandledCudaError;
  const cudaError_t arguments = validate_sort_arguments(keys, values, has_values<Value>, count);
  ncclResult_t result = ncclSuccess;
  {
    using transport_type = nccl_transport<Key, Value, Compare>;
    transport_type transport(comm, rank, ranks, keys, values, count, cmp, stream);
    typename transport_type::agreement outcome;
    cudaError_t status = transport.open(arguments, outcome);
    if (status == cudaSuccess) {
      if (outcome == transport_type::agreement::invalid_argument) {
        result = ncclInvalidArgument;
      } else if (outcome == transport_type::agreement::failed) {
        result = ncclUnhandledCudaError;
      } else {
        status = multi_sort(transport, times);
      }
    }
    if (status != cudaSuccess)
      result = transport.nccl_error() != ncclSuccess ? transport.nccl_error() : ncclUnhandledCudaError;
  }  // storage given back
  if (cudaSetDevice(caller_device) != cudaSuccess && result == ncclSuccess)
    result = ncclUnhandledCudaError;
  return result;
}

}  // namespace detail

namespace nccl {

template <class Key, class Compare = less>
ncclResult_t sort_keys(ncclComm_t comm, Key* d_keys, std::int64_t count, Compare cmp = {},
                       cudaStream_t stream = 0) {
  return detail::multi_sort_nccl(comm, d_keys, static_cast<detail::no_value*>(nullptr), count,
                                 cmp, stream, nullptr);
}

template <class Key, class Value, class Compare = less>
ncclResult_t sort_pairs(ncclComm_t comm, Key* d_keys, Value* d_values, std::int64_t count,
                        Compare cmp = {}, cudaStream_t stream = 0) {
  return detail::multi_sort_nccl(comm, d_keys, d_values, count, cmp, stream, nullptr);
}

}  // namespace nccl
}  // namespace gpusort
