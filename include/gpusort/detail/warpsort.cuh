// gpusort/detail/warpsort.cuh — policy::warpsort: GPU-Warpsort (Ye et al., "High Performance
// Comparison-Based Sorting Algorithm on Many-Core GPUs"), rebuilt for today's GPUs.
//
// 1. Run sort: every warp sorts its own chunks of 32*sort_items (>= 128) items in
//    registers with warp::bitonic_sort: no __syncthreads, all 32 lanes doing distinct
//    ascending compare-exchanges (flip form). It keeps run_chunks of them in its part of
//    the block's shared buffer and merges them there (warp::shared_bitonic_merge,
//    barrier-free too): runs of 4 chunks for the common item sizes. The block's run_warps
//    warps then merge their runs together (the same merge, barriers between its windows)
//    before writing: 4 fewer passes in step 2 than runs of one chunk. Loads and stores go
//    through the same buffer, coalesced.
// 2. Pairwise merges: runs of L become runs of 2L; a warp merges with warp::merge_runs (the
//    t-item bitonic buffer, coalesced reversed fetches of Fig. 5b). Every warp produces the
//    same number of outputs (8t or 16t, stretched so that the warps fill whole waves of the
//    device), its range's ends split by merge-path co-ranks, so the work is the same for any
//    input. Where the ranges are few each warp searches its own two co-ranks; where they
//    are many a partition kernel computes them first. For items of up to 8 bytes two levels
//    of these merges share a pass (warp::merge_four_runs: runs of L become runs of 4L, the
//    pairs' buffers feeding a third in shared memory), so that step 2 reads and writes device
//    memory half as often; each warp's range is then a tile of one group of four runs, cut
//    by multiway_select co-ranks (four_way_partition_kernel).
//    Passes go on while more than split_runs runs are left (the paper's l > #SMs).
// 3. Split: s*k random samples (positions from a hash of the sample index), sorted by one
//    block, every k-th a splitter. Ties are broken by array position (detail::positioned_less),
//    so equal keys split evenly too. Each splitter is located in each of the l runs by a
//    warp's search (warp::partition_point); the l x s piece table is scanned bucket-major
//    (device::bucket_offsets), which gives every piece its place in the output: bucket b's
//    pieces are independent of every other bucket's.
// 4. Final merges: the l pieces of each bucket are merged pairwise, log2(l) levels, again
//    balanced by OUTPUT position: a warp finds the pair its output range falls in by
//    searching the (device-only) piece offsets, so neither skewed buckets nor sorted input
//    (where a bucket's pieces all come from one run, and a merge is a copy) unbalance it.
//    The first level reads the pieces where step 2 left them, so no separate relocation
//    pass is needed; the last level assembles the buckets in place.
// All sizes that depend on the data live on the device: grids are sized from n (and the
// device's resident warps) alone.
// Passes over memory: 1 + log2(runs after step 1), as in a pairwise merge sort of those runs,
// less one for every four-way pass. Not stable. Extra memory: one copy of keys (and values),
// 8 bytes per warp range of a two-way merge pass (n / t; 32 of a four-way one) and the step-3
// tables (3 x split_runs x 128 x 8 bytes at most).
#pragma once

