// gpusort/detail/merge_sort.cuh — policy::merge: stable merge sort whose merges are bitonic
// networks (Satish et al., "Fast Sort on CPUs and GPUs", GPU merge sort).
//
// 1. Tile sort: each block sorts a tile with block::bitonic_sort, keys ranked by their
//    index so that equal keys keep their order (detail/ranked.cuh). Keys alone whose ties
//    are invisible (ties_are_identical) need no stable first step: large inputs start from
//    warpsort's longer step-1 runs instead (detail/warp_runs.cuh).
// 2. Merge passes: runs of length L become runs of 2L. merge_path splits every pair of
//    runs into pieces of exactly one merge tile of output, so every block does the same work
//    whatever the data; the block stages its pieces of both runs in shared memory and its
//    threads merge them with ITEMS-wide bitonic networks in registers (detail/staged_merge.cuh;
//    ties broken by rank, a first, which keeps the sort stable). A wider network (the whole
//    tile) measured 2.7x slower: its log2(tile) steps per item made every pass compute-bound
//    (bench/RESULTS.md). From merge_multiway_from_bytes of items, while there are more than
//    two runs, a pass merges four runs at once instead, or eight while there are more than
//    four (detail/multiway_merge.cuh, merges_eight_way): a half or a third of the passes over
//    memory; not where the two-way passes merge in wider tiles (merges_four_way).
// The passes ping-pong between the keys and one scratch copy (detail::ping_pong); the tile
// sort writes to whichever buffer makes the last pass land in the user's array.
// The merge pass is shared with device::merge (one pair of runs of any lengths, the local
// merge of the multi-GPU sort): a pairing functor (equal_runs, single_pair) tells a block
// which pair of runs its output tile belongs to.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/co_rank_search.cuh>
#include <gpusort/detail/multiway_merge.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ping_pong.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/detail/resident_grid.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/staged_merge.cuh>
#include <gpusort/detail/staged_sort.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/detail/warp_runs.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/thread/merge_path.cuh>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

// Ranked items without a packed rank (rank_codec's ranked<Key>) of keys of up to 16 bytes
// sort their tiles by staged merges instead of a network (detail/staged_sort.cuh). Whole sorts
// at 2^20-2^26 (H200, run 82): 16-byte keys under their own comparator 24-29 % faster,
// u64:u32 pairs 27-30 %, f64 34-36 %; 64-byte keys 3.5-3.7 % slower, so they keep the network.
template <class Item, class Key>
constexpr bool sorts_tile_by_merges = std::is_same<Item, ranked<Key>>::value && sizeof(Key) <= 16;

// Shared memory of merge_sort_tile, whose network sorts `Item`s (merge_network_item).
// Values (only ranked items have any) wait in input order, apart from the network, while
// their keys sort; unpadded, as they are written and read by position, never as a thread's
// blocked items.
template <int THREADS, int ITEMS, class Item, class Key, class Value>
struct merge_tile_sort_storage {
  union {
    block::bitonic_sort_storage<Item, no_value, THREADS, ITEMS> network;
    block::tile_buffer<THREADS, ITEMS, Key> keys;
    block::tile_buffer<THREADS, ITEMS, int> ranks;  // the sorted items' ranks, blocked
    std::conditional_t<sorts_tile_by_merges<Item, Key>, staged_sort_storage<THREADS, ITEMS, Key>,
                       no_value>
        staged;
  };
  std::conditional_t<has_values<Value>, Value[THREADS * ITEMS], no_value> values;
};

// Tile shapes of the merge policy: 256 threads; up to 16 items per thread (the paper's
// 16-wide merge network), fewer where a tile would not fit in static shared memory, and
// fewer threads where not even one item a thread would (keys of more than about 80 bytes:
// 128 threads, 64 from about 180 bytes, 32 from about 370). The
// shapes are checked against the kernels' own storage, sized with the widest item a tile
// sort's network may hold (ranked<Key>, rank_codec). A merge tile may be at most twice a
// sort tile, so that no merge tile straddles two pairs of runs. Large inputs merge in wide
// tiles where they fit (merge_wide_tiles_from): 32 items a thread for keys of up to 4 bytes.
template <class Key, class Value>
struct merge_tuning {
  template <int THREADS, int ITEMS>
  static constexpr bool sort_fits =
      sizeof(merge_tile_sort_storage<THREADS, ITEMS, ranked<Key>, Key, Value>) <= static_shared_limit;
  template <int THREADS, int ITEMS>
  static constexpr bool merge_fits =
      sizeof(staged_merge_storage<THREADS, ITEMS, Key, Value>) <= static_shared_limit;
  template <int THREADS>
  static constexpr bool one_item_fits = sort_fits<THREADS, 1> && merge_fits<THREADS, 1>;
  static constexpr int threads = one_item_fits<256>  ? 256
                                 : one_item_fits<128> ? 128
                                 : one_item_fits<64>  ? 64
                                                      : 32;
  static_assert(one_item_fits<threads>,
                "policy::merge: a key (with its value) too large for a tile of 32 in 48 KB of "
                "shared memory");
  static constexpr int sort_items =
      largest_items_fitting<16>([](auto items) { return sort_fits<threads, decltype(items)::value>; });
  static constexpr int merge_items_fitting =
      largest_items_fitting<16>([](auto items) { return merge_fits<threads, decltype(items)::value>; });
  static constexpr int merge_items =
      merge_items_fitting < 2 * sort_items ? merge_items_fitting : 2 * sort_items;
  static constexpr int wide_merge_items_fitting =
      largest_items_fitting<32>([](auto items) { return merge_fits<threads, decltype(items)::value>; });
  static constexpr int wide_merge_items =
      wide_merge_items_fitting < 2 * sort_items ? wide_merge_items_fitting : 2 * sort_items;
  static constexpr int sort_tile = threads * sort_items;
  static constexpr int merge_tile = threads * merge_items;
  static constexpr int wide_merge_tile = threads * wide_merge_items;
};

