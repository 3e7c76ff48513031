// gpusort/device/sort_segments.cuh — sorts many independent segments that each fit one
// block, in a few launches (Dehne & Zaboli, Algorithm 1 step 9: the bucket sort;
// Leischner, Osipov & Sanders: the block-local sort of the buckets that recursion made
// small, all buckets together rather than one launch each).
//
// Segment i is items [begins[i], ends[i]) of keys_in (values_in); sorted under cmp, it is
// written to the same positions of keys_out (values_out). Out may alias in (a block holds
// its whole segment in registers before it writes). A segment longer than
// max_segment_items<Key, Value>() is neither read nor written: the caller recurses on it.
// Segments may be empty, and need not be contiguous or ordered; they must not overlap.
//
// Size classes: a segment is sorted by the smallest network whose tile holds it (one warp
// of 256 items, then 1K, 2K and 4K, up to 256 threads of 32 items each), so a bucket of 300
// items costs a 1024-item network, not an 8192-item one. Each class is one launch over all
// segments; each block reads the lengths of its share 32 at a time and sorts those of its
// class. The classes sort disjoint segments, so each launch may start while the class before
// it still runs (detail::launch_overlapped; from compute capability 9.0): the small classes,
// mostly empty under deterministic_sample, and the tail of a busy class no longer idle the GPU
// between launches (H200, bench/RESULTS.md run 65: deterministic_sample 5-6 % faster in
// geometric mean at 2^16-2^24, from 11 % faster to 6 % slower a size, unchanged at 2^28;
// launched largest first, the sort of 2^28 u64 keys was 4.5 % slower). Keys alone whose ties
// are identical are sorted by warps where a class's items a thread are whole warp chunks
// (segments_by_warps), and so are pairs whose keys pack with their ranks into 64-bit words,
// the values waiting (segments_by_ranked_warps); the others by the block bitonic sort.
// Segment lengths are read on the device only, so the caller needs no host synchronisation.
// A caller that knows bounds of them on the host (a plan's bucket bound, one segment of n)
// passes [shortest, longest]: classes that cannot hold such a segment are not launched, so
// they do not scan the list (each class reads every segment's bounds).
//
// Preconditions: begins/ends device arrays of num_segments entries, 0 <= begins[i] <=
// ends[i]. Not stable. Asynchronous on `stream`; returns the first launch error (the
// largest class opts in to more than 48 KB of shared memory: up to 98768 bytes, u32:u32
// pairs, which every GPU CUDA 13 builds for but Turing grants: 8.6, 8.9 and 12.0 grant 99 KB).
// Cost: per segment of v items, the bitonic network of the smallest class tile >= v (by
// warps: a warp's chunks in registers, the merges of the warps' runs in shared memory); a
// segment of 1- or 2-byte keys that all tie, a read and (out of place) a copy.
#pragma once

#include <gpusort/block/sort_tile.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/overlapped_launch.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/detail/resident_grid.cuh>
#include <gpusort/detail/shared_memory.cuh>
#include <gpusort/detail/warp_runs.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

// The run of a segment of pairs whose keys pack beside their ranks in one 64-bit word
// (rank_codec): the words sort by warps, the values wait in input order. Only where it takes
// no more shared memory than the block network with validity flags (segment_shape_bytes says
// why that one), so that no class changes its shape: 4-byte keys; u8 and u16 keys keep the
// block sort and their 16K huge class. Nothing for other types.
struct no_ranked_segment {};
template <class Value, int TILE>
using ranked_run_of_segment =
    ranked_run_storage<std::uint64_t, Value, warp_run_tuning<std::uint64_t, no_value>::sort_items, TILE>;
template <class Key, class Value, int THREADS, int ITEMS, class = void>
struct ranked_segment {
  using storage = no_ranked_segment;
};
template <class Key, class Value, int THREADS, int ITEMS>
struct ranked_segment<Key, Value, THREADS, ITEMS,
                      std::enable_if_t<has_values<Value> && sizeof(Key) <= 4 &&
                                       sizeof(ranked_run_of_segment<Value, THREADS * ITEMS>) <=
                                           sizeof(block::ragged_bitonic_sort_storage<Key, Value,
                                                                                     THREADS, ITEMS>)>> {
  using storage = ranked_run_of_segment<Value, THREADS * ITEMS>;
};