#include <gpusort/block/bitonic_sort.cuh>
#include <gpusort/block/sort_tile.cuh>
#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/algorithm.cuh>
#include <gpusort/detail/co_rank_search.cuh>
#include <gpusort/detail/multiway_merge.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/positioned.cuh>
#include <gpusort/detail/ragged.cuh>
#include <gpusort/detail/resident_grid.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/temp_storage.cuh>
#include <gpusort/detail/warp_runs.cuh>
#include <gpusort/device/bucket_offsets.cuh>
#include <gpusort/policy.cuh>
#include <gpusort/thread/serial_merge.cuh>
#include <gpusort/warp/bitonic_sort.cuh>
#include <gpusort/warp/merge_four_runs.cuh>
#include <gpusort/warp/merge_runs.cuh>
#include <gpusort/warp/partition_point.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>

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
struct warpsort_tuning : warp_run_tuning<Key, Value> {
  using runs = warp_run_tuning<Key, Value>;
  using runs::item_bytes, runs::sort_items, runs::chunk, runs::warp_run, runs::run_warps, runs::run;
  // Independent warps per block: no barrier ties them, so the block is only a launch unit.
  // Four, fewer where their merge buffers of t = 32*M items would not fit static shared
  // memory together (items of 48 bytes and more at t = 256); 0: t is too wide for one warp.
  template <int M>
  static constexpr int merge_warps_per_block = static_cast<int>(
      std::min<std::size_t>(4, static_shared_limit / sizeof(warp::merge_runs_storage<Key, Value, M>)));
  template <int M>
  static constexpr int four_way_warps_per_block = static_cast<int>(
      std::min<std::size_t>(4, static_shared_limit / sizeof(warp::merge_four_runs_storage<Key, Value, M>)));
  // Step 2 merges four runs a pass (warp::merge_four_runs: two levels of pairwise buffer
  // merges in one pass over device memory) for items of 4 to 8 bytes from four_way_from items.
  // A four-way pass first waits for its co-ranks (multiway_select: a chain of dependent
  // steps, 50-80 us whatever n, bench/RESULTS.md run 87), which long passes hide and short
  // ones do not, and its kernel holds fewer warps (u32:u32 at t = 256: 138 registers against
  // 96). Whole sorts, two-way against four-way passes (bench_warpsort's ways study, H100, run
  // 96, ms): u32 2^25 1.614 / 1.617, 2^26 3.31 / 3.14, 2^28 13.74 / 12.23 (t = 1024: 222
  // registers); u64 2^24 1.680 / 1.845, 2^25 3.43 / 3.29; u32:u32 2^24 1.745 / 1.740, 2^25
  // 3.49 / 3.20, 2^28 31.19 / 25.68 (H200, run 96: at 2^24 10-20 % slower). So keys of 5
  // to 8 bytes take them from 256 MiB (2^25 8-byte keys), and pairs of 5 to 8 bytes from 3/2
  // of 2^24 items, where keys alone do not pay yet: two-way against four-way passes at t =
  // 256 (run 111, H100, ms) u32:u32 3/2 of 2^24 2.659 / 2.483, u64 2.617 / 2.644; at 2^24
  // they tie for u32:u32 (1.724 / 1.726). 4-byte items take them from 2^25 items, at
  // t = four_way_width, which run 96 did not try: against two-way passes at the tuned t =
  // 1024 (run 111, H100, ms) u32 2^25 1.592 / 1.535, 3/2 of 2^25 2.452 / 2.276, 2^26 3.15 /
  // 2.92, 2^28 12.26 / 11.67, 2^29 25.15 / 23.40; below 2^25 it is a toss-up (2^24 0.806 /
  // 0.800, 5/4 of 2^24 1.041 / 1.086). Smaller items keep two-way passes: unmeasured.
  static constexpr bool four_way_passes = item_bytes >= 4 && item_bytes <= 8;
  static constexpr std::int64_t four_way_from =
      item_bytes <= 4     ? std::int64_t(1) << 25
      : has_values<Value> ? 3 * (std::int64_t(1) << 23)
                          : ((std::int64_t(1) << 28) + static_cast<std::int64_t>(item_bytes) - 1) /
                                static_cast<std::int64_t>(item_bytes);
  // The widest tuned t of four-way passes: four buffers of t items a warp take registers
  // (u32 at t = 1024: 222 a lane). u32 keys, four-way passes at t = 256 / 512 / 1024 (run
  // 111, H100, ms): 2^25 1.535 / 1.630 / 1.624, 2^26 2.92 / 3.16 / 3.14, 2^28 11.67 / 12.96 /
  // 12.26. 8-byte items go no wider anyway.
  static constexpr int four_way_width = 256;
  // Step 2/4: the merge buffer t (policy.merge_width) and the outputs of a warp, 16 or 32
  // buffer halves. Wider buffers take fewer steps per item and more outputs per warp
  // amortise its range's two merge-path searches, but leave fewer warps to a pass: by
  // default t doubles from width_doubles_from(2t) items on, up to the widest the item allows
  // (widest_tuned_width); then a warp takes 32 halves while a pass keeps busy_warps warps,
  // and narrow buffers (t <= 256) up to long_range outputs: a range's start (its co-ranks,
  // and for pairs the two searches for ties with the padding) is a chain of a dozen
  // dependent loads. Measured (run 29, t = 256, 64 halves against 32): u32:u32 2^26 4.5 % and
  // 2^28 3.0 % faster, 16-byte keys 2^26 2.3 %, u64 1 %; 32 halves 3-6 % ahead of 16 at
  // 2^27-2^28, 9 % behind at 2^22 (1024 warps).
  // Widths: t >= 64 (the paper's minimum), t/32 items per lane in registers, so at most 256,
  // or 1024 for 4-byte items (more spills registers; its merge kernel takes 160 registers a
  // lane: 12 warps an SM, 16 for t = 512).
  static constexpr int max_merge_width = item_bytes <= 4 ? 1024 : 256;
  // From these n on the tuned t is at least `width`: bench_warpsort's width study at 1, 5/4,
  // 3/2 and 7/4 of 2^20 to 2^23 (H100, bench/RESULTS.md run 44; u32, u64 and u32:u32, t
  // against the previous rule's 128 from 2^21, 256 from 2^22 and 512 from 2^23): t = 128 is
  // 2.5-13 % ahead of 64 at 5/4 and 3/2 of 2^20; t = 256 2.5-14 % ahead of 128 from 7/4 of
  // 2^20 to 7/4 of 2^21 (u32 2^21 0.1495 against 0.1624 ms); u32 keys t = 512 within 1.1 % of
  // 256 at 2^22 and 5/4 of it, 4-7 % ahead at 3/2 and 7/4. At 2^20 itself no width leads for
  // every item: u32 keys 256 7 % ahead of 64 and 128 16 % behind it, u64 and u32:u32 128 4 %
  // ahead, 16-byte keys 64 3 % ahead, so it keeps 64. t = 1024 (4-byte keys) 1.3-6.5 % ahead
  // of 512 from 3/4 of 2^24 to 2^28 except at 7/4 of 2^24 (1.2 % behind), 1.8-15 % behind
  // from 2^22 to 5/8 of 2^24 (run 45: the same study up to 7/4 of 2^27).
  static constexpr std::int64_t width_doubles_from(int width) {
    return width == 128   ? 5 * (std::int64_t(1) << 18)
           : width == 256 ? 7 * (std::int64_t(1) << 18)
           : width == 512 ? std::int64_t(1) << 22
                          : 3 * (std::int64_t(1) << 22);
  }
  // The tuned t also keeps a lane's t/32 buffered items within 48 registers' worth of words
  // (16-byte keys with 8-byte values at t = 256, no spills): 64-byte keys at t = 256 took 255
  // registers and spilled up to 1 KB; at 2^24 t = 64 sorts them 22 % faster (27.7 against
  // 35.3 ms; t = 128, 64 words a lane, 28.4), key64:u64 25 % (H100, bench/RESULTS.md run 41).
  // Counted as the buffers hold them (key and value each in whole words); items of up to 4
  // bytes keep the measured 1024.
  static constexpr int lane_word_budget = 48;
  static constexpr int lane_words_per_item = warp::bitonic_buffer_words<Key> + warp::bitonic_buffer_words<Value>;
  static constexpr int widest_tuned_width = [] {
    int width = max_merge_width;
    while (item_bytes > 4 && width > 64 && width / 32 * lane_words_per_item > lane_word_budget) width /= 2;
    return width;
  }();
  static_assert(merge_warps_per_block<2> >= 1,
                "policy::warpsort: an item (key and value) too large for a warp's merge buffer "
                "of t = 64 in 48 KB of shared memory");
  static constexpr std::int64_t busy_warps = 2048;
  static constexpr int halves_per_warp = 16;
  static constexpr std::int64_t long_range = 8192;
  // Step 2 stops when at most this many runs are left: the paper's l (64 on 16 SMs). The
  // merges stay balanced by output anyway, so this only sets the depth of step 4, whose
  // passes cost 10-30 % more than step 2's (each warp finds its pairs in the piece table,
  // and the first level's pairs are small). Measured (bench/RESULTS.md run 29, H100): 8
  // against 64, u32 keys 2^20 13 % faster, 2^22 8 %, 2^24 2.5 %, u32:u32 2^22 7.5 %; 2
  // against 4 only 1-2 % faster at 2^20-2^22 (4 keeps step 4 a merge of several levels).
  static constexpr std::int64_t split_runs = 4;
  // Step 3: s buckets (s - 1 splitters) from s*k samples sorted by one block in static
  // shared memory. That sort is a chain of latencies on one SM (H100: k = 16, 42 us, 5 % of
  // a sort of 2^24 u32 keys; k = 4, 10 us), and oversampling only evens out the buckets'
  // sizes, which step 4 does not need: its merges are balanced by output position whatever
  // the sizes. So k is small: the target below, less where the samples would not fit.
  static constexpr int buckets = 128;
  static constexpr int target_oversampling = 4;
  static constexpr int sample_threads = 128;
  template <int ITEMS>
  static constexpr bool samples_fit =
      sizeof(block::bitonic_sort_storage<positioned_key<Key>, no_value, sample_threads, ITEMS>) <=
      static_shared_limit;
  static constexpr int sample_items = largest_items_fitting<buckets * target_oversampling / sample_threads>(
      [](auto items) { return samples_fit<decltype(items)::value>; });
  static_assert(samples_fit<sample_items>,
                "policy::warpsort: a key too large for step 3's 128 samples in 48 KB of shared "
                "memory (keys of more than 176 bytes)");
  static constexpr int samples = sample_threads * sample_items;
  static constexpr int oversampling = samples / buckets;  // k
  static constexpr std::uint64_t sample_seed = 0x9e3779b97f4a7c15ull;
  static_assert(oversampling >= 1, "fewer samples than buckets");
};

