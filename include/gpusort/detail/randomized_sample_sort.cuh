// gpusort/detail/randomized_sample_sort.cuh — policy::randomized_sample: GPU sample sort
// (Leischner, Osipov & Sanders) with equality buckets, its recursion driven on the device.
//
// One level splits every segment of more than M items (M = what device::sort_segments sorts
// in one block) into 2k-1 buckets:
//   phase 1  a random sample of k·a keys per segment (counter-based hash of seed, level,
//            segment start, sample index: reproducible), sorted by block::bitonic_sort;
//            every a-th is a splitter, kept as block::splitter_tree in shared memory;
//   phase 2  per-tile bucket histograms (find_buckets_with_equality: where the segment's
//            splitters repeat, keys equal to a splitter go to an equality bucket that is
//            never split again; where none repeats, those buckets stay empty and the
//            comparison is skipped);
//   phase 3  the prefix sum over the tiles × buckets table, which phase 2 writes in the
//            scan's order (detail::bucket_major_index: bucket_offsets' column-major order
//            inside each segment), so one contiguous scan serves every segment;
//   phase 4  scatter: per-warp ranks (__match_any_sync, deterministic: the same input gives
//            the same order; keys whose ties are identical rank by shared atomics, as that
//            order cannot be seen), staged by bucket in shared memory so the writes are
//            coalesced, at the global offsets of phase 3.
// A segment of at most P items (one tile) is split by one block with all four phases in
// shared memory, so the table only has rows for the few segments larger than a tile.
// Bucket sizes exist only on the device; each segment's block classifies its buckets:
// consecutive small buckets become groups of at most G <= M items for device::sort_segments (a
// union of neighbouring buckets sorted is each bucket sorted), large non-equality buckets
// the next level's work list, large equality buckets are done. Levels ping-pong between
// the keys (A) and one scratch copy (B); each level's grids are sized for the worst case
// n bounds (detail/randomized_sample_plan.cuh), blocks loop over the device-side lists and
// stop at their device-side counts. After the planned levels (plus a spare one) a segment
// that is still larger than M (possible only for input adversarial to the seed: each level
// keeps out of every bucket at least the keys equal to one splitter) is sorted by one block
// with a merge sort in global memory: slow, always correct. At the end: groups and equality
// buckets that lie in B are sorted/copied into A, those in A sorted in place, every group by
// sort_segments' class for its size, up to the device-side count of groups (a group's place
// in its list is taken by an atomic, so it must not decide how the group is sorted: the
// order of ties, which pairs show, would then differ from run to run).
// Not stable. Extra memory: one copy of keys (and values) plus O(n/P·k + n/M) bytes.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/sort_tile.cuh>
#include <gpusort/block/splitter_tree.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/bucket_major_index.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/padded_buffer.cuh>
#include <gpusort/detail/ping_pong.cuh>
#include <gpusort/detail/randomized_sample_lists.cuh>
#include <gpusort/detail/randomized_sample_partition.cuh>
#include <gpusort/detail/randomized_sample_plan.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/detail/resident_grid.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/device/sort_segments.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/thread/serial_merge.cuh>
#include <gpusort/warp/segment_slices.cuh>

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>