// From this many items the passes merge in wide tiles (merge_tuning::wide_merge_items) where
// the items have them: each tile's fixed costs (its co-ranks, the pair's bounds, every
// thread's merge path) then serve twice the outputs. Measured (H200, bench/RESULTS.md run 72,
// 256 x 32 against 256 x 16): u32 keys 12.6 % faster at 2^22, 3.6 % at 2^24, 8.6 % at 2^26,
// u16 10.3 / 6.9 / 7.7 %; 0.7 and 4.9 % slower at 2^20, 8 and 16 % at 2^18, where half as
// many tiles leave SMs idle.
constexpr std::int64_t merge_wide_tiles_from = std::int64_t(1) << 22;

// Whether policy::merge's network_width names a width the items have: 0 (tuned) or one of
// the two tile widths.
template <class Key, class Value>
constexpr bool merge_width_supported(int width) {
  using tuning = merge_tuning<Key, Value>;
  return width == 0 || width == tuning::merge_items || width == tuning::wide_merge_items;
}

// The items a thread of a pass over n items merges: network_width where it names one, else
// the tuned width for n.
template <class Key, class Value>
constexpr int merge_pass_items(int network_width, std::int64_t n) {
  using tuning = merge_tuning<Key, Value>;
  return network_width != 0           ? network_width
         : n >= merge_wide_tiles_from ? tuning::wide_merge_items
                                      : tuning::merge_items;
}

// The tile sort's shape. Ranked items (pairs, and keys whose ties are not identical) sort
// in the merge passes' threads. Keys alone whose ties are identical sort tiles of up to
// 128 threads x 32 keys: the fastest shape of a 4K tile (run 10: 0.85 against 1.07 ms for
// 256 x 16 on 2^26 u32 keys), and 8-byte keys get 4K tiles instead of 2K, one merge pass
// fewer. Never a smaller tile than the ranked one, which bounds the merge tile.
template <class Key, class Value, bool RANKED>
struct merge_sort_shape {
  using tuning = merge_tuning<Key, Value>;
  static constexpr int threads = RANKED ? tuning::threads : 128;
  static constexpr int items =
      RANKED ? tuning::sort_items : items_fitting_shared(threads, sizeof(Key), 0, 32);
  static constexpr int tile = threads * items;
  static_assert(tile >= tuning::sort_tile, "a merge tile may span at most two sort tiles");
};

// From this many items on the first step makes warpsort's step-1 runs (detail/warp_runs.cuh)
// where it can: 16K u32 keys a run, 4x the tile, two merge passes fewer (u32 keys 2^24 and
// 2^28 8-10 % faster; 4K u32:u32 pairs, 2x the tile, 4-5 %; H100, bench/RESULTS.md run 25).
// Below it those longer runs are too few to fill the device (u32 2^16 0.049 -> 0.080 ms,
// 2^20 0.100 -> 0.126 ms).
constexpr std::int64_t merge_warp_runs_from = std::int64_t(1) << 23;

// The whole block: sorts the `valid` items at keys_in + offset into keys_out + offset.
// RANKED: keys carry their tile index, which breaks ties (needs_ranks) and says where each
// one's value waits, so values never ride through the network; otherwise equal keys are
// identical and the plain network is already stable in effect.
template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_sort_tile(
    const Key* keys_in, const Value* values_in, Key* keys_out, Value* values_out,
    std::int64_t offset, int valid, Compare cmp,
    merge_tile_sort_storage<THREADS, ITEMS, merge_network_item<RANKED, Key, Compare>, Key, Value>&
        shared) {
  static_assert(RANKED || !has_values<Value>, "values keep their order only through ranks");
  if constexpr (sorts_tile_by_merges<merge_network_item<RANKED, Key, Compare>, Key>) {
    stage_with_positions<THREADS, ITEMS>(keys_in + offset, valid, shared.staged);
    if constexpr (has_values<Value>) {
      for (int i = threadIdx.x; i < valid; i += THREADS) shared.values[i] = values_in[offset + i];
    }
    __syncthreads();
    sort_staged<THREADS, ITEMS>(valid, cmp, shared.staged);
    __syncthreads();
    for (int i = threadIdx.x; i < valid; i += THREADS) {
      keys_out[offset + i] = shared.staged.keys[i];
      if constexpr (has_values<Value>) values_out[offset + i] = shared.values[shared.staged.values[i]];
    }
    __syncthreads();
    return;
  }
  Key keys[ITEMS];
  block::load_blocked<THREADS>(keys_in + offset, keys, valid, shared.keys);
  if constexpr (RANKED) {
    using codec = rank_codec<Key, Compare>;
    if constexpr (has_values<Value>) {
      for (int i = threadIdx.x; i < valid; i += THREADS) shared.values[i] = values_in[offset + i];
    }
    typename codec::item items[ITEMS];
    no_value no_values[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int position = static_cast<int>(threadIdx.x) * ITEMS + r;
      items[r] = codec::make(keys[r], position < valid ? position : absent_rank);
    }
    block::bitonic_sort<THREADS>(items, no_values, codec::compare(cmp), shared.network);
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) keys[r] = codec::key(items[r]);
    block::store_blocked<THREADS>(keys_out + offset, keys, valid, shared.keys);
    if constexpr (has_values<Value>) {
      // Real items sort before the absent slots, so output i < valid has a rank.
#pragma unroll
      for (int r = 0; r < ITEMS; ++r) shared.ranks[static_cast<int>(threadIdx.x) * ITEMS + r] = codec::rank(items[r]);
      __syncthreads();
      for (int i = threadIdx.x; i < valid; i += THREADS) values_out[offset + i] = shared.values[shared.ranks[i]];
      __syncthreads();
    }
  } else {
    block::bitonic_sort_identical_ties<THREADS>(keys, valid, cmp, shared.network);
    block::store_blocked<THREADS>(keys_out + offset, keys, valid, shared.keys);
  }
}