// Which variant of steps 1 and 2 to run, and after which step to stop: hooks for
// bench_warpsort's studies (the paper's Fig. 11-14). Template parameters, so that the
// policy's instantiations do not carry the study variants. The policy runs the defaults.
enum class warpsort_step1 { warp_bitonic, block_bitonic };
// bitonic_merge: the policy's step 2, four runs a pass where the tuning says so
// (four_way_passes, four_way_from), else two; pairwise_bitonic_merge: always two;
// four_way_bitonic_merge: always four; rank_merge: two a pass, merged by rank.
enum class warpsort_step2 { bitonic_merge, pairwise_bitonic_merge, four_way_bitonic_merge, rank_merge };

// Whether a sort of n items merges four runs a step-2 pass, and whether the variant ever does
// (which kernels it instantiates).
template <warpsort_step2 STEP2, class Key, class Value>
constexpr bool warpsort_four_way_able =
    STEP2 == warpsort_step2::four_way_bitonic_merge ||
    (STEP2 == warpsort_step2::bitonic_merge && warpsort_tuning<Key, Value>::four_way_passes);
template <warpsort_step2 STEP2, class Key, class Value>
constexpr bool warpsort_four_way(std::int64_t n) {
  return STEP2 == warpsort_step2::four_way_bitonic_merge ||
         (warpsort_four_way_able<STEP2, Key, Value> && n >= warpsort_tuning<Key, Value>::four_way_from);
}

// ---- step 1 -------------------------------------------------------------------------------

// The step-1 study's alternative (Fig. 11): the same runs, each sorted by a block with
// barriers (block::bitonic_sort, THREADS x ITEMS = the run), its tile in dynamic shared
// memory.
template <int THREADS, int ITEMS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS)
    warpsort_block_run_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                                Value* values_out, std::int64_t n, Compare cmp) {
  constexpr int chunk = THREADS * ITEMS;
  extern __shared__ __align__(16) unsigned char warpsort_block_run_shared[];
  auto& shared = *reinterpret_cast<block::sort_tile_storage<Key, Value, THREADS, ITEMS>*>(
      warpsort_block_run_shared);
  const std::int64_t offset = static_cast<std::int64_t>(blockIdx.x) * chunk;
  const int valid = static_cast<int>(n - offset < chunk ? n - offset : chunk);
  block::sort_tile<THREADS, ITEMS>(keys_in + offset, values_in + offset, keys_out + offset,
                                   values_out + offset, valid, cmp, shared);
}

// ---- steps 2 and 4: merge passes balanced by output position -------------------------------

// One pair of runs of a merge pass: where its output goes and where its two runs are.
struct warpsort_pair {
  std::int64_t out_begin, out_end, a_begin, a_count, b_begin, b_count;
};

// Step 2: runs of `run` items, pair q = runs 2q and 2q+1, output in place of the input.
struct warpsort_uniform_pairs {
  std::int64_t n, run;
  __host__ __device__ std::int64_t find(std::int64_t position) const { return position / (2 * run); }
  __device__ std::int64_t find_by_warp(std::int64_t position) const { return find(position); }
  __host__ __device__ warpsort_pair operator[](std::int64_t q) const {
    const std::int64_t begin = q * 2 * run;
    const std::int64_t middle = begin + run < n ? begin + run : n;
    const std::int64_t end = begin + 2 * run < n ? begin + 2 * run : n;
    return {begin, end, begin, middle - begin, middle, end - middle};
  }
};

// Step 4, one level: the pieces of each bucket in groups of `group` (a power of two) runs;
// pair q merges two neighbouring groups of one bucket. Piece (run x, bucket b) goes to
// offsets[x * buckets + b] (bucket-major order, every bucket's pieces in run order). At the
// first level (group 1) the pieces are read where step 2 left them: run x from x * run,
// piece b from piece_begins[x * buckets + b] within it; later levels read the previous
// level's groups, which sit at their output offsets.
struct warpsort_bucket_pairs {
  const std::int64_t* offsets;
  const std::int64_t* counts;
  const std::int64_t* piece_begins;
  std::int64_t n, run;
  int runs, buckets, group;

  // Output offset of the piece at bucket-major index c (n past the last piece).
  __host__ __device__ std::int64_t offset_at(std::int64_t c) const {
    if (c >= static_cast<std::int64_t>(runs) * buckets) return n;
    const std::int64_t b = c / runs;
    const std::int64_t x = c - b * runs;
    return offsets[x * buckets + b];
  }
  // The last pair whose output starts at or before `position` (empty pairs are skipped:
  // the pair after them starts at the same offset).
  __host__ __device__ std::int64_t find(std::int64_t position) const {
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(runs) * buckets / (2 * group);
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (offset_at(mid * 2 * group) <= position) lo = mid;
      else hi = mid;
    }
    return lo;
  }
  // find, searched by the whole warp (all 32 lanes call it with the same position): a few
  // steps of 32 probes instead of a chain of log2(pairs) dependent loads.
  __device__ std::int64_t find_by_warp(std::int64_t position) const {
    const std::int64_t pair_count = static_cast<std::int64_t>(runs) * buckets / (2 * group);
    return warp::partition_point(1, pair_count, [&](std::int64_t q) {
             return offset_at(q * 2 * group) > position;
           }) - 1;
  }
  __host__ __device__ warpsort_pair operator[](std::int64_t q) const {
    const std::int64_t c = q * 2 * group;
    warpsort_pair p;
    p.out_begin = offset_at(c);
    p.out_end = offset_at(c + 2 * group);
    if (group == 1) {
      const std::int64_t b = c / runs;
      const std::int64_t x = c - b * runs;
      const std::int64_t ia = x * buckets + b, ib = (x + 1) * buckets + b;
      const std::int64_t ra = x * run < n ? x * run : n, rb = (x + 1) * run < n ? (x + 1) * run : n;
      p.a_begin = ra + piece_begins[ia];
      p.a_count = counts[ia];
      p.b_begin = rb + piece_begins[ib];
      p.b_count = counts[ib];
    } else {
      p.a_begin = p.out_begin;
      p.b_begin = offset_at(c + group);
      p.a_count = p.b_begin - p.a_begin;
      p.b_count = p.out_end - p.b_begin;
    }
    return p;
  }
};