// A class's block in shared memory: the storage of the sort its segments take (one of the
// three), and the segments of its class that it sorts next (sort_segments_kernel says why a list). One dynamic allocation, so
// that allow_dynamic_shared sees all of it. Network: the block sort's (segment_shape_bytes
// says why another).
template <class Key, class Value, int THREADS, int ITEMS,
          class Network = block::bitonic_sort_storage<Key, Value, THREADS, ITEMS>>
struct segment_class_storage {
  union {
    block::sort_tile_storage<Key, Value, THREADS, ITEMS, Network> sort;
    warp_run_storage<Key, Value, warp_run_tuning<Key, Value>::sort_items, THREADS * ITEMS> warps;
    typename ranked_segment<Key, Value, THREADS, ITEMS>::storage ranked;
  };
  Key warp_largest[THREADS / 32];  // the padding of a segment sorted by warps
  std::int64_t listed_begin[32];
  int listed_size[32];
  int listed_count;
};

// The bytes that pick a class's shape: its storage with the block network's validity flags,
// which block::sort_tile never used but allocated until run 95. Every shape, and
// deterministic_sample's tiles (its largest class's), was tuned under that count; counted
// without the flags, 8- and 16-byte keys would take twice the items a thread (run 52 measured
// that for u64: deterministic_sample 4-29 % slower with its 16K tile). The allocation is the
// smaller storage, which fits the 99 KB that compute capability 8.6, 8.9 and 12.0 grant.
template <class Key, class Value, int THREADS, int ITEMS>
constexpr std::size_t segment_shape_bytes =
    sizeof(segment_class_storage<Key, Value, THREADS, ITEMS,
                                 block::ragged_bitonic_sort_storage<Key, Value, THREADS, ITEMS>>);

// The largest power of two <= LIMIT items per thread whose shape fits the budget.
template <class Key, class Value, int THREADS, int LIMIT,
          std::size_t BUDGET = opt_in_shared_budget>
constexpr int segment_items_fitting() {
  return largest_items_fitting<LIMIT>([](auto items) {
    return segment_shape_bytes<Key, Value, THREADS, decltype(items)::value> <= BUDGET;
  });
}

// MIN_BLOCKS: resident blocks per SM the compiler must allow (__launch_bounds__).
template <int THREADS, int ITEMS, int MIN_BLOCKS = 1>
struct tile_shape {
  static constexpr int threads = THREADS, items = ITEMS, min_blocks = MIN_BLOCKS;
  static constexpr std::int64_t tile = std::int64_t(THREADS) * ITEMS;
};

template <class... Shapes>
struct shape_list {};

