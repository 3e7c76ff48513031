// gpusort/detail/deterministic_sample_sort.cuh — policy::deterministic_sample: deterministic
// sample sort (Dehne & Zaboli, "Deterministic Sample Sort for GPUs", Algorithm 1).
//
// One level, on every segment of the array at once (level 1: the whole array):
//  1–3. Each block sorts one tile of its segment in shared memory (a full tile as warpsort's
//       step 1 sorts a run, detail::sort_warp_run; a short one, in a launch of one block per
//       segment, by block::bitonic_sort) and,
//       while the sorted tile is still in the write-back buffer, takes its s regular samples
//       (block::regular_sample_index) as (key, position) items into a fixed m×s sample table:
//       one 64-bit word each where the key has a 32-bit order word and n fits 31 bits
//       (detail::sample_codec); keys and positions in two arrays for wider integer keys
//       (deterministic_sample_pair_table); else a positioned_key.
//  4.   One sort of the whole table by policy::merge's kernels: words as keys alone whose
//       ties are identical, the cheapest networks; the two arrays as pairs, stable; else
//       positioned keys. Positions are array indices, so the samples of segment k all precede
//       those of segment k + 1: one sort serves every segment, and each segment's samples
//       come out contiguous. Measured against positioned keys: words (bench/RESULTS.md run
//       38, H100) u32 2^20 12 %, 2^28 5.3 %, u32:u32 2^28 7.6 % faster; pairs (run 51,
//       H200) u64 keys 3-6 % faster from 2^20 to 2^28 on every distribution measured.
//       Where the level's searches are few (tuning::merge_limits), the rows, each sorted
//       already, are merged instead: one block a row ranks its samples among its segment's
//       (block::merge_sorted_row) and the row goes to the sort's scratch, which must then be
//       in the idle buffer; or, where the segment's rows are many, among its group's rows,
//       and then each group's run is ranked among the other groups' by binary searches
//       (thread::items_before) and placed back in the table.
//  5–6. Each tile block reads its segment's s − 1 global splitters (every m-th sorted sample,
//       m = the segment's tile count), copies its sorted tile into shared memory where the
//       device grants the room (the paper's setting), and locates them in it by the halving
//       parallel binary search (block::locate_splitters).
//  7.   Step 6 writes each tile's bucket counts where the scan reads them (segment by
//       segment, bucket-major: detail::bucket_major_index), so one exclusive scan of a plain
//       array gives where each tile's part of each bucket goes.
//  8.   Coalesced relocation into the other buffer; the buckets become the next segments.
//  9.   Levels repeat until every segment fits one block (the bound is deterministic:
//       detail/deterministic_sample_plan.cuh), then device::sort_segments sorts them all.
// Ties are broken by position everywhere (detail::precedes), so buckets keep the 2n/s bound
// on all-equal and few-distinct input: those cost what uniform input costs.
//
// No host synchronisation and no device allocation: the host plans every level from n (grids
// for the worst case, blocks past their segment's real tiles exit) and all scratch comes from
// the temp storage. Not stable. Extra memory (temp_storage_bytes), R = the most tile rows a
// level launches (plan.max_rows), K = the most segments (plan.max_segments), P = 32-bit
// positions and offsets where n fits them, else 64-bit:
//   n·(sizeof(Key) + sizeof(Value))                      the relocation target
// + R·s·(4 + sizeof(P))                                  ranks + offsets
// + 8·R + 3·8·(K + 1) + CUB scan scratch                 row→segment map, segment arrays
// The sample table (R·s·sizeof(positioned_key<Key, P>), which a word's size equals) and
// policy::merge's scratch for its sort take no temp storage where they fit in the keys of
// the level's idle buffer (steps 1–6 leave it unused; with the default s they take a few per
// cent of it); else the table is
// carved from the temp storage too, and the sort's scratch shares the region of the ranks and
// offsets, which are written only after it. None of it when n fits one block: then only the
// bucket sort runs.
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/locate_splitters.cuh>
#include <gpusort/block/merge_sorted_rows.cuh>
#include <gpusort/block/regular_sample.cuh>
#include <gpusort/block/stage_to_shared.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/bucket_major_index.cuh>
#include <gpusort/detail/deterministic_sample_plan.cuh>
#include <gpusort/detail/deterministic_sample_table.cuh>
#include <gpusort/detail/merge_sort.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/positioned.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/detail/warp_runs.cuh>
#include <gpusort/device/sort_segments.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/thread/merge_path.cuh>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace gpusort {
namespace detail {

template <class Key, class Value>
struct deterministic_sample_tuning {
  using segment_tuning = segment_sort_tuning<Key, Value>;
  // Steps 1–2 sort tiles of the final bucket sort's largest shape, so that a level's tile
  // and a final bucket are one size and the plan needs one number: the huge class where the
  // type has one (16K 4-byte keys: with s = 256 a 2^28 sort takes two levels, not three)
  // and the device grants its shared memory, the large class otherwise.
  using tile_class = std::conditional_t<segment_tuning::has_huge, typename segment_tuning::huge_class,
                                        typename segment_tuning::large_class>;
  static constexpr int threads = tile_class::threads;
  static constexpr int items = tile_class::items;
  static constexpr int tile = threads * items;
  // Half the tile: for devices that grant less shared memory, and for inputs too small to
  // give every SM two tiles.
  static constexpr int half_threads = threads / 2;
  static constexpr int half_tile = half_threads * items;
  static constexpr int min_tiles_per_sm = 2;
  // Warps of a block that sorts a full tile (detail::sort_warp_run), each sorting an equal
  // part of it: 8 (two chunks each in a 16K tile) measured best; one warp per chunk (16) was
  // 4-5 % slower on u32 at 2^26-2^28, 4 warps equal to 8 on keys and 1-3 % slower on pairs
  // and 16-byte keys (bench/RESULTS.md run 31).
  static constexpr int tile_warps = 8;
  // Default s: the candidate with the least estimated time
  // (deterministic_sample_choose_samples): fewer levels against more samples, part-filled tiles
  // and final segments. Costs fitted per item size to time-vs-s sweeps, searched for the least
  // summed log of the picks' time over the fastest's. 4-byte keys to the H200's (runs 56 and
  // 58: u32, f32, u16 and u8 at 2^16 to 2^23, s = 16 to 1024, u32 on to 2^30): for u32 an s
  // within 2 % of the fastest from 2^19 to 2^29 (the narrower keys within 4 %, u8 at 2^23 6 %),
  // 3 % behind it at 2^30 (768 against 512), 2-10 % on sorted input from 2^25, and 4-16 %
  // slower at 2^16 to 2^18 (the latency below); against the previous costs (fitted to run 31's
  // H100 sweep) 3-16 % faster at 2^17 to 2^22 (but 1.7 % slower at 2^20), 11 % at 2^30, and
  // 2-6 % at 2^28 but on presorted input (sorted, reverse, organ pipe: 5.6 % slower). 5- to
  // 8-byte items to run 57's H200 sweep (u64 and u32:u32, 2^16 to 2^30, s = 16 to 1024; least
  // squares on the relative error from 2^22 up, then the search): the estimate picks an s
  // within 1 % of the fastest from 2^19 to 2^30, and 8-10 % slower at 2^16 to 2^18, where
  // fewer buckets than SMs make the bucket sort a block's latency (the costs fitted to run
  // 22, no bucket network priced: 6-9 % slower at 2^23 and 2^25, 4-31 % at 2^16 to 2^18, and
  // u16:u32 1.2-2.0 times its fastest; now 1.0-1.2). That latency is priced since run 63
  // (final_blocks_per_sm, searched on its H200 sweep of u32, u32:u32 and u64 at 2^16 to 2^25,
  // s = 32 to 1024, the other costs kept): the picks' time over the fastest's, in geometric
  // mean over the sweep, 1.038 -> 1.021 for u32 and 1.049 -> 1.037 for the 8-byte items; the
  // picks moved only below 2^19, where the sample rows are merged whatever s. Two blocks an SM
  // for 4-byte keys fitted the sweep a little better (1.018) but moved picks up to 2^21, some
  // across to sorting the samples: in an A/B between the sweep's sizes u32 up to 12 % slower.
  // Since run 66, 4-byte keys price step 4's two forms apart (merged_search_ns,
  // sorted_samples_level_ns; searched on its H200 sweep of u32 at 2^16 to 2^22, s = 32 to
  // 1024, with the splitters at three quarters of each group (deterministic_sample_splitter_
  // index), the other costs kept and the picks from 2^23 to 2^30 held): the picks' time over
  // the fastest's 1.033 -> 1.021 in geometric mean. The picks moved from 256 to 128 at
  // 2^18.5-2^18.75 and 2^19.5-2^19.75 (0.4-13 % faster in an A/B with the former splitters), from
  // 192 to 128 at 2^17.125-2^17.25 (3.7-5.6 % slower there in that A/B) and from 96 to 64 at
  // 2^23.5 (7.5 % faster). 8-byte items gained nothing from the two terms (1.039 -> 1.037 on
  // that run's first sweep) and leave them 0.
  // The costs the rest fall back to were fitted to run 22's 16-byte keys (2^24 and 2^26,
  // which run 31's sweep confirms with their doubled tiles), priced by their lexicographic
  // comparator, dearer per slot. Items of more than 8 bytes in 4K tiles (16-byte keys,
  // u64:u32, u64:u64, key16:u64) take run 58's H200 sweep and A/B instead (2^16 to 2^29, s =
  // 16 to 1024), searched for costs that change a pick only where the new s was measured
  // faster on that tile shape: 384 at 2^27 and 512 at 2^28 instead of 64 and 96, 9-15 %
  // faster (key16 at 2^27 57.5 -> 50.2 ms). The sweep's other gains (8-22 % below 2^19,
  // 14-16 % at 2^21-2^22) came with picks that lost elsewhere or were not measured, and a
  // neighbouring s can cost 2-14 times as much (key16 at 2^28 with s = 384). Items of more
  // than 8 bytes in 8K tiles (12-byte keys alone) take run 59's H200 sweep of key12 (2^16 to
  // 2^29, s = 16 to 1024; least summed log of the picks' time over the fastest's): an s within
  // 12 % of the fastest at every size, where the fallback's took 1.2-2.0 times its time (in
  // an A/B 6-48 % faster at 2^16 to 2^30 and on ten distributions at 2^24 and 2^27). Items of
  // 9 to 32 bytes in 2K tiles (16-byte keys with 16-byte values) take run 59's sweep of
  // key16:v16 (2^16 to 2^28, searched the same way, keeping the fallback's s at 2^29 and 2^30,
  // which were not swept): within 13 % of the fastest s at every size, the fallback's within
  // 15 %; in an A/B 1-11 % faster where the pick moved, 7-12 % on seven other distributions.
  // Items of more than 32 bytes and at most 64 that take 1K tiles (the bucket sort's wide
  // shapes, as 64-byte keys do) are priced as 64-byte keys: a level cuts a segment only by s/2,
  // and a plan whose last level overshoots leaves millions of near-empty buckets. Those costs
  // are fitted to run 43's sweep of 64-byte keys (2^22 to 2^26, 30 plans, each within 11 %; the
  // estimate picks the measured best s at all three sizes, where the 16-byte costs' 256 at 2^24
  // took 52.2 ms against 45.3 with s = 64). The rest keep the fallback: 64-byte keys with u64
  // values were fastest at 2^24 with their s = 256 (55.9 ms; the 64-byte costs' 64: 58.4), and
  // the narrower wide items that take 2K tiles (33 to 49 bytes) were not measured.
  static constexpr std::size_t item_bytes = item_bytes_of<Key, Value>;
  static constexpr bool priced_as_64_byte_keys =
      item_bytes > segment_tuning::wide_item_bytes && item_bytes <= 64 && tile == 1024;
  static constexpr bool priced_as_4k_tiles = item_bytes > 8 && tile == 4096;
  static constexpr bool priced_as_8k_tiles = item_bytes > 8 && tile == 8192;
  static constexpr bool priced_as_2k_tiles = item_bytes > 8 && item_bytes <= 32 && tile == 2048;
  static constexpr deterministic_sample_costs costs =
      item_bytes <= 4          ? deterministic_sample_costs{0.0072, 0.0146, 0.125, 6.6, 128000, 0.00031, 1, 0.002, 20000}
      : item_bytes <= 8        ? deterministic_sample_costs{0.023, 0.0046, 0.24, 5.2, 63000, 0.00066, 1, 0, 0}
      : priced_as_64_byte_keys ? deterministic_sample_costs{0.47, 0.0, 1.88, 19.2, 371000, 0.020, 0, 0, 0}
      : priced_as_4k_tiles     ? deterministic_sample_costs{0.025, 0.0046, 0.2, 5.4, 84000, 0.00015, 0, 0, 0}
      : priced_as_8k_tiles     ? deterministic_sample_costs{0.15, 0.0, 0.64, 5.2, 180000, 0.0066, 0, 0, 0}
      : priced_as_2k_tiles     ? deterministic_sample_costs{0.1, 0.0, 0.6, 5.6, 260000, 0.0063, 0, 0, 0}
                               : deterministic_sample_costs{0.082, 0.0, 0.78, 10.5, 304000, 0, 0, 0, 0};
  static constexpr int min_default_samples = 16;
  // Fewer than 4 samples need not shrink a segment of just over one tile.
  static constexpr int min_samples = 4;
  // A tile's splitters and table row live in shared memory.
  static constexpr int max_samples = 1024;
  // Past L2, step 6 stages its tile (deterministic_sample_locate_kernel) from this many
  // samples on: there the searches read most of the tile anyway (u64 at 2^26, s = 192: 446
  // of 512 MB a level, H100, bench/RESULTS.md run 103), so the copy costs about what it
  // saves on uniform input and makes the step cost the same on sorted input. With s = 96
  // (2^24) uniform sorts were up to 2 % slower staged (run 104).
  static constexpr int staged_locate_min_samples = 192;
  // Step 4 merges a segment's sorted sample rows (deterministic_sample_merges_rows) by one
  // block a row where the row's searches (its segment's tiles times s) are at most
  // merge_limits.row_searches; else, where the level's (rows times a row's) are at most
  // merge_limits.level_searches, by one block a row that merges it within its group of rows
  // (at most merged_row_group_searches), then a launch that ranks the groups' runs among each
  // other and places them (run 69, the groups: before it, blocks ranked each row among every
  // part of its segment, and the ranks were summed).
  // The merge does tiles times more comparisons than the sort, which it beats by being one
  // launch or three against the sort's chain (H200, bench/RESULTS.md runs 61 and 62): one
  // block a row took the first level of 2^16-2^18 and the second of 2^23-2^25 (1.3-16.5 %
  // faster); parts took the first of 2^18-2^20 (0.8-3.1M searches, 4-21 % faster). One
  // block a row of 12288-24576 searches took 1.2-2.1x the sort's time. Parts of 4.2M
  // searches (u32 at 2^20, s = 256) took 46 µs, the sort of s = 192's samples 44; of 16.8M
  // (s = 256: u32 at 2^21, u32:u32 and u64 at 2^20) 157-281 µs, the sort of s = 384's 66-89;
  // of 35M (the second level of 2^25-2^26) they made whole sorts 2-11 % slower.
  static constexpr deterministic_sample_merge_limits merge_limits{std::int64_t(1) << 13,
                                                                  std::int64_t(3) << 20};
  static constexpr std::int64_t merged_row_group_searches = std::int64_t(1) << 12;
  static constexpr std::size_t merge_rows_shared = 96 * 1024;
  static constexpr int merge_rows_threads = 512;
  // A block a row, a thread a search of another group's run (u32 at 2^20: 6 · 192 of them).
  static constexpr int merge_groups_threads = 512;
  static constexpr int locate_threads = 128;
  // Pairs of up to 8 bytes relocate in blocks of 1024 threads with 8 items each: one block an
  // SM, 8K items a sweep. On uniform input each tile scatters its keys and its values over s
  // runs apiece; the fewer tiles an SM writes at once, the faster (H100, bench/RESULTS.md run
  // 109: u32:u32 at 2^26 0.62 ms with three blocks of 256 an SM, 0.67 with four, 0.72 with six,
  // 0.53 with this one; whole sorts at 2^28 3 % faster). Sorted input, a run or two a tile, goes
  // the other way (0.43 -> 0.49 ms), which brings it nearer to the others. u64 keys, one
  // stream of 8-byte items, sorted 1-3 % slower this way below 2^28 and keep the keys' shape.
  static constexpr bool relocate_wide_blocks = has_values<Value> && item_bytes > 4 && item_bytes <= 8;
  static constexpr int relocate_threads = relocate_wide_blocks ? 1024 : 256;
  // Items a relocating thread holds in registers at once: 16 (up to 256 bytes) measured
  // best (bench/RESULTS.md run 30: 4.3 % off u32 at 2^28 against one at a time).
  static constexpr int relocate_items =
      relocate_wide_blocks ? 8
      : item_bytes > 256   ? 1
      : item_bytes > 16    ? static_cast<int>(256 / item_bytes)
                           : 16;
  // A relocating thread's bucket searches step together (deterministic_sample_buckets_of)
  // for keys of up to 4 bytes and the pairs above; one after another for the rest (H100,
  // bench/RESULTS.md run 110: step 8 on uniform 2^26 u32 0.305 -> 0.277 ms, u32:u32 0.533
  // -> 0.515, whole sorts of u32 at 2^24 3 % faster; u64 keys' whole sorts took 0.6-0.8 %
  // longer at 2^26-2^28 with theirs together, run 109).
  static constexpr bool relocate_searches_together = item_bytes <= 4 || relocate_wide_blocks;
  static constexpr int helper_threads = 256;
};

// A full tile is sorted the way warpsort's step 1 sorts a run (detail::sort_warp_run: each
// warp sorts 32 items a lane in registers, without barriers, then the block merges the
// warps' runs in shared memory); a short one, the last of its segment, by the ragged block
// bitonic sort, in a launch of its own, so that the full tiles' blocks hold only the warps'
// buffer. The warps' shape needs the tile's items a thread to be whole chunks; where they
// are not, the block sort takes every tile.
template <class Key, class Value, int THREADS, int ITEMS>
struct deterministic_sample_tile_shape {
  using runs = warp_run_tuning<Key, Value>;
  using warp_storage = warp_run_storage<Key, Value, runs::sort_items, THREADS * ITEMS>;
  using block_storage = block::sort_tile_storage<Key, Value, THREADS, ITEMS,
                                                 block::ragged_bitonic_sort_storage<Key, Value, THREADS, ITEMS>>;
  static constexpr int tile = THREADS * ITEMS;
  static constexpr bool by_warps = ITEMS % runs::sort_items == 0;
  static constexpr int warps = deterministic_sample_tuning<Key, Value>::tile_warps < THREADS / 32
                                  ? deterministic_sample_tuning<Key, Value>::tile_warps
                                  : THREADS / 32;
  static constexpr int warp_threads = 32 * warps;
  static constexpr int warp_run = tile / warps;
  static constexpr std::size_t bytes =
      by_warps && sizeof(warp_storage) > sizeof(block_storage) ? sizeof(warp_storage)
                                                                 : sizeof(block_storage);
};

template <class Key, class Value, bool HALF>
constexpr std::size_t deterministic_sample_tile_bytes() {
  using tuning = deterministic_sample_tuning<Key, Value>;
  return deterministic_sample_tile_shape<Key, Value, HALF ? tuning::half_threads : tuning::threads,
                                         tuning::items>::bytes;
}

// Shared memory of the locate kernel: s − 1 splitter positions, then keys.
template <class Key>
constexpr std::size_t deterministic_sample_locate_bytes(int samples) {
  const std::size_t splitters = samples > 1 ? static_cast<std::size_t>(samples - 1) : 0;
  return (splitters * sizeof(std::int64_t) + 15) / 16 * 16 + splitters * sizeof(Key);
}

// The same with the sorted tile staged after the splitters (deterministic_sample_locate_kernel).
template <class Key>
constexpr std::size_t deterministic_sample_staged_locate_bytes(int samples, int tile_items) {
  return (deterministic_sample_locate_bytes<Key>(samples) + 15) / 16 * 16 +
         block::staged_bytes<Key>(tile_items);
}

// The largest s, up to `limit`, whose splitters the locate kernel holds without opting in
// to more shared memory: what check() accepts from a caller, and so the most the tuned s
// may take (keys of 48 bytes and more would otherwise get s = 1024 and fail to launch).
template <class Key>
constexpr int deterministic_sample_max_located_samples(int limit) {
  int s = limit;
  while (s > 1 && deterministic_sample_locate_bytes<Key>(s) > static_shared_limit) --s;
  return s;
}

// Steps a benchmark may stop after (the paper's Fig. 5 breakdown): every step up to and
// including the named one runs on the first level; bucket_sort is the whole sort (all further
// levels and step 9). Library callers always run bucket_sort.
enum class deterministic_sample_stop_after {
  local_sort,       // steps 1–3: tile sort with the samples taken at the write-back
  sample_sort,      // step 4
  sample_indexing,  // steps 5–6
  prefix_sum,       // step 7
  relocation,       // step 8 (data now in the scratch copy)
  bucket_sort,      // step 9: further levels and the bucket sort
};

// The tile a block of a level sorts: row `row` of the level's table.
struct deterministic_sample_tile {
  bool exists;
  std::int64_t segment;
  std::int64_t offset;  // first item, an index into the level's array
  int valid;            // items in the tile
};

// The segment whose tiles include row `row` of a level's table, or −1 for a row launched
// for the worst case that holds no tile. tile_starts: K + 1 entries, the exclusive scan of
// the segments' tile counts. Found once per row and level (a binary search over K + 1
// entries), so that the three kernels of the level read it instead of searching.
__host__ __device__ inline std::int64_t deterministic_sample_segment_of(std::int64_t row,
                                                                        const std::int64_t* tile_starts,
                                                                        std::int64_t segments) {
  if (row >= tile_starts[segments]) return -1;
  // The last segment whose first tile is at or before `row` (empty segments share it).
  std::int64_t lo = 0, hi = segments;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (tile_starts[mid] <= row) lo = mid; else hi = mid;
  }
  return lo;
}