namespace gpusort {
namespace detail {

// ---- tuning ---------------------------------------------------------------------------

template <class Key, class Value>
struct randomized_sample_tuning {
  // Default k: 256, or 512 where 256 would plan one level more
  // (randomized_sample_default_log_buckets); a = 4096 / k, the largest sample. From the
  // k x a sweep (bench_randomized_sample, H100, bench/RESULTS.md): (256, 16) is fastest at
  // 2^24 and 2^26 u32 (16 % and 4 % ahead of (512, 8)), (512, 8) at 2^28 (13 % ahead).
  static constexpr int default_log_buckets = 8;
  static constexpr int min_log_buckets = 8, max_log_buckets = 10;  // k = 256 ... 1024
  static constexpr int threads = 256;
  static constexpr std::size_t item_bytes = item_bytes_of<Key, Value>;
  // A chunk (what a block stages in shared memory at once) of about 16 KB of items: 16
  // per thread for 4- and 8-byte items, fewer for wider ones.
  static constexpr int items = item_bytes <= 8 ? 16 : item_bytes <= 16 ? 8 : item_bytes <= 32 ? 4 : 2;
  static constexpr int chunk = threads * items;
  // The tile unit: twice the chunk for items of up to 8 bytes, and the chunk the scatter
  // kernel stages where its ranks need no order or its block is wide (wide_scatter). A
  // bucket's run in a chunk doubles, so its writes touch fewer partly written sectors (ncu,
  // k = 512: 4K-item chunks used 15.5 of every 32 bytes they wrote), and each column sweep
  // serves twice the items. H100, u32 2^28: 12.9 -> 11.7 ms (run 20). The local kernel keeps
  // 16 per thread (with 32 it took 211 registers, one block per SM: u32 2^22 8 % slower).
  // Tiles are whole numbers of the unit, about 2048 of them, at most 128K items: 2^28 u32 ->
  // 128K-item tiles, a table of 2K rows.
  static constexpr int tile_unit = item_bytes <= 8 ? 2 * chunk : chunk;
  // 8-byte items reach the doubled chunk with twice the threads, not twice the items: 32
  // a thread spill (8-byte keys 5-9 % slower, u32:u32 2^24 22 %), 512 threads of 16 do not.
  // So do 4-byte keys at k >= 512, whose runs in a chunk are half as long. H100 (run 34,
  // against 256 threads): u32:u32 2^28 26.2 -> 21.4 ms, 2^26 -3.4 %, 2^22 -1.5 %; u64 2^28
  // 21.1 -> 18.7 ms, 2^26 -4 %; u32 2^28 -3 %; but u32 2^24 (k = 256) +1.9 %, so that stays
  // narrow. So do keys alone that rank in order (ties not identical), 4- or 8-byte: f32
  // under less 2^26 +7.5 %; wide against narrow (run 35), double under less 2^24-2^28 +4 to
  // +7 %, u64 under a comparator of its top 12 bits 2^26-2^28 +13 to +15 %.
  template <class Compare, int LOG_K>
  static constexpr bool wide_scatter =
      needs_ranks<Key, Value, Compare> ? item_bytes == 8 && has_values<Value>
                                       : item_bytes == 8 || (item_bytes == 4 && LOG_K >= 9);
  template <class Compare, int LOG_K>
  static constexpr int scatter_threads = wide_scatter<Compare, LOG_K> ? 2 * threads : threads;
  // Narrow, the ordered ranks stage `items` a thread, but pairs of 9 to 32 bytes twice that,
  // for the same reason. H100 (run 28): u64:u32 and u32:u64 2^27 12-15 % faster, 16-byte key
  // : u32 and : u64 2^26 11 %, u64:u64 2^27 6 %; from 2^20 to 2^24 within -5 to +1 %, but
  // u64:u64 at 2^22 5.5 % slower. Ordered keys alone (16-byte keys 6-11 % slower) keep
  // `items`; so do wider items (not measured, and their doubled chunk would outgrow shared
  // memory sooner).
  static constexpr bool doubled_ranked_chunk =
      has_values<Value> && item_bytes > 8 && item_bytes <= 32;
  template <class Compare, int LOG_K>
  static constexpr int scatter_items = wide_scatter<Compare, LOG_K>      ? items
                                       : !needs_ranks<Key, Value, Compare> ? tile_unit / threads
                                       : doubled_ranked_chunk            ? 2 * items
                                                                         : items;
  // Loads a scatter chunk is staged from (rs_scatter_order_free): two for 4-byte keys alone
  // in the wide block, so 16K keys a chunk, 128 registers a thread without spills. H100 (run
  // 36): u32 2^28 10.09 -> 9.66 ms, f32 under total_less 2^28 -1.2 %; the same for 4-byte
  // keys at k = 256 (narrow now) u32 2^27 -2 % but 2^22 +2.9 %, sorted and few distinct at
  // 2^26 +5 to +6 %; 8-byte keys spill 300 bytes (u64 2^24 +13 %, 2^28 +4 %). A tile is a whole
  // number of 8K units, so its last chunk may be half full (loaded with bounds checks).
  template <class Compare, int LOG_K>
  static constexpr int scatter_rounds =
      item_bytes == 4 && wide_scatter<Compare, LOG_K> && !needs_ranks<Key, Value, Compare> ? 2 : 1;
  static constexpr std::int64_t target_tiles = 2048, max_chunks = 32 * chunk / tile_unit;
  // The sample is one block's tile: k·a <= 4096, a = 4096/k by default (16 for k = 256).
  static constexpr int sample_items = 16;
  static constexpr int sample_size = threads * sample_items;
  static constexpr int spare_levels = 1;
  static constexpr int fallback_items = 4;  // the rarely used fallback merge sort's tile
  // G: groups of small buckets up to the tile of sort_segments' medium size class
  // (randomized_sample_plan.cuh says why); groups up to the compact class's half of it
  // measured 2-4 % slower at 2^26-2^28 u32 (H100, run 21).
  using segment_tuning = segment_sort_tuning<Key, Value>;
  static constexpr std::int64_t max_group =
      std::int64_t(segment_tuning::medium_threads) * segment_tuning::medium_items;
  static_assert(max_group <= segment_tuning::max_items, "G <= M");
};

// ---- shared memory ------------------------------------------------------------------------

template <class Key, int THREADS, int SAMPLE_ITEMS>
using rs_sample_storage = block::ragged_bitonic_sort_storage<Key, no_value, THREADS, SAMPLE_ITEMS>;

template <class Key, class Value, int THREADS, int ITEMS, int SAMPLE_ITEMS, int LOG_K, bool RANKED>
struct rs_local_storage {
  static constexpr int nb = (1 << (LOG_K + 1)) - 1;
  block::splitter_tree<Key, LOG_K> tree;
  rs_classify_storage<nb> classify;
  struct split_storage {
    rs_partition_storage<Key, Value, THREADS, THREADS * ITEMS, LOG_K, RANKED> partition;
    std::int64_t segment_start[nb + 1];  // the split segment's buckets, for rs_classify
  };
  union {
    rs_sample_storage<Key, THREADS, SAMPLE_ITEMS> sample;
    split_storage split;
  };
};

template <class Key, class Value, int THREADS, int CHUNK, int LOG_K, bool RANKED>
struct rs_tile_storage {
  block::splitter_tree<Key, LOG_K> tree;
  rs_partition_storage<Key, Value, THREADS, CHUNK, LOG_K, RANKED> partition;
};

// Phase 2 alone needs only the tree and the counters: a small footprint keeps many blocks
// streaming per SM.
template <class Key, int LOG_K>
struct rs_histogram_storage {
  static constexpr int nb = (1 << (LOG_K + 1)) - 1;
  block::splitter_tree<Key, LOG_K> tree;
  int total[nb + 1];
};

template <class Storage>
__device__ __forceinline__ Storage& rs_shared() {
  extern __shared__ __align__(16) unsigned char rs_shared_bytes[];
  return *reinterpret_cast<Storage*>(rs_shared_bytes);
}

// ---- phase 1: splitters ---------------------------------------------------------------------

// The whole block: a random sample of `sample` keys of segment [begin, begin + size),
// sorted, left in storage.keys[0, sample) (the .key fields). Not inlined: it does not
// depend on k, so every k's kernels share one copy (compile time), and it runs once per
// segment (run time).
template <int THREADS, int SAMPLE_ITEMS, class Key, class Compare>
__device__ __noinline__ void rs_sort_sample(const Key* keys, std::int64_t begin, std::int64_t size,
                                            std::uint64_t seed, int level, int sample, Compare cmp,
                                            rs_sample_storage<Key, THREADS, SAMPLE_ITEMS>& storage) {
  Key items[SAMPLE_ITEMS];
  no_value none[SAMPLE_ITEMS];
#pragma unroll
  for (int r = 0; r < SAMPLE_ITEMS; ++r) {
    const int i = static_cast<int>(threadIdx.x) * SAMPLE_ITEMS + r;
    // Slots past the sample hold a real key (sample 0), as the ragged sort requires.
    items[r] = keys[sample_index(seed, level, begin, size, i < sample ? i : 0)];
  }
  block::bitonic_sort<THREADS>(items, none, sample, cmp, storage);
#pragma unroll
  for (int r = 0; r < SAMPLE_ITEMS; ++r) storage.keys[threadIdx.x * SAMPLE_ITEMS + r].key = items[r];
  __syncthreads();
}

// The whole block: k-1 sorted splitters of segment [begin, begin + size), every a-th key of
// the sorted sample of k·a <= THREADS·SAMPLE_ITEMS keys, written through `put(q, key)`.
template <int THREADS, int SAMPLE_ITEMS, int LOG_K, class Key, class Compare, class Put>
__device__ __forceinline__ void rs_draw_splitters(const Key* keys, std::int64_t begin,
                                                  std::int64_t size, std::uint64_t seed, int level,
                                                  int oversampling, Compare cmp,
                                                  rs_sample_storage<Key, THREADS, SAMPLE_ITEMS>& storage,
                                                  Put put) {
  constexpr int splitters = (1 << LOG_K) - 1;
  rs_sort_sample<THREADS, SAMPLE_ITEMS>(keys, begin, size, seed, level,
                                        (1 << LOG_K) * oversampling, cmp, storage);
  for (int q = threadIdx.x; q < splitters; q += THREADS)
    put(q, storage.keys[splitter_sample_rank(q, oversampling)].key);
  __syncthreads();
}

// ---- the level's kernels ---------------------------------------------------------------------

// Table rows (tiles) of the big segments: rows[s] = tiles of segments before s, rows[count]
// = all of them. One block.
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
    rs_rows_kernel(rs_segments big, const int* big_count, std::int64_t* rows, std::int64_t tile) {
  __shared__ typename cub::BlockScan<std::int64_t, THREADS>::TempStorage temp;
  __shared__ std::int64_t carry;
  const int count = *big_count;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (int first = 0; first <= count; first += THREADS) {
    const int s = first + static_cast<int>(threadIdx.x);
    const std::int64_t tiles = s < count ? (big.end[s] - big.begin[s] + tile - 1) / tile : 0;
    std::int64_t prefix, sum;
    cub::BlockScan<std::int64_t, THREADS>(temp).ExclusiveSum(tiles, prefix, sum);
    if (s <= count) rows[s] = carry + prefix;
    __syncthreads();
    if (threadIdx.x == 0) carry += sum;
    __syncthreads();
  }
}

// The segment whose rows hold `row` (rows[s] <= row < rows[s+1]).
__device__ __forceinline__ int rs_segment_of_row(const std::int64_t* rows, int count, std::int64_t row) {
  int lo = 0, hi = count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (rows[mid] <= row) lo = mid; else hi = mid - 1;
  }
  return lo;
}

template <int THREADS, int SAMPLE_ITEMS, int LOG_K, class Key, class Compare>
__global__ void __launch_bounds__(THREADS)
    rs_splitters_kernel(const Key* keys, rs_segments big, const int* big_count, Key* splitters,
                        std::uint64_t seed, int level, int oversampling, Compare cmp) {
  auto& storage = rs_shared<rs_sample_storage<Key, THREADS, SAMPLE_ITEMS>>();
  constexpr int per_segment = (1 << LOG_K) - 1;
  const int count = *big_count;
  for (int s = blockIdx.x; s < count; s += gridDim.x) {
    Key* out = splitters + static_cast<std::int64_t>(s) * per_segment;
    rs_draw_splitters<THREADS, SAMPLE_ITEMS, LOG_K>(
        keys, big.begin[s], big.end[s] - big.begin[s], seed, level, oversampling, cmp, storage,
        [out](int q, const Key& key) { out[q] = key; });
  }
}

// Phase 2 for the tiles of big segments: row `row` of the table = its tile's bucket counts.
template <int THREADS, int ITEMS, int LOG_K, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    rs_histogram_kernel(const Key* keys, rs_segments big, const int* big_count,
                        const std::int64_t* rows, const Key* splitters, int* counts,
                        std::int64_t tile, Compare cmp) {
  using storage_t = rs_histogram_storage<Key, LOG_K>;
  constexpr int nb = storage_t::nb;
  auto& s = rs_shared<storage_t>();
  const int segments = *big_count;
  const std::int64_t total_rows = rows[segments];
  for (std::int64_t row = blockIdx.x; row < total_rows; row += gridDim.x) {
    const int seg = rs_segment_of_row(rows, segments, row);
    const std::int64_t begin = big.begin[seg] + (row - rows[seg]) * tile;
    const std::int64_t count = min(tile, big.end[seg] - begin);
    s.tree.template load<THREADS>(splitters + static_cast<std::int64_t>(seg) * ((1 << LOG_K) - 1));
    for (int j = threadIdx.x; j <= nb; j += THREADS) s.total[j] = 0;
    const bool repeated = s.tree.template block_has_repeated_splitters<THREADS>(cmp);
    rs_histogram<THREADS, ITEMS>(keys + begin, count, s.tree, repeated, s.total, cmp);
    __syncthreads();
    const std::int64_t first_row = rows[seg], segment_rows = rows[seg + 1] - first_row;
    for (int j = threadIdx.x; j < nb; j += THREADS)
      counts[bucket_major_index(first_row, segment_rows, row, j, nb)] = s.total[j];
    __syncthreads();
  }
}

// Phase 3: the scan over the table, in its own order (bucket_major_index). The table is sized
// for the worst case; entries past this level's rows read 0.
struct rs_table_count {
  const int* counts;
  const std::int64_t* rows;
  const int* big_count;
  int nb;
  __device__ std::int64_t operator()(std::int64_t c) const {
    return c < rows[*big_count] * nb ? counts[c] : 0;
  }
};

inline cudaError_t rs_table_offsets(void* temp, std::size_t& bytes, const int* counts,
                                    std::int64_t* offsets, const std::int64_t* rows,
                                    const int* big_count, int nb, std::int64_t max_rows,
                                    cudaStream_t stream) {
  const auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                  rs_table_count{counts, rows, big_count, nb});
  return cub::DeviceScan::ExclusiveSum(temp, bytes, in, offsets, max_rows * nb, stream);
}

