// gpusort/thread/sorting_network.cuh — bitonic sorting network over one thread's registers.
//
// `bitonic_steps` is the in-register part of every bitonic network in gpusort: the warp
// and block sorts call it for the strides that stay inside a thread. `sorting_network`
// sorts N registers on its own (Batcher's bitonic network, N log2 N (log2 N + 1) / 4
// compare-exchanges). Register arrays are only indexed by unrolled constants, so nothing
// spills to local memory. Not stable.
#pragma once

#include <gpusort/thread/compare_exchange.cuh>

namespace gpusort {
namespace thread {

// Compare-exchanges at strides first_stride, first_stride/2, ..., 1 (all < N). Item r
// sits at network position `position_base + r`; a pair runs descending when that
// position has the bit `block_size` set, flipped once more by `descending`.
template <int N, class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void bitonic_steps(Key (&keys)[N], Value (&values)[N],
                                                       Compare cmp, int first_stride,
                                                       int block_size, int position_base,
                                                       bool descending) {
#pragma unroll
  for (int stride = first_stride; stride > 0; stride /= 2) {
#pragma unroll
    for (int r = 0; r < N; ++r) {
      if ((r & stride) == 0) {
        const bool desc = (((position_base + r) & block_size) != 0) != descending;
        compare_exchange(keys[r], keys[r | stride], values[r], values[r | stride], cmp, desc);
      }
    }
  }
}

// Sorts keys[0..N) under cmp (descending if asked), values moving with their keys.
// Precondition: N is a power of two.
template <int N, class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void sorting_network(Key (&keys)[N], Value (&values)[N],
                                                         Compare cmp, bool descending = false) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "N must be a power of two");
#pragma unroll
  for (int block_size = 2; block_size <= N; block_size *= 2) {
    bitonic_steps(keys, values, cmp, block_size / 2, block_size, 0, descending);
  }
}

}  // namespace thread
}  // namespace gpusort
