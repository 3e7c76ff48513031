// gpusort/detail/merge_sort.cuh — policy::merge: stable merge sort whose merges are bitonic
// networks (Satish et al., "Fast Sort on CPUs and GPUs", GPU merge sort).
//
// 1. Tile sort: each block sorts THREADS*ITEMS items with block::bitonic_sort, keys ranked
//    by their index so that equal keys keep their order.
// 2. Merge passes: runs of length L become runs of 2L. merge_path splits every pair of
//    runs into pieces of exactly one tile of output, so every block does the same work
//    whatever the data; a block loads its piece of run a ascending and its piece of run b
//    reversed (a bitonic sequence) and merges them with block::bitonic_merge, ties broken
//    by rank (a before b), which keeps the sort stable.
// The passes ping-pong between the keys and one scratch copy; the tile sort writes to
// whichever buffer makes the last pass land in the user's array.
#pragma once

#include <gpusort/block/bitonic_merge.cuh>
#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/load_bitonic.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/thread/merge_path.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace gpusort {
namespace detail {

// Tile shape of the merge policy: 256 threads, and as many items per thread (up to 16) as
// fit the ranked keys and values of a tile in 48 KiB of static shared memory.
template <class Key, class Value>
struct merge_tuning {
  static constexpr int threads = 256;
  static constexpr std::size_t shared_budget = 48 * 1024;
  static constexpr std::size_t bytes_per_item =
      sizeof(ranked<Key>) + (has_values<Value> ? sizeof(Value) : 0);
  static constexpr int fitting_items(int items) {
    return items == 1 || threads * items * bytes_per_item * 33 / 32 <= shared_budget
               ? items
               : fitting_items(items / 2);
  }
  static constexpr int items = fitting_items(16);
  static constexpr int tile = threads * items;
};

template <int THREADS, int ITEMS, class Key, class Value>
union merge_shared {
  block::bitonic_sort_storage<ranked<Key>, Value, THREADS, ITEMS> network;
  block::tile_buffer<THREADS, ITEMS, Key> keys;
  block::tile_buffer<THREADS, ITEMS, Value> values;
};

template <int ITEMS, class Key>
__device__ __forceinline__ void unrank(const ranked<Key> (&in)[ITEMS], Key (&out)[ITEMS]) {
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) out[r] = in[r].key;
}

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    merge_tile_sort_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                           Value* values_out, std::int64_t n, Compare cmp) {
  constexpr int tile = THREADS * ITEMS;
  __shared__ merge_shared<THREADS, ITEMS, Key, Value> shared;
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * tile;
  const int valid = static_cast<int>(n - offset < tile ? n - offset : tile);

  Key keys[ITEMS];
  Value values[ITEMS];
  block::load_blocked<THREADS>(keys_in + offset, keys, valid, shared.keys);
  block::load_blocked<THREADS>(values_in + offset, values, valid, shared.values);
  ranked<Key> items[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const int position = static_cast<int>(threadIdx.x) * ITEMS + r;
    items[r] = {keys[r], position < valid ? position : absent_rank};
  }
  block::bitonic_sort<THREADS>(items, values, rank_tiebreak<Compare>{cmp}, shared.network);
  unrank(items, keys);
  block::store_blocked<THREADS>(keys_out + offset, keys, valid, shared.keys);
  block::store_blocked<THREADS>(values_out + offset, values, valid, shared.values);
}

// The pair of runs (a, b) that output position `position` belongs to, for runs of `run`.
struct run_pair {
  std::int64_t start, a_count, b_count;
  __host__ __device__ run_pair(std::int64_t position, std::int64_t run, std::int64_t n) {
    start = position / (2 * run) * (2 * run);
    const std::int64_t a_end = start + run < n ? start + run : n;
    const std::int64_t b_end = start + 2 * run < n ? start + 2 * run : n;
    a_count = a_end - start;
    b_count = b_end - a_end;
  }
};

