// gpusort/device/merge.cuh — stable merge of two sorted ranges into a third array.
//
// The merge pass of policy::merge (Satish et al., GPU merge sort, step 2) on one pair of runs
// of arbitrary lengths: merge_path splits the output into equal merge tiles, each block
// stages its pieces of a and b in shared memory and every thread merges ITEMS outputs with a
// bitonic merge network in registers. It is the local merge of the multi-GPU sort (Tanasic
// et al., Figure 3 steps 3 and 7): after a swap, each GPU holds two sorted pieces.
//
// Stable: among equal keys, the items of a come first, each range keeping its order.
// Two-phase (CUB convention): with d_temp_storage == nullptr, only temp_storage_bytes is
// written. Preconditions: a[0, a_count) and b[0, b_count) sorted under cmp; out (and
// out_values) hold a_count + b_count items and overlap neither input. Keys-only: the
// overload without values.
// Errors: negative counts, null arrays with items to merge, too little temp storage:
// cudaErrorInvalidValue before any work. Asynchronous on `stream`, no allocation.
// Complexity: O(a_count + b_count) work, two launches; temp storage 8 bytes per merge tile
// (and 255 more: it may start at any address).
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/detail/validate.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace detail {

// Temp storage of device::merge, from any start: one co-rank per merge tile, plus one.
template <class Key, class Value>
std::size_t merge_temp_storage_bytes(std::int64_t n) {
  return temp_bytes_from_any_start(static_cast<std::size_t>(merge_blocks_for<Key, Value>(n) + 1) *
                                   sizeof(std::int64_t));
}

template <class Key, class Value, class Compare>
cudaError_t merge_ranges(void* d_temp_storage, std::size_t& temp_storage_bytes,
                         const Key* a_keys, const Value* a_values, std::int64_t a_count,
                         const Key* b_keys, const Value* b_values, std::int64_t b_count,
                         Key* out_keys, Value* out_values, Compare cmp, cudaStream_t stream) {
  if (a_count < 0 || b_count < 0) return cudaErrorInvalidValue;
  const std::int64_t n = a_count + b_count;
  const std::size_t needed = n == 0 ? 0 : merge_temp_storage_bytes<Key, Value>(n);
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = needed;
    return cudaSuccess;
  }
  constexpr bool pairs = has_values<Value>;
  if (cudaError_t e = validate_sort_arguments(a_keys, a_values, pairs, a_count)) return e;
  if (cudaError_t e = validate_sort_arguments(b_keys, b_values, pairs, b_count)) return e;
  if (cudaError_t e = validate_sort_arguments(out_keys, out_values, pairs, n)) return e;
  if (cudaError_t e = validate_temp_storage(d_temp_storage, temp_storage_bytes, needed)) return e;
  if (n == 0) return cudaSuccess;
  return launch_merge_pass(a_keys, a_values, b_keys, b_values, out_keys, out_values,
                           single_pair{a_count, b_count}, n,
                           static_cast<std::int64_t*>(temp_aligned_start(d_temp_storage)), cmp, stream);
}

}  // namespace detail

namespace device {

template <class Key, class Compare = less>
cudaError_t merge(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_a,
                  std::int64_t a_count, const Key* d_b, std::int64_t b_count, Key* d_out,
                  Compare cmp = {}, cudaStream_t stream = 0) {
  using detail::no_value;
  return detail::merge_ranges(d_temp_storage, temp_storage_bytes, d_a,
                              static_cast<const no_value*>(nullptr), a_count, d_b,
                              static_cast<const no_value*>(nullptr), b_count, d_out,
                              static_cast<no_value*>(nullptr), cmp, stream);
}

template <class Key, class Value, class Compare = less>
cudaError_t merge(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_a_keys,
                  const Value* d_a_values, std::int64_t a_count, const Key* d_b_keys,
                  const Value* d_b_values, std::int64_t b_count, Key* d_out_keys,
                  Value* d_out_values, Compare cmp = {}, cudaStream_t stream = 0) {
  return detail::merge_ranges(d_temp_storage, temp_storage_bytes, d_a_keys, d_a_values, a_count,
                              d_b_keys, d_b_values, b_count, d_out_keys, d_out_values, cmp,
                              stream);
}

}  // namespace device
}  // namespace gpusort
