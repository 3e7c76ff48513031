// gpusort/detail/deterministic_sample_plan.cuh — the host-side plan of the deterministic
// sample sort's recursion (Dehne & Zaboli, Algorithm 1, with step 9 recursing).
//
// Why the host can plan everything without reading device data: a level cuts every segment
// of at most B items into tiles of T items, takes s regular samples per sorted tile, and
// splits the segment at every m-th of its m·s sorted samples (m = its tile count). Ties are
// broken by position (detail::precedes), so all items are distinct and, by the regular-
// sampling argument of Shi & Schaeffer, every bucket holds at most
//     2 · ceil(B / T) · ceil(T / s)   (about 2B / s)
// items, whatever the keys. The bounds of all levels follow from n alone, so the number of
// levels, the worst-case grid of every launch and every temp array are known up front; the
// kernels read the real segment sizes and idle blocks exit.
//
// Levels run until the bound fits one block of the final bucket sort (max_segment items,
// device::sort_segments). A level launches at most min(floor((n + K(T - 1)) / T), K·ceil(B/T))
// tile blocks for K input segments: a segment's tiles waste at most one partial tile.
// All arithmetic is __host__ __device__ and tested on the host.
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

__host__ __device__ inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// The largest bucket one level makes of segments of at most `segment_bound` items.
__host__ __device__ inline std::int64_t deterministic_sample_bucket_bound(std::int64_t segment_bound,
                                                                          std::int64_t tile_items,
                                                                          std::int64_t samples) {
  const std::int64_t bound = 2 * ceil_div(segment_bound, tile_items) * ceil_div(tile_items, samples);
  // A bucket is part of its segment.
  return bound < segment_bound ? bound : segment_bound;
}

// Tile blocks a level launches: an upper bound of the real tiles of K segments of at most
// `segment_bound` items that together hold n items.
__host__ __device__ inline std::int64_t deterministic_sample_level_rows(std::int64_t n,
                                                                        std::int64_t segments,
                                                                        std::int64_t segment_bound,
                                                                        std::int64_t tile_items) {
  const std::int64_t by_total = (n + segments * (tile_items - 1)) / tile_items;
  const std::int64_t by_bound = segments * ceil_div(segment_bound, tile_items);
  return by_total < by_bound ? by_total : by_bound;
}

struct deterministic_sample_plan {
  // Enough for n = 2^40 with s = 16; a policy needing more is refused.
  static constexpr int max_levels = 8;
  // Segment counts above this would make the tables of a level exceed any device memory.
  static constexpr std::int64_t max_segment_count = std::int64_t(1) << 32;

  std::int64_t n = 0;
  std::int64_t tile_items = 0;
  std::int64_t samples = 0;      // s: samples per tile = buckets per segment
  std::int64_t max_segment = 0;  // the longest segment the final bucket sort sorts
  bool feasible = false;         // false: the bound does not shrink, or too many levels
  int levels = 0;                // partition levels before the bucket sort

  // Per level l < levels: K segments of at most bound items enter; rows tile blocks run.
  // segments[levels] / bound[levels]: what the final bucket sort gets.
  std::int64_t segments[max_levels + 1] = {};
  std::int64_t bound[max_levels + 1] = {};
  std::int64_t rows[max_levels] = {};

  std::int64_t max_rows = 0;      // largest rows[l]: sizes the m×s tables
  std::int64_t max_segments = 0;  // largest segments[l], final included

  __host__ __device__ deterministic_sample_plan(std::int64_t n_, std::int64_t tile_items_,
                                                std::int64_t samples_, std::int64_t max_segment_)
      : n(n_), tile_items(tile_items_), samples(samples_), max_segment(max_segment_) {
    if (n < 0 || tile_items < 1 || samples < 2 || max_segment < 1) return;
    segments[0] = 1;
    bound[0] = n;
    max_segments = 1;
    while (bound[levels] > max_segment) {
      if (levels == max_levels) return;
      const std::int64_t next = deterministic_sample_bucket_bound(bound[levels], tile_items, samples);
      if (next >= bound[levels]) return;  // no progress: s too small for this tile
      if (segments[levels] > max_segment_count / samples) return;
      rows[levels] = deterministic_sample_level_rows(n, segments[levels], bound[levels], tile_items);
      if (rows[levels] > max_rows) max_rows = rows[levels];
      segments[levels + 1] = segments[levels] * samples;
      bound[levels + 1] = next;
      if (segments[levels + 1] > max_segments) max_segments = segments[levels + 1];
      ++levels;
    }
    feasible = true;
  }
};

// The binary searches that step 4's merge of `level`'s sorted sample rows makes for one
// row (block::merge_sorted_row): its segment's tiles times s. The level makes rows times as
// many, so the merge's work grows with the square of a segment's tiles.
__host__ __device__ inline std::int64_t deterministic_sample_row_searches(
    const deterministic_sample_plan& plan, int level) {
  return ceil_div(plan.bound[level], plan.tile_items) * plan.samples;
}

// Where step 4 merges a level's sorted sample rows rather than sorting all its samples:
// where a row's searches are at most `row_searches` (one block ranks the row), or else the
// level's at most `level_searches` (blocks rank it in parts).
struct deterministic_sample_merge_limits {
  std::int64_t row_searches;
  std::int64_t level_searches;
};

