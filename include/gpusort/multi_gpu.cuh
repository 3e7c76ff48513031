// gpusort/multi_gpu.cuh — multi::sort_keys / sort_pairs: one process sorts data spread over
// several GPUs (Tanasic et al., "Comparison Based Sorting for Systems with Multiple GPUs").
//
// Each shard is sorted on its GPU by the fastest single-GPU policy (policy::automatic), then
// merge stages find a pivot and its mirror across the shard boundary (thread::pivot_select,
// by direct peer loads), swap the two equal-length ranges between the GPUs (both directions
// at once, on two streams) and merge locally (device::merge). Afterwards the concatenation
// of the shards, in order, is sorted; every shard keeps its device, pointer and count.
// Any number of shards and any counts (empty shards too); several shards may live on the
// same device (copies between them are plain device copies). Stable (over the shards'
// concatenation) while the local policy is: pivot_select sends ties to the left run and every
// local merge takes the earlier run first; policy::automatic is stable (it leaves merge only
// where equal keys are identical bits).
//
// Preconditions: cmp a strict weak ordering callable in device code; shards do not overlap.
// Memory per shard: one shard-sized buffer (keys and values) plus small scratch, taken with
// cudaMallocAsync on the shard's device and given back on every path. Peer access between
// the devices is enabled where possible and left enabled.
// The memory comes from each device's current pool. At its default release threshold (0)
// the pool hands it back to the driver when the sort synchronizes, and every sort maps its
// buffers anew: on 4 H200s, 2^31 u32 keys sorted in 64 ms, 39 ms with the pools kept. A
// caller that sorts repeatedly raises cudaMemPoolAttrReleaseThreshold of those pools.
// Synchronous: returns when the sort is complete (the streams it uses are its own). It starts
// after the work issued before the call to the shards' devices' default streams (legacy or
// per-thread) and blocking streams, as cudaMemcpy would; work on the caller's non-blocking
// streams that writes the shards must be complete (synchronized) before the call.
// Complexity: local sorts, then about (log2 G)^2 / 2 rounds of pivot (log2 n peer loads),
// swap and local merge for G shards, each round moving at most a shard per GPU.
//
// Errors: num_shards < 0, shards null with num_shards > 0, a negative count, a null array
// with count > 0, or a device that does not exist: cudaErrorInvalidValue before any work,
// data untouched. A failure mid-way (out of memory, a failed peer copy or launch) returns
// that error; the data then still holds every item exactly once: the swap fills buffers
// only, and a shard is overwritten only after every copy of that swap completed, so the
// shards hold the state after the last completed merge step — a permutation of the input,
// each shard still holding its count of items, though not sorted.
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/multi_merge.cuh>
#include <gpusort/detail/multi_peer.cuh>
#include <gpusort/detail/no_value.cuh>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace gpusort {
namespace multi {

template <class Key>
struct shard {
  int device;
  Key* keys;
  std::int64_t count;
};

template <class Key, class Value>
struct pair_shard {
  int device;
  Key* keys;
  Value* values;
  std::int64_t count;
};

}  // namespace multi

namespace detail {

// The arguments of a multi-GPU sort, checked before any work (DESIGN.md §2).
template <class Key, class Value>
cudaError_t validate_multi_shards(const std::vector<multi_shard<Key, Value>>& shards,
                                  int device_count) {
  for (const auto& s : shards) {
    if (s.device < 0 || s.device >= device_count) return cudaErrorInvalidValue;
    if (cudaError_t e = validate_sort_arguments(s.keys, s.values, has_values<Value>, s.count))
      return e;
  }
  return cudaSuccess;
}

// The multi-GPU sort with bench and test hooks: stage times into *times when not null;
// staged_pivot forces the k-ary staged pivot search (the path without peer access).
template <class Key, class Value, class Compare>
cudaError_t multi_sort_peer(const std::vector<multi_shard<Key, Value>>& shards, Compare cmp,
                            multi_stage_times* times, bool staged_pivot = false) {
  static_assert(std::is_trivially_copyable<Key>::value, "keys must be trivially copyable");
  static_assert(std::is_trivially_copyable<Value>::value, "values must be trivially copyable");
  int device_count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&device_count)) return e;
  if (cudaError_t e = validate_multi_shards(shards, device_count)) return e;
  std::int64_t total = 0;
  for (const auto& s : shards) total += s.count;
  if (total == 0) return cudaSuccess;
  int caller_device = 0;
  if (cudaError_t e = cudaGetDevice(&caller_device)) return e;
  cudaError_t status;
  {
    peer_transport<Key, Value, Compare> transport(shards, cmp, staged_pivot);
    status = transport.open();
    if (status == cudaSuccess) status = multi_sort(transport, times);
  }  // gives back streams and storage on every path
  const cudaError_t restored = cudaSetDevice(caller_device);
  return status != cudaSuccess ? status : restored;
}

template <class Key, class Value, class Shard>
cudaError_t collect_shards(const Shard* shards, int num_shards,
                           std::vector<multi_shard<Key, Value>>& out) {
  if (num_shards < 0 || (num_shards > 0 && shards == nullptr)) return cudaErrorInvalidValue;
  out.clear();
  for (int i = 0; i < num_shards; ++i) {
    if constexpr (has_values<Value>) {
      out.push_back({shards[i].device, shards[i].keys, shards[i].values, shards[i].count});
    } else {
      out.push_back({shards[i].device, shards[i].keys, nullptr, shards[i].count});
    }
  }
  return cudaSuccess;
}

}  // namespace detail

namespace multi {

template <class Key, class Compare = less>
cudaError_t sort_keys(const shard<Key>* shards, int num_shards, Compare cmp = {}) {
  std::vector<detail::multi_shard<Key, detail::no_value>> list;
  if (cudaError_t e = detail::collect_shards<Key, detail::no_value>(shards, num_shards, list))
    return e;
  return detail::multi_sort_peer(list, cmp, nullptr);
}

template <class Key, class Value, class Compare = less>
cudaError_t sort_pairs(const pair_shard<Key, Value>* shards, int num_shards, Compare cmp = {}) {
  std::vector<detail::multi_shard<Key, Value>> list;
  if (cudaError_t e = detail::collect_shards<Key, Value>(shards, num_shards, list)) return e;
  return detail::multi_sort_peer(list, cmp, nullptr);
}

}  // namespace multi
}  // namespace gpusort