// The tile of row `row`, which belongs to `segment` (−1: none). segment_offsets: K + 1
// entries, segment k is [offsets[k], offsets[k + 1]).
__host__ __device__ inline deterministic_sample_tile deterministic_sample_tile_at(
    std::int64_t row, std::int64_t segment, const std::int64_t* segment_offsets,
    const std::int64_t* tile_starts, std::int64_t tile_items) {
  if (segment < 0) return {false, 0, 0, 0};
  const std::int64_t offset = segment_offsets[segment] + (row - tile_starts[segment]) * tile_items;
  const std::int64_t left = segment_offsets[segment + 1] - offset;
  return {true, segment, offset, static_cast<int>(left < tile_items ? left : tile_items)};
}

__host__ __device__ inline deterministic_sample_tile find_deterministic_sample_tile(
    std::int64_t row, const std::int64_t* segment_offsets, const std::int64_t* tile_starts,
    std::int64_t segments, std::int64_t tile_items) {
  return deterministic_sample_tile_at(row, deterministic_sample_segment_of(row, tile_starts, segments),
                                      segment_offsets, tile_starts, tile_items);
}

// Tiles of segment k (0 for k == K, so that the exclusive scan's last entry is the total).
struct deterministic_sample_segment_tiles {
  const std::int64_t* segment_offsets;
  std::int64_t segments;
  std::int64_t tile_items;
  __host__ __device__ std::int64_t operator()(std::int64_t k) const {
    return k < segments ? ceil_div(segment_offsets[k + 1] - segment_offsets[k], tile_items) : 0;
  }
};

