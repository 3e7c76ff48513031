// gpusort/block/bitonic_merge.cuh — bitonic merge of a tile held by a thread block
// (Satish et al.: the merge network inside each merge step; Batcher's bitonic merge).
//
// Input: the block's THREADS*ITEMS items, blocked, form a bitonic sequence (a run
// ascending under cmp followed by a run descending). Output: sorted ascending.
// The block's strides go through shared memory (`storage`, the same storage type as
// block::bitonic_sort) as one merge stage of block::bitonic_sort; a single warp's tile stays
// in registers and shuffles.
// Preconditions: as block::bitonic_sort. Cost: log2(N) steps of N/2 compare-exchanges.
// Not stable on its own: callers that need stability make ties distinct (a rank).
#pragma once

#include <gpusort/block/bitonic_sort.cuh>

namespace gpusort {
namespace block {

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ __forceinline__ void bitonic_merge(Key (&keys)[ITEMS], Value (&values)[ITEMS],
                                              Compare cmp,
                                              bitonic_sort_storage<Key, Value, THREADS, ITEMS>& storage) {
  constexpr int n = THREADS * ITEMS;
  if constexpr (n == warp::lanes * ITEMS) {
    warp::bitonic_merge<ITEMS>(keys, values, cmp);
  } else {
    detail::block_merge_stage<THREADS>(keys, values, cmp, storage, n / 2, false);
  }
}

}  // namespace block
}  // namespace gpusort