// The Fig. 13 alternative to the bitonic buffer: the warp's pieces merged by rank, each
// lane placing its outputs by a merge-path split of its own (Satish et al.'s method at warp
// granularity). Both write out[0, a_count + b_count).
template <class Key, class Value, class Compare>
__device__ __forceinline__ void warpsort_rank_merge(const Key* a, const Value* a_values,
                                                    std::int64_t a_count, const Key* b,
                                                    const Value* b_values, std::int64_t b_count,
                                                    Key* out, Value* out_values, Compare cmp) {
  const int lane = threadIdx.x % 32;
  const std::int64_t total = a_count + b_count;
  // Each lane merges a contiguous 1/32 of the output; the rows of 32 stay coalesced-ish.
  const std::int64_t per_lane = (total + 31) / 32;
  const std::int64_t first = lane * per_lane < total ? lane * per_lane : total;
  const std::int64_t last = first + per_lane < total ? first + per_lane : total;
  thread::serial_merge(a, a_values, a_count, b, b_values, b_count, first, last, out, out_values,
                       cmp);
}

// The pair that output `position` falls in: found by this thread or by its whole warp.
template <bool BY_WARP, class Pairs>
__device__ __forceinline__ std::int64_t warpsort_find_pair(const Pairs& pairs, std::int64_t position) {
  if constexpr (BY_WARP) return pairs.find_by_warp(position);
  else return pairs.find(position);
}

// How many items of its pair's run a precede output `position` within the pair
// (thread::merge_path), searched by this thread or by its whole warp.
template <bool BY_WARP, class Pairs, class Key, class Compare>
__device__ __forceinline__ std::int64_t warpsort_co_rank(const Key* keys, const Pairs& pairs,
                                                         std::int64_t position, Compare cmp) {
  const warpsort_pair pair = pairs[warpsort_find_pair<BY_WARP>(pairs, position)];
  return co_rank<BY_WARP>(keys + pair.a_begin, pair.a_count, keys + pair.b_begin, pair.b_count,
                          position - pair.out_begin, cmp);
}

// Co-ranks of a merge pass with many warp ranges: splits[w] = warpsort_co_rank at w *
// warp_outputs, a thread each, in a kernel of its own, so that the searches' latency overlaps
// across thousands of them instead of stalling each merging warp.
template <class Pairs, class Key, class Compare>
__global__ void warpsort_partition_kernel(const Key* keys, std::int64_t warp_outputs,
                                          std::int64_t ranges, Pairs pairs, std::int64_t* splits,
                                          Compare cmp) {
  const std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w >= ranges) return;
  splits[w] = warpsort_co_rank<false>(keys, pairs, w * warp_outputs, cmp);
}

// A warp's share of a merge pass: outputs [first, last), possibly spanning several pairs.
// Only the range's two ends can fall inside a pair; first_split and last_split are their
// co-ranks (warpsort_co_rank), read only where they do.
template <int M, bool RANK, class Pairs, class Key, class Value, class Compare>
__device__ __forceinline__ void warpsort_merge_range(const Key* keys_in, const Value* values_in,
                                                     Key* keys_out, Value* values_out,
                                                     std::int64_t first, std::int64_t last,
                                                     std::int64_t first_split,
                                                     std::int64_t last_split, const Pairs& pairs,
                                                     Compare cmp,
                                                     warp::merge_runs_storage<Key, Value, M>& storage) {
  for (std::int64_t p = first; p < last;) {
    const warpsort_pair pair = pairs[warpsort_find_pair<true>(pairs, p)];
    const std::int64_t end = pair.out_end < last ? pair.out_end : last;
    const std::int64_t d0 = p - pair.out_begin, d1 = end - pair.out_begin;
    const std::int64_t i0 = p > pair.out_begin ? first_split : 0;
    const std::int64_t i1 = end < pair.out_end ? last_split : pair.a_count;
    const std::int64_t j0 = d0 - i0;
    // Consistent pieces whatever the comparator: never outside the runs or the range.
    const std::int64_t count = d1 - d0;
    const std::int64_t a_least = count - (pair.b_count - j0) > 0 ? count - (pair.b_count - j0) : 0;
    const std::int64_t a_most = count < pair.a_count - i0 ? count : pair.a_count - i0;
    std::int64_t a_take = i1 - i0;
    a_take = a_take < a_least ? a_least : a_take > a_most ? a_most : a_take;
    const Key* a = keys_in + pair.a_begin + i0;
    const Key* b = keys_in + pair.b_begin + j0;
    const Value* va = has_values<Value> ? values_in + pair.a_begin + i0 : values_in;
    const Value* vb = has_values<Value> ? values_in + pair.b_begin + j0 : values_in;
    Value* vo = has_values<Value> ? values_out + p : values_out;
    if constexpr (RANK) {
      warpsort_rank_merge(a, va, a_take, b, vb, count - a_take, keys_out + p, vo, cmp);
    } else {
      warp::merge_runs<M>(a, va, a_take, b, vb, count - a_take, keys_out + p, vo, cmp, storage);
    }
    p = end;
  }
}

// SEARCH: each warp searches its range's two co-ranks itself (few ranges: all of them run
// at once, and a separate partition launch would only add its own latency); otherwise they
// come from warpsort_partition_kernel's `splits`.
template <int M, int WARPS, bool RANK, bool SEARCH, class Pairs, class Key, class Value,
          class Compare>
__global__ void __launch_bounds__(32 * WARPS)
    warpsort_merge_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                          Value* values_out, std::int64_t n, std::int64_t warp_outputs,
                          const std::int64_t* splits, Pairs pairs, Compare cmp) {
  __shared__ warp::merge_runs_storage<Key, Value, M> storage[WARPS];
  const int lw = threadIdx.x / 32;
  const std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * WARPS + lw;
  const std::int64_t first = w * warp_outputs;
  if (first >= n) return;
  const std::int64_t last = first + warp_outputs < n ? first + warp_outputs : n;
  std::int64_t first_split = 0, last_split = 0;
  if constexpr (SEARCH) {
    first_split = warpsort_co_rank<true>(keys_in, pairs, first, cmp);
    if (last < n) last_split = warpsort_co_rank<true>(keys_in, pairs, last, cmp);
  } else {
    first_split = splits[w];
    if (last < n) last_split = splits[w + 1];
  }
  warpsort_merge_range<M, RANK>(keys_in, values_in, keys_out, values_out, first, last,
                                first_split, last_split, pairs, cmp, storage[lw]);
}

