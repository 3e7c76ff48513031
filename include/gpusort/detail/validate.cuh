// gpusort/detail/validate.cuh — the argument checks of the error contract (DESIGN.md §2).
//
// Every entry point runs these before it touches the data or launches anything, so a bad
// call returns cudaErrorInvalidValue with the user's arrays untouched. Host-only and
// side-effect free, so they are tested without a GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace detail {

// `values_required` is false for keys-only sorts (values may then be null).
inline cudaError_t validate_sort_arguments(const void* keys, const void* values,
                                           bool values_required, std::int64_t num_items) {
  if (num_items < 0) return cudaErrorInvalidValue;
  if (num_items == 0) return cudaSuccess;
  if (keys == nullptr) return cudaErrorInvalidValue;
  if (values_required && values == nullptr) return cudaErrorInvalidValue;
  return cudaSuccess;
}

// The second phase of the two-phase protocol: storage given must be what the first
// phase asked for (or more).
inline cudaError_t validate_temp_storage(const void* d_temp_storage, std::size_t bytes_given,
                                         std::size_t bytes_needed) {
  if (bytes_needed == 0) return cudaSuccess;
  if (d_temp_storage == nullptr || bytes_given < bytes_needed) return cudaErrorInvalidValue;
  return cudaSuccess;
}

}  // namespace detail
}  // namespace gpusort