// Entry (tile, bucket) of the m×s count table from the tile's splitter ranks.
struct deterministic_sample_rank_counts {
  const int* ranks;
  int samples;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const {
    return ranks[r] - (r % samples == 0 ? 0 : ranks[r - 1]);
  }
};

// Step 5: global splitter b (0 <= b < s − 1) of a segment of m tiles is its sample
// b·m + floor(3m/4), counted from the segment's first sample in the sorted table. Every
// spacing of m samples evens out the middle buckets; the offset sets the first and last.
// Where the tiles' key ranges overlap (random keys), the m samples that close each tile's
// (b + 1)-th group straddle the key that closes the segment's, and their median would split
// best; where they do not (sorted, reverse, equal keys), the last of them would. The
// (b + 1)·m-th sample, the least of the next group's, made the first bucket of uniform u32
// keys 1.6-1.7 times the mean (2^18 in 8K tiles, s = 64-192, simulated; H200, 2^20 with
// s = 192: 8408 items against a mean of 5461, the one bucket over 8K, which took the bucket
// sort's 16K class alone); the median made the last bucket of ordered keys 1.47 times the
// mean; three quarters of the group leaves both at most 1.22 times (bench/RESULTS.md run 66).
// The bound holds for any offset o < m: a tile with c samples at most splitter x has at most
// (c + 1)·ceil(T/s) items at most x, so the first bucket holds at most (o + 1 + m)·ceil(T/s)
// and the last (2m − o − 1)·ceil(T/s), both <= 2m·ceil(T/s).
__host__ __device__ inline std::int64_t deterministic_sample_splitter_index(int b, std::int64_t m) {
  return b * m + 3 * m / 4;
}

// The bucket of tile item i: the first b with ranks[b] > i (ranks[s − 1] = the tile's size).
__host__ __device__ inline int deterministic_sample_bucket_of(int i, const int* row_ranks,
                                                              int samples) {
  int lo = 0, hi = samples - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (row_ranks[mid] <= i) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// The buckets of ITEMS tile items at once, item r being first + r·stride, each as
// deterministic_sample_bucket_of finds it, by binary lifting: how many of ranks[0..s−2] are
// <= i. The searches take their steps together and without branches, so each step has ITEMS
// independent shared-memory reads in flight where one search after another is a chain of
// dependent reads. Where it pays is measured (relocate_searches_together).
template <int ITEMS>
__host__ __device__ inline void deterministic_sample_buckets_of(int first, int stride, const int* row_ranks,
                                                                int samples, int (&buckets)[ITEMS]) {
  int top_step = 1;
  while (top_step * 2 <= samples - 1) top_step *= 2;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) buckets[r] = 0;
  for (int step = top_step; step > 0; step /= 2) {
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int probe = buckets[r] + step;
      if (probe <= samples - 1 && row_ranks[probe - 1] <= first + r * stride) buckets[r] = probe;
    }
  }
}

