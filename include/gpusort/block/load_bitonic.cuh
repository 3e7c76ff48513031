// gpusort/block/load_bitonic.cuh — loading two sorted runs as one bitonic sequence.
//
// Merging by a bitonic network needs the second run reversed (Ye et al. Fig. 5b; Satish
// et al.). Both runs are read with coalesced loads; the reversal happens on the way into a
// padded shared buffer, and the block then reads its items in the blocked arrangement.
// Run a lands at tile positions [0, a_count) ascending, run b at [N - b_count, N)
// descending; positions in between (only when a_count + b_count < N) get a copy of a real
// item, so that comparators only ever see real keys.
// Precondition: 0 < a_count + b_count <= N = THREADS*ITEMS. Ends with a barrier, so `buffer`
// may be reused at once.
#pragma once

#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/ranked.cuh>

namespace gpusort {
namespace block {

// Where tile position p came from: its rank in the concatenation a ++ b, or -1 for a
// position between the runs (detail::absent_rank). Merging by (key, rank) is then stable.
template <int N>
__host__ __device__ __forceinline__ int bitonic_source_rank(int p, int a_count, int b_count) {
  if (p < a_count) return p;
  if (p >= N - b_count) return a_count + (N - 1 - p);
  return detail::absent_rank;
}

template <int THREADS, int ITEMS, class T>
__device__ __forceinline__ void load_bitonic(const T* a, int a_count, const T* b, int b_count,
                                             T (&items)[ITEMS],
                                             tile_buffer<THREADS, ITEMS, T>& buffer) {
  if constexpr (detail::has_values<T>) {
    constexpr int n = THREADS * ITEMS;
    for (int i = threadIdx.x; i < a_count; i += THREADS) buffer[i] = a[i];
    for (int i = threadIdx.x; i < b_count; i += THREADS) buffer[n - 1 - i] = b[i];
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int p = threadIdx.x * ITEMS + r;
      const bool present = bitonic_source_rank<n>(p, a_count, b_count) != detail::absent_rank;
      items[r] = buffer[present ? p : (a_count > 0 ? 0 : n - 1)];
    }
    __syncthreads();
  }
}

}  // namespace block
}  // namespace gpusort
