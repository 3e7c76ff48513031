// gpusort/warp/bitonic_sort.cuh — barrier-free bitonic sort of a warp's items
// (Ye et al., GPU-Warpsort, step 1, in registers and shuffles instead of shared memory).
//
// Layout: blocked, lane l holds items [l*ITEMS, (l+1)*ITEMS). Sorts the warp's 32*ITEMS
// items ascending under `cmp` (pass a reversed comparator, e.g. gpusort::greater, for
// descending); each value travels with its key. Not stable.
// Preconditions: ITEMS is a power of two; all 32 lanes call together.
// Cost: log2(n)(log2(n)+1)/2 steps for n = 32*ITEMS, no shared memory, no barriers.
#pragma once

#include <gpusort/warp/bitonic_merge.cuh>

namespace gpusort {
namespace warp {

template <int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_sort(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                             Compare cmp) {
  static_assert(ITEMS > 0 && (ITEMS & (ITEMS - 1)) == 0, "ITEMS must be a power of two");
  constexpr int span = lanes * ITEMS;
  thread::sorting_network(keys, values, cmp);
#pragma unroll 1
  for (int block_size = 2 * ITEMS; block_size <= span; block_size *= 2) {
    detail::warp_shuffle_flip<ITEMS>(keys, values, cmp, block_size);
    detail::warp_shuffle_half_cleaner<ITEMS>(keys, values, cmp, block_size / 4);
    thread::half_cleaner(keys, values, cmp, ITEMS / 2);
  }
}

}  // namespace warp
}  // namespace gpusort