// Entry i of the next level's segment offsets: where bucket i % s of segment i / s starts
// (the offset of its first tile's part, in the scanned table of bucket_major_index order; a
// segment without tiles: where it starts), and n at i = K·s.
template <class Offset>
__host__ __device__ inline std::int64_t deterministic_sample_next_segment(
    std::int64_t i, const std::int64_t* segment_offsets, const std::int64_t* tile_starts,
    std::int64_t segments, int samples, const Offset* offset_table, std::int64_t n) {
  if (i == segments * samples) return n;
  const std::int64_t k = i / samples;
  const std::int64_t first_tile = tile_starts[k];
  const std::int64_t m = tile_starts[k + 1] - first_tile;
  return m > 0 ? offset_table[bucket_major_index(first_tile, m, first_tile,
                                                 static_cast<int>(i % samples), samples)]
               : segment_offsets[k];
}

// ---- kernels (thin: the block building blocks do the work) --------------------------------

// The first level's one segment [0, n) and its `rows` tiles, all of segment 0: what the tile
// scan and the rows kernel compute for a later level, written in one launch, since at small n
// the sort is bound by its launches (bench/RESULTS.md run 59).
static __global__ void deterministic_sample_first_level_kernel(std::int64_t* segment_offsets,
                                                               std::int64_t* tile_starts,
                                                               std::int64_t* row_segments,
                                                               std::int64_t n, std::int64_t rows) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row == 0) {
    segment_offsets[0] = 0;
    segment_offsets[1] = n;
    if (rows > 0) {
      tile_starts[0] = 0;
      tile_starts[1] = rows;
    }
  }
  if (row < rows) row_segments[row] = 0;
}

static __global__ void deterministic_sample_rows_kernel(const std::int64_t* tile_starts,
                                                 std::int64_t segments, std::int64_t rows,
                                                 std::int64_t* row_segments) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < rows) row_segments[row] = deterministic_sample_segment_of(row, tile_starts, segments);
}

// Table rows launched for the worst case, without a tile: their samples sort after every
// real one.
template <int THREADS, class Table, class Key>
__device__ __forceinline__ void deterministic_sample_absent_row(const Table& table, std::int64_t first,
                                                                int samples, const Key& any_key) {
  for (int j = threadIdx.x; j < samples; j += THREADS) table.put_absent(first + j, any_key);
}

// Step 3: the tile's s regular samples (block::regular_sample_index) into the table's
// entries from `first`.
template <int THREADS, class Table, class SortedTile>
__device__ __forceinline__ void deterministic_sample_take(SortedTile& sorted_tile, int valid_items,
                                                          int samples, std::int64_t tile_offset,
                                                          const Table& table, std::int64_t first) {
  regular_sample_each<THREADS>(sorted_tile, valid_items, samples, tile_offset,
                               [=](int j, const auto& key, std::int64_t position) {
                                 table.put(first + j, key, position);
                               });
}

// Steps 1–3 for the full tiles, one a block (rows without a tile fill their samples; a
// short tile is left to the block kernel). Step 3 is fused with the write-back: the sorted
// tile is still in the merge's buffer.
template <int THREADS, int ITEMS, class Table, class Key, class Value, class Compare>
__global__ void __launch_bounds__(deterministic_sample_tile_shape<Key, Value, THREADS, ITEMS>::warp_threads)
    deterministic_sample_warp_tiles_kernel(Key* keys, Value* values, const std::int64_t* segment_offsets,
                                           const std::int64_t* tile_starts,
                                           const std::int64_t* row_segments, int samples,
                                           Table sample_table, Compare cmp) {
  using shape = deterministic_sample_tile_shape<Key, Value, THREADS, ITEMS>;
  constexpr int tile = shape::tile;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& shared = *reinterpret_cast<typename shape::warp_storage*>(shared_bytes);
  const std::int64_t row = blockIdx.x;
  const std::int64_t row_first = row * samples;
  const deterministic_sample_tile t =
      deterministic_sample_tile_at(row, row_segments[row], segment_offsets, tile_starts, tile);
  if (!t.exists)
    return deterministic_sample_absent_row<shape::warp_threads>(sample_table, row_first, samples, keys[0]);
  if (t.valid < tile) return;
  Value* tile_values = has_values<Value> ? values + t.offset : values;
  sort_warp_run<shape::runs::sort_items, shape::warp_run, shape::warps, run_fill::full,
                plain_items<Key>>(keys + t.offset, tile_values, keys + t.offset, tile_values, tile,
                                  keys[t.offset], cmp, shared);
  deterministic_sample_take<shape::warp_threads>(shared.keys, tile, samples, t.offset, sample_table,
                                                 row_first);
}

// Steps 1–3 by the ragged block bitonic sort. EVERY_ROW: block r takes row r, whatever its
// tile (types whose tiles the warps cannot sort); otherwise block k takes the last tile of
// segment k where it is short.
template <int THREADS, int ITEMS, bool EVERY_ROW, class Table, class Key, class Value,
          class Compare>
__global__ void __launch_bounds__(THREADS)
    deterministic_sample_block_tiles_kernel(Key* keys, Value* values, const std::int64_t* segment_offsets,
                                            const std::int64_t* tile_starts,
                                            const std::int64_t* row_segments, int samples,
                                            Table sample_table, Compare cmp) {
  using shape = deterministic_sample_tile_shape<Key, Value, THREADS, ITEMS>;
  constexpr int tile = shape::tile;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto& io = *reinterpret_cast<typename shape::block_storage*>(shared_bytes);
  std::int64_t row = blockIdx.x, segment = -1;
  if constexpr (EVERY_ROW) {
    segment = row_segments[row];
  } else {
    segment = blockIdx.x;
    row = tile_starts[segment + 1] - 1;
    if (row < tile_starts[segment]) return;  // a segment without tiles
  }
  const std::int64_t row_first = row * samples;
  const deterministic_sample_tile t =
      deterministic_sample_tile_at(row, segment, segment_offsets, tile_starts, tile);
  if (!t.exists) return deterministic_sample_absent_row<THREADS>(sample_table, row_first, samples, keys[0]);
  if (!EVERY_ROW && t.valid == tile) return;
  Value* tile_values = has_values<Value> ? values + t.offset : values;
  Key held_keys[ITEMS];
  Value held_values[ITEMS];
  block::load_blocked<THREADS>(keys + t.offset, held_keys, t.valid, io.keys);
  block::load_blocked<THREADS>(tile_values, held_values, t.valid, io.values);
  block::bitonic_sort<THREADS>(held_keys, held_values, t.valid, cmp, io.network);
  block::store_blocked<THREADS>(keys + t.offset, held_keys, t.valid, io.keys);
  // The sorted tile is still in the store's buffer.
  deterministic_sample_take<THREADS>(io.keys, t.valid, samples, t.offset, sample_table, row_first);
  __syncthreads();  // the values' store reuses that buffer
  block::store_blocked<THREADS>(tile_values, held_values, t.valid, io.values);
}

// Step 4 by merging: row r's samples go to their places among its group's rows, in `merged`
// (block::merge_sorted_row), the block staging staged_rows rows at a time. A group is
// group_rows consecutive rows of a segment (its last may be shorter), or the whole segment
// where group_rows is not less than its rows; several groups of a segment are then ranked
// among each other (deterministic_sample_merge_groups_kernel). Rows launched for the worst case
// without a tile are not read back (step 6 skips them).
template <int THREADS, class Table, class Compare>
__global__ void __launch_bounds__(THREADS)
    deterministic_sample_merge_rows_kernel(Table samples, Table merged, const std::int64_t* tile_starts,
                                           const std::int64_t* row_segments, int samples_per_row,
                                           int group_rows, int staged_rows, Compare cmp) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  using entry = typename Table::entry;
  const std::int64_t row = blockIdx.x;
  const std::int64_t segment = row_segments[row];
  if (segment < 0) return;
  const std::int64_t first_row = tile_starts[segment], end_row = tile_starts[segment + 1];
  const std::int64_t group_first = first_row + (row - first_row) / group_rows * group_rows;
  const std::int64_t group_end = group_first + group_rows < end_row ? group_first + group_rows : end_row;
  block::merge_sorted_row<THREADS, entry>(samples, merged, row, group_first, group_end, samples_per_row,
                                          staged_rows, shared_bytes, Table::order(cmp));
}

