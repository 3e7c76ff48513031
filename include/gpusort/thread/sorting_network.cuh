// gpusort/thread/sorting_network.cuh — bitonic sorting network over one thread's registers.
//
// The network is Batcher's bitonic sort in its "flip" form: each merge stage first
// compares every item of a block with its mirror image in the other half (`flip`), which
// turns two ascending halves into a sequence the half-cleaners (`half_cleaner`) finish.
// Every compare-exchange then runs ascending, so no direction has to be computed or
// selected per comparison. The warp and block sorts call these two for the strides that
// stay inside a thread. Register arrays are only indexed by unrolled constants, so nothing
// goes to local memory. Not stable. Cost: N log2 N (log2 N + 1) / 4 compare-exchanges.
#pragma once

#include <gpusort/thread/compare_exchange.cuh>

namespace gpusort {
namespace thread {

// Compare-exchanges (r, r + stride) for every r with bit `stride` clear, at strides
// first_stride, first_stride/2, ..., 1 (all < N): sorts each block of 2*first_stride items
// that holds a bitonic sequence.
template <int N, class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void half_cleaner(Key (&keys)[N], Value (&values)[N],
                                                      Compare cmp, int first_stride) {
#pragma unroll
  for (int stride = first_stride; stride > 0; stride /= 2) {
#pragma unroll
    for (int r = 0; r < N; ++r) {
      if ((r & stride) == 0)
        compare_exchange(keys[r], keys[r | stride], values[r], values[r | stride], cmp);
    }
  }
}

// Compare-exchanges each r in the lower half of its block of `block_size` (<= N) items with
// its mirror r ^ (block_size - 1): after it, every item of the lower half precedes every
// item of the upper one if both halves were sorted, and each half is bitonic.
template <int N, class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void flip(Key (&keys)[N], Value (&values)[N], Compare cmp,
                                              int block_size) {
#pragma unroll
  for (int r = 0; r < N; ++r) {
    if ((r & (block_size / 2)) == 0) {
      const int mirror = r ^ (block_size - 1);
      compare_exchange(keys[r], keys[mirror], values[r], values[mirror], cmp);
    }
  }
}

// Sorts keys[0..N) under cmp, values moving with their keys. N is a power of two.
template <int N, class Key, class Value, class Compare>
__host__ __device__ __forceinline__ void sorting_network(Key (&keys)[N], Value (&values)[N],
                                                         Compare cmp) {
  static_assert(N > 0 && (N & (N - 1)) == 0, "N must be a power of two");
#pragma unroll
  for (int block_size = 2; block_size <= N; block_size *= 2) {
    flip(keys, values, cmp, block_size);
    half_cleaner(keys, values, cmp, block_size / 4);
  }
}

}  // namespace thread
}  // namespace gpusort
