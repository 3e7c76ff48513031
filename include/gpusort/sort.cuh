// gpusort/sort.cuh — sort_keys / sort_pairs: argument checks, temp storage, policy dispatch.
//
// Two-phase protocol (CUB's): called with d_temp_storage == nullptr, an entry point only
// writes the bytes it needs to temp_storage_bytes; called again with that storage, it
// sorts d_keys[0, num_items) in place, asynchronously on `stream`. The convenience
// overloads take the storage stream-ordered (cudaMallocAsync / cudaFreeAsync).
//
// Floating-point keys under total_less from 2^16 keys on are sorted as their order words
// (detail/total_order_words.cuh): 20-60 % faster (16-bit floats 1.9-3.4x from 2^24 keys),
// the same result; so are float, __half and __nv_bfloat16 keys alone under less and greater
// by the policies that need not be stable (4-27 % faster), and by the stable ones from 2^21
// keys, with the input order of -0 and +0 kept (detail/zero_signs.cuh; 14-46 % faster).
//
// Errors: bad arguments (num_items < 0, a null array with num_items > 0, too little temp
// storage) return cudaErrorInvalidValue before any work; num_items == 0 is a no-op; a
// policy whose algorithm is not built returns cudaErrorNotSupported; an error that an
// earlier CUDA call left pending (cudaPeekAtLastError) is returned before any work, as a
// launch check would report it part-way. Nothing aborts, prints or throws. The temp
// storage may start at any address (temp_bytes_from_any_start).
#pragma once

#include <gpusort/compare.cuh>
#include <gpusort/detail/automatic.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/randomized_sample_sort.cuh>
#include <gpusort/detail/deterministic_sample_sort.cuh>
#include <gpusort/detail/warpsort.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/total_order_words.cuh>
#include <gpusort/detail/validate.cuh>
#include <gpusort/policy.cuh>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

// Temp storage of a sort of n keys, from any start: floating-point keys may be sorted as
// their order words (detail/total_order_words.cuh) from an n that depends on the comparator,
// and a size query need not name the comparator it sorts with, so theirs covers each one that
// takes the words at n.
template <class Policy, class Key, class Value>
std::size_t sort_temp_bytes(const Policy& policy, std::int64_t n) {
  std::size_t bytes = algorithm<Policy>::template temp_storage_bytes<Key, Value>(policy, n);
  const auto cover = [&](auto cmp) {
    using Compare = decltype(cmp);
    if constexpr (sorts_as_total_order_words<Policy, Key, Value, Compare>) {
      if (n >= sorts_as_words_from<Policy, Compare>)
        bytes = std::max(bytes, total_order_words_temp_bytes<Policy, Key, Value, Compare>(policy, n));
    }
  };
  cover(total_less{});
  cover(less{});  // as greater
  return temp_bytes_from_any_start(bytes);
}

template <class Policy, class Key, class Value, class Compare>
cudaError_t sort_two_phase(const Policy& policy, void* d_temp_storage,
                           std::size_t& temp_storage_bytes, Key* d_keys, Value* d_values,
                           std::int64_t num_items, Compare cmp, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable<Key>::value, "keys must be trivially copyable");
  static_assert(std::is_trivially_copyable<Value>::value, "values must be trivially copyable");
  constexpr bool has_values = !std::is_same<Value, no_value>::value;
  if (cudaError_t e = validate_sort_arguments(d_keys, d_values, has_values, num_items)) return e;
  if constexpr (!algorithm<Policy>::implemented) {
    return cudaErrorNotSupported;
  } else {
    if (cudaError_t e = algorithm<Policy>::template check_policy<Key, Value>(policy)) return e;
    // Before the size: CUB's size queries, which some algorithms' sizes make, read (and so
    // clear) a pending error and return it, which would leave the sort none to see.
    if (d_temp_storage != nullptr && num_items > 0) {
      if (cudaError_t e = cudaPeekAtLastError()) return e;
    }
    const std::size_t needed = num_items == 0 ? 0 : sort_temp_bytes<Policy, Key, Value>(policy, num_items);
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = needed;
      return cudaSuccess;
    }
    if (cudaError_t e = validate_temp_storage(d_temp_storage, temp_storage_bytes, needed)) return e;
    if (num_items == 0) return cudaSuccess;
    void* temp = temp_aligned_start(d_temp_storage);
    if constexpr (sorts_as_total_order_words<Policy, Key, Value, Compare>) {
      if (num_items >= sorts_as_words_from<Policy, Compare>)
        return sort_total_order_words(policy, temp, d_keys, d_values, num_items, cmp, stream);
    }
    return algorithm<Policy>::sort(policy, temp, d_keys, d_values, num_items, cmp, stream);
  }
}

template <class Policy, class Key, class Value, class Compare>
cudaError_t sort_with_own_storage(const Policy& policy, Key* d_keys, Value* d_values,
                                  std::int64_t num_items, Compare cmp, cudaStream_t stream) {
  // A pending error first, before the size query can clear it (sort_two_phase says why).
  if (cudaError_t e = validate_sort_arguments(d_keys, d_values, has_values<Value>, num_items)) return e;
  if (num_items > 0) {
    if (cudaError_t e = cudaPeekAtLastError()) return e;
  }
  std::size_t bytes = 0;
  if (cudaError_t e = sort_two_phase(policy, nullptr, bytes, d_keys, d_values, num_items, cmp, stream))
    return e;
  if (bytes == 0) return cudaSuccess;
  void* storage = nullptr;
  if (cudaError_t e = cudaMallocAsync(&storage, bytes, stream)) return e;
  const cudaError_t sorted =
      sort_two_phase(policy, storage, bytes, d_keys, d_values, num_items, cmp, stream);
  const cudaError_t freed = cudaFreeAsync(storage, stream);
  return sorted != cudaSuccess ? sorted : freed;
}

}  // namespace detail

template <class Policy, class Key, class Compare = less>
cudaError_t sort_keys(const Policy& policy, void* d_temp_storage, std::size_t& temp_storage_bytes,
                      Key* d_keys, std::int64_t num_items, Compare cmp = {},
                      cudaStream_t stream = 0) {
  return detail::sort_two_phase(policy, d_temp_storage, temp_storage_bytes, d_keys,
                                static_cast<detail::no_value*>(nullptr), num_items, cmp, stream);
}

template <class Policy, class Key, class Value, class Compare = less>
cudaError_t sort_pairs(const Policy& policy, void* d_temp_storage, std::size_t& temp_storage_bytes,
                       Key* d_keys, Value* d_values, std::int64_t num_items, Compare cmp = {},
                       cudaStream_t stream = 0) {
  return detail::sort_two_phase(policy, d_temp_storage, temp_storage_bytes, d_keys, d_values,
                                num_items, cmp, stream);
}

template <class Policy, class Key, class Compare = less>
cudaError_t sort_keys(const Policy& policy, Key* d_keys, std::int64_t num_items, Compare cmp = {},
                      cudaStream_t stream = 0) {
  return detail::sort_with_own_storage(policy, d_keys, static_cast<detail::no_value*>(nullptr),
                                       num_items, cmp, stream);
}

template <class Policy, class Key, class Value, class Compare = less>
cudaError_t sort_pairs(const Policy& policy, Key* d_keys, Value* d_values, std::int64_t num_items,
                       Compare cmp = {}, cudaStream_t stream = 0) {
  return detail::sort_with_own_storage(policy, d_keys, d_values, num_items, cmp, stream);
}

}  // namespace gpusort