// Phase 4 for the tiles of big segments. 512 threads a SM (two blocks of 256 or one of
// 512), 128 registers a thread: left to itself, ptxas gave u32 keys (then 16 per thread) 80
// registers and a spill (three blocks; 13.8 against 13.3 ms at 2^28 on the H100) and u32:u32
// pairs 171 (one block). 32 u32 keys per thread take 128 (nvcc 13.0: no spill).
template <int THREADS, int ITEMS, int ROUNDS, int LOG_K, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS, 512 / THREADS)
    rs_scatter_kernel(const Key* keys, const Value* values, Key* keys_out, Value* values_out,
                      rs_segments big, const int* big_count, const std::int64_t* rows,
                      const Key* splitters, const std::int64_t* offsets, std::int64_t tile,
                      Compare cmp) {
  using storage_t = rs_tile_storage<Key, Value, THREADS, THREADS * ITEMS * ROUNDS, LOG_K,
                                    needs_ranks<Key, Value, Compare>>;
  constexpr int nb = decltype(storage_t::partition)::nb;
  auto& s = rs_shared<storage_t>();
  const int segments = *big_count;
  const std::int64_t total_rows = rows[segments];
  for (std::int64_t row = blockIdx.x; row < total_rows; row += gridDim.x) {
    const int seg = rs_segment_of_row(rows, segments, row);
    const std::int64_t segment_begin = big.begin[seg];
    const std::int64_t begin = segment_begin + (row - rows[seg]) * tile;
    const std::int64_t count = min(tile, big.end[seg] - begin);
    s.tree.template load<THREADS>(splitters + static_cast<std::int64_t>(seg) * ((1 << LOG_K) - 1));
    const std::int64_t first_row = rows[seg], segment_rows = rows[seg + 1] - first_row;
    const std::int64_t first = offsets[first_row * nb];
    for (int j = threadIdx.x; j < nb; j += THREADS)
      s.partition.base[j] =
          segment_begin + offsets[bucket_major_index(first_row, segment_rows, row, j, nb)] - first;
    const bool repeated = s.tree.template block_has_repeated_splitters<THREADS>(cmp);
    rs_scatter<THREADS, ITEMS, ROUNDS>(keys + begin, values + begin, count, keys_out, values_out,
                                       s.tree, repeated, s.partition, cmp);
  }
}