// Step 4's merge of a segment's groups, after each group's rows are merged (its run at
// grouped[g_first · s, g_end · s), row r's share of it at [r · s, r · s + s)): block r finds
// each entry of row r's share its place in the segment, its place in its own group's run plus
// how many entries of every other group's run precede it (a binary search each, ties to the
// lower group as within a group to the lower row: the whole segment's order is then the rows'
// merge), and writes it there. Each entry searches once per other group instead of its row
// merging with every row of the segment (u32 at 2^20: 128 rows of 192 in 7 groups, 128 · 6 ·
// 192 searches of 12 steps, where the rows' merges made 128 · 128 · 384 steps). The block sums
// in shared memory, so one launch ranks and places (run 69 summed in a zeroed global table and
// placed in a launch of its own).
template <int THREADS, class Table, class Compare>
__global__ void __launch_bounds__(THREADS)
    deterministic_sample_merge_groups_kernel(Table grouped, Table merged, const std::int64_t* tile_starts,
                                             const std::int64_t* row_segments, int samples_per_row,
                                             int group_rows, Compare cmp) {
  extern __shared__ int segment_ranks[];  // samples_per_row of them
  const std::int64_t row = blockIdx.x;
  const std::int64_t segment = row_segments[row];
  if (segment < 0) return;
  // Within the segment, counts are ints as its ranks are: 32-bit arithmetic and divisions, which
  // in 64 bits were a good part of the kernel's instructions.
  const std::int64_t first_row = tile_starts[segment];
  const int rows = static_cast<int>(tile_starts[segment + 1] - first_row);
  const int own_row = static_cast<int>(row - first_row);
  const int own = own_row / group_rows;
  for (int j = threadIdx.x; j < samples_per_row; j += THREADS)
    segment_ranks[j] = (own_row - own * group_rows) * samples_per_row + j;
  __syncthreads();
  // A search of group g's run for entry j: task g · s + j, so a warp's lanes search one run.
  const int groups = static_cast<int>(ceil_div(rows, group_rows));
  for (int task = threadIdx.x; task < groups * samples_per_row; task += THREADS) {
    const int other = task / samples_per_row;
    if (other == own) continue;
    const int j = task - other * samples_per_row;
    const int other_first = other * group_rows;
    const int other_rows = min(group_rows, rows - other_first);
    const Table run = grouped.from((first_row + other_first) * samples_per_row);
    atomicAdd(&segment_ranks[j], thread::items_before(run, other_rows * samples_per_row,
                                                      grouped.at(row * samples_per_row + j), other < own,
                                                      Table::order(cmp)));
  }
  __syncthreads();
  for (int j = threadIdx.x; j < samples_per_row; j += THREADS)
    merged.set(first_row * samples_per_row + segment_ranks[j], grouped.at(row * samples_per_row + j));
}

// Steps 5–6. ranks row r: ranks[b] (b < s − 1) items of the tile precede splitter b;
// ranks[s − 1] = the tile's size; and the tile's count of each bucket goes to the count
// table, in the order step 7 scans it (bucket_major_index). Rows without a tile get zeros.
// STAGED: the sorted tile is copied to shared memory first (its dynamic shared memory
// sized by deterministic_sample_staged_locate_bytes), as the paper searches it: the halving
// search's levels follow one another, each a chain of dependent reads, which from global
// memory made the step latency-bound. A template parameter, not a run-time flag: the copy's
// code took the kernel from 32 to 40 registers for 8-byte keys, and the unstaged searches,
// which want every block an SM holds, then ran at 12 blocks an SM instead of 16 (u64 sorts
// at 2^24 3 % slower, H100, bench/RESULTS.md run 105).
template <int THREADS, bool STAGED, class Table, class Key, class Offset, class Compare>
__global__ void __launch_bounds__(THREADS)
    deterministic_sample_locate_kernel(const Key* keys, const std::int64_t* segment_offsets,
                                       const std::int64_t* tile_starts,
                                       const std::int64_t* row_segments, int tile_items, int samples,
                                       Table sorted_samples, int* rank_table,
                                       Offset* count_table, Compare cmp) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const int splitters = samples - 1;
  auto* splitter_positions = reinterpret_cast<std::int64_t*>(shared_bytes);
  auto* splitter_keys = reinterpret_cast<Key*>(
      shared_bytes + (splitters * sizeof(std::int64_t) + 15) / 16 * 16);
  const std::int64_t row = blockIdx.x;
  int* ranks = rank_table + row * samples;
  const deterministic_sample_tile t =
      deterministic_sample_tile_at(row, row_segments[row], segment_offsets, tile_starts, tile_items);
  if (!t.exists) {  // past every segment: its own row-major entries (bucket_major_index)
    for (int b = threadIdx.x; b < samples; b += THREADS) {
      ranks[b] = 0;
      count_table[row * samples + b] = 0;
    }
    return;
  }
  // Step 5: the segment's m·s samples are contiguous in the sorted table; its global
  // splitters are every m-th of them.
  const std::int64_t first_tile = tile_starts[t.segment];
  const std::int64_t m = tile_starts[t.segment + 1] - first_tile;
  for (int b = threadIdx.x; b < splitters; b += THREADS) {
    const std::int64_t g = first_tile * samples + deterministic_sample_splitter_index(b, m);
    splitter_keys[b] = sorted_samples.key(g);
    splitter_positions[b] = sorted_samples.position(g);
  }
  const Key* sorted_tile = keys + t.offset;
  if constexpr (STAGED) {
    unsigned char* staged_tile =
        shared_bytes + (deterministic_sample_locate_bytes<Key>(samples) + 15) / 16 * 16;
    sorted_tile = block::stage_to_shared<THREADS>(staged_tile, sorted_tile, t.valid);
  }
  __syncthreads();
  block::locate_splitters<THREADS>(sorted_tile, t.valid, t.offset, splitter_keys,
                                   splitter_positions, splitters, ranks, cmp);
  if (threadIdx.x == 0) ranks[splitters] = t.valid;
  __syncthreads();  // the row's ranks, written by the whole block, make its counts
  const deterministic_sample_rank_counts counts{rank_table, samples};
  for (int b = threadIdx.x; b < samples; b += THREADS)
    count_table[bucket_major_index(first_tile, m, row, b, samples)] =
        static_cast<Offset>(counts(row * samples + b));
}

// Step 8: item i of the tile, in bucket b, goes to its offset of b + (i − start of b in the
// tile); the offset table is in the scan's order (bucket_major_index). The grid also writes
// the buckets as the next level's segments: next[k·s + b] = where bucket b of segment k
// starts, next[K·s] = n (a launch of their own took 2.6-2.9 µs a level, H200, run 64).
// Reads coalesced; writes coalesced within each bucket's run.
template <int THREADS, int ITEMS, bool SEARCHES_TOGETHER, class Key, class Value, class Offset>
__global__ void __launch_bounds__(THREADS)
    deterministic_sample_relocate_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                                         Value* values_out, const std::int64_t* segment_offsets,
                                         const std::int64_t* tile_starts,
                                         const std::int64_t* row_segments, int tile_items,
                                         int samples, const int* rank_table,
                                         const Offset* offset_table, std::int64_t segments,
                                         std::int64_t* next_segments, std::int64_t n) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto* row_offsets = reinterpret_cast<std::int64_t*>(shared_bytes);
  auto* row_ranks = reinterpret_cast<int*>(shared_bytes + samples * sizeof(std::int64_t));
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * THREADS + threadIdx.x;
       i <= segments * samples; i += static_cast<std::int64_t>(gridDim.x) * THREADS)
    next_segments[i] = deterministic_sample_next_segment(i, segment_offsets, tile_starts, segments,
                                                         samples, offset_table, n);
  const std::int64_t row = blockIdx.x;
  const deterministic_sample_tile t =
      deterministic_sample_tile_at(row, row_segments[row], segment_offsets, tile_starts, tile_items);
  if (!t.exists) return;
  const std::int64_t first_tile = tile_starts[t.segment];
  const std::int64_t m = tile_starts[t.segment + 1] - first_tile;
  for (int b = threadIdx.x; b < samples; b += THREADS) {
    row_offsets[b] = offset_table[bucket_major_index(first_tile, m, row, b, samples)];
    row_ranks[b] = rank_table[row * samples + b];
  }
  __syncthreads();
  // A thread loads ITEMS items before it stores any: moved one at a time, each store
  // waited for its load (the buffers may alias as far as the compiler knows).
  for (int first = 0; first < t.valid; first += THREADS * ITEMS) {
    Key keys[ITEMS];
    Value values[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = first + r * THREADS + threadIdx.x;
      if (i < t.valid) {
        keys[r] = keys_in[t.offset + i];
        if constexpr (has_values<Value>) values[r] = values_in[t.offset + i];
      }
    }
    int buckets[ITEMS];
    if constexpr (SEARCHES_TOGETHER)
      deterministic_sample_buckets_of(first + static_cast<int>(threadIdx.x), THREADS, row_ranks, samples,
                                      buckets);
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const int i = first + r * THREADS + threadIdx.x;
      if (i < t.valid) {
        const int b = SEARCHES_TOGETHER ? buckets[r] : deterministic_sample_bucket_of(i, row_ranks, samples);
        const int start = b > 0 ? row_ranks[b - 1] : 0;
        const std::int64_t to = row_offsets[b] + (i - start);
        keys_out[to] = keys[r];
        if constexpr (has_values<Value>) values_out[to] = values[r];
      }
    }
  }
}

