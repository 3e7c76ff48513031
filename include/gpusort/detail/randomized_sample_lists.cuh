// gpusort/detail/randomized_sample_lists.cuh — the work lists of a level of
// policy::randomized_sample (Leischner, Osipov & Sanders: Algorithm 1's recursion on the
// buckets, here on the large ones, the small ones sorted together) and the classification
// of a split segment's buckets into them: large buckets to the next level's lists, done
// equality buckets to the copies, runs of small buckets into groups for the bucket sort.
//
// The lists live in device memory; their counters are shared by every block of a level and
// taken with one atomic a warp. Their capacities are the worst case of
// randomized_sample_plan, so an append never overflows.
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

// Items a warp copies at a time when equality buckets move from B to A.
constexpr int rs_copy_slice = 4096;

// Counters, one int each.
enum rs_counter : int { rs_big0, rs_local0, rs_big1, rs_local1, rs_groups_a, rs_groups_b, rs_copies, rs_counters };

struct rs_segments {
  std::int64_t* begin;
  std::int64_t* end;
};

// Where a level's classification writes: the next level's work, the groups of this level's
// output buffer, the large equality buckets to copy (only when the output is B).
struct rs_outputs {
  rs_segments big, local, groups, copies;
  int *big_count, *local_count, *group_count, *copy_count;
  std::int64_t big_cap, local_cap, group_cap, copy_cap;
  std::int64_t tile, max_segment, max_group;
  bool output_is_final;
};

// One warp: the lanes whose `take` is set append their [begin, end) to `list`, with one
// atomic for the warp (the counters are shared by every block of the level: one atomic per
// item made them the bottleneck of the classification).
__device__ __forceinline__ void rs_append_warp(const rs_segments& list, int* count, std::int64_t cap,
                                               bool take, std::int64_t begin, std::int64_t end) {
  const unsigned takers = __ballot_sync(~0u, take);
  if (takers == 0) return;
  const int lane = threadIdx.x % 32;
  const int leader = __ffs(takers) - 1;
  int first = 0;
  if (lane == leader) first = atomicAdd(count, __popc(takers));
  first = __shfl_sync(~0u, first, leader);
  const int i = first + __popc(takers & ((1u << lane) - 1));
  if (take && i < cap) {  // never false: cap is the worst case of randomized_sample_plan
    list.begin[i] = begin;
    list.end[i] = end;
  }
}

// rs_classify's shared memory, passed in: rs_local_kernel keeps it in its dynamic storage
// (static shared memory there would count against the 48 KB a launch gets without opting in).
template <int NB>
struct rs_classify_storage {
  static constexpr int words = (NB + 31) / 32;
  unsigned small_buckets[words];  // bit b: bucket b is small, not empty, not done
  unsigned short group_first[NB], group_last[NB];  // bucket indices, a group each
};

// The whole block: the NB buckets of a split segment [begin, begin + size), by their starts
// (relative to the segment, ascending, in shared memory).
//  * Large buckets (more than M items) go to the next level's lists, in parallel.
//  * An equality bucket holds equal keys: it is done when large, and also when small between
//    two large buckets (the only group that could take it is itself: a sort of equal keys;
//    uniform keys leave one such bucket of the splitter itself between every two large
//    buckets). Done buckets in B are copied to A.
//  * Consecutive small buckets are grouped greedily up to G items: a group from small bucket
//    b ends at the largest e with start(e) - start(b) <= G (a large bucket inside would
//    exceed it), the next one starts at the next small bucket. Warp 0 follows that chain, a
//    step per group with 32 buckets looked at in one go, and writes the groups after one
//    atomic for all of them.
template <int THREADS, int NB>
__device__ void rs_classify(std::int64_t begin, std::int64_t size, const std::int64_t* starts,
                            const rs_outputs& out, rs_classify_storage<NB>& s) {
  static_assert(THREADS % 32 == 0, "whole warps");
  constexpr int words = rs_classify_storage<NB>::words;
  const auto start = [&](int b) { return b < NB ? starts[b] : size; };
  const auto large = [&](int b) { return start(b + 1) - start(b) > out.max_segment; };
  for (int first = 0; first < NB; first += THREADS) {
    const int b = first + static_cast<int>(threadIdx.x);
    const std::int64_t lo = start(b), hi = start(b + 1), m = hi - lo;  // past NB: empty
    const bool equal = (b & 1) != 0, is_large = m > out.max_segment;
    const bool done = equal && m > 0 && (is_large || (large(b - 1) && large(b + 1)));
    rs_append_warp(out.copies, out.copy_count, out.copy_cap, done && !out.output_is_final,
                   begin + lo, begin + hi);
    rs_append_warp(out.big, out.big_count, out.big_cap, is_large && !equal && m > out.tile,
                   begin + lo, begin + hi);
    rs_append_warp(out.local, out.local_count, out.local_cap, is_large && !equal && m <= out.tile,
                   begin + lo, begin + hi);
    const unsigned small = __ballot_sync(~0u, m > 0 && !is_large && !done);
    if (threadIdx.x % 32 == 0 && b < NB) s.small_buckets[b / 32] = small;
  }
  __syncthreads();
  if (threadIdx.x >= 32) return;
  const int lane = static_cast<int>(threadIdx.x);
  const auto next_small = [&](int b) {  // the first small bucket >= b, or NB
    for (int w0 = b / 32; w0 < words; w0 += 32) {
      const int w = w0 + lane;
      unsigned bits = w < words ? s.small_buckets[w] : 0u;
      if (w == b / 32) bits &= ~0u << (b % 32);
      const unsigned found = __ballot_sync(~0u, bits != 0);
      if (found != 0) {
        const int src = __ffs(found) - 1;
        return (w0 + src) * 32 + __ffs(__shfl_sync(~0u, bits, src)) - 1;
      }
    }
    return NB;
  };
  const auto group_end = [&](int b) {  // the largest e with start(e) - start(b) <= G
    const std::int64_t limit = start(b) + out.max_group;
    int e = b + 1;
    for (int first = b + 2; first <= NB; first += 32) {
      const int candidate = first + lane;
      const unsigned fits = __ballot_sync(~0u, candidate <= NB && start(candidate) <= limit);
      if (fits != 0) e = first + 31 - __clz(fits);  // fits is a prefix of the lanes
      if (fits != ~0u) break;
    }
    return e;
  };
  int groups = 0;
  for (int b = next_small(0); b < NB; ++groups) {
    const int e = group_end(b);
    if (lane == 0) {
      s.group_first[groups] = static_cast<unsigned short>(b);
      s.group_last[groups] = static_cast<unsigned short>(e - 1);
    }
    b = next_small(e);
  }
  __syncwarp();
  if (groups == 0) return;
  int first = 0;
  if (lane == 0) first = atomicAdd(out.group_count, groups);
  first = __shfl_sync(~0u, first, 0);
  for (int g = lane; g < groups; g += 32) {
    const std::int64_t i = std::int64_t(first) + g;
    if (i < out.group_cap) {  // never false: cap is the worst case of randomized_sample_plan
      out.groups.begin[i] = begin + start(s.group_first[g]);
      out.groups.end[i] = begin + start(s.group_last[g] + 1);
    }
  }
}

}  // namespace detail
}  // namespace gpusort