// Bucket starts of big segment s from the table offsets, then classification.
template <int THREADS, int NB>
__global__ void __launch_bounds__(THREADS)
    rs_classify_kernel(rs_segments big, const int* big_count, const std::int64_t* rows,
                       const std::int64_t* offsets, rs_outputs out) {
  constexpr int nb = NB;
  __shared__ std::int64_t starts[nb];
  __shared__ rs_classify_storage<nb> scratch;
  const int segments = *big_count;
  for (int seg = blockIdx.x; seg < segments; seg += gridDim.x) {
    const std::int64_t first_row = rows[seg], segment_rows = rows[seg + 1] - first_row;
    const std::int64_t first = offsets[first_row * nb];
    for (int j = threadIdx.x; j < nb; j += THREADS)
      starts[j] = offsets[bucket_major_index(first_row, segment_rows, first_row, j, nb)] - first;
    __syncthreads();
    rs_classify<THREADS, nb>(big.begin[seg], big.end[seg] - big.begin[seg], starts, out, scratch);
    __syncthreads();
  }
}

// All four phases for a segment of at most one tile, in one block, then classification.
template <int THREADS, int ITEMS, int SAMPLE_ITEMS, int LOG_K, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    rs_local_kernel(const Key* keys, const Value* values, Key* keys_out, Value* values_out,
                    rs_segments local, const int* local_count, std::uint64_t seed, int level,
                    int oversampling, rs_outputs out, Compare cmp) {
  using storage_t =
      rs_local_storage<Key, Value, THREADS, ITEMS, SAMPLE_ITEMS, LOG_K, needs_ranks<Key, Value, Compare>>;
  constexpr int nb = storage_t::nb;
  auto& s = rs_shared<storage_t>();
  const int segments = *local_count;
  for (int seg = blockIdx.x; seg < segments; seg += gridDim.x) {
    const std::int64_t begin = local.begin[seg];
    const std::int64_t count = local.end[seg] - begin;
    auto& tree = s.tree;
    rs_draw_splitters<THREADS, SAMPLE_ITEMS, LOG_K>(
        keys, begin, count, seed, level, oversampling, cmp, s.sample,
        [&tree](int q, const Key& key) { tree.nodes[sorted_to_eytzinger(q, LOG_K)] = key; });
    auto& p = s.split.partition;
    for (int j = threadIdx.x; j <= nb; j += THREADS) p.total[j] = 0;
    const bool repeated = tree.template block_has_repeated_splitters<THREADS>(cmp);
    rs_histogram<THREADS, ITEMS>(keys + begin, count, tree, repeated, p.total, cmp);
    __syncthreads();
    rs_scan_buckets<THREADS, nb>(p.total, s.split.segment_start, p.scan);
    for (int j = threadIdx.x; j < nb; j += THREADS) p.base[j] = begin + s.split.segment_start[j];
    __syncthreads();
    rs_scatter<THREADS, ITEMS, 1>(keys + begin, values + begin, count, keys_out, values_out, tree,
                                  repeated, p, cmp);
    rs_classify<THREADS, nb>(begin, count, s.split.segment_start, out, s.classify);
    __syncthreads();
  }
}