// ---- the plan: shape, levels and temp layout ------------------------------------------------

template <class Key, class Value>
struct deterministic_sample_setup {
  using tuning = deterministic_sample_tuning<Key, Value>;
  // A sample's position takes 32 bits where that makes the sample smaller (keys of up to 4
  // bytes: 8 bytes instead of 16, and step 4 sorts half the bytes) and n fits them.
  // Keys with an order word take their sample as one 64-bit word (sample_codec), the size of
  // the narrow positioned_key, so the sizes below hold for every comparator.
  using wide_sample = positioned_key<Key>;
  using narrow_position =
      std::conditional_t<(sizeof(positioned_key<Key, std::int32_t>) < sizeof(wide_sample)), std::int32_t,
                         std::int64_t>;
  using narrow_sample = positioned_key<Key, narrow_position>;
  template <class Compare>
  using narrow_codec = sample_codec<Key, Compare, narrow_position>;
  using tile_count_iterator =
      thrust::transform_iterator<deterministic_sample_segment_tiles,
                                 thrust::counting_iterator<std::int64_t>>;

  // Temp arrays.
  enum { scratch_keys, scratch_values, segments_a, segments_b, tile_starts, row_segments,
         samples_table, tables, scan_temp, arrays };

  bool half = false;
  bool narrow = false;  // the samples are narrow_sample, the offset table 32-bit
  // Steps 1–6 leave the other buffer of the level's ping-pong idle (the tile sort works in
  // place; step 8 is the first to write there): where the sample table and its sort's
  // scratch fit in its keys, they live there, and the temp storage holds neither.
  bool samples_in_other = false;
  bool locate_staged = false;  // step 6 searches the tile in shared memory (see make())
  int tile_items = 0;
  int samples = 0;
  deterministic_sample_plan plan{0, 1, 1, 1};
  std::size_t sample_table_bytes = 0;  // then the sample sort's scratch, in one region
  std::size_t rank_bytes = 0;          // ranks first in the `tables` region, offsets after
  std::size_t scan_bytes = 0;
  temp_layout<arrays> layout{{}};

  // Policy fields alone (no device): 0 or a supported value each.
  static cudaError_t check(const policy::deterministic_sample& policy) {
    const int tile = policy.tile_items;
    const int s = policy.samples_per_tile;
    if (tile != 0 && tile != tuning::tile && tile != tuning::half_tile) return cudaErrorInvalidValue;
    if (s == 0) return cudaSuccess;
    const int smallest_tile = tile != 0 ? tile : tuning::half_tile;
    if (s < tuning::min_samples || s > tuning::max_samples || s > smallest_tile)
      return cudaErrorInvalidValue;
    if (deterministic_sample_locate_bytes<Key>(s) > static_shared_limit) return cudaErrorInvalidValue;
    return cudaSuccess;
  }

  // Everything the size query and the sort must agree on. The tile is read off the device:
  // the full tile where its shared memory is granted and the input gives every SM two of
  // them, half of it otherwise.
  static cudaError_t make(const policy::deterministic_sample& policy, std::int64_t n,
                          deterministic_sample_setup& setup) {
    if (cudaError_t e = check(policy)) return e;
    int device = 0, shared_optin = 0, sms = 0;
    if (cudaError_t e = cudaGetDevice(&device)) return e;
    if (cudaError_t e = cudaDeviceGetAttribute(&shared_optin,
                                               cudaDevAttrMaxSharedMemoryPerBlockOptin, device))
      return e;
    if (cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device))
      return e;
    const bool full_fits =
        deterministic_sample_tile_bytes<Key, Value, false>() <= static_cast<std::size_t>(shared_optin);
    const bool half_fits =
        deterministic_sample_tile_bytes<Key, Value, true>() <= static_cast<std::size_t>(shared_optin);
    if (policy.tile_items == tuning::tile) {
      if (!full_fits) return cudaErrorInvalidValue;
      setup.half = false;
    } else if (policy.tile_items == tuning::half_tile) {
      if (!half_fits) return cudaErrorInvalidValue;
      setup.half = true;
    } else {
      const bool few_tiles = ceil_div(n, tuning::tile) < std::int64_t(tuning::min_tiles_per_sm) * sms;
      setup.half = !full_fits || few_tiles;
      if (setup.half && !half_fits) return cudaErrorInvalidValue;
    }
    setup.tile_items = setup.half ? tuning::half_tile : tuning::tile;
    // The bucket sort takes buckets of up to its huge class's tile where the device grants
    // that class's shared memory.
    using segment_tuning = typename tuning::segment_tuning;
    const std::int64_t max_segment =
        segment_tuning::has_huge && segment_tuning::huge_bytes <= static_cast<std::size_t>(shared_optin)
            ? segment_tuning::max_huge_items
            : segment_tuning::max_items;
    setup.samples = policy.samples_per_tile != 0
                        ? policy.samples_per_tile
                        : deterministic_sample_choose_samples(
                              n, setup.tile_items, max_segment, tuning::min_default_samples,
                              deterministic_sample_max_located_samples<Key>(tuning::max_samples),
                              tuning::costs, tuning::merge_limits, sms);
    if (setup.samples == 0) return cudaErrorInvalidValue;  // no feasible plan for n
    // Staged where the level's items, just written by the tile sort, are still in L2: the
    // copy then costs little against the search's chains of dependent reads, which made the
    // step latency-bound in global memory (H200, bench/RESULTS.md run 60: the step 1.3-2.2x
    // faster from 2^16 to 2^23 on u32, u32:u32 and u64 keys). Past L2, from
    // staged_locate_min_samples on (H100, run 104): whole sorts of uniform input 2.0-3.1 %
    // faster at 2^28 and within 1 % at 2^26, where the step now costs on uniform input what
    // it costs on sorted input.
    int l2_bytes = 0;
    if (cudaError_t e = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device)) return e;
    setup.locate_staged =
        deterministic_sample_staged_locate_bytes<Key>(setup.samples, setup.tile_items) <=
            static_cast<std::size_t>(shared_optin) &&
        (n * static_cast<std::int64_t>(tuning::item_bytes) <= l2_bytes ||
         setup.samples >= tuning::staged_locate_min_samples);
    setup.plan = deterministic_sample_plan(n, setup.tile_items, setup.samples, max_segment);
    if (!setup.plan.feasible) return cudaErrorInvalidValue;

    const deterministic_sample_plan& plan = setup.plan;
    const std::int64_t entries = plan.max_rows * setup.samples;
    const bool levels = plan.levels > 0;
    setup.narrow = n <= std::numeric_limits<std::int32_t>::max();
    const std::size_t sample_bytes = setup.narrow ? sizeof(narrow_sample) : sizeof(wide_sample);
    const std::size_t offset_bytes = setup.narrow ? sizeof(std::int32_t) : sizeof(std::int64_t);
    std::size_t sample_sort_bytes = 0;
    if (levels)
      sample_sort_bytes =
          setup.narrow
              ? std::max(algorithm<policy::merge>::template temp_storage_bytes<narrow_sample, no_value>(policy::merge{}, entries),
                         algorithm<policy::merge>::template temp_storage_bytes<std::uint64_t, no_value>(policy::merge{}, entries))
              : algorithm<policy::merge>::template temp_storage_bytes<wide_sample, no_value>(policy::merge{}, entries);
    // Keys that may sort their samples as pairs (deterministic_sample_pair_table; the query
    // cannot see the comparator): room for that sort too.
    if (levels && std::is_integral<Key>::value && sizeof(Key) > 4)
      sample_sort_bytes = std::max(
          sample_sort_bytes,
          algorithm<policy::merge>::template temp_storage_bytes<Key, std::int64_t>(policy::merge{}, entries));
    setup.sample_table_bytes = temp_aligned_bytes(static_cast<std::size_t>(entries) * sample_bytes);
    // A step 4 that merges sorted rows writes a copy of the table to the sort's scratch.
    sample_sort_bytes = std::max(sample_sort_bytes, setup.sample_table_bytes);
    setup.rank_bytes = temp_aligned_bytes(static_cast<std::size_t>(entries) * sizeof(int));
    const std::size_t table_bytes = setup.rank_bytes + entries * offset_bytes;
    // The idle buffer's start is rounded up to the alignment within it.
    setup.samples_in_other =
        levels && temp_alignment + setup.sample_table_bytes + sample_sort_bytes <=
                      static_cast<std::size_t>(n) * sizeof(Key);
    std::size_t tile_scan = 0, offset_scan = 0;
    if (levels) {
      const tile_count_iterator tiles(thrust::counting_iterator<std::int64_t>(0),
                                      deterministic_sample_segment_tiles{nullptr, 0, 1});
      if (cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, tile_scan, tiles,
                                                        static_cast<std::int64_t*>(nullptr),
                                                        plan.max_segments + 1))
        return e;
      const cudaError_t e =
          setup.narrow ? cub::DeviceScan::ExclusiveSum(nullptr, offset_scan, static_cast<std::int32_t*>(nullptr),
                                                       entries)
                       : cub::DeviceScan::ExclusiveSum(nullptr, offset_scan, static_cast<std::int64_t*>(nullptr),
                                                       entries);
      if (e != cudaSuccess) return e;
    }
    setup.scan_bytes = tile_scan > offset_scan ? tile_scan : offset_scan;
    const std::size_t segment_bytes = static_cast<std::size_t>(plan.max_segments + 1) * sizeof(std::int64_t);
    setup.layout = temp_layout<arrays>({
        levels ? static_cast<std::size_t>(n) * sizeof(Key) : 0,
        levels && has_values<Value> ? static_cast<std::size_t>(n) * sizeof(Value) : 0,
        segment_bytes,
        levels ? segment_bytes : 0,
        levels ? segment_bytes : 0,
        static_cast<std::size_t>(plan.max_rows) * sizeof(std::int64_t),
        setup.samples_in_other ? 0 : setup.sample_table_bytes,
        // Otherwise step 4's scratch shares the region of the rank and offset tables, which
        // are written only after the samples are sorted.
        !levels                    ? 0
        : setup.samples_in_other || table_bytes > sample_sort_bytes ? table_bytes
                                   : sample_sort_bytes,
        setup.scan_bytes,
    });
    return cudaSuccess;
  }
};