// The size classes, smallest first: (threads, items per thread). 32 keys per thread is the
// fastest bitonic shape measured (bench/RESULTS.md, block sort study), and a smaller tile of
// one shape is cheaper per item (u32: 2K items 0.54, 4K 0.66, 8K 0.81 ms per 2^26), so the
// compact class is the medium one at half the threads: a segment pays for at most twice its
// length above the small class. Pairs take 16 per thread and twice the threads, the same
// tiles: 32 keys and 32 values per thread need 255 registers and spill (ptxas, u32:u32).
// Their compact and medium classes are held to 128 registers a thread (no spills; 168
// without the bound left one block of 8 warps per SM): randomized_sample u32:u32 2^28
// 45.9 -> 43.5 ms; 512 x 8 instead measured 48.8 (run 18). A class whose tile repeats a
// smaller class's (wide keys, whose storage caps the items) is skipped.
// Items of more than wide_item_bytes hold at most wide_thread_item_bytes a thread in any
// class: eight 64-byte keys a thread (the tiny and small classes' eight, which no shared
// memory bound caps) took 255 registers and spilled (ptxas); four take 157-165 and do not,
// and deterministic_sample's 64-byte keys at 2^24 sort in 52.2 ms instead of 70.0 (H100,
// bench/RESULTS.md run 42). 256 bytes is what 16-byte keys hold in their medium class
// without spilling (238 registers). Narrower items keep their measured shapes (12-byte keys
// hold 384 bytes in theirs).
template <class Key, class Value>
struct segment_sort_tuning {
  static constexpr int measured_items_per_thread = has_values<Value> ? 16 : 32;
  static constexpr int thread_scale = 32 / measured_items_per_thread;
  static constexpr std::size_t wide_item_bytes = 32;
  static constexpr std::size_t wide_thread_item_bytes = 256;
  static constexpr int max_items_per_thread =
      largest_items_fitting<measured_items_per_thread>([](auto items) {
        return item_bytes_of<Key, Value> <= wide_item_bytes ||
               decltype(items)::value * item_bytes_of<Key, Value> <= wide_thread_item_bytes;
      });
  template <int THREADS>
  static constexpr int bounded_min_blocks = has_values<Value> ? 65536 / (128 * THREADS) : 1;
  static constexpr int tiny_threads = 32, tiny_items = max_items_per_thread < 8 ? max_items_per_thread : 8;
  static constexpr int small_threads = 128, small_items = tiny_items;
  static constexpr int medium_threads = 128 * thread_scale;
  static constexpr int medium_items =
      segment_items_fitting<Key, Value, medium_threads, max_items_per_thread>();
  static constexpr int compact_threads = medium_threads / 2, compact_items = medium_items;
  static constexpr int large_threads = 256 * thread_scale;
  static constexpr int large_items =
      segment_items_fitting<Key, Value, large_threads, max_items_per_thread>();
  static constexpr std::int64_t max_items = std::int64_t(large_threads) * large_items;
  using tiny_class = tile_shape<tiny_threads, tiny_items>;
  using small_class = tile_shape<small_threads, small_items>;
  using compact_class =
      tile_shape<compact_threads, compact_items, bounded_min_blocks<compact_threads>>;
  using medium_class = tile_shape<medium_threads, medium_items, bounded_min_blocks<medium_threads>>;
  using large_class = tile_shape<large_threads, large_items>;
  using classes = shape_list<tiny_class, small_class, compact_class, medium_class, large_class>;
  // For segments made by grouping small buckets up to the medium tile (randomized_sample):
  // few fall between the small and medium tiles, and every class is a launch that reads all
  // segment lengths; with the compact class, randomized_sample u32 was 3 % slower at 2^24
  // and 0.4 % at 2^28 (H100, run 21).
  using grouped_classes = shape_list<tiny_class, small_class, medium_class, large_class>;
  // One class more, at twice the large class's threads, for a caller that reads the device's
  // opt-in limit before it lets a segment exceed max_items (huge_bytes; A100 and H100 grant
  // it): deterministic_sample's buckets of up to 16K 4-byte keys, which bound a 2^28 sort to
  // two levels. Where the budget halves the items, the tile is the large one and the class
  // is skipped.
  static constexpr int huge_threads = 2 * large_threads;
  static constexpr int huge_items =
      segment_items_fitting<Key, Value, huge_threads, max_items_per_thread, large_opt_in_shared_budget>();
  using huge_class = tile_shape<huge_threads, huge_items>;
  static constexpr bool has_huge = huge_class::tile > large_class::tile;
  static constexpr std::int64_t max_huge_items = has_huge ? huge_class::tile : max_items;
  static constexpr std::size_t huge_bytes =
      sizeof(segment_class_storage<Key, Value, huge_threads, huge_items>);
  using classes_with_huge =
      shape_list<tiny_class, small_class, compact_class, medium_class, large_class, huge_class>;
};

// Whether a class sorts its segments as warpsort's step 1 sorts a run (detail::sort_warp_run:
// warps sort chunks in registers without barriers, the block merges their runs) rather than
// by the block bitonic sort: keys alone whose ties are identical, so that a short segment is
// padded with copies of its largest key, and a thread's items whole chunks.
template <class Key, class Value, class Compare, int ITEMS>
constexpr bool segments_by_warps =
    pads_last_run<plain_items<Key>, Key, Value, Compare> && ITEMS % warp_run_tuning<Key, Value>::sort_items == 0;

