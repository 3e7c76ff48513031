// gpusort/detail/multi_merge.cuh — the stages of the multi-GPU pivot merge sort (Tanasic et
// al., section 3), written once against the transport interface of multi_transport.cuh.
//
// 1. Every shard is sorted on its GPU by the best single-GPU policy (multi_local_policy).
// 2. Merge sort over the shards: the shards [lo, hi) are split in two halves, each sorted
//    (recursively, the two halves concurrently where the transport can), then merged. A
//    merge of two sorted runs that meet at the shard boundary L finds the pivot p
//    (thread::pivot_select: Algorithm 1 generalised to unequal runs spanning several GPUs),
//    swaps [L - p, L) with [L, L + p) (equal-length contiguous ranges; every shard keeps its
//    count) and leaves each half holding two sorted runs; a half of one GPU merges them
//    locally (device::merge), a half of several GPUs repeats the same step on its own
//    shards (Figure 3, steps 4-7). A half whose two runs do not meet at a shard boundary
//    first makes the side that holds the boundary sorted, then swaps.
// Any number of shards, any counts (empty ones included). p = 0 ends a merge at once.
//
// Stage times (multi_stage_times) are a bench-only hook: the public entry points pass none.
#pragma once

#include <gpusort/detail/multi_transport.cuh>
#include <gpusort/policy.cuh>

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <vector>

namespace gpusort {
namespace detail {

// The single-GPU sort of step 1: one named choice, the measured-fastest policy.
using multi_local_policy = policy::automatic;

// Per-stage host time of one multi-GPU sort (every step is synchronized, so host time is the
// stages' device time). Stages of concurrent halves add up. swap_bytes: bytes that crossed
// from one shard to another.
struct multi_stage_times {
  double local_sort_ms = 0, pivot_ms = 0, swap_ms = 0, merge_ms = 0;
  std::int64_t swap_bytes = 0;
  int swaps = 0;
  std::mutex guard;
};

enum class multi_stage { local_sort, pivot, swap, merge };

// Runs f(), adding its duration to `stage` of *times when times is not null.
template <class F>
cudaError_t timed(multi_stage_times* times, multi_stage stage, F f) {
  if (times == nullptr) return f();
  const auto start = std::chrono::steady_clock::now();
  const cudaError_t e = f();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(times->guard);
  (stage == multi_stage::local_sort ? times->local_sort_ms
   : stage == multi_stage::pivot    ? times->pivot_ms
   : stage == multi_stage::swap     ? times->swap_ms
                                    : times->merge_ms) += ms;
  return e;
}

// The one non-empty shard of [lo, hi), or -1 when there are several (or none).
inline int only_shard(const shard_layout& layout, int lo, int hi) {
  int found = -1;
  for (int j = lo; j < hi; ++j) {
    if (layout.count(j) == 0) continue;
    if (found >= 0) return -1;
    found = j;
  }
  return found;
}

template <class Transport>
cudaError_t multi_merge_runs(Transport& t, multi_stage_times* times, int lo, int hi,
                             std::int64_t boundary);

// Shards [lo, m) and [m, hi) each hold one sorted run: pivot, swap, then each half merges
// its two runs.
template <class Transport>
cudaError_t multi_merge_halves(Transport& t, multi_stage_times* times, int lo, int m, int hi) {
  const shard_layout& layout = t.layout();
  std::int64_t p = 0;
  if (cudaError_t e = timed(times, multi_stage::pivot, [&] { return t.pivot(lo, m, hi, p); }))
    return e;
  if (p == 0) return cudaSuccess;
  const std::int64_t mid = layout.begin(m);
  const std::vector<swap_move> moves = plan_swap(layout, lo, hi, mid, p);
  if (times != nullptr) {
    std::int64_t bytes = 0;
    for (const swap_move& move : moves)
      if (move.src_shard != move.dst_shard)
        bytes += move.length * static_cast<std::int64_t>(t.item_bytes());
    std::lock_guard<std::mutex> lock(times->guard);
    times->swap_bytes += bytes;
    ++times->swaps;
  }
  if (cudaError_t e = timed(times, multi_stage::swap, [&] { return t.exchange(moves); }))
    return e;

  // A half of one GPU merges straight from the buffer; in a half of several, each swapped
  // shard takes its buffer back and the half merges its two runs.
  const int left_only = only_shard(layout, lo, m), right_only = only_shard(layout, m, hi);
  std::vector<int> shards;
  std::vector<std::int64_t> boundaries;
  for (int j : swapped_shards(moves)) {
    if (!t.involved(j, j + 1)) continue;
    const bool left = j < m;
    const bool merge_now = left ? j == left_only : j == right_only;
    const std::int64_t run_boundary = left ? mid - p : mid + p;
    shards.push_back(j);
    boundaries.push_back(merge_now ? run_boundary - layout.begin(j) : 0);
  }
  if (cudaError_t e =
          timed(times, multi_stage::merge, [&] { return t.finish(shards, boundaries); }))
    return e;
  return t.both(
      [&] { return left_only >= 0 ? cudaSuccess : multi_merge_runs(t, times, lo, m, mid - p); },
      [&] { return right_only >= 0 ? cudaSuccess : multi_merge_runs(t, times, m, hi, mid + p); });
}

// Shards [lo, hi) hold two sorted runs, [begin(lo), boundary) and [boundary, end(hi - 1)).
template <class Transport>
cudaError_t multi_merge_runs(Transport& t, multi_stage_times* times, int lo, int hi,
                             std::int64_t boundary) {
  const shard_layout& layout = t.layout();
  if (!t.involved(lo, hi)) return cudaSuccess;
  if (boundary <= layout.begin(lo) || boundary >= layout.end(hi - 1)) return cudaSuccess;
  const int only = only_shard(layout, lo, hi);
  if (only >= 0) {
    return timed(times, multi_stage::merge,
                 [&] { return t.merge_in_place(only, boundary - layout.begin(only)); });
  }
  // Split where the runs meet if that is a shard boundary (no extra step), else halfway.
  int m = -1;
  for (int k = lo + 1; k < hi && m < 0; ++k)
    if (layout.begin(k) == boundary) m = k;
  if (m < 0) m = lo + (hi - lo) / 2;
  const std::int64_t mid = layout.begin(m);
  cudaError_t e = cudaSuccess;
  if (boundary < mid) e = multi_merge_runs(t, times, lo, m, boundary);
  if (boundary > mid) e = multi_merge_runs(t, times, m, hi, boundary);
  if (e != cudaSuccess) return e;
  return multi_merge_halves(t, times, lo, m, hi);
}

template <class Transport>
cudaError_t multi_sort_range(Transport& t, multi_stage_times* times, int lo, int hi) {
  if (hi - lo <= 1 || !t.involved(lo, hi)) return cudaSuccess;
  const int m = lo + (hi - lo) / 2;
  if (cudaError_t e = t.both([&] { return multi_sort_range(t, times, lo, m); },
                             [&] { return multi_sort_range(t, times, m, hi); }))
    return e;
  return multi_merge_runs(t, times, lo, hi, t.layout().begin(m));
}

// The whole sort: local sorts, then the merge stages.
template <class Transport>
cudaError_t multi_sort(Transport& t, multi_stage_times* times) {
  if (cudaError_t e = timed(times, multi_stage::local_sort, [&] { return t.local_sort_all(); }))
    return e;
  return multi_sort_range(t, times, 0, t.layout().shards());
}

}  // namespace detail
}  // namespace gpusort