template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    merge_tile_sort_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                           Value* values_out, std::int64_t n, Compare cmp) {
  constexpr int tile = THREADS * ITEMS;
  __shared__ merge_tile_sort_storage<THREADS, ITEMS, merge_network_item<RANKED, Key, Compare>, Key,
                                     Value>
      shared;
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * tile;
  merge_sort_tile<THREADS, ITEMS, RANKED>(keys_in, values_in, keys_out, values_out, offset,
                                          static_cast<int>(n - offset < tile ? n - offset : tile),
                                          cmp, shared);
}

// Which two sorted runs an output position merges, as a small functor so that one pair of
// kernels serves the sort's passes (runs of equal length in one array) and device::merge
// (one pair of arbitrary lengths from two arrays).
// merge_pair: the pair's output starts at `start`; run a is a_count items at a_begin of
// the a input, run b is b_count items at b_begin of the b input.
struct merge_pair {
  std::int64_t start, a_begin, a_count, b_begin, b_count;
};

// Sort passes: runs of `run` items, a and b adjacent in one array of n items.
struct equal_runs {
  std::int64_t run, n;
  __host__ __device__ merge_pair operator()(std::int64_t position) const {
    const std::int64_t start = position / (2 * run) * (2 * run);
    const std::int64_t a_end = start + run < n ? start + run : n;
    const std::int64_t b_end = start + 2 * run < n ? start + 2 * run : n;
    return {start, start, a_end - start, a_end, b_end - a_end};
  }
};

// device::merge: one pair, a[0, a_count) and b[0, b_count) in two arrays.
struct single_pair {
  std::int64_t a_count, b_count;
  __host__ __device__ merge_pair operator()(std::int64_t) const {
    return {0, 0, a_count, 0, b_count};
  }
};

// How many items of run a precede output `position` within its pair, searched by this
// thread or by its whole warp (detail/co_rank_search.cuh).
template <bool BY_WARP, class Key, class Pairing, class Compare>
__device__ __forceinline__ std::int64_t merge_pass_split(const Key* a_keys, const Key* b_keys,
                                                         Pairing pairing, std::int64_t position,
                                                         Compare cmp) {
  const merge_pair pair = pairing(position);
  return co_rank<BY_WARP>(a_keys + pair.a_begin, pair.a_count, b_keys + pair.b_begin,
                          pair.b_count, position - pair.start, cmp);
}

// splits[i]: how many items of run a precede the output of block i within its pair. One
// search per warp (BY_WARP) or per thread.
template <int TILE, bool BY_WARP, class Key, class Pairing, class Compare>
__global__ void merge_partition_kernel(const Key* a_keys, const Key* b_keys, Pairing pairing,
                                       std::int64_t* splits, std::int64_t blocks, Compare cmp) {
  const std::int64_t i = co_rank_search_index<BY_WARP>();
  if (i >= blocks) return;  // whole warps when BY_WARP
  const std::int64_t split = merge_pass_split<BY_WARP>(a_keys, b_keys, pairing, i * TILE, cmp);
  if (co_rank_writer<BY_WARP>()) splits[i] = split;
}

// The whole block: output tile `tile_index` of a merge pass. split_begin: how many items of
// its pair's run a precede the tile's output; split_end: the same for the next tile (read
// only when the tile does not end its pair).
template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Pairing,
          class Compare>