// Whether a class sorts pairs as (key, rank) words by warps, each output fetching its value by
// the word's rank (as policy::merge's stable runs do), rather than by the block bitonic sort
// with the values riding: keys with an order word (rank_codec packs them), a warp's part of
// the tile whole chunks of the words, the run within the block sort's shared memory.
template <class Key, class Value, class Compare, int THREADS, int ITEMS>
constexpr bool segments_by_ranked_warps =
    order_word<Key, Compare>::exists && ITEMS % warp_run_tuning<std::uint64_t, no_value>::sort_items == 0 &&
    !std::is_same<typename ranked_segment<Key, Value, THREADS, ITEMS>::storage, no_ranked_segment>::value;

// Whether a segment whose keys all tie is left as it stands (out of place: copied) rather
// than sorted; keys alone that sort by warps are then one bit pattern, and the copies of
// their largest key that pad the run are written instead. Keys of 1 or 2 bytes
// repeat: in 2^28 u16 keys each of the 2^16 values comes 4096 times, most buckets hold one
// value, and randomized_sample sorts u16 keys 45 % faster, u16:u32 pairs 61 % with the
// batched check (30.5 -> 12.0 ms; 2^27: 22 and 27 %; 2^25-2^26 up to 1.5 % slower, where
// buckets hold many values). Wider keys repeat rarely, and the check cost uniform u32 and u64
// sorts 1.0-1.7 % (bench/RESULTS.md runs 53 to 55).
template <class Key>
constexpr bool skips_equal_segments = sizeof(Key) <= 2;

// Whether keys[0, count) (count >= 1) all tie under cmp, returned to every thread of the
// block: a segment that is then sorted as it stands. Only where its first and last keys tie
// does the block read the rest, so that a segment of many values costs two loads. A thread
// reads a batch of keys with no branch between the loads, so that they are in flight
// together, and stops after the batch that finds a key that does not tie. Measured against a
// loop that tested each key before loading the next (bench/RESULTS.md run 55): u16:u32 pairs
// at 2^28 9 % faster; reading on past such a key cost __half keys under less (NaN ties with
// every key there) 4 %.
template <int THREADS, class Key, class Compare>
__device__ __forceinline__ bool block_keys_all_tie(const Key* keys, int count, Compare cmp) {
  const Key first = keys[0], last = keys[count - 1];
  if (cmp(first, last) || cmp(last, first)) return false;
  constexpr int batch = 4;
  bool tie = true;
  for (int start = threadIdx.x; tie && start < count; start += batch * THREADS) {
#pragma unroll
    for (int j = 0; j < batch; ++j) {
      const int i = start + j * THREADS;
      if (i < count) {
        const Key key = keys[i];
        tie = tie & !cmp(first, key) & !cmp(key, first);
      }
    }
  }
  return __syncthreads_and(tie);
}

