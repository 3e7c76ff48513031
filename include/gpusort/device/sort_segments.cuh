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
// of 256 items up to 256 threads of 32 items each), so a bucket of 300 items costs a
// 1024-item network, not an 8192-item one. Each class is one launch over all segments;
// each block reads the lengths of its share 32 at a time and sorts those of its class.
// Segment lengths are read on the device only, so the caller needs no host synchronisation.
//
// Preconditions: begins/ends device arrays of num_segments entries, 0 <= begins[i] <=
// ends[i]. Not stable. Asynchronous on `stream`; returns the first launch error (the
// largest class opts in to more than 48 KB of shared memory: up to 112 KB, which every GPU
// since Volta but Turing grants).
// Cost: per segment of v items, the bitonic network of the smallest class tile >= v.
#pragma once

#include <gpusort/block/sort_tile.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/resident_grid.cuh>
#include <gpusort/detail/shared_memory.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace detail {

// A class's block in shared memory: its tile sort's storage, and the segments of its class
// that it sorts next (sort_segments_kernel says why a list). One dynamic allocation, so
// that allow_dynamic_shared sees all of it.
template <class Key, class Value, int THREADS, int ITEMS>
struct segment_class_storage {
  block::sort_tile_storage<Key, Value, THREADS, ITEMS> sort;
  std::int64_t listed_begin[32];
  int listed_size[32];
  int listed_count;
};

// The largest power of two <= LIMIT items per thread whose storage fits the budget.
template <class Key, class Value, int THREADS, int LIMIT>
constexpr int segment_items_fitting() {
  if constexpr (LIMIT == 1 ||
                sizeof(segment_class_storage<Key, Value, THREADS, LIMIT>) <= opt_in_shared_budget)
    return LIMIT;
  else
    return segment_items_fitting<Key, Value, THREADS, LIMIT / 2>();
}

// The size classes, smallest first: (threads, items per thread). 32 keys per thread is the
// fastest bitonic shape measured (bench/RESULTS.md, block sort study). Pairs take 16 per
// thread and twice the threads, the same tiles: 32 keys and 32 values per thread need 255
// registers and spill (ptxas, u32:u32). Their medium class is bounded to two blocks per SM
// (128 registers, no spills; 168 without the bound left one block of 8 warps per SM):
// randomized_sample u32:u32 2^28 45.9 -> 43.5 ms; 512 x 8 instead measured 48.8 (run 18).
template <class Key, class Value>
struct segment_sort_tuning {
  static constexpr int max_items_per_thread = has_values<Value> ? 16 : 32;
  static constexpr int thread_scale = 32 / max_items_per_thread;
  static constexpr int tiny_threads = 32, tiny_items = 8;
  static constexpr int small_threads = 128, small_items = 8;
  static constexpr int medium_threads = 128 * thread_scale;
  static constexpr int medium_items =
      segment_items_fitting<Key, Value, medium_threads, max_items_per_thread>();
  static constexpr int medium_min_blocks = has_values<Value> ? 2 : 1;
  static constexpr int large_threads = 256 * thread_scale;
  static constexpr int large_items =
      segment_items_fitting<Key, Value, large_threads, max_items_per_thread>();
  static constexpr std::int64_t max_items = std::int64_t(large_threads) * large_items;
};

// MIN_BLOCKS: resident blocks per SM the compiler must allow (__launch_bounds__).
template <int THREADS, int ITEMS, int MIN_BLOCKS = 1>
struct tile_shape {
  static constexpr int threads = THREADS, items = ITEMS, min_blocks = MIN_BLOCKS;
};