__device__ __forceinline__ void merge_pass_tile(
    const Key* a_keys, const Value* a_values, const Key* b_keys, const Value* b_values,
    Key* keys_out, Value* values_out, Pairing pairing, std::int64_t tile_index,
    std::int64_t split_begin, std::int64_t split_end, Compare cmp,
    staged_merge_storage<THREADS, ITEMS, Key, Value>& shared) {
  constexpr int tile = THREADS * ITEMS;
  const std::int64_t position = tile_index * tile;
  const merge_pair pair = pairing(position);
  const std::int64_t diagonal = position - pair.start;
  const std::int64_t pair_count = pair.a_count + pair.b_count;
  const int out_count = static_cast<int>(pair_count - diagonal < tile ? pair_count - diagonal : tile);
  // A block's output ends where the next block's starts, unless it ends its pair.
  const std::int64_t a_begin = split_begin;
  const std::int64_t a_end = diagonal + tile >= pair_count ? pair.a_count : split_end;
  const std::int64_t b_begin = diagonal - a_begin;
  // merge_path keeps each co-rank inside its run whatever the comparator; the clamp keeps
  // their difference consistent too, so a comparator that is no strict weak ordering gives
  // some order but never an access outside the runs or the tile.
  const std::int64_t a_least = max(std::int64_t(0), out_count - (pair.b_count - b_begin));
  const std::int64_t a_most = min(std::int64_t(out_count), pair.a_count - a_begin);
  const int a_count = static_cast<int>(min(max(a_end - a_begin, a_least), a_most));
  const int b_count = out_count - a_count;
  const std::int64_t a_offset = pair.a_begin + a_begin;
  const std::int64_t b_offset = pair.b_begin + b_begin;

  // The block's pieces of a and b, one after the other, in shared memory.
  stage_pieces(a_keys + a_offset, a_values + a_offset, a_count, b_keys + b_offset,
               b_values + b_offset, out_count, shared);
  __syncthreads();
  const int first = min(static_cast<int>(threadIdx.x) * ITEMS, out_count);
  merge_staged<THREADS, ITEMS, RANKED>(
      merge_job{staged_pair{0, a_count, b_count}, first, min(first + ITEMS, out_count)}, cmp,
      shared);
  __syncthreads();
  write_staged(shared, out_count, keys_out, values_out, position);
}

template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Pairing,
          class Compare>
__global__ void __launch_bounds__(THREADS)
    merge_pass_kernel(const Key* a_keys, const Value* a_values, const Key* b_keys,
                      const Value* b_values, Key* keys_out, Value* values_out, Pairing pairing,
                      const std::int64_t* splits, Compare cmp) {
  __shared__ staged_merge_storage<THREADS, ITEMS, Key, Value> shared;
  const std::int64_t tile_count = gridDim.x;
  merge_pass_tile<THREADS, ITEMS, RANKED>(a_keys, a_values, b_keys, b_values, keys_out, values_out,
                                          pairing, blockIdx.x, splits[blockIdx.x],
                                          blockIdx.x + 1 < tile_count ? splits[blockIdx.x + 1] : 0,
                                          cmp, shared);
}

// A merge pass whose blocks search their own two co-ranks, a warp each (one warp both, where
// the block is one warp), before they merge: no partition launch and no split table, where
// the blocks are few enough that the searches' latency overlaps across all of them at once
// (merge_searches_in_pass).
template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Pairing,
          class Compare>
__global__ void __launch_bounds__(THREADS)
    merge_searching_pass_kernel(const Key* a_keys, const Value* a_values, const Key* b_keys,
                                const Value* b_values, Key* keys_out, Value* values_out,
                                Pairing pairing, Compare cmp) {
  constexpr int tile = THREADS * ITEMS;
  __shared__ staged_merge_storage<THREADS, ITEMS, Key, Value> shared;
  __shared__ std::int64_t splits[2];
  const std::int64_t tile_count = gridDim.x;
  for (int k = static_cast<int>(threadIdx.x / 32); k < 2; k += THREADS / 32) {
    const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) + k;
    if (index < tile_count) {
      const std::int64_t split = merge_pass_split<true>(a_keys, b_keys, pairing, index * tile, cmp);
      if (threadIdx.x % 32 == 0) splits[k] = split;
    }
  }
  __syncthreads();
  merge_pass_tile<THREADS, ITEMS, RANKED>(a_keys, a_values, b_keys, b_values, keys_out, values_out,
                                          pairing, blockIdx.x, splits[0],
                                          blockIdx.x + 1 < tile_count ? splits[1] : 0, cmp, shared);
}

// Whether a merge pass of `blocks` tiles searches its co-ranks in the merge kernel. Measured
// against a partition launch before every pass (H200, bench/RESULTS.md run 68, 4K-item
// tiles): up to 1024 tiles (2^16-2^22 items) policy::merge 8-19 % faster for u32 keys, 3-15 %
// for u32:u32 and u64; at 2048 and 4096 tiles u32 1-2 % faster, u32:u32 1-2 % and u64 0.3-0.9 %
// slower. Items of up to 4 bytes search in the pass up to 4096 tiles (run 69).
template <class Key, class Value>
constexpr std::int64_t merge_searching_pass_blocks = item_bytes_of<Key, Value> <= 4 ? 4096 : 1024;
// Where a block's merge tile leaves no room for the two co-ranks in the static shared memory
// (e.g. 57-byte keys with 8-byte values: the tile takes all 48 KB), the pass keeps its
// partition launch; the searching kernel is then not instantiated at all, as it would not
// compile.
template <class Key, class Value, int ITEMS = merge_tuning<Key, Value>::merge_items>
constexpr bool merge_searching_pass_fits =
    sizeof(staged_merge_storage<merge_tuning<Key, Value>::threads, ITEMS, Key, Value>) +
        2 * sizeof(std::int64_t) <= static_shared_limit;