// Segments done in B (large equality buckets) copied to A, in slices over every warp of the
// grid: an all-equal input is one such segment of n keys.
template <int THREADS, class Key, class Value>
__global__ void __launch_bounds__(THREADS)
    rs_copy_kernel(const Key* keys, const Value* values, Key* keys_out, Value* values_out,
                   rs_segments list, const int* list_count, std::int64_t cap) {
  constexpr int warps = THREADS / 32;
  const std::int64_t count = min(static_cast<std::int64_t>(*list_count), cap);
  const int lane = static_cast<int>(threadIdx.x % 32);
  warp::for_each_slice<rs_copy_slice>(
      list.begin, list.end, count, static_cast<std::int64_t>(blockIdx.x) * warps + threadIdx.x / 32,
      static_cast<std::int64_t>(gridDim.x) * warps, [&](std::int64_t lo, std::int64_t hi) {
#pragma unroll 8
        for (std::int64_t i = lo + lane; i < hi; i += 32) {
          keys_out[i] = keys[i];
          if constexpr (has_values<Value>) values_out[i] = values[i];
        }
      });
}

// The fallback: a segment still larger than M after the last level, sorted by one block,
// ending in A: bitonic-sorted tiles, then merge passes in global memory (thread::serial_merge,
// ITEMS outputs a thread), ping-ponging between the segment's ranges in A and B.
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__device__ void rs_fallback_sort(Key* a_keys, Value* a_values, Key* b_keys, Value* b_values,
                                 std::int64_t begin, std::int64_t m, bool in_b, Compare cmp,
                                 block::sort_tile_storage<Key, Value, THREADS, ITEMS>& shared) {
  constexpr int tile = THREADS * ITEMS;
  auto buffers = ping_pong<Key, Value>::ending_in(a_keys, a_values, b_keys, b_values,
                                                   doubling_passes(m, tile));
  const Key* src_keys = in_b ? b_keys : a_keys;
  const Value* src_values = in_b ? b_values : a_values;
  for (std::int64_t t = 0; t < m; t += tile) {
    const int valid = static_cast<int>(m - t < tile ? m - t : tile);
    block::sort_tile<THREADS, ITEMS>(src_keys + begin + t, src_values + begin + t,
                                     buffers.keys + begin + t, buffers.values + begin + t, valid,
                                     cmp, shared);
  }
  __syncthreads();
  for (std::int64_t run = tile; run < m; run *= 2) {
    for (std::int64_t position = static_cast<std::int64_t>(threadIdx.x) * ITEMS; position < m;
         position += tile) {
      // Pairs start at multiples of 2·run (a multiple of ITEMS): no thread straddles two.
      const std::int64_t start = position / (2 * run) * (2 * run);
      const std::int64_t a_count = min(run, m - start);
      const std::int64_t b_count = min(run, m - start - a_count);
      const Key* run_keys = buffers.keys + begin + start;
      const Value* run_values = buffers.values + begin + start;
      const std::int64_t diagonal = position - start;
      thread::serial_merge(run_keys, run_values, a_count, run_keys + a_count,
                           run_values + a_count, b_count, diagonal,
                           min(diagonal + ITEMS, a_count + b_count),
                           buffers.other_keys + begin + start,
                           buffers.other_values + begin + start, cmp);
    }
    __syncthreads();
    buffers.flip();
  }
}

template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    rs_fallback_kernel(Key* a_keys, Value* a_values, Key* b_keys, Value* b_values,
                       rs_segments big, const int* big_count, rs_segments local,
                       const int* local_count, bool in_b, Compare cmp) {
  auto& shared = rs_shared<block::sort_tile_storage<Key, Value, THREADS, ITEMS>>();
  const int bigs = *big_count;
  const int total = bigs + *local_count;
  for (int s = blockIdx.x; s < total; s += gridDim.x) {
    const rs_segments& list = s < bigs ? big : local;
    const int i = s < bigs ? s : s - bigs;
    rs_fallback_sort<THREADS, ITEMS>(a_keys, a_values, b_keys, b_values, list.begin[i],
                                     list.end[i] - list.begin[i], in_b, cmp, shared);
  }
}

// [0, n) as the only entry of `list`.
static __global__ void rs_whole_array_kernel(rs_segments list, std::int64_t n) {
  list.begin[0] = 0;
  list.end[0] = n;
}

// The first work list: [0, n) as one big or one local segment; the counters zeroed before.
static __global__ void rs_init_kernel(rs_segments big, rs_segments local, int* counters,
                               std::int64_t n, std::int64_t tile) {
  if (n > tile) {
    big.begin[0] = 0;
    big.end[0] = n;
    counters[rs_big0] = 1;
  } else {
    local.begin[0] = 0;
    local.end[0] = n;
    counters[rs_local0] = 1;
  }
}

// ---- host side --------------------------------------------------------------------------------

// Every size and array of one sort, from n and the policy alone.
template <class Key, class Value>
struct randomized_sample_layout {
  using tuning = randomized_sample_tuning<Key, Value>;
  enum array : int {
    scratch_keys, scratch_values, counters, big_begin, big_end, rows, local_begin, local_end,
    splitters, table_counts, table_offsets, scan_temp, group_begin, group_end, copy_begin,
    copy_end, arrays
  };
  int log_buckets, nb;
  randomized_sample_bounds bounds;
  std::int64_t group_cap, copy_cap;  // over all levels, per list
  std::size_t scan_bytes = 0;
  temp_layout<arrays> layout;

  static std::size_t bytes_of(std::int64_t items, std::size_t size) {
    return static_cast<std::size_t>(items) * size;
  }

