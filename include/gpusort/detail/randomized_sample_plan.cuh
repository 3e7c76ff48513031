// gpusort/detail/randomized_sample_plan.cuh — host arithmetic of policy::randomized_sample:
// how many levels, how large a tile, and the worst-case sizes of every device-side list.
//
// The sample sort never reads bucket sizes on the host (DESIGN.md §2: asynchronous, no
// host synchronisation), so every grid and every list is sized here for the worst case that
// n alone bounds. The bounds, with M = the largest segment sort_segments sorts and P = the
// tile of one partition block (P > M):
//  * a segment is split only while it holds more than M items, and the segments of one
//    level are disjoint, so a level has at most n/(M+1) segments, at most n/(P+1) of them
//    "big" (more than P items, split by several blocks through the k×p table);
//  * a big segment of m items has ceil(m/P) <= m/P + 1 tiles, so a level's table has at
//    most n/P + n/(P+1) + 1 rows;
//  * the small buckets (at most M items) of a segment are grouped greedily, in order, into
//    groups of at most G <= M items (sorting a union of neighbouring buckets sorts each of
//    them; a bucket of more than G items is a group of its own); a group closes only when
//    the next bucket would not fit or a large bucket intervenes, so two neighbouring groups
//    of one run hold more than G items, and a level has at most 2n/G + (runs) groups,
//    runs <= large buckets + segments <= 2·n/(M+1) + 1;
//  * large equality buckets (all keys equal, > M items) are at most n/(M+1) per level.
// G is the tile of sort_segments' medium size class: its network is cheaper per item than
// the largest one's (bench_block_sort), and with k buckets per level the buckets are far
// smaller than G.
// Pure host arithmetic, tested in tests/host/test_randomized_sample_plan.cu.
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

struct randomized_sample_bounds {
  std::int64_t tile = 0;           // P: items one partition block handles
  int levels = 0;                  // scatter levels before the fallback
  std::int64_t big_segments = 0;   // segments of more than P items, per level
  std::int64_t local_segments = 0; // segments of M < m <= P items, per level
  std::int64_t table_rows = 0;     // rows of the tiles x buckets table, per level
  std::int64_t groups = 0;         // sort_segments entries, per level
  std::int64_t copies = 0;         // large equality buckets, per level
};

// P: a whole number of chunks (what a block holds in shared memory at once), as many as
// make about `target_tiles` tiles of n, between 1 and max_chunks chunks. Large tiles keep
// the k×p table small; enough tiles keep every SM busy.
constexpr std::int64_t randomized_sample_tile(std::int64_t n, std::int64_t chunk,
                                              std::int64_t target_tiles, std::int64_t max_chunks) {
  const std::int64_t chunks = n / (chunk * target_tiles);
  return chunk * (chunks < 1 ? 1 : chunks > max_chunks ? max_chunks : chunks);
}

// Levels planned: until n / (k/2)^L <= M (half of k: random sampling leaves buckets
// near m/k, rarely above twice that), plus `spare` levels; a segment still larger than M
// after them goes to the fallback sort. 0 when n <= M (one block sorts everything).
constexpr int randomized_sample_levels(std::int64_t n, std::int64_t max_segment, int buckets,
                                       int spare) {
  if (n <= max_segment) return 0;
  int levels = 0;
  for (std::int64_t m = n; m > max_segment; m = m / (buckets / 2)) ++levels;
  return levels + spare;
}

constexpr randomized_sample_bounds randomized_sample_plan(std::int64_t n, std::int64_t max_segment,
                                                          std::int64_t max_group, int buckets,
                                                          std::int64_t chunk,
                                                          std::int64_t target_tiles,
                                                          std::int64_t max_chunks, int spare) {
  randomized_sample_bounds b{};
  b.tile = randomized_sample_tile(n, chunk, target_tiles, max_chunks);
  if (b.tile <= max_segment) b.tile = (max_segment / chunk + 1) * chunk;
  b.levels = randomized_sample_levels(n, max_segment, buckets, spare);
  b.big_segments = n / (b.tile + 1) + 1;
  b.local_segments = n / (max_segment + 1) + 1;
  b.table_rows = n / b.tile + b.big_segments + 1;
  b.groups = 2 * (n / max_group) + 2 * (n / (max_segment + 1)) + 3;
  b.copies = n / (max_segment + 1) + 1;
  return b;
}

// Counter-based randomness (splitmix64 finaliser): the same (seed, level, segment, i)
// always draws the same sample, whatever the order blocks run in.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__host__ __device__ inline std::int64_t sample_index(std::uint64_t seed, int level,
                                                     std::int64_t segment_begin,
                                                     std::int64_t segment_size, int i) {
  const std::uint64_t h =
      mix64(mix64(mix64(seed ^ static_cast<std::uint64_t>(level)) ^
                  static_cast<std::uint64_t>(segment_begin)) ^
            static_cast<std::uint64_t>(i));
  return segment_begin + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(segment_size));
}

// The sorted sample index of splitter q (0 <= q < k-1) with `oversampling` samples per
// splitter: every a-th sample, the paper's S_a, S_2a, ...
__host__ __device__ constexpr int splitter_sample_rank(int q, int oversampling) {
  return (q + 1) * oversampling - 1;
}

}  // namespace detail
}  // namespace gpusort