// A four-way pass: warp w merges tile w of `groups` (warp::merge_four_runs), its pieces of
// the four runs cut by the co-ranks in `splits` (four_way_partition_kernel).
template <int M, int WARPS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(32 * WARPS)
    warpsort_four_way_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                             Value* values_out, four_run_groups<0> groups, std::int64_t tiles,
                             const thread::four_way_split* splits, Compare cmp) {
  __shared__ warp::merge_four_runs_storage<Key, Value, M> storage[WARPS];
  const int lw = threadIdx.x / 32;
  const std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * WARPS + lw;
  if (w >= tiles) return;
  const auto t = groups.at(w);
  const thread::four_way_split begin = splits[w];
  std::int64_t piece[4];
  multiway_pieces(t, groups.outputs(t), begin, groups.ends_group(t) ? nullptr : &splits[w + 1],
                  piece);
  const Key* run_keys[4];
  const Value* run_values[4];
  for (int j = 0; j < 4; ++j) {
    const std::int64_t from = t.run_begin[j] + begin.taken[j];
    run_keys[j] = keys_in + from;
    run_values[j] = has_values<Value> ? values_in + from : values_in;
  }
  const std::int64_t out = t.start + t.position;
  warp::merge_four_runs<M>(run_keys, run_values, piece, keys_out + out,
                           has_values<Value> ? values_out + out : values_out, cmp, storage[lw]);
}

// ---- step 3 -------------------------------------------------------------------------------

// A sample position: splitmix64 of the sample index, reduced to [0, n). Reproducible; the
// modulo bias is below n / 2^64.
__host__ __device__ inline std::int64_t warpsort_sample_position(std::uint64_t seed, int j,
                                                                 std::int64_t n) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (static_cast<std::uint64_t>(j) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<std::int64_t>(z % static_cast<std::uint64_t>(n));
}

// One block: s*k samples, sorted, every k-th one a splitter (s - 1 of them).
template <int THREADS, int ITEMS, class Key, class Compare>
__global__ void __launch_bounds__(THREADS)
    warpsort_splitter_kernel(const Key* keys, std::int64_t n, std::uint64_t seed, int buckets,
                             positioned_key<Key>* splitters, Compare cmp) {
  __shared__ block::bitonic_sort_storage<positioned_key<Key>, no_value, THREADS, ITEMS> storage;
  constexpr int samples = THREADS * ITEMS;
  const int k = samples / buckets;
  positioned_key<Key> items[ITEMS];
  no_value none[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const std::int64_t position = warpsort_sample_position(seed, threadIdx.x * ITEMS + r, n);
    items[r] = {keys[position], position};
  }
  block::bitonic_sort<THREADS>(items, none, positioned_less<Compare>{cmp}, storage);
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const int j = threadIdx.x * ITEMS + r + 1;
    if (j % k == 0 && j / k < buckets) splitters[j / k - 1] = items[r];
  }
}

// Items of the sorted run (positions run_begin..) that precede the splitter: lower bound,
// searched by the whole warp (a few steps of 32 probes instead of log2(length) dependent
// loads: with few pieces, the locate launch is that chain of latencies).
template <class Key, class Compare>
__device__ __forceinline__ std::int64_t warpsort_splitter_rank(const Key* run, std::int64_t run_begin,
                                                               std::int64_t length,
                                                               const positioned_key<Key>& s,
                                                               Compare cmp) {
  return warp::partition_point(0, length, [&](std::int64_t i) {
    return !precedes(run[i], run_begin + i, s.key, s.position, cmp);
  });
}

// One warp per piece (run x, bucket b): its size and where it starts within its run.
// Runs past the array (the table is padded to a power of two of runs) are empty.
template <class Key, class Compare>
__global__ void warpsort_locate_kernel(const Key* keys, std::int64_t n, std::int64_t run,
                                       int runs, int buckets,
                                       const positioned_key<Key>* splitters,
                                       std::int64_t* counts, std::int64_t* piece_begins,
                                       Compare cmp) {
  const std::int64_t i = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (i >= static_cast<std::int64_t>(runs) * buckets) return;  // whole warps
  const std::int64_t x = i / buckets;
  const int b = static_cast<int>(i - x * buckets);
  const std::int64_t begin = x * run < n ? x * run : n;
  const std::int64_t length = n - begin < run ? n - begin : run;
  const Key* r = keys + begin;
  const std::int64_t lo = b == 0 ? 0 : warpsort_splitter_rank(r, begin, length, splitters[b - 1], cmp);
  std::int64_t hi = b == buckets - 1 ? length : warpsort_splitter_rank(r, begin, length, splitters[b], cmp);
  hi = hi < lo ? lo : hi;
  if (threadIdx.x % 32 == 0) {
    counts[i] = hi - lo;
    piece_begins[i] = lo;
  }
}

// ---- plan and driver ----------------------------------------------------------------------

// The shape of a sort of n items: passes, runs and table sizes, from n alone (host). Step 2
// merges four runs a pass where four_way (the policy's choice by default), else two.
template <class Key, class Value>
struct warpsort_shape {
  using tuning = warpsort_tuning<Key, Value>;
  std::int64_t step1_runs = 0;
  int step2_passes = 0;
  int step2_ways = 2;  // runs merged by each step-2 pass
  std::int64_t run_after_step2 = 0;  // run length entering step 3
  int runs = 0;    // runs after step 2 padded to a power of two; 0: one run, no steps 3-4
  int levels = 0;  // step-4 levels: log2(runs)
  std::size_t scan_bytes = 0;

  // Outputs per warp in a merge pass of n items for buffer width t (t/2 items per half):
  // halves_per_warp halves, doubled while n still gives busy_warps warps, up to twice the
  // halves or long_range outputs, whichever is more.
  static constexpr std::int64_t warp_outputs(int width, std::int64_t n) {
    const std::int64_t halves = static_cast<std::int64_t>(tuning::halves_per_warp) * (width / 2);
    const std::int64_t most = 2 * halves > tuning::long_range ? 2 * halves : tuning::long_range;
    std::int64_t outputs = halves;
    while (2 * outputs <= most && n / (2 * outputs) >= tuning::busy_warps) outputs *= 2;
    return outputs;
  }

  explicit warpsort_shape(std::int64_t n)
      : warpsort_shape(n, warpsort_four_way<warpsort_step2::bitonic_merge, Key, Value>(n)) {}
  warpsort_shape(std::int64_t n, bool four_way) {
    step2_ways = four_way ? 4 : 2;
    step1_runs = (n + tuning::run - 1) / tuning::run;
    std::int64_t run = tuning::run, left = step1_runs;
    while (left > tuning::split_runs) {
      run *= step2_ways;
      left = (left + step2_ways - 1) / step2_ways;
      ++step2_passes;
    }
    run_after_step2 = run;
    if (left > 1) {
      runs = 1;
      while (runs < left) {
        runs *= 2;
        ++levels;
      }
      device::bucket_offsets<std::int64_t>(nullptr, scan_bytes, nullptr, nullptr, runs,
                                           tuning::buckets);
    }
  }
};

