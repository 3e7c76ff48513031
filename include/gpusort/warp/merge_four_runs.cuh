// gpusort/warp/merge_four_runs.cuh — one warp merges four sorted runs in one pass over device
// memory: a tree of three of warp::merge_runs' t-item bitonic buffers (Ye et al.,
// GPU-Warpsort, step 2), merge(merge(r0, r1), merge(r2, r3)).
//
// Two pair buffers merge r0 with r1 and r2 with r3 as warp::merge_runs does, but their
// outputs, t/2 at a time, go to the root buffer instead of device memory: the lower half of a
// sorted pair buffer is a block of its pair's merge, and the root takes the next block from
// the pair whose last block ended lower, exactly as merge_runs takes blocks from its two runs.
// Only the root writes to device memory. Each item still goes through two buffer merges, as in
// two pairwise passes, but is read and written once instead of twice.
//
// Padding: the largest key of all four runs, after the items that tie with it are set aside
// (warp::merge_runs), so that every real item precedes the padding in the pairs and in the
// root alike.
//
// Preconditions: as warp::merge_runs' for each run, all four runs apart from out; `storage`
// is this warp's own. Values: pass detail::no_value pointers (null) for keys only.
// Cost: about ceil(count/(t/2)) buffer steps at the root and as many in the pairs, each one
// warp::shared_bitonic_merge; every item is read and written once, coalesced; registers: the
// prefetched blocks of both pairs. Not stable.
#pragma once

#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/warp/merge_runs.cuh>
#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <cstdint>

namespace gpusort {
namespace warp {

// A warp's three merge buffers of t = 32*M items: a pair's each and the root's.
template <class Key, class Value, int M>
struct merge_four_runs_storage {
  merge_runs_storage<Key, Value, M> pairs[2];
  merge_runs_storage<Key, Value, M> root;
};

}  // namespace warp

namespace detail {

// Moves the lower half of a pair's sorted buffer into one half of the root's buffer (the upper
// ascending, the lower reversed), and returns the block's largest item.
template <int M, class Key, class Value>
__device__ __forceinline__ Key merge_four_runs_pass_up(const warp::merge_runs_storage<Key, Value, M>& pair,
                                                       bool into_upper,
                                                       warp::merge_runs_storage<Key, Value, M>& root) {
  const int lane = threadIdx.x % 32;
  merge_runs_block<Key, Value, M> block;
  __syncwarp();  // the pair's merge has stored its buffer
#pragma unroll
  for (int b = 0; b < M / 2; ++b) {
    block.keys[b] = pair.keys.load(b * 32 + lane);
    if constexpr (has_values<Value>) block.values[b] = pair.values.load(b * 32 + lane);
  }
  return merge_runs_fetch<M>(block, into_upper, root);
}

}  // namespace detail

namespace warp {

template <int M, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_four_runs(const Key* const (&keys)[4],
                                                const Value* const (&values)[4],
                                                const std::int64_t (&run_counts)[4], Key* out,
                                                Value* out_values, Compare cmp,
                                                merge_four_runs_storage<Key, Value, M>& storage) {
  static_assert(M >= 2 && (M & (M - 1)) == 0, "the buffers hold 32*M items, M >= 2 a power of two");
  constexpr int half = 16 * M;
  std::int64_t counts[4] = {run_counts[0], run_counts[1], run_counts[2], run_counts[3]};
  if (counts[0] + counts[1] + counts[2] + counts[3] <= 0) return;
  // The padding: the largest key of the four runs.
  bool found = false;
  Key largest{};
  for (int r = 0; r < 4; ++r) {
    if (counts[r] <= 0) continue;
    const Key last = keys[r][counts[r] - 1];
    if (!found || cmp(largest, last)) largest = last;
    found = true;
  }
  if constexpr (detail::has_values<Value> || !detail::ties_are_identical<Key, Compare>::value)
    detail::merge_runs_set_aside_ties<M>(keys, values, counts, largest, out, out_values, cmp,
                                         storage.root);
  const std::int64_t low_count = counts[0] + counts[1], high_count = counts[2] + counts[3];
  const std::int64_t total = low_count + high_count;
  if (total <= 0) return;
  detail::run_pair_merge<M, Key, Value> low(keys[0], values[0], counts[0], keys[1], values[1],
                                            counts[1], largest);
  detail::run_pair_merge<M, Key, Value> high(keys[2], values[2], counts[2], keys[3], values[3],
                                             counts[3], largest);
  auto& low_buffer = storage.pairs[0];
  auto& high_buffer = storage.pairs[1];
  low.start(low_buffer, cmp);
  high.start(high_buffer, cmp);
  // The root starts like a pair: the first block of the low pair ascending in its upper half,
  // the high pair's reversed in its lower half.
  shared_bitonic_merge<M>(low_buffer.keys, low_buffer.values, cmp);
  Key low_max = detail::merge_four_runs_pass_up<M>(low_buffer, true, storage.root);
  low.refill(low_buffer, cmp);
  shared_bitonic_merge<M>(high_buffer.keys, high_buffer.values, cmp);
  Key high_max = detail::merge_four_runs_pass_up<M>(high_buffer, false, storage.root);
  high.refill(high_buffer, cmp);
  std::int64_t low_passed = half, high_passed = half;
  for (std::int64_t written = 0;;) {
    shared_bitonic_merge<M>(storage.root.keys, storage.root.values, cmp);
    detail::merge_runs_emit<M>(out + written,
                               detail::has_values<Value> ? out_values + written : out_values,
                               total - written, storage.root);
    written += half;
    if (written >= total) break;
    // As run_pair_merge::next_from_a, with the pairs' merges as the runs.
    const bool low_left = low_passed < low_count, high_left = high_passed < high_count;
    if (low_left && (!high_left || !cmp(high_max, low_max))) {
      shared_bitonic_merge<M>(low_buffer.keys, low_buffer.values, cmp);
      low_max = detail::merge_four_runs_pass_up<M>(low_buffer, false, storage.root);
      low.refill(low_buffer, cmp);
      low_passed += half;
    } else {
      shared_bitonic_merge<M>(high_buffer.keys, high_buffer.values, cmp);
      high_max = detail::merge_four_runs_pass_up<M>(high_buffer, false, storage.root);
      high.refill(high_buffer, cmp);
      high_passed += half;
    }
  }
}

}  // namespace warp
}  // namespace gpusort