// One block sorts the segments of its class: lengths in (smaller_tile, THREADS * ITEMS].
template <int THREADS, int ITEMS, int MIN_BLOCKS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    sort_segments_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                         Value* values_out, const std::int64_t* begins, const std::int64_t* ends,
                         std::int64_t num_segments, const int* device_count,
                         std::int64_t smaller_tile, Compare cmp) {
  static_assert(THREADS % 32 == 0, "whole warps: the first one lists the segments");
  allow_next_launch();  // the next class sorts other segments: it may start beside this one
  if (device_count != nullptr) num_segments = min(num_segments, static_cast<std::int64_t>(*device_count));
  constexpr int tile = THREADS * ITEMS;
  using storage = segment_class_storage<Key, Value, THREADS, ITEMS>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  storage& shared = *reinterpret_cast<storage*>(shared_bytes);
  // The block's segments are blockIdx.x + k·gridDim.x. Its first warp reads the lengths of
  // 32 of them at once and lists those of this class: read one after another, the loads were
  // the whole cost of a class with few segments (0.42 ms of a 2^28 randomized_sample sort,
  // H100). The list holds the sorts' arguments and the loop is flat, so that little stays
  // live across a sort: a window loop around a loop over a list of indices made ptxas spill
  // 200 bytes in the pairs classes.
  std::int64_t window = -1;
  int next = 0, count = 0;
  for (;;) {
    if (next == count) {
      const std::int64_t first = blockIdx.x + ++window * 32 * std::int64_t(gridDim.x);
      if (first >= num_segments) break;
      __syncthreads();  // everyone has read the list before it is rewritten
      if (threadIdx.x < 32) {
        const std::int64_t segment = first + threadIdx.x * std::int64_t(gridDim.x);
        std::int64_t begin = 0, size = 0;
        if (segment < num_segments) {
          begin = begins[segment];
          size = ends[segment] - begin;
        }
        const bool mine = size > smaller_tile && size <= tile;
        const unsigned found = __ballot_sync(~0u, mine);
        if (mine) {
          const int at = __popc(found & ((1u << threadIdx.x) - 1u));
          shared.listed_begin[at] = begin;
          shared.listed_size[at] = static_cast<int>(size);
        }
        if (threadIdx.x == 0) shared.listed_count = __popc(found);
      }
      __syncthreads();
      count = shared.listed_count;
      next = 0;
      continue;
    }
    const std::int64_t begin = shared.listed_begin[next];
    const int size = shared.listed_size[next];
    // Keys alone that sort by warps vote within the loads that find their padding, below.
    if constexpr (skips_equal_segments<Key> && !segments_by_warps<Key, Value, Compare, ITEMS>) {
      if (block_keys_all_tie<THREADS>(keys_in + begin, size, cmp)) {
        if (keys_out != keys_in)
          for (int i = threadIdx.x; i < size; i += THREADS) keys_out[begin + i] = keys_in[begin + i];
        if constexpr (has_values<Value>) {
          if (values_out != values_in)
            for (int i = threadIdx.x; i < size; i += THREADS) values_out[begin + i] = values_in[begin + i];
        }
        ++next;
        continue;
      }
    }
    if constexpr (segments_by_warps<Key, Value, Compare, ITEMS>) {
      constexpr int warps = THREADS / 32;
      // Synchronises: the previous segment's output is read from the buffer before the
      // warps store this one.
      Key smallest_seen;
      const Key padding = block_largest_of<THREADS>(keys_in + begin, size, cmp, shared.warp_largest,
                                                    skips_equal_segments<Key> ? &smallest_seen : nullptr);
      if constexpr (skips_equal_segments<Key>) {
        if (__syncthreads_and(!cmp(smallest_seen, padding))) {
          if (keys_out != keys_in)
            for (int i = threadIdx.x; i < size; i += THREADS) keys_out[begin + i] = padding;
          ++next;
          continue;
        }
      }
      sort_warp_run<warp_run_tuning<Key, Value>::sort_items, tile / warps, warps, run_fill::padded,
                    plain_items<Key>>(keys_in + begin, values_in, keys_out + begin, values_out,
                                      size, padding, cmp, shared.warps);
    } else if constexpr (segments_by_ranked_warps<Key, Value, Compare, THREADS, ITEMS>) {
      using codec = rank_codec<Key, Compare>;
      static_assert(std::is_same<typename codec::item, std::uint64_t>::value, "packed words");
      constexpr int warps = THREADS / 32;
      __syncthreads();  // every warp has fetched the previous segment's values by rank
      sort_warp_run<warp_run_tuning<std::uint64_t, no_value>::sort_items, tile / warps, warps,
                    run_fill::padded, codec>(keys_in + begin, values_in + begin, keys_out + begin,
                                             values_out + begin, size, codec::make(keys_in[begin], absent_rank),
                                             codec::compare(cmp), shared.ranked.network,
                                             shared.ranked.values);
    } else {
      block::sort_tile<THREADS, ITEMS>(keys_in + begin, values_in + begin, keys_out + begin,
                                       values_out + begin, size, cmp, shared.sort);
    }
    ++next;
  }
  // The caller's next kernel waits for the last class only; each class waits for the one
  // before, so the last ends after all of them.
  await_previous_launch();
}

template <int THREADS, int ITEMS, int MIN_BLOCKS, class Key, class Value, class Compare>
cudaError_t launch_segment_class(const Key* keys_in, const Value* values_in, Key* keys_out,
                                 Value* values_out, const std::int64_t* begins,
                                 const std::int64_t* ends, std::int64_t num_segments,
                                 const int* device_count, std::int64_t smaller_tile, Compare cmp,
                                 cudaStream_t stream, bool overlaps_previous) {
  constexpr std::size_t bytes = sizeof(segment_class_storage<Key, Value, THREADS, ITEMS>);
  const auto kernel = sort_segments_kernel<THREADS, ITEMS, MIN_BLOCKS, Key, Value, Compare>;
  if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
  // As many blocks as are resident at once, each looping over the segments: every class
  // scans all of them, and one block per segment would launch that many blocks per class,
  // most of them only to return.
  unsigned grid = 0;
  if (cudaError_t e = resident_grid(kernel, THREADS, bytes, num_segments, grid)) return e;
  return launch_overlapped(kernel, dim3(grid), dim3(THREADS), bytes, stream, overlaps_previous,
                           keys_in, values_in, keys_out, values_out, begins, ends,
                           num_segments, device_count, smaller_tile, cmp);
}