// A four-way pass's warp ranges: each group of four runs cut into equal tiles of whole
// merge steps (`granule` outputs), about `outputs` long, so that no warp's range spans
// groups and none is much shorter than the others. Never shorter for longer `outputs`.
inline four_run_groups<0> warpsort_four_way_tiles(std::int64_t outputs, std::int64_t granule,
                                                  std::int64_t run, std::int64_t n) {
  const std::int64_t group = 4 * run;
  const std::int64_t per_group = (group + outputs - 1) / outputs;
  const std::int64_t tile = ((group + per_group - 1) / per_group + granule - 1) / granule * granule;
  return four_run_groups<0>(tile, run, n);
}

// Temp storage: scratch keys (and values), the runs x buckets tables of step 3 (counts,
// piece begins, offsets), the s - 1 splitters, the scan's own storage and the co-ranks of
// every warp range of a merge pass (for buffer width `width`): one a range of a two-way pass,
// four of a four-way one. Sized for both kinds of step 2, so that the study variants
// (warpsort_step2) fit the policy's size query.
template <class Key, class Value>
struct warpsort_plan : warpsort_shape<Key, Value> {
  using shape = warpsort_shape<Key, Value>;
  std::int64_t warp_outputs, ranges;
  temp_layout<8> layout;

  warpsort_plan(std::int64_t n, int width)
      : warpsort_plan(n, width, warpsort_four_way<warpsort_step2::bitonic_merge, Key, Value>(n)) {}
  warpsort_plan(std::int64_t n, int width, bool four_way)
      : shape(n, four_way),
        warp_outputs(shape::warp_outputs(width, n)),
        ranges((n + warp_outputs - 1) / warp_outputs),
        layout(make_layout(n, width, warp_outputs, ranges)) {}

  static temp_layout<8> make_layout(std::int64_t n, int width, std::int64_t warp_outputs,
                                    std::int64_t ranges) {
    using tuning = warpsort_tuning<Key, Value>;
    const shape pairwise(n, false), four_way(n, true);
    const shape& wider = four_way.runs > pairwise.runs ? four_way : pairwise;
    std::size_t split_bytes = static_cast<std::size_t>(ranges) * sizeof(std::int64_t);
    std::int64_t run = tuning::run;
    for (int pass = 0; pass < four_way.step2_passes; ++pass, run *= 4) {
      const std::int64_t tiles = warpsort_four_way_tiles(warp_outputs, width / 2, run, n).tiles();
      split_bytes = std::max(split_bytes, static_cast<std::size_t>(tiles) * sizeof(thread::four_way_split));
    }
    const std::size_t table = static_cast<std::size_t>(wider.runs) * tuning::buckets * sizeof(std::int64_t);
    return temp_layout<8>({static_cast<std::size_t>(n) * sizeof(Key),
                           has_values<Value> ? static_cast<std::size_t>(n) * sizeof(Value) : 0,
                           table, table, table,
                           wider.runs > 0 ? (tuning::buckets - 1) * sizeof(positioned_key<Key>) : 0,
                           wider.scan_bytes, split_bytes});
  }
};

// A merge pass's split of its n outputs: `outputs` a warp, `ranges` warps.
struct warpsort_ranges {
  std::int64_t outputs, ranges;
};

// The plan's ranges of `outputs` items stretched to whole waves of the `resident` warps the
// device holds at once, where they fill fewer than stretch_below_waves waves: there a last
// partial wave leaves most SMs idle while it runs (u32:u32 pairs at 2^24 on an H100: 4096
// ranges on 2640 resident warps, 1.55 waves; one wave of longer ranges is 6 % faster). With
// more waves the partial one overlaps the others' ends (u32 at 2^28, 10.3 waves: stretched,
// 1.6 % slower). Only ever fewer, longer ranges (the plan's count sizes the co-rank table),
// each a multiple of `granule` outputs (a merge step's, so that no step is partial).
constexpr std::int64_t stretch_below_waves = 4;
constexpr warpsort_ranges warpsort_whole_waves(std::int64_t n, std::int64_t outputs,
                                               std::int64_t granule, std::int64_t resident) {
  const std::int64_t ranges = (n + outputs - 1) / outputs;
  const std::int64_t waves = resident > 0 ? ranges / resident : 0;
  if (waves == 0 || waves >= stretch_below_waves) return {outputs, ranges};
  const std::int64_t warps = waves * resident;
  const std::int64_t fitting = ((n + warps - 1) / warps + granule - 1) / granule * granule;
  const std::int64_t stretched = fitting > outputs ? fitting : outputs;
  return {stretched, (n + stretched - 1) / stretched};
}

template <class Key, class Value, int M, bool RANK, class Pairs, class Compare>
cudaError_t warpsort_merge_pass(const warpsort_plan<Key, Value>& plan, void* temp,
                                const Key* keys_in, const Value* values_in, Key* keys_out,
                                Value* values_out, std::int64_t n, const Pairs& pairs,
                                Compare cmp, cudaStream_t stream) {
  using tuning = warpsort_tuning<Key, Value>;
  constexpr int warps = tuning::template merge_warps_per_block<M>;
  constexpr int partition_threads = 128;
  // Few ranges: each warp searches its own co-ranks; many: a partition kernel first.
  const bool searching = co_ranks_by_warp(plan.ranges);
  const auto merge_kernel =
      searching ? warpsort_merge_kernel<M, warps, RANK, true, Pairs, Key, Value, Compare>
                : warpsort_merge_kernel<M, warps, RANK, false, Pairs, Key, Value, Compare>;
  unsigned resident_blocks = 0;
  if (cudaError_t e = resident_grid(merge_kernel, 32 * warps, 0,
                                    std::numeric_limits<std::int64_t>::max(), resident_blocks))
    return e;
  const warpsort_ranges split = warpsort_whole_waves(
      n, plan.warp_outputs, 16 * M, static_cast<std::int64_t>(resident_blocks) * warps);
  std::int64_t* splits = plan.layout.template get<std::int64_t>(temp, 7);
  if (!searching)
    warpsort_partition_kernel<<<static_cast<unsigned>((split.ranges + partition_threads - 1) /
                                                      partition_threads),
                                partition_threads, 0, stream>>>(keys_in, split.outputs,
                                                                split.ranges, pairs, splits, cmp);
  merge_kernel<<<static_cast<unsigned>((split.ranges + warps - 1) / warps), 32 * warps, 0, stream>>>(
      keys_in, values_in, keys_out, values_out, n, split.outputs, splits, pairs, cmp);
  return cudaPeekAtLastError();
}