template <class Key, class Value, int ITEMS = merge_tuning<Key, Value>::merge_items>
constexpr bool merge_searches_in_pass(std::int64_t blocks) {
  return merge_searching_pass_fits<Key, Value, ITEMS> && blocks <= merge_searching_pass_blocks<Key, Value>;
}

// Merge tiles (blocks of merge_pass_kernel) for n output items: as many as the narrower
// tiles need, which bounds the split tables of both widths.
template <class Key, class Value>
constexpr std::int64_t merge_blocks_for(std::int64_t n) {
  return (n + merge_tuning<Key, Value>::merge_tile - 1) / merge_tuning<Key, Value>::merge_tile;
}

// Threads per block of the partition kernel.
constexpr int merge_partition_threads = 128;

// A merge pass in tiles of ITEMS items a thread.
template <int ITEMS, class Key, class Value, class Pairing, class Compare>
cudaError_t launch_merge_pass_of(const Key* a_keys, const Value* a_values, const Key* b_keys,
                                 const Value* b_values, Key* keys_out, Value* values_out,
                                 Pairing pairing, std::int64_t n, std::int64_t* splits,
                                 Compare cmp, cudaStream_t stream) {
  using tuning = merge_tuning<Key, Value>;
  constexpr bool ranked_items = needs_ranks<Key, Value, Compare>;
  constexpr int tile = tuning::threads * ITEMS;
  const std::int64_t blocks = (n + tile - 1) / tile;
  if constexpr (merge_searching_pass_fits<Key, Value, ITEMS>) {
    if (merge_searches_in_pass<Key, Value, ITEMS>(blocks)) {
      merge_searching_pass_kernel<tuning::threads, ITEMS, ranked_items>
          <<<static_cast<unsigned>(blocks), tuning::threads, 0, stream>>>(
              a_keys, a_values, b_keys, b_values, keys_out, values_out, pairing, cmp);
      return cudaPeekAtLastError();
    }
  }
  const auto partition_grid = static_cast<unsigned>(
      (co_rank_searchers(blocks) + merge_partition_threads - 1) / merge_partition_threads);
  if (co_ranks_by_warp(blocks))
    merge_partition_kernel<tile, true>
        <<<partition_grid, merge_partition_threads, 0, stream>>>(a_keys, b_keys, pairing,
                                                                splits, blocks, cmp);
  else
    merge_partition_kernel<tile, false>
        <<<partition_grid, merge_partition_threads, 0, stream>>>(a_keys, b_keys, pairing,
                                                                splits, blocks, cmp);
  merge_pass_kernel<tuning::threads, ITEMS, ranked_items>
      <<<static_cast<unsigned>(blocks), tuning::threads, 0, stream>>>(
          a_keys, a_values, b_keys, b_values, keys_out, values_out, pairing, splits, cmp);
  return cudaPeekAtLastError();
}

// One merge pass over n output items: a merge-path split per merge tile, then the tiles (in
// one kernel where the tiles are few), in the tiles of merge_pass_items(network_width, n).
// splits: scratch for merge_blocks_for(n) + 1 co-ranks. Shared by the sort's passes and
// device::merge; outputs must not overlap the inputs.
template <class Key, class Value, class Pairing, class Compare>
cudaError_t launch_merge_pass(const Key* a_keys, const Value* a_values, const Key* b_keys,
                              const Value* b_values, Key* keys_out, Value* values_out,
                              Pairing pairing, std::int64_t n, std::int64_t* splits,
                              Compare cmp, cudaStream_t stream, int network_width = 0) {
  using tuning = merge_tuning<Key, Value>;
  if constexpr (tuning::wide_merge_items > tuning::merge_items) {
    if (merge_pass_items<Key, Value>(network_width, n) == tuning::wide_merge_items)
      return launch_merge_pass_of<tuning::wide_merge_items>(a_keys, a_values, b_keys, b_values,
                                                            keys_out, values_out, pairing, n,
                                                            splits, cmp, stream);
  }
  return launch_merge_pass_of<tuning::merge_items>(a_keys, a_values, b_keys, b_values, keys_out,
                                                   values_out, pairing, n, splits, cmp, stream);
}

// Inputs of at most this many items are sorted in one launch (policy::automatic's small-n
// promise): launch overhead dominates there, not the passes over memory.
constexpr std::int64_t merge_single_launch_items = std::int64_t(1) << 14;

// The whole sort of n <= merge_single_launch_items in one cooperative launch: a tile sort in
// the passes' shape (merge_tuning; the multi-launch path may sort larger tiles, see
// merge_sort_shape) and the same merge passes and merge-path splits as the multi-launch
// path (each block finds its own two), with a grid-wide barrier between passes. The grid
// is at most what is resident at once (resident_grid), as a grid barrier needs: 16 blocks
// for 4-byte keys; blocks loop over the tiles of wide items, which are more.
template <int THREADS, int SORT_ITEMS, int MERGE_ITEMS, bool RANKED, class Key, class Value,
          class Compare>