// How step 4 of `level` merges its segments' sorted sample rows: in `groups` groups of up to
// `group_rows` rows a segment, a group staged at once in at most tuning::merge_rows_shared
// bytes (one group: the whole segment, staged group_rows rows at a time); groups = 0 where the
// level sorts its samples.
struct deterministic_sample_merge_shape {
  int group_rows = 0;
  int groups = 0;
};

template <class Table, class Tuning>
deterministic_sample_merge_shape deterministic_sample_merge_groups(const deterministic_sample_plan& plan,
                                                                   int level) {
  if (!deterministic_sample_merges_rows(plan, level, Tuning::merge_limits))
    return {};
  const int s = static_cast<int>(plan.samples);
  const std::size_t fixed = block::merge_sorted_rows_bytes<typename Table::entry>(s, 0);
  if (fixed >= Tuning::merge_rows_shared) return {};
  const std::int64_t fitting =
      static_cast<std::int64_t>((Tuning::merge_rows_shared - fixed) / (s * sizeof(typename Table::entry)));
  const std::int64_t tiles = ceil_div(plan.bound[level], plan.tile_items);
  if (deterministic_sample_row_searches(plan, level) <= Tuning::merge_limits.row_searches)
    return {static_cast<int>(std::min(fitting, tiles)), 1};  // staged in turns where need be
  const std::int64_t most_rows =
      std::min(fitting, std::max<std::int64_t>(1, Tuning::merged_row_group_searches / s));
  const std::int64_t groups = ceil_div(tiles, most_rows);
  return {static_cast<int>(ceil_div(tiles, groups)), static_cast<int>(groups)};  // groups even
}

// Steps 1–3 of a level: `rows` table rows over `segments` segments; short_tiles: whether a
// segment may end in a short tile (not at the first level where the tile divides n).
template <bool HALF, class Table, class Key, class Value, class Compare>
cudaError_t launch_deterministic_sample_tiles(std::int64_t rows, std::int64_t segments, bool short_tiles, Key* keys,
                                              Value* values, const std::int64_t* segment_offsets,
                                              const std::int64_t* tile_starts,
                                              const std::int64_t* row_segments, int samples,
                                              Table sample_table, Compare cmp,
                                              cudaStream_t stream) {
  using tuning = deterministic_sample_tuning<Key, Value>;
  constexpr int threads = HALF ? tuning::half_threads : tuning::threads;
  using shape = deterministic_sample_tile_shape<Key, Value, threads, tuning::items>;
  constexpr std::size_t block_bytes = sizeof(typename shape::block_storage);
  const auto block_kernel =
      deterministic_sample_block_tiles_kernel<threads, tuning::items, !shape::by_warps, Table, Key,
                                              Value, Compare>;
  if (cudaError_t e = allow_dynamic_shared(block_kernel, block_bytes)) return e;
  if constexpr (shape::by_warps) {
    constexpr std::size_t warp_bytes = sizeof(typename shape::warp_storage);
    const auto warp_kernel =
        deterministic_sample_warp_tiles_kernel<threads, tuning::items, Table, Key, Value, Compare>;
    if (cudaError_t e = allow_dynamic_shared(warp_kernel, warp_bytes)) return e;
    warp_kernel<<<static_cast<unsigned>(rows), shape::warp_threads, warp_bytes, stream>>>(
        keys, values, segment_offsets, tile_starts, row_segments, samples, sample_table, cmp);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    if (!short_tiles) return cudaSuccess;
  }
  const std::int64_t blocks = shape::by_warps ? segments : rows;
  block_kernel<<<static_cast<unsigned>(blocks), threads, block_bytes, stream>>>(
      keys, values, segment_offsets, tile_starts, row_segments, samples, sample_table, cmp);
  return cudaPeekAtLastError();
}