// One block sorts the segments of its class: lengths in (smaller_tile, THREADS * ITEMS].
template <int THREADS, int ITEMS, int MIN_BLOCKS, class Key, class Value, class Compare>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    sort_segments_kernel(const Key* keys_in, const Value* values_in, Key* keys_out,
                         Value* values_out, const std::int64_t* begins, const std::int64_t* ends,
                         std::int64_t num_segments, std::int64_t smaller_tile, Compare cmp) {
  static_assert(THREADS % 32 == 0, "whole warps: the first one lists the segments");
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
    block::sort_tile<THREADS, ITEMS>(keys_in + begin, values_in + begin, keys_out + begin,
                                     values_out + begin, shared.listed_size[next], cmp,
                                     shared.sort);
    ++next;
  }
}

template <int THREADS, int ITEMS, int MIN_BLOCKS, class Key, class Value, class Compare>
cudaError_t launch_segment_class(const Key* keys_in, const Value* values_in, Key* keys_out,
                                 Value* values_out, const std::int64_t* begins,
                                 const std::int64_t* ends, std::int64_t num_segments,
                                 std::int64_t smaller_tile, Compare cmp, cudaStream_t stream) {
  constexpr std::size_t bytes = sizeof(segment_class_storage<Key, Value, THREADS, ITEMS>);
  const auto kernel = sort_segments_kernel<THREADS, ITEMS, MIN_BLOCKS, Key, Value, Compare>;
  if (cudaError_t e = allow_dynamic_shared(kernel, bytes)) return e;
  // As many blocks as are resident at once, each looping over the segments: every class
  // scans all of them, and one block per segment would launch that many blocks per class,
  // most of them only to return.
  unsigned grid = 0;
  if (cudaError_t e = resident_grid(kernel, THREADS, bytes, num_segments, grid)) return e;
  kernel<<<grid, THREADS, bytes, stream>>>(keys_in, values_in, keys_out, values_out, begins, ends,
                                           num_segments, smaller_tile, cmp);
  return cudaPeekAtLastError();
}

}  // namespace detail

namespace device {

// The longest segment sort_segments sorts for these types.
template <class Key, class Value = detail::no_value>
constexpr std::int64_t max_segment_items() {
  return detail::segment_sort_tuning<Key, Value>::max_items;
}

template <class Key, class Value, class Compare>
cudaError_t sort_segments(const Key* keys_in, const Value* values_in, Key* keys_out,
                          Value* values_out, const std::int64_t* begins, const std::int64_t* ends,
                          std::int64_t num_segments, Compare cmp, cudaStream_t stream = 0) {
  using tuning = detail::segment_sort_tuning<Key, Value>;
  if (num_segments < 0) return cudaErrorInvalidValue;
  if (num_segments == 0) return cudaSuccess;
  constexpr std::int64_t tiny = tuning::tiny_threads * tuning::tiny_items;
  constexpr std::int64_t small = tuning::small_threads * tuning::small_items;
  constexpr std::int64_t medium = std::int64_t(tuning::medium_threads) * tuning::medium_items;
  constexpr std::int64_t large = tuning::max_items;
  const auto launch = [&](auto shape, std::int64_t smaller_tile) {
    using class_shape = decltype(shape);
    return detail::launch_segment_class<class_shape::threads, class_shape::items,
                                        class_shape::min_blocks>(
        keys_in, values_in, keys_out, values_out, begins, ends, num_segments, smaller_tile, cmp,
        stream);
  };
  if (cudaError_t e = launch(detail::tile_shape<tuning::tiny_threads, tuning::tiny_items>{}, 0))
    return e;
  if (cudaError_t e = launch(detail::tile_shape<tuning::small_threads, tuning::small_items>{}, tiny))
    return e;
  // Key types too large for a bigger tile make the upper classes collapse; skip repeats.
  if constexpr (medium > small) {
    if (cudaError_t e =
            launch(detail::tile_shape<tuning::medium_threads, tuning::medium_items,
                                      tuning::medium_min_blocks>{},
                   small))
      return e;
  }
  if constexpr (large > medium && large > small) {
    if (cudaError_t e = launch(detail::tile_shape<tuning::large_threads, tuning::large_items>{},
                               medium > small ? medium : small))
      return e;
  }
  return cudaSuccess;
}

}  // namespace device
}  // namespace gpusort