__global__ void __launch_bounds__(THREADS)
    merge_single_launch_kernel(Key* keys, Value* values, Key* scratch_keys,
                               Value* scratch_values, std::int64_t n, Compare cmp) {
  constexpr int sort_tile = THREADS * SORT_ITEMS;
  constexpr int merge_tile = THREADS * MERGE_ITEMS;
  __shared__ union {
    merge_tile_sort_storage<THREADS, SORT_ITEMS, merge_network_item<RANKED, Key, Compare>, Key, Value>
        sort;
    staged_merge_storage<THREADS, MERGE_ITEMS, Key, Value> pass;
  } shared;
  auto buffers = ping_pong<Key, Value>::ending_in(keys, values, scratch_keys, scratch_values,
                                                   doubling_passes(n, sort_tile));
  for (std::int64_t t = blockIdx.x; t * sort_tile < n; t += gridDim.x) {
    const std::int64_t offset = t * sort_tile;
    merge_sort_tile<THREADS, SORT_ITEMS, RANKED>(
        keys, values, buffers.keys, buffers.values, offset,
        static_cast<int>(n - offset < sort_tile ? n - offset : sort_tile), cmp, shared.sort);
    __syncthreads();
  }
  for (std::int64_t run = sort_tile; run < n; run *= 2) {
    cooperative_groups::this_grid().sync();
    const equal_runs pairing{run, n};
    for (std::int64_t t = blockIdx.x; t * merge_tile < n; t += gridDim.x) {
      // Every thread finds the tile's two co-ranks itself: the searches are as long as if
      // two threads made them for the others, and no shared memory is left for them when a
      // tile fills the 48 KB (16-byte keys with 16-byte values).
      // The last tile's end lies past n: clamped, it is searched in the last pair, whose
      // co-rank merge_pass_tile then does not read.
      const auto split = [&](std::int64_t position) {
        return merge_pass_split<false>(buffers.keys, buffers.keys, pairing,
                                       position < n ? position : n - 1, cmp);
      };
      merge_pass_tile<THREADS, MERGE_ITEMS, RANKED>(
          buffers.keys, buffers.values, buffers.keys, buffers.values, buffers.other_keys,
          buffers.other_values, pairing, t, split(t * merge_tile), split((t + 1) * merge_tile),
          cmp, shared.pass);
      __syncthreads();
    }
    buffers.flip();
  }
}

// One cooperative launch of merge_single_launch_kernel; cudaErrorNotSupported where the
// device has no cooperative launch (the caller then takes the multi-launch path). Captured
// into a CUDA graph it stays one kernel node.
template <class Key, class Value, class Compare>
cudaError_t launch_merge_single(Key* keys, Value* values, Key* scratch_keys, Value* scratch_values,
                                std::int64_t n, Compare cmp, cudaStream_t stream) {
  using tuning = merge_tuning<Key, Value>;
  const auto kernel = merge_single_launch_kernel<tuning::threads, tuning::sort_items,
                                                 tuning::merge_items, needs_ranks<Key, Value, Compare>,
                                                 Key, Value, Compare>;
  int device = 0, cooperative = 0;
  if (cudaError_t e = cudaGetDevice(&device)) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device))
    return e;
  if (cooperative == 0) return cudaErrorNotSupported;
  const std::int64_t tiles =
      std::max((n + tuning::sort_tile - 1) / tuning::sort_tile, merge_blocks_for<Key, Value>(n));
  unsigned grid = 0;
  if (cudaError_t e = resident_grid(kernel, tuning::threads, 0, tiles, grid)) return e;
  cudaLaunchAttribute cooperative_launch{};
  cooperative_launch.id = cudaLaunchAttributeCooperative;
  cooperative_launch.val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(tuning::threads);
  config.stream = stream;
  config.attrs = &cooperative_launch;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, keys, values, scratch_keys, scratch_values, n, cmp);
}

// The multi-way passes' shape (detail/multiway_merge.cuh): the two-way passes' widest items a
// thread (wide_merge_items), 512 threads where that tile fits 48 KB of shared memory (keys of
// up to 2 bytes), else 256. Every tile costs a co-rank search that the two-way passes do not
// make (four runs), so the larger tile is the cheaper pass (u32 2^28: 15.75 against 16.69 ms,
// H100, bench/RESULTS.md run 26). Larger tiles would fit the pass's dynamic shared memory but
// are slower (H200, run 51, at 2^26-2^28): 1024 threads for u32 keys 22-24 %, 512 for u64
// keys 3-6 %, u32:u32 pairs 6-8 % and 16-byte keys 33-37 %.
template <class Key, class Value>
struct multiway_tuning {
  static constexpr int items = merge_tuning<Key, Value>::wide_merge_items;
  static constexpr int threads =
      merge_tuning<Key, Value>::template merge_fits<512, items> ? 512 : merge_tuning<Key, Value>::threads;
  static constexpr int four_way_tile = multiway_tile<4, threads, items>;
  static constexpr int eight_way_tile = multiway_tile<8, threads, items>;
};

