// gpusort/detail/shared_memory.cuh — how much shared memory a tile may take.
//
// A block may declare 48 KB statically on every GPU since Volta; beyond that a kernel
// opts in with cudaFuncAttributeMaxDynamicSharedMemorySize (up to 227 KB on Hopper).
// Tile shapes are compile-time, so they are chosen against a compile-time budget.
#pragma once

#include <cstddef>

namespace gpusort {
namespace detail {

// What a block may declare statically, without opting in to more at launch.
constexpr std::size_t static_shared_limit = 48 * 1024;

// Largest power of two <= limit items per thread whose tile fits `bytes_per_item` each
// (plus the padding slots of padded_buffer) in `budget` bytes.
constexpr int items_fitting_shared(int threads, std::size_t bytes_per_item, int limit,
                                   std::size_t budget = static_shared_limit) {
  return limit == 1 || threads * limit * bytes_per_item * 33 / 32 <= budget
             ? limit
             : items_fitting_shared(threads, bytes_per_item, limit / 2, budget);
}

}  // namespace detail
}  // namespace gpusort