// One four-way pass: runs of `run` items become runs of 4 * run. The warps' tiles are
// stretched to whole waves of the device as warpsort_merge_pass's ranges are.
template <class Key, class Value, int M, class Compare>
cudaError_t warpsort_four_way_pass(const warpsort_plan<Key, Value>& plan, void* temp,
                                   const Key* keys_in, const Value* values_in, Key* keys_out,
                                   Value* values_out, std::int64_t n, std::int64_t run,
                                   Compare cmp, cudaStream_t stream) {
  using tuning = warpsort_tuning<Key, Value>;
  constexpr int warps = tuning::template four_way_warps_per_block<M>;
  static_assert(warps >= 1, "four-way passes for items whose three buffers fit shared memory");
  const auto kernel = warpsort_four_way_kernel<M, warps, Key, Value, Compare>;
  unsigned resident_blocks = 0;
  if (cudaError_t e = resident_grid(kernel, 32 * warps, 0, std::numeric_limits<std::int64_t>::max(),
                                    resident_blocks))
    return e;
  const warpsort_ranges stretched = warpsort_whole_waves(
      n, plan.warp_outputs, 16 * M, static_cast<std::int64_t>(resident_blocks) * warps);
  const four_run_groups<0> groups = warpsort_four_way_tiles(stretched.outputs, 16 * M, run, n);
  const std::int64_t tiles = groups.tiles();
  auto* splits = plan.layout.template get<thread::four_way_split>(temp, 7);
  const auto partition_grid =
      static_cast<unsigned>((tiles + four_way_partition_threads - 1) / four_way_partition_threads);
  four_way_partition_kernel<four_run_groups<0>, true>
      <<<partition_grid, four_way_partition_threads, 0, stream>>>(keys_in, groups, splits, tiles, cmp);
  if constexpr (four_way_coarse_stride<Key> > 1)
    four_way_partition_kernel<four_run_groups<0>, false>
        <<<partition_grid, four_way_partition_threads, 0, stream>>>(keys_in, groups, splits, tiles, cmp);
  kernel<<<static_cast<unsigned>((tiles + warps - 1) / warps), 32 * warps, 0, stream>>>(
      keys_in, values_in, keys_out, values_out, groups, tiles, splits, cmp);
  return cudaPeekAtLastError();
}

// Steps 2-4 for one buffer width (M = t / 32 items per lane).
template <int M, warpsort_step2 STEP2, class Key, class Value, class Compare>
cudaError_t warpsort_merges(const warpsort_plan<Key, Value>& plan, void* temp, Key*& keys,
                            Value*& values, Key*& other_keys, Value*& other_values,
                            std::int64_t n, Compare cmp, int last_step, cudaStream_t stream) {
  using tuning = warpsort_tuning<Key, Value>;
  constexpr bool by_rank = STEP2 == warpsort_step2::rank_merge;
  if (last_step < 2) return cudaSuccess;
  std::int64_t run = tuning::run;
  for (int pass = 0; pass < plan.step2_passes; ++pass, run *= plan.step2_ways) {
    cudaError_t e = cudaSuccess;
    if constexpr (warpsort_four_way_able<STEP2, Key, Value>) {
      if (plan.step2_ways == 4)
        e = warpsort_four_way_pass<Key, Value, M>(plan, temp, keys, values, other_keys,
                                                  other_values, n, run, cmp, stream);
    }
    if (plan.step2_ways == 2)
      e = warpsort_merge_pass<Key, Value, M, by_rank>(plan, temp, keys, values, other_keys,
                                                   other_values, n, warpsort_uniform_pairs{n, run},
                                                   cmp, stream);
    if (e != cudaSuccess) return e;
    std::swap(keys, other_keys);
    std::swap(values, other_values);
  }
  if (last_step < 3 || plan.runs == 0) return cudaSuccess;

  std::int64_t* counts = plan.layout.template get<std::int64_t>(temp, 2);
  std::int64_t* piece_begins = plan.layout.template get<std::int64_t>(temp, 3);
  std::int64_t* offsets = plan.layout.template get<std::int64_t>(temp, 4);
  auto* splitters = plan.layout.template get<positioned_key<Key>>(temp, 5);
  void* scan_temp = plan.layout.template get<char>(temp, 6);
  warpsort_splitter_kernel<tuning::sample_threads, tuning::sample_items>
      <<<1, tuning::sample_threads, 0, stream>>>(keys, n, tuning::sample_seed, tuning::buckets,
                                                 splitters, cmp);
  if (cudaError_t e = cudaPeekAtLastError()) return e;
  constexpr int locate_threads = 128;
  const std::int64_t pieces = static_cast<std::int64_t>(plan.runs) * tuning::buckets;
  warpsort_locate_kernel<<<static_cast<unsigned>((32 * pieces + locate_threads - 1) / locate_threads),
                           locate_threads, 0, stream>>>(keys, n, plan.run_after_step2, plan.runs,
                                                        tuning::buckets, splitters, counts,
                                                        piece_begins, cmp);
  if (cudaError_t e = cudaPeekAtLastError()) return e;
  std::size_t scan_bytes = plan.scan_bytes;
  if (cudaError_t e = device::bucket_offsets(scan_temp, scan_bytes, counts, offsets, plan.runs,
                                             tuning::buckets, stream))
    return e;
  if (last_step < 4) return cudaSuccess;

  for (int level = 0; level < plan.levels; ++level) {
    const warpsort_bucket_pairs pairs{offsets, counts, piece_begins, n, plan.run_after_step2,
                             plan.runs, tuning::buckets, 1 << level};
    if (cudaError_t e = warpsort_merge_pass<Key, Value, M, by_rank>(plan, temp, keys, values,
                                                                 other_keys, other_values, n,
                                                                 pairs, cmp, stream))
      return e;
    std::swap(keys, other_keys);
    std::swap(values, other_values);
  }
  return cudaSuccess;
}

template <warpsort_step1 STEP1, class Key, class Value, class Compare>
cudaError_t warpsort_step1_launch(const Key* keys_in, const Value* values_in, Key* keys_out,
                                  Value* values_out, std::int64_t n, std::int64_t runs,
                                  Compare cmp, cudaStream_t stream) {
  using tuning = warpsort_tuning<Key, Value>;
  // The block variant sorts the same runs with THREADS x ITEMS, 8 items a thread or as many
  // as keep THREADS at 1024.
  constexpr int block_items = tuning::run / 1024 > 8 ? tuning::run / 1024 : 8;
  constexpr int block_threads = tuning::run / block_items;
  if constexpr (STEP1 == warpsort_step1::block_bitonic) {
    static_assert(block_threads >= 32, "a step-1 run of at least 256 items");
    constexpr std::size_t bytes = sizeof(block::sort_tile_storage<Key, Value, block_threads, block_items>);
    const auto kernel = warpsort_block_run_kernel<block_threads, block_items, Key, Value, Compare>;
    if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
    kernel<<<static_cast<unsigned>(runs), block_threads, bytes, stream>>>(keys_in, values_in,
                                                                         keys_out, values_out, n, cmp);
  } else {
    return sort_warp_runs<plain_items<Key>>(keys_in, values_in, keys_out, values_out, n, cmp, stream);
  }
  return cudaPeekAtLastError();
}