// From this many bytes of items the passes are multi-way: they merge four runs at once while
// there are more than two (half the passes over memory), or eight (merges_eight_way). Below
// it the four-way passes' co-rank searches cost more than the passes they save (run 26: u32
// 2^26 +15 %, u64 2^26 -1.5 %, u32:u32 2^26 -4 %, 16-byte keys 2^26 -7 %; at 2^28 u64 and
// u32:u32 -10 %; H200, run 75, from 2^27 bytes: u64 and u32:u32 at 2^24 17-24 % slower; run
// 78, with thread::four_way_select, from 2^27 or 2^28 bytes: 1.7-24 % slower at each size that
// moves). Searches by selection in one kernel cost 0.37x as much (run 80), and from 2^28 bytes
// made u32 at 2^26, u64 and u32:u32 at 2^25 6.5-11 % faster; from 2^27 bytes u64 at 2^24 was
// 2.4 % slower, but keys of up to 4 bytes faster (run 81: u32 at 2^25 2.7 %, u32:u32 at 2^24
// 1.4 %, u16 at 2^26 0.3 %). Keys of 9-16 bytes, their tiles sorted by staged merges, from
// 2^27 bytes too: key16 at 2^23 9 % faster, and from 2^26 bytes at 2^22 8 % slower (run 82).
// 4-byte keys alone from 2^26 bytes, where their eight-way passes pay (u32 at 2^24 0.856 ->
// 0.796 ms; from 2^25 bytes u32 at 2^23 15 % slower; H100, run 101).
template <class Key, class Value>
constexpr std::int64_t merge_multiway_from_bytes =
    std::int64_t(1) << (!four_way_select_partition<Key>         ? 29
                        : sizeof(Key) == 4 && !has_values<Value> ? 26
                        : sizeof(Key) <= 4 || sizeof(Key) > 8    ? 27
                                                                 : 28);

// Whether the passes over n items merge four runs at once: from merge_multiway_from_bytes,
// where the passes merge in the four-way pass's width (a network_width naming a narrower one
// keeps them two-way). Measured on u32 keys (H200, runs 75-76): two-way passes in 256 x 32
// tiles were 6.5-9.3 % faster than four-way ones in 512 x 16 tiles at 2^27-2^29, and four-way
// passes in 256 x 32 tiles 5.4-6.2 % faster than those two-way ones at 2^28-2^29 (u16 keys:
// 2.2-4.5 %).
template <class Key, class Value>
constexpr bool merges_four_way(std::int64_t n, int network_width) {
  return n * static_cast<std::int64_t>(item_bytes_of<Key, Value>) >=
             merge_multiway_from_bytes<Key, Value> &&
         merge_pass_items<Key, Value>(network_width, n) == multiway_tuning<Key, Value>::items;
}

// Whether the multi-way passes over n items merge eight runs at once while more than four are
// left: a third of the two-way passes over memory instead of a half, for a third level of
// merges in the tile and a selection over eight runs (thread::multiway_select) whose chain is
// about twice as long. That pays for keys of up to 4 bytes (one-word selection items) in items
// of up to 8 bytes: on the H100 (bench/RESULTS.md run 101) u32 keys at 2^25-2^28 1.6-2.9 %
// faster (2^28 9.956 -> 9.665 ms), u32:u32 pairs at 2^26-2^28 0.8-4.8 %, but 1.4-1.5 % slower
// at 2^24-2^25, so pairs from 2^29 bytes; u64 keys 0.1-11.9 % slower at 2^25-2^28.
template <class Key, class Value>
constexpr bool merge_eight_way_able = sizeof(Key) <= 4 && item_bytes_of<Key, Value> <= 8;
template <class Key, class Value>
constexpr bool merges_eight_way(std::int64_t n) {
  return merge_eight_way_able<Key, Value> &&
         (!has_values<Value> ||
          n * static_cast<std::int64_t>(item_bytes_of<Key, Value>) >= (std::int64_t(1) << 29));
}

// The run length after one pass over n items from runs of `run`.
template <class Key, class Value>
std::int64_t merged_run(std::int64_t run, std::int64_t n, int network_width) {
  if (!merges_four_way<Key, Value>(n, network_width) || 2 * run >= n) return 2 * run;
  return merges_eight_way<Key, Value>(n) && 4 * run < n ? 8 * run : 4 * run;
}

// Scratch: a second copy of keys (and values), and the co-ranks of every merge tile: one per
// tile of a two-way pass, four or eight per tile of a multi-way pass (at most one tile per
// multi-way tile of items and one more per group of runs, the shortest runs being sort tiles).
template <class Key, class Value>
struct merge_plan {
  using tuning = merge_tuning<Key, Value>;
  std::int64_t merge_blocks;
  temp_layout<3> layout;

  static std::size_t split_bytes(std::int64_t n, std::int64_t merge_blocks, int network_width) {
    using multiway = multiway_tuning<Key, Value>;
    const std::int64_t groups = (n + 4 * tuning::sort_tile - 1) / (4 * tuning::sort_tile);
    const std::int64_t four_way_tiles =
        (n + multiway::four_way_tile - 1) / multiway::four_way_tile + groups;
    const std::int64_t eight_way_tiles =
        merges_eight_way<Key, Value>(n)
            ? (n + multiway::eight_way_tile - 1) / multiway::eight_way_tile + groups
            : 0;
    return std::max((merge_blocks + 1) * sizeof(std::int64_t),
                    merges_four_way<Key, Value>(n, network_width)
                        ? std::max(four_way_tiles * sizeof(thread::multiway_split<4>),
                                   eight_way_tiles * sizeof(thread::multiway_split<8>))
                        : 0);
  }

  merge_plan(std::int64_t n, int network_width)
      : merge_blocks(merge_blocks_for<Key, Value>(n)),
        layout({n * sizeof(Key), has_values<Value> ? n * sizeof(Value) : 0,
                split_bytes(n, merge_blocks, network_width)}) {}
};

template <>
struct algorithm<policy::merge> {
  static constexpr bool implemented = true;
  static constexpr bool stable = true;