// deterministic_sample_sort (below) once its setup is made, with a sample table of Table
// (deterministic_sample_table) and an offset table of Offset.
template <class Table, class Offset, class Key, class Value, class Compare>
cudaError_t deterministic_sample_levels(const deterministic_sample_setup<Key, Value>& setup, void* temp,
                                        Key* keys, Value* values, std::int64_t n, Compare cmp,
                                        cudaStream_t stream,
                                        deterministic_sample_stop_after stop_after,
                                        std::int64_t* bucket_offsets_out, int buckets_level) {
  using setup_type = deterministic_sample_setup<Key, Value>;
  using tuning = typename setup_type::tuning;
  using stop = deterministic_sample_stop_after;
  const deterministic_sample_plan& plan = setup.plan;
  const auto& layout = setup.layout;
  const int s = setup.samples;
  const int tile = setup.tile_items;

  Key* scratch_keys = layout.template get<Key>(temp, setup_type::scratch_keys);
  Value* scratch_values = layout.template get<Value>(temp, setup_type::scratch_values);
  std::int64_t* segments = layout.template get<std::int64_t>(temp, setup_type::segments_a);
  std::int64_t* next_segments = layout.template get<std::int64_t>(temp, setup_type::segments_b);
  std::int64_t* tile_starts = layout.template get<std::int64_t>(temp, setup_type::tile_starts);
  std::int64_t* row_segments = layout.template get<std::int64_t>(temp, setup_type::row_segments);
  void* tables = layout.template get<void>(temp, setup_type::tables);
  int* ranks = static_cast<int*>(tables);
  auto* offsets = reinterpret_cast<Offset*>(static_cast<char*>(tables) + setup.rank_bytes);
  void* scan_temp = layout.template get<void>(temp, setup_type::scan_temp);

  constexpr int helper = tuning::helper_threads;
  {
    const std::int64_t first_rows = plan.levels > 0 ? plan.rows[0] : 0;
    const auto blocks = static_cast<unsigned>(std::max<std::int64_t>(1, ceil_div(first_rows, helper)));
    deterministic_sample_first_level_kernel<<<blocks, helper, 0, stream>>>(segments, tile_starts,
                                                                         row_segments, n, first_rows);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
  }

  Key* current_keys = keys;
  Value* current_values = values;
  Key* other_keys = scratch_keys;
  Value* other_values = scratch_values;
  for (int level = 0; level < plan.levels; ++level) {
    const bool first = level == 0;
    void* sample_region =
        setup.samples_in_other ? temp_aligned_start(other_keys) : layout.template get<void>(temp, setup_type::samples_table);
    const Table samples = Table::in(sample_region, plan.max_rows * s);
    void* sample_sort_temp =
        setup.samples_in_other ? static_cast<char*>(sample_region) + setup.sample_table_bytes : tables;
    const std::int64_t k = plan.segments[level];
    const std::int64_t rows = plan.rows[level];
    const auto grid = static_cast<unsigned>(rows);
    std::size_t scan_bytes = setup.scan_bytes;
    if (!first) {
      const typename setup_type::tile_count_iterator tile_counts(
          thrust::counting_iterator<std::int64_t>(0),
          deterministic_sample_segment_tiles{segments, k, tile});
      if (cudaError_t e = cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, tile_counts,
                                                        tile_starts, k + 1, stream))
        return e;
      deterministic_sample_rows_kernel<<<static_cast<unsigned>(ceil_div(rows, helper)), helper, 0,
                                         stream>>>(tile_starts, k, rows, row_segments);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
    }

    // Steps 1–3.
    const bool short_tiles = !first || n % tile != 0;
    const cudaError_t sorted =
        setup.half ? launch_deterministic_sample_tiles<true, Table>(rows, k, short_tiles, current_keys,
                                                                    current_values, segments, tile_starts,
                                                                    row_segments, s, samples, cmp, stream)
                   : launch_deterministic_sample_tiles<false, Table>(rows, k, short_tiles, current_keys,
                                                                     current_values, segments, tile_starts,
                                                                     row_segments, s, samples, cmp, stream);
    if (sorted != cudaSuccess) return sorted;
    if (first && stop_after == stop::local_sort) return cudaSuccess;

    // Step 4: every segment's samples in one sort (positions order the segments), or, where a
    // segment's tiles are few, its sorted rows merged into the sort's scratch, from where
    // step 6 reads them; the scratch is then in the idle buffer, which step 8 writes first.
    // Where the rows are merged in groups (merge.groups of them), the groups' runs in the
    // scratch are ranked among each other and placed back in the table, which step 6 reads.
    Table sorted_samples = samples;
    const deterministic_sample_merge_shape merge =
        deterministic_sample_merge_groups<Table, tuning>(plan, level);
    if (setup.samples_in_other && merge.groups > 0) {
      constexpr int threads = tuning::merge_rows_threads;
      const std::size_t bytes = block::merge_sorted_rows_bytes<typename Table::entry>(s, merge.group_rows);
      const auto kernel = deterministic_sample_merge_rows_kernel<threads, Table, Compare>;
      if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
      const Table merged = Table::in(sample_sort_temp, plan.max_rows * s);
      const bool grouped = merge.groups > 1;
      const int group_rows = grouped ? merge.group_rows : std::numeric_limits<int>::max();
      kernel<<<grid, threads, bytes, stream>>>(samples, merged, tile_starts, row_segments, s, group_rows,
                                               merge.group_rows, cmp);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
      if (!grouped) {
        sorted_samples = merged;
      } else {
        constexpr int group_threads = tuning::merge_groups_threads;
        deterministic_sample_merge_groups_kernel<group_threads, Table>
            <<<grid, group_threads, static_cast<std::size_t>(s) * sizeof(int), stream>>>(
                merged, samples, tile_starts, row_segments, s, group_rows, cmp);
        if (cudaError_t e = cudaPeekAtLastError()) return e;
      }
    } else if (cudaError_t e = samples.sort(sample_sort_temp, rows * s, cmp, stream)) {
      return e;
    }
    if (first && stop_after == stop::sample_sort) return cudaSuccess;

    // Steps 5–6.
    {
      constexpr int threads = tuning::locate_threads;
      const std::size_t bytes = setup.locate_staged
                                    ? deterministic_sample_staged_locate_bytes<Key>(s, tile)
                                    : deterministic_sample_locate_bytes<Key>(s);
      const auto kernel =
          setup.locate_staged
              ? deterministic_sample_locate_kernel<threads, true, Table, Key, Offset, Compare>
              : deterministic_sample_locate_kernel<threads, false, Table, Key, Offset, Compare>;
      if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
      kernel<<<grid, threads, bytes, stream>>>(current_keys, segments, tile_starts, row_segments,
                                               tile, s, sorted_samples, ranks, offsets, cmp);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
    }
    if (first && stop_after == stop::sample_indexing) return cudaSuccess;

    // Step 7: the counts step 6 wrote in the scan's order, scanned in place.
    scan_bytes = setup.scan_bytes;
    if (cudaError_t e = cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, offsets, rows * s, stream))
      return e;
    if (first && stop_after == stop::prefix_sum) return cudaSuccess;

    // Step 8, and the buckets as the next level's segments.
    {
      constexpr int threads = tuning::relocate_threads;
      const std::size_t bytes = static_cast<std::size_t>(s) * (sizeof(std::int64_t) + sizeof(int));
      deterministic_sample_relocate_kernel<threads, tuning::relocate_items, tuning::relocate_searches_together>
          <<<grid, threads, bytes, stream>>>(
          current_keys, current_values, other_keys, other_values, segments, tile_starts,
          row_segments, tile, s, ranks, offsets, k, next_segments, n);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
      const std::int64_t entries = k * s + 1;
      if (bucket_offsets_out != nullptr && level == buckets_level) {
        if (cudaError_t e = cudaMemcpyAsync(bucket_offsets_out, next_segments,
                                            entries * sizeof(std::int64_t),
                                            cudaMemcpyDeviceToDevice, stream))
          return e;
      }
    }
    if (first && stop_after == stop::relocation) return cudaSuccess;
    std::swap(current_keys, other_keys);
    std::swap(current_values, other_values);
    std::swap(segments, next_segments);
  }

  // Step 9: every segment now fits one block, and none exceeds the plan's bound (one segment
  // of n without levels).
  const std::int64_t k = plan.segments[plan.levels];
  // The huge class is launched only where the plan's bound exceeds the large one, that is
  // where make() found the device to grant it.
  return sort_segments_in_classes(typename tuning::segment_tuning::classes_with_huge{}, current_keys,
                                  current_values, keys, values, segments, segments + 1, k, cmp,
                                  stream, plan.levels == 0 ? n : 0, plan.bound[plan.levels]);
}

// The sort behind algorithm<policy::deterministic_sample>, with the benchmark's and the
// tests' hooks: stop_after (see the enum), and bucket_offsets_out: when not null, the bucket
// boundaries made by level `buckets_level` (segments[l] · s + 1 offsets, the next level's
// segments) are copied there, for a test to check the bucket bound.
template <class Key, class Value, class Compare>
cudaError_t deterministic_sample_sort(
    const policy::deterministic_sample& policy, void* temp, Key* keys, Value* values,
    std::int64_t n, Compare cmp, cudaStream_t stream,
    deterministic_sample_stop_after stop_after = deterministic_sample_stop_after::bucket_sort,
    std::int64_t* bucket_offsets_out = nullptr, int buckets_level = 0) {
  using setup_type = deterministic_sample_setup<Key, Value>;
  static_assert(sizeof(typename setup_type::template narrow_codec<Compare>::sample) ==
                    sizeof(typename setup_type::narrow_sample),
                "the temp storage is sized without the comparator");
  static_assert(!deterministic_sample_pairs_samples<Key, Compare> ||
                    sizeof(Key) + sizeof(std::int64_t) <= sizeof(typename setup_type::narrow_sample),
                "a pair table fits where the positioned samples are sized");
  setup_type setup;
  if (cudaError_t e = setup_type::make(policy, n, setup)) return e;
  using narrow_table =
      deterministic_sample_table<typename setup_type::template narrow_codec<Compare>, Key, Compare>;
  using wide_table = deterministic_sample_table<sample_codec<Key, Compare, std::int64_t>, Key, Compare>;
  return setup.narrow ? deterministic_sample_levels<narrow_table, std::int32_t>(
                            setup, temp, keys, values, n, cmp, stream, stop_after,
                            bucket_offsets_out, buckets_level)
                      : deterministic_sample_levels<wide_table, std::int64_t>(
                            setup, temp, keys, values, n, cmp, stream, stop_after,
                            bucket_offsets_out, buckets_level);
}

template <>
struct algorithm<policy::deterministic_sample> {
  static constexpr bool implemented = true;
  static constexpr bool stable = false;

  template <class Key, class Value>
  static cudaError_t check_policy(const policy::deterministic_sample& policy) {
    return deterministic_sample_setup<Key, Value>::check(policy);
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::deterministic_sample& policy,
                                        std::int64_t n) {
    deterministic_sample_setup<Key, Value> setup;
    // A policy the device or n cannot honour still asks for some storage, so that the
    // second call reaches sort(), which refuses it before any work.
    if (deterministic_sample_setup<Key, Value>::make(policy, n, setup) != cudaSuccess)
      return temp_alignment;
    return setup.layout.total;
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::deterministic_sample& policy, void* temp, Key* keys,
                          Value* values, std::int64_t n, Compare cmp, cudaStream_t stream) {
    return deterministic_sample_sort(policy, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