  randomized_sample_layout(int log_k, std::int64_t n)
      : log_buckets(log_k),
        nb((2 << log_k) - 1),
        bounds(randomized_sample_plan(n, device::max_segment_items<Key, Value>(),
                                      tuning::max_group, 1 << log_k,
                                      tuning::tile_unit, tuning::target_tiles, tuning::max_chunks,
                                      tuning::spare_levels)),
        group_cap((bounds.levels > 0 ? bounds.levels : 1) * bounds.groups),
        copy_cap((bounds.levels > 0 ? bounds.levels : 1) * bounds.copies),
        scan_bytes(table_scan_bytes(bounds.levels > 0 ? bounds.table_rows : 0, nb)),
        layout({bytes_of(n, sizeof(Key)), has_values<Value> ? bytes_of(n, sizeof(Value)) : 0,
                rs_counters * sizeof(int),
                bytes_of(2 * bounds.big_segments, 8), bytes_of(2 * bounds.big_segments, 8),
                bytes_of(2 * (bounds.big_segments + 1), 8),
                bytes_of(2 * bounds.local_segments, 8), bytes_of(2 * bounds.local_segments, 8),
                bytes_of(bounds.levels > 0 ? bounds.big_segments * ((1 << log_k) - 1) : 0, sizeof(Key)),
                bytes_of(bounds.levels > 0 ? bounds.table_rows * nb : 0, sizeof(int)),
                bytes_of(bounds.levels > 0 ? bounds.table_rows * nb : 0, 8), scan_bytes,
                bytes_of(2 * group_cap, 8), bytes_of(2 * group_cap, 8), bytes_of(copy_cap, 8),
                bytes_of(copy_cap, 8)}) {}

  static std::size_t table_scan_bytes(std::int64_t rows, int nb) {
    std::size_t bytes = 0;
    if (rows > 0) rs_table_offsets(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, nb, rows, 0);
    return bytes;
  }
};

