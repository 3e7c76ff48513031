// gpusort/detail/shared_memory.cuh — how much shared memory a tile may take.
//
// A block may declare 48 KB statically on every GPU since Volta; beyond that a kernel
// opts in with cudaFuncAttributeMaxDynamicSharedMemorySize (up to 227 KB on Hopper).
// Tile shapes are compile-time, so they are chosen against a compile-time budget.
#pragma once

#include <gpusort/detail/padded_buffer.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

namespace gpusort {
namespace detail {

// What a block may declare statically, without opting in to more at launch.
constexpr std::size_t static_shared_limit = 48 * 1024;

// What a tile that opts in may take: two blocks still fit an SM of 228 KB (Hopper; Ampere's
// A100 has 164 KB: one block).
constexpr std::size_t opt_in_shared_budget = 112 * 1024;

// What a tile may take where its caller has read the device's opt-in limit first and
// falls back to a smaller tile where it is not granted: A100 grants 163 KB, H100 227 KB.
constexpr std::size_t large_opt_in_shared_budget = 160 * 1024;

// Lets `kernel` launch with `bytes` of dynamic shared memory (a no-op up to the static limit).
template <class Kernel>
cudaError_t allow_dynamic_shared(Kernel kernel, std::size_t bytes) {
  if (bytes <= static_shared_limit) return cudaSuccess;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(bytes));
}

// Largest power of two <= limit items per thread whose tile of keys of `key_bytes` and
// values of `value_bytes` (0: none), each in a padded_buffer, fits `budget` bytes.
constexpr int items_fitting_shared(int threads, std::size_t key_bytes, std::size_t value_bytes,
                                   int limit, std::size_t budget = static_shared_limit) {
  return limit == 1 || padded_bytes(key_bytes, std::size_t(threads) * limit) +
                               padded_bytes(value_bytes, std::size_t(threads) * limit) <=
                           budget
             ? limit
             : items_fitting_shared(threads, key_bytes, value_bytes, limit / 2, budget);
}

// Largest power of two <= LIMIT (at least 1) whose shape a storage check accepts:
// fits(std::integral_constant<int, items>) says whether a kernel's own shared storage at
// that many items fits, so the shape follows the storage rather than an estimate of it.
template <int LIMIT, class Fits>
constexpr int largest_items_fitting(Fits fits) {
  if constexpr (LIMIT == 1) return 1;
  else return fits(std::integral_constant<int, LIMIT>{}) ? LIMIT : largest_items_fitting<LIMIT / 2>(fits);
}

}  // namespace detail
}  // namespace gpusort