// Launches every class of the list whose tile exceeds the tiles before it; SMALLER: the
// largest tile launched so far, whose segments the next class leaves alone.
template <std::int64_t SMALLER, class Launch>
cudaError_t launch_size_classes(const Launch&, shape_list<>) {
  return cudaSuccess;
}

template <std::int64_t SMALLER, class Launch, class Shape, class... Rest>
cudaError_t launch_size_classes(const Launch& launch, shape_list<Shape, Rest...>) {
  if constexpr (Shape::tile > SMALLER) {
    if (cudaError_t e = launch(Shape{}, SMALLER)) return e;
    return launch_size_classes<Shape::tile>(launch, shape_list<Rest...>{});
  } else {
    return launch_size_classes<SMALLER>(launch, shape_list<Rest...>{});
  }
}

// Whether the class sorting lengths (smaller_tile, tile] can meet a segment of a length in
// [shortest, longest].
__host__ __device__ constexpr bool segment_class_needed(std::int64_t smaller_tile, std::int64_t tile,
                                                        std::int64_t shortest, std::int64_t longest) {
  return smaller_tile < longest && tile >= shortest;
}

// device::sort_segments with the size classes `Classes` (a shape_list, smallest first).
// device_count (device memory, or null): where the caller's count of segments is known only
// on the device; then segments from min(num_segments, *device_count) on are left alone.
template <class Classes, class Key, class Value, class Compare>
cudaError_t sort_segments_in_classes(Classes classes, const Key* keys_in, const Value* values_in,
                                     Key* keys_out, Value* values_out, const std::int64_t* begins,
                                     const std::int64_t* ends, std::int64_t num_segments,
                                     Compare cmp, cudaStream_t stream, std::int64_t shortest,
                                     std::int64_t longest, const int* device_count = nullptr) {
  if (num_segments < 0) return cudaErrorInvalidValue;
  if (num_segments == 0) return cudaSuccess;
  bool launched_one = false;
  const auto launch = [&](auto shape, std::int64_t smaller_tile) {
    using class_shape = decltype(shape);
    if (!segment_class_needed(smaller_tile, class_shape::tile, shortest, longest)) return cudaSuccess;
    const bool overlaps_previous = launched_one;
    launched_one = true;
    return launch_segment_class<class_shape::threads, class_shape::items, class_shape::min_blocks>(
        keys_in, values_in, keys_out, values_out, begins, ends, num_segments, device_count,
        smaller_tile, cmp, stream, overlaps_previous);
  };
  return launch_size_classes<0>(launch, classes);
}

}  // namespace detail

namespace device {

// The longest segment sort_segments sorts for these types.
template <class Key, class Value = detail::no_value>
constexpr std::int64_t max_segment_items() {
  return detail::segment_sort_tuning<Key, Value>::max_items;
}

// [shortest, longest]: optional bounds of the segments' lengths, a promise by the caller
// (the defaults promise nothing): a segment outside them may be left as it is.
template <class Key, class Value, class Compare>
cudaError_t sort_segments(const Key* keys_in, const Value* values_in, Key* keys_out,
                          Value* values_out, const std::int64_t* begins, const std::int64_t* ends,
                          std::int64_t num_segments, Compare cmp, cudaStream_t stream = 0,
                          std::int64_t shortest = 0,
                          std::int64_t longest = max_segment_items<Key, Value>()) {
  using classes = typename detail::segment_sort_tuning<Key, Value>::classes;
  return detail::sort_segments_in_classes(classes{}, keys_in, values_in, keys_out, values_out,
                                          begins, ends, num_segments, cmp, stream, shortest,
                                          longest);
}

}  // namespace device
}  // namespace gpusort