__host__ __device__ inline bool deterministic_sample_merges_rows(const deterministic_sample_plan& plan,
                                                                 int level,
                                                                 const deterministic_sample_merge_limits& limits) {
  if (level >= plan.levels) return false;
  const std::int64_t row_searches = deterministic_sample_row_searches(plan, level);
  return row_searches <= limits.row_searches || row_searches <= limits.level_searches / plan.rows[level];
}

// Estimated device time of a plan, to choose the default s. A level sorts all its tile
// rows whole (a part-filled tile costs a full network: rows·T, not n), moves every item a
// few times (relocation, tables), sorts its rows·s samples and pays a fixed launch overhead;
// the bucket sort pays per final segment (its size classes read every segment's bounds,
// and tiny segments cost a block's setup each) and per item and stage of the network that
// sorts a bucket a tenth above the mean: buckets spread around their mean, and where the
// mean is a size class's tile those above it take the next class (H200, u32 2^24 to 2^28:
// the fastest s gives a mean of 0.89 of a tile; at 2^26 a mean of 4096 took 3.56 ms and
// 1820 took 3.41; bench/RESULTS.md run 56). Fewer buckets than the device runs blocks at
// once leave SMs idle: the network then costs as if every one of those blocks had a bucket
// (H200, 2^16 to 2^21: s that made fewer buckets than its 132 SMs ran up to 16 % slower
// than the fastest; run 63). Step 4 of a level costs by its form: a merge of the sorted
// sample rows per binary search (rows times a row's searches: the merge's work grows with the
// square of a segment's tiles), a sort of the samples a chain of launches (bench/RESULTS.md
// run 66).
// Fitted to the time-vs-s sweep of bench_deterministic_sample (runs 22 and 31); only the
// ranking matters.
struct deterministic_sample_costs {
  double tile_slot_ns;      // per slot of a level's tiles, rows·T
  double level_item_ns;     // per item and level
  double sample_ns;         // per sample sorted
  double final_segment_ns;  // per segment of the bucket sort
  double level_ns;          // per level
  double final_stage_ns;    // per item and network stage of the bucket sort
  double final_blocks_per_sm;  // buckets an SM sorts at once; 0: not fitted, no idle SMs priced
  double merged_search_ns;         // per search of a level whose step 4 merges sample rows
  double sorted_samples_level_ns;  // per level whose step 4 sorts its samples
};

// Stages of the bitonic network of the smallest power of two holding a bucket a tenth above
// the plan's mean bucket.
__host__ __device__ inline double deterministic_sample_final_stages(const deterministic_sample_plan& plan) {
  const double mean = static_cast<double>(plan.n) / static_cast<double>(plan.segments[plan.levels]);
  double tile = 1, log_tile = 0;
  while (tile < 1.1 * mean) {
    tile *= 2;
    ++log_tile;
  }
  return log_tile * (log_tile + 1) / 2;
}

// `sms`: the device's multiprocessors.
__host__ __device__ inline double deterministic_sample_estimate(const deterministic_sample_plan& plan,
                                                                const deterministic_sample_costs& c,
                                                                const deterministic_sample_merge_limits& merge,
                                                                int sms) {
  const double buckets = static_cast<double>(plan.segments[plan.levels]);
  const double concurrent_buckets = c.final_blocks_per_sm * sms;
  const double network_items =
      buckets < concurrent_buckets ? static_cast<double>(plan.n) / buckets * concurrent_buckets
                                   : static_cast<double>(plan.n);
  double ns = static_cast<double>(plan.n) * c.level_item_ns * plan.levels + buckets * c.final_segment_ns +
              network_items * c.final_stage_ns * deterministic_sample_final_stages(plan);
  for (int l = 0; l < plan.levels; ++l) {
    const double rows = static_cast<double>(plan.rows[l]);
    ns += rows * static_cast<double>(plan.tile_items) * c.tile_slot_ns +
          rows * static_cast<double>(plan.samples) * c.sample_ns + c.level_ns;
    ns += deterministic_sample_merges_rows(plan, l, merge)
              ? rows * static_cast<double>(deterministic_sample_row_searches(plan, l)) * c.merged_search_ns
              : c.sorted_samples_level_ns;
  }
  return ns;
}

// The candidate s in [min_samples, max_samples] (and <= tile_items) whose feasible plan has
// the least estimated time; 0 if none is feasible. Candidates: the powers of two and the
// points halfway between them (3·2^k): a level's bound falls with s in steps, and where a
// power of two leaves the last bound just above the bucket sort's largest segment, the
// halfway s saves a level (u32:u32 at 2^28: 384 instead of 256 makes two levels, not three;
// bench/RESULTS.md run 31).
__host__ __device__ inline int deterministic_sample_choose_samples(std::int64_t n, std::int64_t tile_items,
                                                                   std::int64_t max_segment,
                                                                   int min_samples, int max_samples,
                                                                   const deterministic_sample_costs& c,
                                                                   const deterministic_sample_merge_limits& merge,
                                                                   int sms) {
  int best = 0;
  double best_ns = 0;
  for (int power = 1; power <= max_samples && power <= tile_items; power *= 2) {
    for (const int s : {power, power + power / 2}) {
      if ((s != power && power < 2) || s < min_samples || s > max_samples || s > tile_items) continue;
      const deterministic_sample_plan plan(n, tile_items, s, max_segment);
      if (!plan.feasible) continue;
      const double ns = deterministic_sample_estimate(plan, c, merge, sms);
      if (best == 0 || ns < best_ns) {
        best = s;
        best_ns = ns;
      }
    }
  }
  return best;
}

}  // namespace detail
}  // namespace gpusort