  // network_width: the items one thread's merge network merges in the two-way passes of
  // inputs of more than merge_single_launch_items; 0 (tuned by size) or one of the items'
  // tile widths (merge_width_supported).
  template <class Key, class Value>
  static cudaError_t check_policy(const policy::merge& policy) {
    return merge_width_supported<Key, Value>(policy.network_width) ? cudaSuccess
                                                                   : cudaErrorInvalidValue;
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::merge& policy, std::int64_t n) {
    return merge_plan<Key, Value>(n, policy.network_width).layout.total;
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::merge& policy, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    using tuning = merge_tuning<Key, Value>;
    constexpr bool ranked_items = needs_ranks<Key, Value, Compare>;
    using shape = merge_sort_shape<Key, Value, ranked_items>;
    const merge_plan<Key, Value> plan(n, policy.network_width);
    Key* scratch_keys = plan.layout.template get<Key>(temp, 0);
    Value* scratch_values = plan.layout.template get<Value>(temp, 1);
    // The co-ranks of the merge tiles, of one pass at a time.
    std::int64_t* splits = plan.layout.template get<std::int64_t>(temp, 2);

    // One tile: one block in the passes' shape, no larger than needed (u64 at 2^10 on the
    // H100: 0.032 ms in a padded 4K tile, 0.018 in a 2K one).
    if (n <= tuning::sort_tile) {
      merge_tile_sort_kernel<tuning::threads, tuning::sort_items, ranked_items>
          <<<1, tuning::threads, 0, stream>>>(keys, values, keys, values, n, cmp);
      return cudaPeekAtLastError();
    }
    if (n <= merge_single_launch_items) {
      const cudaError_t e =
          launch_merge_single(keys, values, scratch_keys, scratch_values, n, cmp, stream);
      if (e != cudaErrorNotSupported) return e;
    }
    // From merge_warp_runs_from items the first step makes warp runs: of the keys where
    // ties are identical, of packed (key, position) words (rank_codec) where ranks fit
    // beside the key, so that the runs are stable; other ranked items sort tiles.
    using codec = std::conditional_t<ranked_items, rank_codec<Key, Compare>, plain_items<Key>>;
    using warp_runs = warp_run_shape<codec, Key, Value>;
    constexpr bool runs_from_warps = !ranked_items || packs_ranks<Key, Compare>;
    static_assert(!runs_from_warps || tuning::wide_merge_tile <= 2 * warp_runs::run,
                  "a merge tile spans at most two runs");
    static_assert(!runs_from_warps || warp_runs::run >= tuning::sort_tile,
                  "merge_plan bounds the four-way tiles by runs of at least a sort tile");
    const bool from_warp_runs = runs_from_warps && n >= merge_warp_runs_from;
    const std::int64_t first_run = from_warp_runs ? warp_runs::run : shape::tile;
    int passes = 0;
    const auto next_run = [&](std::int64_t run) {
      return merged_run<Key, Value>(run, n, policy.network_width);
    };
    for (std::int64_t run = first_run; run < n; run = next_run(run)) ++passes;
    auto buffers = ping_pong<Key, Value>::ending_in(keys, values, scratch_keys, scratch_values,
                                                     passes);
    if (from_warp_runs) {
      if constexpr (runs_from_warps) {
        if (cudaError_t e = sort_warp_runs<codec>(keys, values, buffers.keys, buffers.values, n,
                                                  codec::compare(cmp), stream))
          return e;
      }
    } else {
      merge_tile_sort_kernel<shape::threads, shape::items, ranked_items>
          <<<static_cast<unsigned>((n + shape::tile - 1) / shape::tile), shape::threads, 0,
             stream>>>(keys, values, buffers.keys, buffers.values, n, cmp);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
    }
    // A pass of WAYS-run groups into the other buffer, its co-ranks in the splits' scratch.
    const auto multiway_pass = [&](auto ways, std::int64_t run) {
      constexpr int WAYS = decltype(ways)::value;
      using multiway = multiway_tuning<Key, Value>;
      return launch_multiway_pass<WAYS, multiway::threads, multiway::items, ranked_items>(
          buffers.keys, buffers.values, buffers.other_keys, buffers.other_values, run, n,
          plan.layout.template get<thread::multiway_split<WAYS>>(temp, 2), cmp, stream);
    };
    // Items without eight-way passes never merge eight runs (merged_run), so their eighth
    // way names the four-way pass rather than instantiate an eight-way one.
    using eight_ways = std::integral_constant<int, merge_eight_way_able<Key, Value> ? 8 : 4>;
    for (std::int64_t run = first_run; run < n; run = next_run(run)) {
      const std::int64_t merged = next_run(run);
      const cudaError_t e =
          merged == 2 * run   ? launch_merge_pass(buffers.keys, buffers.values, buffers.keys,
                                                  buffers.values, buffers.other_keys,
                                                  buffers.other_values, equal_runs{run, n}, n,
                                                  splits, cmp, stream, policy.network_width)
          : merged == 8 * run ? multiway_pass(eight_ways{}, run)
                              : multiway_pass(std::integral_constant<int, 4>{}, run);
      if (e != cudaSuccess) return e;
      buffers.flip();
    }
    return cudaSuccess;
  }
};

}  // namespace detail
}  // namespace gpusort