// splits[i]: how many items of run a precede the output of block i within its pair.
template <int TILE, class Key, class Compare>
__global__ void merge_partition_kernel(const Key* keys, std::int64_t n, std::int64_t run,
                                       std::int64_t* splits, std::int64_t blocks, Compare cmp) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= blocks) return;
  const std::int64_t position = i * TILE;
  const run_pair pair(position, run, n);
  const Key* a = keys + pair.start;
  splits[i] = thread::merge_path(a, pair.a_count, a + pair.a_count, pair.b_count,
                                 position - pair.start, cmp);
}

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    merge_pass_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                      Value* values_out, std::int64_t n, std::int64_t run,
                      const std::int64_t* splits, Compare cmp) {
  constexpr int tile = THREADS * ITEMS;
  __shared__ merge_shared<THREADS, ITEMS, Key, Value> shared;
  const std::int64_t position = static_cast<std::int64_t>(blockIdx.x) * tile;
  const run_pair pair(position, run, n);
  const std::int64_t diagonal = position - pair.start;
  const std::int64_t pair_count = pair.a_count + pair.b_count;
  const int out_count = static_cast<int>(pair_count - diagonal < tile ? pair_count - diagonal : tile);
  // A block's output ends where the next block's starts, unless it ends its pair.
  const std::int64_t a_begin = splits[blockIdx.x];
  const std::int64_t a_end = diagonal + tile >= pair_count ? pair.a_count : splits[blockIdx.x + 1];
  const std::int64_t b_begin = diagonal - a_begin;
  // merge_path keeps each co-rank inside its run whatever the comparator; the clamp keeps
  // their difference consistent too, so a comparator that is no strict weak ordering gives
  // some order but never an access outside the runs or the tile.
  const std::int64_t a_least = max(std::int64_t(0), out_count - (pair.b_count - b_begin));
  const std::int64_t a_most = min(std::int64_t(out_count), pair.a_count - a_begin);
  const int a_count = static_cast<int>(min(max(a_end - a_begin, a_least), a_most));
  const int b_count = out_count - a_count;
  const std::int64_t a_offset = pair.start + a_begin;
  const std::int64_t b_offset = pair.start + pair.a_count + b_begin;

  Key keys[ITEMS];
  Value values[ITEMS];
  block::load_bitonic<THREADS>(keys_in + a_offset, a_count, keys_in + b_offset, b_count, keys,
                               shared.keys);
  block::load_bitonic<THREADS>(values_in + a_offset, a_count, values_in + b_offset, b_count,
                               values, shared.values);
  ranked<Key> items[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    items[r] = {keys[r], block::bitonic_source_rank<tile>(static_cast<int>(threadIdx.x) * ITEMS + r,
                                                          a_count, b_count)};
  }
  // Tile positions between the two runs (only in a pair's last block) have rank -1: they
  // sort after every item, so the sequence stays bitonic (ascending, gap, descending).
  block::bitonic_merge<THREADS>(items, values, rank_tiebreak<Compare>{cmp}, shared.network);
  unrank(items, keys);
  block::store_blocked<THREADS>(keys_out + position, keys, out_count, shared.keys);
  block::store_blocked<THREADS>(values_out + position, values, out_count, shared.values);
}

// Scratch: a second copy of keys (and values) and one co-rank per block boundary.
template <class Key, class Value>
struct merge_plan {
  using tuning = merge_tuning<Key, Value>;
  std::int64_t blocks;
  int passes = 0;
  temp_layout<3> layout;

  explicit merge_plan(std::int64_t n)
      : blocks((n + tuning::tile - 1) / tuning::tile),
        layout({n * sizeof(Key), has_values<Value> ? n * sizeof(Value) : 0,
                (blocks + 1) * sizeof(std::int64_t)}) {
    for (std::int64_t run = tuning::tile; run < n; run *= 2) ++passes;
  }
};

template <>
struct algorithm<policy::merge> {
  static constexpr bool implemented = true;

  template <class Key, class Value>
  static cudaError_t check_policy(const policy::merge& policy) {
    const int width = policy.network_width;
    return width == 0 || width == merge_tuning<Key, Value>::tile ? cudaSuccess : cudaErrorInvalidValue;
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::merge&, std::int64_t n) {
    return merge_plan<Key, Value>(n).layout.total;
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::merge&, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    using tuning = merge_tuning<Key, Value>;
    constexpr int threads = tuning::threads, items = tuning::items, tile = tuning::tile;
    const merge_plan<Key, Value> plan(n);
    Key* scratch_keys = plan.layout.template get<Key>(temp, 0);
    Value* scratch_values = plan.layout.template get<Value>(temp, 1);
    std::int64_t* splits = plan.layout.template get<std::int64_t>(temp, 2);

    // The tile sort writes where an even number of passes later lands in `keys`.
    const bool start_in_scratch = plan.passes % 2 == 1;
    Key* current_keys = start_in_scratch ? scratch_keys : keys;
    Value* current_values = start_in_scratch ? scratch_values : values;
    Key* other_keys = start_in_scratch ? keys : scratch_keys;
    Value* other_values = start_in_scratch ? values : scratch_values;

    const auto grid = static_cast<unsigned>(plan.blocks);
    merge_tile_sort_kernel<threads, items><<<grid, threads, 0, stream>>>(
        keys, values, current_keys, current_values, n, cmp);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    constexpr int partition_threads = 128;
    const auto partition_grid =
        static_cast<unsigned>((plan.blocks + partition_threads - 1) / partition_threads);
    for (std::int64_t run = tile; run < n; run *= 2) {
      merge_partition_kernel<tile><<<partition_grid, partition_threads, 0, stream>>>(
          current_keys, n, run, splits, plan.blocks, cmp);
      merge_pass_kernel<threads, items><<<grid, threads, 0, stream>>>(
          current_keys, current_values, other_keys, other_values, n, run, splits, cmp);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
      std::swap(current_keys, other_keys);
      std::swap(current_values, other_values);
    }
    return cudaSuccess;
  }
};

}  // namespace detail
}  // namespace gpusort