// max_levels (tests only): stop after that many levels, leaving the rest to the fallback;
// negative: the planned levels.
template <int LOG_K, class Key, class Value, class Compare>
cudaError_t randomized_sample_sort(const policy::randomized_sample& policy, int oversampling,
                                   void* temp, Key* keys, Value* values, std::int64_t n,
                                   Compare cmp, cudaStream_t stream, int max_levels = -1) {
  using tuning = randomized_sample_tuning<Key, Value>;
  using layout_t = randomized_sample_layout<Key, Value>;
  constexpr int threads = tuning::threads;
  constexpr int items = tuning::items;
  constexpr int scatter_threads = tuning::template scatter_threads<Compare, LOG_K>;
  constexpr int scatter_items = tuning::template scatter_items<Compare, LOG_K>;
  constexpr int scatter_rounds = tuning::template scatter_rounds<Compare, LOG_K>;
  constexpr int sample_items = tuning::sample_items;
  constexpr int nb = (2 << LOG_K) - 1;
  const layout_t plan(LOG_K, n);
  randomized_sample_bounds bounds = plan.bounds;
  if (max_levels >= 0 && max_levels < bounds.levels) bounds.levels = max_levels;
  const auto& l = plan.layout;
  Key* scratch_keys = l.template get<Key>(temp, layout_t::scratch_keys);
  Value* scratch_values = l.template get<Value>(temp, layout_t::scratch_values);
  int* counters = l.template get<int>(temp, layout_t::counters);
  std::int64_t* big_begin = l.template get<std::int64_t>(temp, layout_t::big_begin);
  std::int64_t* big_end = l.template get<std::int64_t>(temp, layout_t::big_end);
  std::int64_t* rows = l.template get<std::int64_t>(temp, layout_t::rows);
  std::int64_t* local_begin = l.template get<std::int64_t>(temp, layout_t::local_begin);
  std::int64_t* local_end = l.template get<std::int64_t>(temp, layout_t::local_end);
  Key* splitters = l.template get<Key>(temp, layout_t::splitters);
  int* table_counts = l.template get<int>(temp, layout_t::table_counts);
  std::int64_t* table_offsets = l.template get<std::int64_t>(temp, layout_t::table_offsets);
  void* scan_temp = l.template get<void>(temp, layout_t::scan_temp);
  std::int64_t* group_begin = l.template get<std::int64_t>(temp, layout_t::group_begin);
  std::int64_t* group_end = l.template get<std::int64_t>(temp, layout_t::group_end);
  const rs_segments copies{l.template get<std::int64_t>(temp, layout_t::copy_begin),
                           l.template get<std::int64_t>(temp, layout_t::copy_end)};
  const auto big_list = [&](int i) {
    return rs_segments{big_begin + i * bounds.big_segments, big_end + i * bounds.big_segments};
  };
  const auto local_list = [&](int i) {
    return rs_segments{local_begin + i * bounds.local_segments, local_end + i * bounds.local_segments};
  };
  // groups[0]: lie in A (the keys), groups[1]: lie in B (scratch).
  const rs_segments groups[2] = {{group_begin, group_end},
                                 {group_begin + plan.group_cap, group_end + plan.group_cap}};
  const std::int64_t max_segment = device::max_segment_items<Key, Value>();

  if (n <= max_segment) {  // one block sorts it all
    rs_whole_array_kernel<<<1, 1, 0, stream>>>(groups[0], n);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    return device::sort_segments(keys, values, keys, values, groups[0].begin, groups[0].end, 1, cmp,
                                 stream, n, n);
  }

  // Persistent grids (detail::resident_grid): as many blocks as fit on the device at once,
  // never more than the worst-case work, each looping over the device-side list.

  // Kernels and their shared memory.
  constexpr bool ranked = needs_ranks<Key, Value, Compare>;
  using tile_storage = rs_tile_storage<Key, Value, scatter_threads,
                                       scatter_threads * scatter_items * scatter_rounds, LOG_K, ranked>;
  using histogram_storage = rs_histogram_storage<Key, LOG_K>;
  using local_storage = rs_local_storage<Key, Value, threads, items, sample_items, LOG_K, ranked>;
  using sample_storage = rs_sample_storage<Key, threads, sample_items>;
  using seg_tuning = segment_sort_tuning<Key, Value>;
  constexpr int fallback_items = tuning::fallback_items;
  using fallback_storage = block::sort_tile_storage<Key, Value, threads, fallback_items>;
  const auto splitters_kernel = rs_splitters_kernel<threads, sample_items, LOG_K, Key, Compare>;
  const auto histogram_kernel = rs_histogram_kernel<threads, items, LOG_K, Key, Value, Compare>;
  const auto scatter_kernel =
      rs_scatter_kernel<scatter_threads, scatter_items, scatter_rounds, LOG_K, Key, Value, Compare>;
  const auto local_kernel = rs_local_kernel<threads, items, sample_items, LOG_K, Key, Value, Compare>;
  const auto fallback_kernel = rs_fallback_kernel<threads, fallback_items, Key, Value, Compare>;
  // Wide keys (on an H100 36 bytes and more, 32 at k >= 512) outgrow what a block may opt in
  // to: refused here, before a call that would fail and leave its error pending for the
  // caller's next CUDA call.
  int device = 0, shared_optin = 0;
  if (cudaError_t e = cudaGetDevice(&device)) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device))
    return e;
  for (const std::size_t bytes : {sizeof(sample_storage), sizeof(histogram_storage), sizeof(tile_storage),
                                  sizeof(local_storage), sizeof(fallback_storage)})
    if (bytes > static_cast<std::size_t>(shared_optin)) return cudaErrorInvalidValue;
  if (cudaError_t e = allow_dynamic_shared(splitters_kernel, sizeof(sample_storage))) return e;
  if (cudaError_t e = allow_dynamic_shared(histogram_kernel, sizeof(histogram_storage))) return e;
  if (cudaError_t e = allow_dynamic_shared(scatter_kernel, sizeof(tile_storage))) return e;
  if (cudaError_t e = allow_dynamic_shared(local_kernel, sizeof(local_storage))) return e;
  if (cudaError_t e = allow_dynamic_shared(fallback_kernel, sizeof(fallback_storage))) return e;
  const auto classify_kernel = rs_classify_kernel<threads, nb>;
  const auto copy_kernel = rs_copy_kernel<threads, Key, Value>;
  unsigned splitters_grid, histogram_grid, scatter_grid, local_grid, classify_grid, fallback_grid,
      copy_grid;
  const cudaError_t grids[] = {
      resident_grid(splitters_kernel, threads, sizeof(sample_storage), bounds.big_segments, splitters_grid),
      resident_grid(histogram_kernel, threads, sizeof(histogram_storage), bounds.table_rows, histogram_grid),
      resident_grid(scatter_kernel, scatter_threads, sizeof(tile_storage), bounds.table_rows, scatter_grid),
      resident_grid(local_kernel, threads, sizeof(local_storage), bounds.local_segments, local_grid),
      resident_grid(classify_kernel, threads, 0, bounds.big_segments, classify_grid),
      resident_grid(fallback_kernel, threads, sizeof(fallback_storage),
                    bounds.big_segments + bounds.local_segments, fallback_grid),
      resident_grid(copy_kernel, threads, 0, std::numeric_limits<std::int64_t>::max(), copy_grid)};
  for (cudaError_t e : grids)
    if (e != cudaSuccess) return e;

  if (cudaError_t e = cudaMemsetAsync(counters, 0, rs_counters * sizeof(int), stream)) return e;
  rs_init_kernel<<<1, 1, 0, stream>>>(big_list(0), local_list(0), counters, n, bounds.tile);
  if (cudaError_t e = cudaPeekAtLastError()) return e;

  for (int level = 0; level < bounds.levels; ++level) {
    const int cur = level % 2, next = 1 - cur;
    const bool output_is_final = level % 2 == 1;
    const Key* src_keys = output_is_final ? scratch_keys : keys;
    const Value* src_values = output_is_final ? scratch_values : values;
    Key* dst_keys = output_is_final ? keys : scratch_keys;
    Value* dst_values = output_is_final ? values : scratch_values;
    const rs_segments big = big_list(cur), local = local_list(cur);
    const int* big_count = counters + (cur == 0 ? rs_big0 : rs_big1);
    const int* local_count = counters + (cur == 0 ? rs_local0 : rs_local1);
    std::int64_t* level_rows = rows + cur * (bounds.big_segments + 1);
    const rs_outputs out{big_list(next),
                         local_list(next),
                         groups[output_is_final ? 0 : 1],
                         copies,
                         counters + (next == 0 ? rs_big0 : rs_big1),
                         counters + (next == 0 ? rs_local0 : rs_local1),
                         counters + (output_is_final ? rs_groups_a : rs_groups_b),
                         counters + rs_copies,
                         bounds.big_segments,
                         bounds.local_segments,
                         plan.group_cap,
                         plan.copy_cap,
                         bounds.tile,
                         max_segment,
                         tuning::max_group,
                         output_is_final};
    if (cudaError_t e = cudaMemsetAsync(counters + (next == 0 ? rs_big0 : rs_big1), 0, 2 * sizeof(int), stream))
      return e;
    rs_rows_kernel<threads><<<1, threads, 0, stream>>>(big, big_count, level_rows, bounds.tile);
    splitters_kernel<<<splitters_grid, threads, sizeof(sample_storage), stream>>>(
        src_keys, big, big_count, splitters, policy.seed, level, oversampling, cmp);
    histogram_kernel<<<histogram_grid, threads, sizeof(histogram_storage), stream>>>(
        src_keys, big, big_count, level_rows, splitters, table_counts, bounds.tile, cmp);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    std::size_t scan_bytes = plan.scan_bytes;
    if (cudaError_t e = rs_table_offsets(scan_temp, scan_bytes, table_counts, table_offsets, level_rows,
                                         big_count, nb, bounds.table_rows, stream))
      return e;
    scatter_kernel<<<scatter_grid, scatter_threads, sizeof(tile_storage), stream>>>(
        src_keys, src_values, dst_keys, dst_values, big, big_count, level_rows, splitters,
        table_offsets, bounds.tile, cmp);
    local_kernel<<<local_grid, threads, sizeof(local_storage), stream>>>(
        src_keys, src_values, dst_keys, dst_values, local, local_count, policy.seed, level,
        oversampling, out, cmp);
    classify_kernel<<<classify_grid, threads, 0, stream>>>(big, big_count, level_rows,
                                                                        table_offsets, out);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
  }

  // Whatever is still larger than M lies in the last level's output.
  const int last = bounds.levels % 2;
  const bool last_in_b = bounds.levels % 2 == 1;
  fallback_kernel<<<fallback_grid, threads, sizeof(fallback_storage), stream>>>(
      keys, values, scratch_keys, scratch_values, big_list(last), counters + (last == 0 ? rs_big0 : rs_big1),
      local_list(last), counters + (last == 0 ? rs_local0 : rs_local1), last_in_b, cmp);
  copy_kernel<<<copy_grid, threads, 0, stream>>>(
      scratch_keys, scratch_values, keys, values, copies, counters + rs_copies, plan.copy_cap);
  if (cudaError_t e = cudaPeekAtLastError()) return e;
  // Every group by its size class, whatever its place in the list (the places are taken by
  // atomics, in no fixed order), so that the same input sorts to the same output.
  for (int list = 0; list < 2; ++list) {
    const Key* in_keys = list == 0 ? keys : scratch_keys;
    const Value* in_values = list == 0 ? values : scratch_values;
    if (cudaError_t e = sort_segments_in_classes(
            typename seg_tuning::grouped_classes{}, in_keys, in_values, keys, values,
            groups[list].begin, groups[list].end, plan.group_cap, cmp, stream, 0, max_segment,
            counters + (list == 0 ? rs_groups_a : rs_groups_b)))
      return e;
  }
  return cudaSuccess;
}

