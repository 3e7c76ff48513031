// gpusort/detail/staged_sort.cuh — a block sorts a tile staged in shared memory stably by
// rounds of staged merges, every key with its tile position beside it.
//
// The tile sort of policy::merge for ranked items whose keys carry no packed rank
// (order_word): its bitonic network needs a rank on every item to be stable, and compares
// each pair by the comparator both ways. Wide keys pay for that twice: 16-byte keys under
// their own comparator sorted 1K tiles in 2.4x the time of CUB's block merge sort (H200,
// bench/RESULTS.md run 81 §3). Here each thread first sorts its ITEMS slots by adjacent
// exchanges (stable), then log2(tile / ITEMS) rounds of detail::merge_staged merge pairs of
// runs in place, ties to the first run: one comparison an output, no ranks compared. The
// positions ride along as the merges' values, so the caller finds each key's value by them.
#pragma once

#include <gpusort/detail/staged_merge.cuh>
#include <gpusort/thread/compare_exchange.cuh>

namespace gpusort {
namespace detail {

// Shared memory of sort_staged: the tile's keys, and where each came from in the tile.
template <int THREADS, int ITEMS, class Key>
using staged_sort_storage = staged_merge_storage<THREADS, ITEMS, Key, int>;

// Stages tile[0, valid) into shared memory with its positions; the caller synchronises.
template <int THREADS, int ITEMS, class Key>
__device__ __forceinline__ void stage_with_positions(const Key* tile, int valid,
                                                     staged_sort_storage<THREADS, ITEMS, Key>& shared) {
  for (int i = threadIdx.x; i < valid; i += THREADS) {
    shared.keys[i] = tile[i];
    shared.values[i] = i;
  }
}

// The whole block sorts the staged [0, valid) stably, 0 < valid <= THREADS * ITEMS, ITEMS a
// power of two; shared.values[i] is then the staged position of the key now at i. The
// caller synchronises before it reads the result.
template <int THREADS, int ITEMS, class Key, class Compare>
__device__ __forceinline__ void sort_staged(int valid, Compare cmp,
                                            staged_sort_storage<THREADS, ITEMS, Key>& shared) {
  static_assert((ITEMS & (ITEMS - 1)) == 0, "a pair of runs is a whole number of jobs");
  const int own = static_cast<int>(threadIdx.x) * ITEMS;
  {
    Key keys[ITEMS];
    int positions[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      keys[r] = shared.keys[own + r < valid ? own + r : 0];
      positions[r] = shared.values[own + r < valid ? own + r : 0];
    }
    // Odd-even transposition: ITEMS rounds of adjacent compare-exchanges sort ITEMS items,
    // and as one exchanges only where the later key strictly precedes, it stays stable. Slots
    // past `valid` stay put: they are never compared.
#pragma unroll
    for (int round = 0; round < ITEMS; ++round) {
#pragma unroll
      for (int r = round & 1; r + 1 < ITEMS; r += 2) {
        if (own + r + 1 < valid)
          thread::compare_exchange(keys[r], keys[r + 1], positions[r], positions[r + 1], cmp);
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      if (own + r < valid) {
        shared.keys[own + r] = keys[r];
        shared.values[own + r] = positions[r];
      }
    }
  }
  for (int run = ITEMS; run < valid; run *= 2) {
    __syncthreads();
    // Every thread merges its ITEMS outputs of the pair of runs they fall in; threads past
    // `valid` take an empty job (slot 0 pads it, nothing is written).
    const int start = own / (2 * run) * (2 * run);
    const int a_count = own < valid ? (valid - start < run ? valid - start : run) : 0;
    const int b_count = own < valid ? (valid - start - a_count < run ? valid - start - a_count : run) : 0;
    const int first = own < valid ? own - start : 0;
    const int end = a_count + b_count;
    const merge_job job{{own < valid ? start : 0, a_count, b_count}, first,
                        first + ITEMS < end ? first + ITEMS : end};
    merge_staged<THREADS, ITEMS, false>(job, cmp, shared);
  }
}

}  // namespace detail
}  // namespace gpusort