// The whole sort for one buffer width (M = t / 32 items per lane), stopping after step
// `last_step` (1..4). *result_keys / *result_values (if given) receive where the output is:
// `keys` when all four steps ran.
template <int M, warpsort_step1 STEP1, warpsort_step2 STEP2, class Key, class Value, class Compare>
cudaError_t warpsort_run(void* temp, Key* keys, Value* values, std::int64_t n, Compare cmp,
                         cudaStream_t stream, int last_step, Key** result_keys,
                         Value** result_values) {
  const warpsort_plan<Key, Value> plan(n, 32 * M, warpsort_four_way<STEP2, Key, Value>(n));
  Key* scratch_keys = plan.layout.template get<Key>(temp, 0);
  Value* scratch_values = has_values<Value> ? plan.layout.template get<Value>(temp, 1) : values;
  // Step 1 writes where an even number of later passes lands in `keys`.
  const int passes = plan.step2_passes + plan.levels;
  const bool start_in_scratch = passes % 2 == 1;
  Key* current_keys = start_in_scratch ? scratch_keys : keys;
  Value* current_values = start_in_scratch ? scratch_values : values;
  Key* other_keys = start_in_scratch ? keys : scratch_keys;
  Value* other_values = start_in_scratch ? values : scratch_values;
  cudaError_t e = warpsort_step1_launch<STEP1>(keys, values, current_keys, current_values, n,
                                               plan.step1_runs, cmp, stream);
  if (e == cudaSuccess)
    e = warpsort_merges<M, STEP2>(
        plan, temp, current_keys, current_values, other_keys, other_values, n, cmp, last_step,
        stream);
  if (result_keys) *result_keys = current_keys;
  if (result_values) *result_values = current_values;
  return e;
}

// Buffer widths t a warp merge is built for (policy.merge_width; 0 picks the tuned one): 64
// to 256, 512 and 1024 for 4-byte items, each where one warp's buffer fits shared memory.
template <class Key, class Value>
constexpr bool warpsort_supports_width(int width) {
  using tuning = warpsort_tuning<Key, Value>;
  const bool fits = width == 64     ? tuning::template merge_warps_per_block<2> >= 1
                    : width == 128  ? tuning::template merge_warps_per_block<4> >= 1
                    : width == 256  ? tuning::template merge_warps_per_block<8> >= 1
                    : width == 512  ? tuning::template merge_warps_per_block<16> >= 1
                    : width == 1024 ? tuning::template merge_warps_per_block<32> >= 1
                                    : false;
  return fits && width <= tuning::max_merge_width;
}

// The tuned t for a sort of n items whose step 2 merges four runs a pass or two; bench_warpsort's
// ways study times each form at its own.
template <class Key, class Value>
int warpsort_tuned_width(std::int64_t n, bool four_way) {
  using tuning = warpsort_tuning<Key, Value>;
  const int widest = four_way ? std::min(tuning::widest_tuned_width, tuning::four_way_width)
                              : tuning::widest_tuned_width;
  int width = 64;
  while (2 * width <= widest && warpsort_supports_width<Key, Value>(2 * width) &&
         n >= tuning::width_doubles_from(2 * width))
    width *= 2;
  return width;
}

template <class Key, class Value>
int warpsort_width(const policy::warpsort& policy, std::int64_t n) {
  if (policy.merge_width != 0) return policy.merge_width;
  return warpsort_tuned_width<Key, Value>(n, warpsort_four_way<warpsort_step2::bitonic_merge, Key, Value>(n));
}

template <warpsort_step1 STEP1 = warpsort_step1::warp_bitonic,
          warpsort_step2 STEP2 = warpsort_step2::bitonic_merge, class Key, class Value,
          class Compare>
cudaError_t warpsort_sort(const policy::warpsort& policy, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream, int last_step = 4,
                          Key** result_keys = nullptr, Value** result_values = nullptr) {
  switch (warpsort_width<Key, Value>(policy, n)) {
    case 64:
      return warpsort_run<2, STEP1, STEP2>(temp, keys, values, n, cmp, stream, last_step,
                                           result_keys, result_values);
    case 128:
      if constexpr (warpsort_supports_width<Key, Value>(128))
        return warpsort_run<4, STEP1, STEP2>(temp, keys, values, n, cmp, stream, last_step,
                                             result_keys, result_values);
      return cudaErrorInvalidValue;
    case 256:
      if constexpr (warpsort_supports_width<Key, Value>(256))
        return warpsort_run<8, STEP1, STEP2>(temp, keys, values, n, cmp, stream, last_step,
                                             result_keys, result_values);
      return cudaErrorInvalidValue;
    case 512:
      if constexpr (warpsort_supports_width<Key, Value>(512))
        return warpsort_run<16, STEP1, STEP2>(temp, keys, values, n, cmp, stream, last_step,
                                              result_keys, result_values);
      return cudaErrorInvalidValue;
    case 1024:
      if constexpr (warpsort_supports_width<Key, Value>(1024))
        return warpsort_run<32, STEP1, STEP2>(temp, keys, values, n, cmp, stream, last_step,
                                              result_keys, result_values);
      return cudaErrorInvalidValue;
    default:
      return cudaErrorInvalidValue;
  }
}

template <>
struct algorithm<policy::warpsort> {
  static constexpr bool implemented = true;
  static constexpr bool stable = false;

  // merge_width: t, the items of a warp's merge buffer: 0 (tuned) or a supported width
  // (warpsort_supports_width).
  template <class Key, class Value>
  static cudaError_t check_policy(const policy::warpsort& policy) {
    const int width = policy.merge_width;
    return width == 0 || warpsort_supports_width<Key, Value>(width) ? cudaSuccess
                                                                    : cudaErrorInvalidValue;
  }

  template <class Key, class Value>
  static std::size_t temp_storage_bytes(const policy::warpsort& policy, std::int64_t n) {
    return warpsort_plan<Key, Value>(n, warpsort_width<Key, Value>(policy, n)).layout.total;
  }

  template <class Key, class Value, class Compare>
  static cudaError_t sort(const policy::warpsort& policy, void* temp, Key* keys, Value* values,
                          std::int64_t n, Compare cmp, cudaStream_t stream) {
    return warpsort_sort(policy, temp, keys, values, n, cmp, stream);
  }
};

}  // namespace detail
}  // namespace gpusort