// Calls f(std::integral_constant<int, LOG_K>) for the policy's k (a supported power of two).
template <class Key, class Value, class F>
cudaError_t rs_dispatch_buckets(int log_buckets, F&& f) {
  using tuning = randomized_sample_tuning<Key, Value>;
  // Each k is a set of kernels per key type (compile time): 256, 512, 1024 only.
  static_assert(tuning::min_log_buckets == 8 && tuning::max_log_buckets == 10,
                "the switch below lists every supported k");
  switch (log_buckets) {
    case 8: return f(std::integral_constant<int, 8>{});
    case 9: return f(std::integral_constant<int, 9>{});
    case 10: return f(std::integral_constant<int, 10>{});
    default: return cudaErrorInvalidValue;
  }
}

// The default k for n items: the smaller k unless it plans more levels than the larger
// one, since a level more costs more than wider buckets do (k x a sweep, H100, u32: 256
// ahead at 2^24 and 2^26, where both plan two levels; 512 ahead at 2^28, where 256 plans
// three).
template <class Key, class Value>
int randomized_sample_default_log_buckets(std::int64_t n) {
  using tuning = randomized_sample_tuning<Key, Value>;
  constexpr std::int64_t max_segment = device::max_segment_items<Key, Value>();
  constexpr int narrow = tuning::default_log_buckets, wide = tuning::default_log_buckets + 1;
  return randomized_sample_levels(n, max_segment, 1 << narrow, 0) >
                 randomized_sample_levels(n, max_segment, 1 << wide, 0)
             ? wide
             : narrow;
}

// k and a of a policy for n items, defaults filled in; false when the policy cannot be
// honoured.
template <class Key, class Value>
bool randomized_sample_parameters(const policy::randomized_sample& policy, std::int64_t n,
                                  int& log_buckets, int& oversampling) {
  using tuning = randomized_sample_tuning<Key, Value>;
  log_buckets = randomized_sample_default_log_buckets<Key, Value>(n);
  if (policy.buckets != 0) {
    if (policy.buckets < 0 || (policy.buckets & (policy.buckets - 1)) != 0) return false;
    log_buckets = floor_log2(static_cast<unsigned>(policy.buckets));
    if (log_buckets < tuning::min_log_buckets || log_buckets > tuning::max_log_buckets) return false;
  }
  const int most = tuning::sample_size >> log_buckets;
  oversampling = policy.oversampling == 0 ? most : policy.oversampling;
  // With k tuned, k (and so the largest a) depends on n: an a that the default k for few
  // items allows, which check_policy accepts, is lowered where n takes a larger k, so that
  // the sort honours every policy the check and the size query accept.
  const int most_tuned = tuning::sample_size >> tuning::default_log_buckets;
  if (policy.buckets == 0 && oversampling > most && oversampling <= most_tuned) oversampling = most;
  return oversampling >= 1 && oversampling <= most;
}

template <>
struct algorithm<policy::randomized_sample> {
  static constexpr bool implemented = true;
  static constexpr bool stable = false;

  // buckets: 0 or a power of two in [256, 1024]; oversampling: 0 or 1 ... 4096/k (the
  // sample is one block's tile; with buckets = 0, k is the default for few items).
  template <class Key, class Value>
  static cudaError_t check_policy(const policy::randomized_sample& policy) {
    int log_buckets = 0, oversampling = 0;
    return randomized_sample_parameters<Key, Value>(policy, 0, log_buckets, oversampling)
               ? cudaSuccess
               : cudaErrorInvalidValue;
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::randomized_sample& policy, std::int64_t n) {
    int log_buckets = 0, oversampling = 0;
    randomized_sample_parameters<Key, Value>(policy, n, log_buckets, oversampling);
    return randomized_sample_layout<Key, Value>(log_buckets, n).layout.total;
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::randomized_sample& policy, void* temp, Key* keys,
                          Value* values, std::int64_t n, Compare cmp, cudaStream_t stream) {
    int log_buckets = 0, oversampling = 0;
    if (!randomized_sample_parameters<Key, Value>(policy, n, log_buckets, oversampling))
      return cudaErrorInvalidValue;
    return rs_dispatch_buckets<Key, Value>(log_buckets, [&](auto log_k) {
      return randomized_sample_sort<decltype(log_k)::value>(policy, oversampling, temp, keys,
                                                             values, n, cmp, stream);
    });
  }
};

}  // namespace detail
}  // namespace gpusort
