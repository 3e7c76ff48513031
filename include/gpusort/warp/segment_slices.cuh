// gpusort/warp/segment_slices.cuh — warp::for_each_slice: the ranges of a device-side list
// cut into slices of SLICE items and dealt round-robin to every warp of a grid.
//
// One block per range leaves a GPU idle when a few ranges hold most of the items (one large
// equality bucket holds all of an all-equal input); slices keep every warp busy whatever the
// lengths. Each warp walks the list 32 ranges at a time (a coalesced load and a warp scan of
// the slice counts), so a list of K ranges costs every warp K/32 steps, not K.
//
// Preconditions: all 32 lanes of the warp call it with the same arguments; `worker` in
// [0, workers). f(lo, hi) is called by the whole warp (lanes converged) once for each slice
// [lo, hi) this worker owns, hi − lo <= SLICE; the slices of all workers cover every range
// exactly once.
#pragma once

#include <gpusort/warp/inclusive_sum.cuh>

#include <cstdint>

namespace gpusort {
namespace warp {

template <int SLICE, class F>
__device__ void for_each_slice(const std::int64_t* begins, const std::int64_t* ends,
                               std::int64_t count, std::int64_t worker, std::int64_t workers,
                               F&& f) {
  static_assert(SLICE > 0, "slices hold at least one item");
  constexpr unsigned all_lanes = 0xffffffffu;
  const int lane = static_cast<int>(threadIdx.x % 32);
  std::int64_t slices_before = 0;  // slices of the ranges of earlier groups of 32
  for (std::int64_t first = 0; first < count; first += 32) {
    std::int64_t begin = 0, end = 0;
    if (first + lane < count) {
      begin = begins[first + lane];
      end = ends[first + lane];
    }
    const std::int64_t slices = end > begin ? (end - begin + SLICE - 1) / SLICE : 0;
    const std::int64_t through = inclusive_sum(slices);
    // Global slice numbers of this lane's range: [start, start + slices). Its first one that
    // belongs to `worker` (slice j goes to worker j mod workers).
    const std::int64_t start = slices_before + through - slices;
    const std::int64_t owned = start + ((worker - start % workers) + workers) % workers;
    unsigned pending = __ballot_sync(all_lanes, owned < start + slices);
    while (pending != 0) {
      const int l = __ffs(pending) - 1;
      pending &= pending - 1;
      const std::int64_t range_begin = __shfl_sync(all_lanes, begin, l);
      const std::int64_t range_end = __shfl_sync(all_lanes, end, l);
      const std::int64_t range_start = __shfl_sync(all_lanes, start, l);
      const std::int64_t range_slices = __shfl_sync(all_lanes, slices, l);
      for (std::int64_t j = __shfl_sync(all_lanes, owned, l); j < range_start + range_slices;
           j += workers) {
        const std::int64_t lo = range_begin + (j - range_start) * SLICE;
        f(lo, lo + SLICE < range_end ? lo + SLICE : range_end);
      }
    }
    slices_before += __shfl_sync(all_lanes, through, 31);
  }
}

}  // namespace warp
}  // namespace gpusort
