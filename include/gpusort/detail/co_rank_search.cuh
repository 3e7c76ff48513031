// gpusort/detail/co_rank_search.cuh — the merge-path co-ranks of a merge pass, searched by
// a whole warp each where they are few and by one thread each where they are many.
//
// A merge pass first finds one co-rank per output range (a partition kernel), then merges.
// Each search is a chain of dependent device-memory loads. Where the searches are few, the
// device idles through that chain, and warp::merge_path makes it about 4x shorter; where
// they are many, the warp's 32x loads cost more than the latency they hide. Measured (H200,
// policy::merge, a warp per search at every pass against a thread per search): -8 to -17 %
// at 2^16-2^22 items, -3 to 0 % at 2^24 (4096 searches), +4 to +10 % at 2^26-2^28.
// Used by policy::merge's and policy::warpsort's merge passes (which, with few ranges, both
// search in the merge kernel itself).
#pragma once

#include <gpusort/thread/merge_path.cuh>
#include <gpusort/warp/merge_path.cuh>

#include <cstdint>

namespace gpusort {
namespace detail {

// Whether a launch of `searches` co-ranks searches each by a warp.
constexpr bool co_ranks_by_warp(std::int64_t searches) { return searches <= 4096; }

// Threads a partition launch runs for `searches` co-ranks.
constexpr std::int64_t co_rank_searchers(std::int64_t searches) {
  return co_ranks_by_warp(searches) ? 32 * searches : searches;
}

// The search this thread takes part in (BY_WARP: all lanes of a warp take the same one).
template <bool BY_WARP>
__device__ __forceinline__ std::int64_t co_rank_search_index() {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  return BY_WARP ? thread / 32 : thread;
}

// Whether this thread writes its search's result (one lane of each warp).
template <bool BY_WARP>
__device__ __forceinline__ bool co_rank_writer() {
  return !BY_WARP || threadIdx.x % 32 == 0;
}

// thread::merge_path, by this thread alone or by its whole warp (every lane gets the
// co-rank; all 32 lanes must call it with the same arguments).
template <bool BY_WARP, class ItA, class ItB, class Compare>
__device__ __forceinline__ std::int64_t co_rank(ItA a, std::int64_t a_count, ItB b,
                                                std::int64_t b_count, std::int64_t diagonal,
                                                Compare cmp) {
  if constexpr (BY_WARP) return warp::merge_path(a, a_count, b, b_count, diagonal, cmp);
  else return thread::merge_path(a, a_count, b, b_count, diagonal, cmp);
}

}  // namespace detail
}  // namespace gpusort
