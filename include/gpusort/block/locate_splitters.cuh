// gpusort/block/locate_splitters.cuh — where each global splitter falls in a sorted tile
// (Dehne & Zaboli, Algorithm 1 step 6: sample indexing by the halving parallel binary search).
//
// For a sorted tile (item i at position tile_offset + i) and s splitters given as
// (key, position) pairs sorted under detail::precedes, writes ranks[b] = the number of tile
// items that precede splitter b. s splitters cut the tile into s + 1 buckets; bucket b is
// [ranks[b-1], ranks[b]) with ranks[-1] = 0 and ranks[s] = valid_items: the items from
// splitter b-1 on (an item equal to splitter b-1 in key and position, i.e. the sampled item
// itself, belongs to bucket b) up to splitter b's predecessor. Ties are broken
// by position, so equal keys are split between buckets exactly where the global sample
// put the splitter, which keeps every bucket within the paper's 2n/s bound on any input.
//
// The halving scheme of the paper, one level per halving: level 0 searches the middle
// splitter over the whole tile; each further level searches the middles of the halves left
// over, each one only between the ranks its two already-located neighbours found. Level l
// runs 2^l independent searches, spread over the block's threads (a thread takes several
// when 2^l > THREADS); a barrier separates the levels. The paper's levels keep searches
// from piling onto the same shared-memory addresses; on today's GPUs a warp's reads of one
// address are a broadcast, and the early levels, each a chain of dependent reads behind a
// barrier with most threads idle, cost more than they save. So the block runs the top
// levels at once: every splitter whose slot is a multiple of the first step
// (halving_first_step: the least power of two that leaves at most THREADS of them) is
// searched over the whole tile, and the levels below it halve as the paper does (measured
// 1-5 % faster whole sorts than the paper's levels on an H100: bench/RESULTS.md run 106).
// Splitter b sits at slot b + 1; slots past s stand for "after the tile" (rank valid_items)
// and cost no search, so s need not be 2^L - 1.
//
// Preconditions: 0 <= valid_items; splitters sorted under detail::precedes (equal pairs
// allowed: they get equal ranks); every thread of the block calls; tile and splitters are
// visible to all threads (the caller syncs before). `ranks` may be shared or global memory
// (read back between levels); it is complete and visible to the whole block on return.
// Cost: log2(halving_first_step) + 1 barriers; a search chain of about
// log2(valid_items) + log2(first step) · log2(2·valid_items·first step / s) dependent reads.
#pragma once

#include <gpusort/detail/positioned.cuh>

#include <cstdint>

namespace gpusort {
namespace block {

// The number of items of sorted_tile[0, valid_items) that precede (key, position), knowing
// that it lies in [lo, hi]: items before lo precede, items from hi on do not. Only items in
// [lo, hi) are read. Returns a value in [lo, hi]. One thread; lower-bound binary search.
template <class Key, class Compare>
__host__ __device__ inline int splitter_rank(const Key* sorted_tile, int lo, int hi,
                                             std::int64_t tile_offset, const Key& key,
                                             std::int64_t position, Compare cmp) {
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (detail::precedes(sorted_tile[mid], tile_offset + mid, key, position, cmp)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace block

namespace detail {

// Search `node` of the level with step `half`: slot v = (2 * node + 1) * half, which holds
// splitter v - 1 where v <= s. Its neighbours v ± half were located at an earlier level or
// are the tile's ends (slot 0, and the slots past the last splitter). Once every multiple of
// the first step is located, running the levels from half = first step / 2 down to 1, each
// level's searches in any order, fills ranks[0, splitters).
template <class Key, class Compare>
__host__ __device__ inline void halving_search(const Key* sorted_tile, int valid_items,
                                               std::int64_t tile_offset,
                                               const Key* splitter_keys,
                                               const std::int64_t* splitter_positions,
                                               int splitters, int* ranks, int half, int node,
                                               Compare cmp) {
  const int v = (2 * node + 1) * half;
  const int b = v - 1;
  if (b >= splitters) return;
  const int left = v - half;
  const int right = v + half;
  const int lo = left == 0 ? 0 : ranks[left - 1];
  const int hi = right - 1 >= splitters ? valid_items : ranks[right - 1];
  ranks[b] = block::splitter_rank(sorted_tile, lo, hi, tile_offset, splitter_keys[b],
                                  splitter_positions[b], cmp);
}

// Search slot `slot` of the first level, whose step is `first`: slot (slot + 1) * first holds
// splitter (slot + 1) * first - 1, for slot < splitters / first. No neighbour is located yet,
// so the search spans the whole tile; the level's searches run in any order.
template <class Key, class Compare>
__host__ __device__ inline void halving_first_search(const Key* sorted_tile, int valid_items,
                                                     std::int64_t tile_offset,
                                                     const Key* splitter_keys,
                                                     const std::int64_t* splitter_positions,
                                                     int* ranks, int first, int slot,
                                                     Compare cmp) {
  const int b = (slot + 1) * first - 1;
  ranks[b] = block::splitter_rank(sorted_tile, 0, valid_items, tile_offset, splitter_keys[b],
                                  splitter_positions[b], cmp);
}

// The step of the first level that the block searches: the least power of two h for which
// at most `threads` slots are multiples of h. Those slots' splitters are searched at once,
// each over the whole tile; the levels from h / 2 down to 1 follow.
__host__ __device__ inline int halving_first_step(int splitters, int threads) {
  int step = 1;
  while (splitters / step > threads) step *= 2;
  return step;
}

}  // namespace detail

namespace block {

template <int THREADS, class Key, class Compare>
__device__ void locate_splitters(const Key* sorted_tile, int valid_items, std::int64_t tile_offset,
                                 const Key* splitter_keys,
                                 const std::int64_t* splitter_positions, int splitters,
                                 int* ranks, Compare cmp) {
  const int first = detail::halving_first_step(splitters, THREADS);
  for (int slot = threadIdx.x; slot < splitters / first; slot += THREADS) {
    detail::halving_first_search(sorted_tile, valid_items, tile_offset, splitter_keys,
                                 splitter_positions, ranks, first, slot, cmp);
  }
  __syncthreads();
#pragma unroll 1
  for (int half = first / 2; half >= 1; half /= 2) {
    // Only slots v = (2 * node + 1) * half <= splitters hold a splitter.
    const int searches = (splitters / half + 1) / 2;
    for (int node = threadIdx.x; node < searches; node += THREADS) {
      detail::halving_search(sorted_tile, valid_items, tile_offset, splitter_keys,
                             splitter_positions, splitters, ranks, half, node, cmp);
    }
    __syncthreads();
  }
}

}  // namespace block
}  // namespace gpusort
