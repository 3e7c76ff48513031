// Host tests of the deterministic sample sort's host-side arithmetic: the per-level bucket
// bound (against a plain C++ simulation of one level, ties broken by position, on inputs
// with many duplicates), the plan of the recursion (levels, bounds, worst-case rows), the
// row-to-tile map of the kernels, the segmented column-major order of the offset scan, the
// policy-field checks, and the whole multi-level pipeline run on the host with the kernels'
// own __host__ __device__ helpers, launch by launch as the sort plans it. No GPU needed.
#include "common/catch.hpp"
#include "common/key_types.cuh"

#include <gpusort/block/locate_splitters.cuh>
#include <gpusort/block/regular_sample.cuh>
#include <gpusort/compare.cuh>
#include <gpusort/detail/deterministic_sample_plan.cuh>
#include <gpusort/detail/deterministic_sample_sort.cuh>
#include <gpusort/detail/positioned.cuh>
#include <gpusort/detail/bucket_major_index.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using gpusort::detail::deterministic_sample_bucket_bound;
using gpusort::detail::deterministic_sample_plan;

// One level of Algorithm 1 on the host for one segment: tile sort, s regular samples per
// tile, sort of all samples by (key, position), the library's splitters (every m-th sample), buckets
// counted with the library's own splitter_rank. Returns the bucket sizes.
std::vector<std::int64_t> simulate_level(std::vector<std::uint32_t> keys, int tile, int s) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const std::int64_t m = (n + tile - 1) / tile;
  struct sample { std::uint32_t key; std::int64_t position; };
  std::vector<sample> samples;
  for (std::int64_t t = 0; t < m; ++t) {
    const std::int64_t offset = t * tile;
    const int valid = static_cast<int>(std::min<std::int64_t>(tile, n - offset));
    std::sort(keys.begin() + offset, keys.begin() + offset + valid);
    for (int j = 0; j < s; ++j) {
      const int i = gpusort::block::regular_sample_index(j, valid, s);
      samples.push_back({keys[offset + i], offset + i});
    }
  }
  const gpusort::less cmp{};
  std::sort(samples.begin(), samples.end(), [&](const sample& a, const sample& b) {
    return gpusort::detail::precedes(a.key, a.position, b.key, b.position, cmp);
  });
  std::vector<std::int64_t> buckets(s, 0);
  for (std::int64_t t = 0; t < m; ++t) {
    const std::int64_t offset = t * tile;
    const int valid = static_cast<int>(std::min<std::int64_t>(tile, n - offset));
    int previous = 0;
    for (int b = 0; b < s; ++b) {
      int rank = valid;
      if (b < s - 1) {
        const sample& g = samples[gpusort::detail::deterministic_sample_splitter_index(b, m)];
        rank = gpusort::block::splitter_rank(keys.data() + offset, 0, valid, offset, g.key,
                                             g.position, cmp);
      }
      buckets[b] += rank - previous;
      previous = rank;
    }
  }
  return buckets;
}

std::vector<std::uint32_t> make_keys(std::int64_t n, int distinct, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = distinct == 0 ? static_cast<std::uint32_t>(rng()) : rng() % distinct;
  return keys;
}

}  // namespace

TEST_CASE("one level's buckets never exceed the bound, duplicates or not", "[deterministic_sample]") {
  const int distinct = GENERATE(0, 1, 2, 17, 1000);
  const int tile = GENERATE(64, 256);
  const int s = GENERATE(4, 7, 16, 64);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(63), std::int64_t(1000),
                                  std::int64_t(4097), std::int64_t(20011));
  if (s > tile) return;
  INFO("distinct " << distinct << ", tile " << tile << ", s " << s << ", n " << n);
  const auto buckets = simulate_level(make_keys(n, distinct, 7 + n), tile, s);
  std::int64_t total = 0, largest = 0;
  for (std::int64_t b : buckets) {
    total += b;
    largest = std::max(largest, b);
  }
  CHECK(total == n);
  CHECK(largest <= deterministic_sample_bucket_bound(n, tile, s));
  // Ties by position: all-equal keys split as evenly as distinct keys (within one gap).
  if (distinct == 1 && n >= 4 * tile)
    CHECK(largest <= 2 * ((n + tile - 1) / tile) * ((tile + s - 1) / s));
}

// The splitters' offset within each group of m samples decides the first and last buckets
// (deterministic_sample_splitter_index): the least sample of the next group made the first
// bucket of random keys 1.53 times the mean here, the median would make the last of ordered
// keys 1.48 times.
TEST_CASE("the first and last buckets are about as large as the rest, random keys or ordered",
          "[deterministic_sample]") {
  const std::int64_t n = std::int64_t(1) << 16;
  const int tile = 1024, s = 32;
  std::vector<std::uint32_t> ordered(n);
  for (std::int64_t i = 0; i < n; ++i) ordered[i] = static_cast<std::uint32_t>(i);
  const std::vector<std::uint32_t> equal(n, 5);
  const std::vector<std::int64_t> random_buckets = simulate_level(make_keys(n, 0, 5), tile, s);
  const std::vector<std::int64_t> ordered_buckets = simulate_level(ordered, tile, s);
  const std::vector<std::int64_t> equal_buckets = simulate_level(equal, tile, s);
  const double mean = static_cast<double>(n) / s;
  for (int b = 0; b < s; ++b) {
    INFO("bucket " << b << ": " << random_buckets[b] << " random, " << ordered_buckets[b]
                   << " ordered, " << equal_buckets[b] << " equal");
    CHECK(random_buckets[b] <= 1.25 * mean);
    CHECK(ordered_buckets[b] <= 1.25 * mean);
    CHECK(equal_buckets[b] <= 1.25 * mean);
  }
}

TEST_CASE("the plan shrinks the bound every level until one block sorts a segment",
          "[deterministic_sample]") {
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(8192), std::int64_t(8193),
                                  std::int64_t(1) << 20, std::int64_t(999983),
                                  std::int64_t(1) << 28, (std::int64_t(1) << 31) + 4097);
  const int tile = GENERATE(4096, 8192);
  const int s = GENERATE(4, 16, 64, 256, 1024);
  const std::int64_t max_segment = 8192;
  const deterministic_sample_plan plan(n, tile, s, max_segment);
  INFO("n " << n << ", tile " << tile << ", s " << s << ", levels " << plan.levels);
  if (!plan.feasible) {
    // Only small s may need more levels than the plan allows.
    CHECK(s == 4);
    return;
  }
  CHECK(plan.bound[0] == n);
  CHECK(plan.segments[0] == 1);
  CHECK(plan.bound[plan.levels] <= max_segment);
  if (n <= max_segment) CHECK(plan.levels == 0);
  for (int l = 0; l < plan.levels; ++l) {
    CHECK(plan.bound[l + 1] < plan.bound[l]);
    CHECK(plan.bound[l + 1] == deterministic_sample_bucket_bound(plan.bound[l], tile, s));
    CHECK(plan.segments[l + 1] == plan.segments[l] * s);
    CHECK(plan.rows[l] >= (n + tile - 1) / tile);  // at least the tiles of a full array
    CHECK(plan.rows[l] <= plan.max_rows);
    // Worst partitions: all segments as large as the bound, or one large and the rest empty.
    const std::int64_t k = plan.segments[l];
    const std::int64_t b = plan.bound[l];
    const std::int64_t full = std::min(k, n / b);
    std::int64_t tiles = full * ((b + tile - 1) / tile);
    const std::int64_t rest = n - full * b;
    if (rest > 0) tiles += (rest + tile - 1) / tile;
    CHECK(tiles <= plan.rows[l]);
  }
  // The issue's target case: u32 2^28 in 8K tiles.
  if (n == std::int64_t(1) << 28 && tile == 8192 && s == 256) CHECK(plan.levels == 3);
  if (n == std::int64_t(1) << 28 && tile == 8192 && s == 1024) CHECK(plan.levels == 2);
}

TEST_CASE("a level merges its sorted sample rows only where its searches are few",
          "[deterministic_sample]") {
  // 2^20 in 8K tiles with s = 192: 128 rows, each searched in its segment's 128 rows of 192.
  const deterministic_sample_plan small(std::int64_t(1) << 20, 8192, 192, 16384);
  REQUIRE(small.levels == 1);
  REQUIRE(small.rows[0] == 128);
  CHECK(deterministic_sample_row_searches(small, 0) == 128 * 192);
  CHECK(deterministic_sample_merges_rows(small, 0, {128 * 192, 0}));  // a block a row
  CHECK_FALSE(deterministic_sample_merges_rows(small, 0, {128 * 192 - 1, 0}));
  CHECK(deterministic_sample_merges_rows(small, 0, {0, 128 * 128 * 192}));  // in parts
  CHECK_FALSE(deterministic_sample_merges_rows(small, 0, {128 * 192 - 1, 128 * 128 * 192 - 1}));
  CHECK_FALSE(deterministic_sample_merges_rows(small, 1, {1 << 30, 1 << 30}));  // the bucket sort: no level
  // 2^24 in 16K tiles with s = 96: the first level's one segment has 1024 tiles; the
  // second's segments hold at most ceil(bound / tile) = 22 tiles.
  const deterministic_sample_plan large(std::int64_t(1) << 24, 16384, 96, 16384);
  REQUIRE(large.levels == 2);
  CHECK(deterministic_sample_row_searches(large, 0) == 1024 * 96);
  CHECK_FALSE(deterministic_sample_merges_rows(large, 0, {1 << 13, 1 << 24}));
  CHECK((large.bound[1] + 16383) / 16384 == 22);
  CHECK(deterministic_sample_row_searches(large, 1) == 22 * 96);
  CHECK(deterministic_sample_merges_rows(large, 1, {22 * 96, 0}));
  CHECK_FALSE(deterministic_sample_merges_rows(large, 1, {22 * 96 - 1, large.rows[1] * 22 * 96 - 1}));
  CHECK(deterministic_sample_merges_rows(large, 1, {0, large.rows[1] * 22 * 96}));
}

// Where step 4 merges a level's rows in several groups: the groups cover a segment's rows, none
// empty, each within what the merge stages.
template <class Table, class Tuning>
void check_merge_groups(std::int64_t tile) {
  namespace d = gpusort::detail;
  int grouped_levels = 0;
  for (std::int64_t n : {std::int64_t(1) << 18, std::int64_t(3) << 18, std::int64_t(999983), std::int64_t(1) << 20,
                         std::int64_t(1) << 21, std::int64_t(1) << 22}) {
    for (int s : {32, 64, 90, 96, 128, 192, 256, 384, 1024}) {
      const deterministic_sample_plan plan(n, tile, s, 16384);
      if (!plan.feasible) continue;
      for (int level = 0; level < plan.levels; ++level) {
        const auto merge = d::deterministic_sample_merge_groups<Table, Tuning>(plan, level);
        if (merge.groups < 2) continue;
        ++grouped_levels;
        CAPTURE(n, s, level, merge.groups, merge.group_rows);
        const std::int64_t tiles = (plan.bound[level] + tile - 1) / tile;
        CHECK(std::int64_t{merge.groups} * merge.group_rows >= tiles);
        CHECK(std::int64_t{merge.groups - 1} * merge.group_rows < tiles);
        CHECK(std::int64_t{merge.group_rows} * s <= std::max<std::int64_t>(s, Tuning::merged_row_group_searches));
        CHECK(gpusort::block::merge_sorted_rows_bytes<typename Table::entry>(s, merge.group_rows) <=
              Tuning::merge_rows_shared);
      }
    }
  }
  CHECK(grouped_levels > 0);
}

TEST_CASE("step 4's groups cover a segment's rows", "[deterministic_sample]") {
  namespace d = gpusort::detail;
  using u32_setup = d::deterministic_sample_setup<std::uint32_t, d::no_value>;
  using u32_table = d::deterministic_sample_table<u32_setup::narrow_codec<gpusort::less>, std::uint32_t, gpusort::less>;
  check_merge_groups<u32_table, u32_setup::tuning>(8192);
  using u64_setup = d::deterministic_sample_setup<std::uint64_t, d::no_value>;
  using u64_table = d::deterministic_sample_table<u64_setup::narrow_codec<gpusort::less>, std::uint64_t, gpusort::less>;
  check_merge_groups<u64_table, u64_setup::tuning>(4096);
  using key16 = gpusort_test::key16;
  using key16_less = gpusort_test::key16_less;
  using key16_setup = d::deterministic_sample_setup<key16, d::no_value>;
  check_merge_groups<d::deterministic_sample_table<key16_setup::narrow_codec<key16_less>, key16, key16_less>,
                     key16_setup::tuning>(4096);
  // u32 at 2^20, the tuned s: 7 groups of 19 rows (the last 14).
  const auto merge = d::deterministic_sample_merge_groups<u32_table, u32_setup::tuning>(
      deterministic_sample_plan(std::int64_t(1) << 20, 8192, 192, 16384), 0);
  CHECK(merge.groups == 7);
  CHECK(merge.group_rows == 19);
}

TEST_CASE("a level that cannot shrink its segments is refused", "[deterministic_sample]") {
  CHECK_FALSE(deterministic_sample_plan(std::int64_t(1) << 20, 4096, 2, 4096).feasible);
  CHECK_FALSE(deterministic_sample_plan(std::int64_t(1) << 40, 8192, 4, 8192).feasible);
  CHECK(deterministic_sample_plan(0, 4096, 64, 4096).feasible);
  CHECK(deterministic_sample_plan(0, 4096, 64, 4096).levels == 0);
}

TEST_CASE("rows map to the tiles of their segments; empty segments have none",
          "[deterministic_sample]") {
  // Segments [0,10) [10,10) [10,25) [25,25) [25,26); tiles of 4.
  const std::vector<std::int64_t> offsets{0, 10, 10, 25, 25, 26};
  const std::int64_t k = 5, tile = 4;
  std::vector<std::int64_t> starts(k + 1, 0);
  for (std::int64_t i = 0; i < k; ++i)
    starts[i + 1] = starts[i] + (offsets[i + 1] - offsets[i] + tile - 1) / tile;
  REQUIRE(starts.back() == 3 + 0 + 4 + 0 + 1);
  std::vector<int> covered(26, 0);
  for (std::int64_t row = 0; row < 12; ++row) {
    const auto t = gpusort::detail::find_deterministic_sample_tile(row, offsets.data(),
                                                                   starts.data(), k, tile);
    if (row >= starts.back()) {
      CHECK_FALSE(t.exists);
      continue;
    }
    REQUIRE(t.exists);
    CHECK(t.offset >= offsets[t.segment]);
    CHECK(t.offset + t.valid <= offsets[t.segment + 1]);
    CHECK(t.valid > 0);
    for (int i = 0; i < t.valid; ++i) ++covered[t.offset + i];
  }
  CHECK(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
}

TEST_CASE("step 6 writes each tile's counts where step 7 scans them: segment by segment, "
          "bucket-major", "[deterministic_sample]") {
  // Rows: segment 0 has 3 tiles, segment 1 none, segment 2 has 2; 7 rows launched; 4 buckets.
  namespace d = gpusort::detail;
  const std::vector<std::int64_t> starts{0, 3, 3, 5};
  const int buckets = 4;
  const std::int64_t rows = 7;
  std::vector<std::int64_t> at(rows * buckets, -1);  // at[scan index] = the row-major entry
  for (std::int64_t row = 0; row < rows; ++row) {
    const std::int64_t segment = d::deterministic_sample_segment_of(row, starts.data(), 3);
    for (int b = 0; b < buckets; ++b) {
      // What the locate kernel writes: rows past every segment as segments of one row.
      const std::int64_t i =
          segment < 0 ? d::bucket_major_index(row, 1, row, b, buckets)
                      : d::bucket_major_index(starts[segment], starts[segment + 1] - starts[segment],
                                              row, b, buckets);
      REQUIRE(i >= 0);
      REQUIRE(i < rows * buckets);
      REQUIRE(at[i] == -1);  // a permutation of the entries
      at[i] = row * buckets + b;
    }
  }
  // Segment 0: bucket 0 of tiles 0,1,2, then bucket 1 ...
  CHECK(at[0] == 0 * buckets + 0);
  CHECK(at[1] == 1 * buckets + 0);
  CHECK(at[2] == 2 * buckets + 0);
  CHECK(at[3] == 0 * buckets + 1);
  // Segment 2 starts after segment 0's 12 entries: tile 3 bucket 0, tile 4 bucket 0.
  CHECK(at[12] == 3 * buckets + 0);
  CHECK(at[13] == 4 * buckets + 0);
  CHECK(at[14] == 3 * buckets + 1);
  CHECK(at[19] == 4 * buckets + 3);
  // Rows past the real tiles keep their own entries.
  CHECK(at[20] == 20);
  CHECK(at[27] == 27);
}

TEST_CASE("policy fields are checked without a device", "[deterministic_sample]") {
  using setup = gpusort::detail::deterministic_sample_setup<std::uint32_t, gpusort::detail::no_value>;
  using tuning = setup::tuning;
  using p = gpusort::policy::deterministic_sample;
  CHECK(setup::check(p{}) == cudaSuccess);
  CHECK(setup::check(p{64, tuning::tile}) == cudaSuccess);
  CHECK(setup::check(p{64, tuning::half_tile}) == cudaSuccess);
  CHECK(setup::check(p{tuning::max_samples, 0}) == cudaSuccess);
  CHECK(setup::check(p{-1, 0}) == cudaErrorInvalidValue);
  CHECK(setup::check(p{0, -1}) == cudaErrorInvalidValue);
  CHECK(setup::check(p{3, 0}) == cudaErrorInvalidValue);
  CHECK(setup::check(p{tuning::max_samples + 1, 0}) == cudaErrorInvalidValue);
  CHECK(setup::check(p{0, 1000}) == cudaErrorInvalidValue);
  CHECK(setup::check(p{0, 2 * tuning::tile}) == cudaErrorInvalidValue);
  // 4-byte keys: tiles of the bucket sort's huge class, twice its large one.
  CHECK(tuning::tile == tuning::segment_tuning::max_huge_items);
  CHECK(tuning::half_tile == gpusort::device::max_segment_items<std::uint32_t, gpusort::detail::no_value>());
}

namespace {

// The sort's launches, each kernel's per-block logic in a loop over its blocks, using the
// helpers the kernels use. Returns the sorted keys; level_buckets gets each level's buckets.
std::vector<std::uint32_t> simulate_sort(std::vector<std::uint32_t> keys, int tile, int s,
                                         std::int64_t max_segment,
                                         std::vector<std::vector<std::int64_t>>& level_buckets,
                                         deterministic_sample_plan& plan_out) {
  namespace d = gpusort::detail;
  using sample = d::positioned_key<std::uint32_t>;
  const gpusort::less cmp{};
  const auto n = static_cast<std::int64_t>(keys.size());
  const deterministic_sample_plan plan(n, tile, s, max_segment);
  plan_out = plan;
  REQUIRE(plan.feasible);
  std::vector<std::int64_t> segments{0, n};
  std::vector<std::uint32_t> other(n);
  for (int level = 0; level < plan.levels; ++level) {
    const std::int64_t k = plan.segments[level];
    const std::int64_t rows = plan.rows[level];
    REQUIRE(static_cast<std::int64_t>(segments.size()) == k + 1);
    std::vector<std::int64_t> starts(k + 1, 0);
    const d::deterministic_sample_segment_tiles tiles{segments.data(), k, tile};
    for (std::int64_t i = 0; i < k; ++i) starts[i + 1] = starts[i] + tiles(i);
    REQUIRE(tiles(k) == 0);
    REQUIRE(starts[k] <= rows);  // the worst-case grid covers every real tile
    // Steps 1–3.
    std::vector<sample> samples(rows * s);
    for (std::int64_t row = 0; row < rows; ++row) {
      const auto t = d::find_deterministic_sample_tile(row, segments.data(), starts.data(), k, tile);
      if (!t.exists) {
        for (int j = 0; j < s; ++j) samples[row * s + j] = {keys[0], d::absent_position};
        continue;
      }
      std::sort(keys.begin() + t.offset, keys.begin() + t.offset + t.valid);
      for (int j = 0; j < s; ++j) {
        const int i = gpusort::block::regular_sample_index(j, t.valid, s);
        samples[row * s + j] = {keys[t.offset + i], t.offset + i};
      }
    }
    // Step 4.
    std::sort(samples.begin(), samples.end(), d::positioned_less<gpusort::less>{cmp});
    // Steps 5–6.
    std::vector<int> ranks(rows * s, -1);
    for (std::int64_t row = 0; row < rows; ++row) {
      const auto t = d::find_deterministic_sample_tile(row, segments.data(), starts.data(), k, tile);
      int* r = ranks.data() + row * s;
      if (!t.exists) {
        std::fill(r, r + s, 0);
        continue;
      }
      const std::int64_t m = starts[t.segment + 1] - starts[t.segment];
      const sample* segment_samples = samples.data() + starts[t.segment] * s;
      for (int b = 0; b < s - 1; ++b) {
        const sample& g = segment_samples[d::deterministic_sample_splitter_index(b, m)];
        REQUIRE(g.position >= segments[t.segment]);
        REQUIRE(g.position < segments[t.segment + 1]);
        r[b] = gpusort::block::splitter_rank(keys.data() + t.offset, 0, t.valid, t.offset, g.key,
                                             g.position, cmp);
      }
      r[s - 1] = t.valid;
    }
    // Step 6's counts in the order step 7 scans (bucket_major_index), then the scan in place.
    const auto scan_index = [&](std::int64_t row, const d::deterministic_sample_tile& t, int b) {
      if (!t.exists) return row * s + b;
      const std::int64_t first = starts[t.segment];
      return d::bucket_major_index(first, starts[t.segment + 1] - first, row, b, s);
    };
    std::vector<std::int64_t> offsets(rows * s, -1);
    const d::deterministic_sample_rank_counts counts{ranks.data(), s};
    for (std::int64_t row = 0; row < rows; ++row) {
      const auto t = d::find_deterministic_sample_tile(row, segments.data(), starts.data(), k, tile);
      for (int b = 0; b < s; ++b) {
        const std::int64_t i = scan_index(row, t, b);
        REQUIRE(offsets[i] == -1);
        offsets[i] = counts(row * s + b);
      }
    }
    std::int64_t sum = 0;
    for (auto& entry : offsets) {
      const std::int64_t count = entry;
      entry = sum;
      sum += count;
    }
    REQUIRE(sum == n);
    // Step 8.
    std::vector<char> written(n, 0);
    for (std::int64_t row = 0; row < rows; ++row) {
      const auto t = d::find_deterministic_sample_tile(row, segments.data(), starts.data(), k, tile);
      if (!t.exists) continue;
      const int* r = ranks.data() + row * s;
      for (int i = 0; i < t.valid; ++i) {
        const int b = d::deterministic_sample_bucket_of(i, r, s);
        const std::int64_t to = offsets[scan_index(row, t, b)] + (i - (b > 0 ? r[b - 1] : 0));
        REQUIRE(to >= 0);
        REQUIRE(to < n);
        REQUIRE(written[to] == 0);
        written[to] = 1;
        other[to] = keys[t.offset + i];
      }
    }
    std::vector<std::int64_t> next(k * s + 1);
    for (std::int64_t i = 0; i <= k * s; ++i)
      next[i] = d::deterministic_sample_next_segment(i, segments.data(), starts.data(), k, s,
                                                     offsets.data(), n);
    level_buckets.push_back(next);
    std::swap(keys, other);
    segments = next;
  }
  // Step 9.
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    REQUIRE(segments[i + 1] - segments[i] <= max_segment);
    std::sort(keys.begin() + segments[i], keys.begin() + segments[i + 1]);
  }
  return keys;
}

}  // namespace

TEST_CASE("step 8's bucket searches, one at a time or stepped together, find each item's first "
          "rank above it",
          "[deterministic_sample]") {
  namespace d = gpusort::detail;
  std::mt19937 rng(110);
  for (int s : {1, 2, 3, 5, 64, 191, 192, 256, 384}) {
    for (int form = 0; form < 3; ++form) {
      // ranks[0..s-2] non-decreasing in [0, size], ranks[s-1] = size: random, with runs of
      // equal ranks (empty buckets), or all at one end.
      const int size = 1 + static_cast<int>(rng() % 9000);
      std::vector<int> ranks(s);
      for (int b = 0; b < s - 1; ++b)
        ranks[b] = form == 0 ? static_cast<int>(rng() % (size + 1))
                   : form == 1 ? static_cast<int>(rng() % 4) * size / 3
                               : (b % 2 == 0 ? 0 : size);
      std::sort(ranks.begin(), ranks.end() - 1);
      ranks[s - 1] = size;
      constexpr int items = 16;
      for (int stride : {1, 7, 256}) {
        for (int first = 0; first < size; first += 1 + static_cast<int>(rng() % 97)) {
          int buckets[items];
          d::deterministic_sample_buckets_of(first, stride, ranks.data(), s, buckets);
          for (int r = 0; r < items; ++r) {
            const int i = first + r * stride;
            if (i >= size) break;
            const auto expected = std::upper_bound(ranks.begin(), ranks.end() - 1, i) - ranks.begin();
            INFO("s " << s << " form " << form << " stride " << stride << " item " << i);
            REQUIRE(buckets[r] == expected);
            REQUIRE(d::deterministic_sample_bucket_of(i, ranks.data(), s) == expected);
          }
        }
      }
    }
  }
}

TEST_CASE("the planned levels, run on the host with the kernels' helpers, sort",
          "[deterministic_sample]") {
  const int distinct = GENERATE(0, 1, 2, 17);
  const int s = GENERATE(4, 7, 16, 64);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(300), std::int64_t(5000),
                                  std::int64_t(100003));
  const int tile = 256;
  const std::int64_t max_segment = 256;
  INFO("distinct " << distinct << ", s " << s << ", n " << n);
  if (!deterministic_sample_plan(n, tile, s, max_segment).feasible) {
    CHECK(s == 4);  // halving per level: more levels than the plan allows
    return;
  }
  auto input = make_keys(n, distinct, 11 + n + s);
  std::vector<std::vector<std::int64_t>> buckets;
  deterministic_sample_plan plan(0, 1, 1, 1);
  const auto sorted = simulate_sort(input, tile, s, max_segment, buckets, plan);
  std::sort(input.begin(), input.end());
  CHECK(sorted == input);
  REQUIRE(static_cast<int>(buckets.size()) == plan.levels);
  for (int l = 0; l < plan.levels; ++l) {
    INFO("level " << l);
    CHECK(buckets[l].front() == 0);
    CHECK(buckets[l].back() == n);
    std::int64_t largest = 0;
    for (std::size_t i = 1; i < buckets[l].size(); ++i) {
      REQUIRE(buckets[l][i] >= buckets[l][i - 1]);
      largest = std::max(largest, buckets[l][i] - buckets[l][i - 1]);
    }
    CHECK(largest <= plan.bound[l + 1]);
  }
}

// s is capped where the locate kernel's s − 1 splitters would outgrow the shared memory a
// kernel gets without opting in: check() refuses such an s from a caller, and the tuned s
// (up to 1024) must not take one either (keys of 48 bytes and more).
TEST_CASE("the tuned s leaves the locate kernel within the static shared memory", "[deterministic_sample]") {
  namespace d = gpusort::detail;
  struct key64 {
    std::uint64_t w[8];
  };
  CHECK(d::deterministic_sample_max_located_samples<std::uint32_t>(1024) == 1024);
  CHECK(d::deterministic_sample_max_located_samples<gpusort_test::key16>(1024) == 1024);
  const int s = d::deterministic_sample_max_located_samples<key64>(1024);
  CHECK(s < 1024);
  CHECK(d::deterministic_sample_locate_bytes<key64>(s) <= d::static_shared_limit);
  CHECK(d::deterministic_sample_locate_bytes<key64>(s + 1) > d::static_shared_limit);
}

TEST_CASE("a bucket sort of fewer buckets than the device runs at once is priced as that many",
          "[deterministic_sample]") {
  namespace d = gpusort::detail;
  const deterministic_sample_plan plan(std::int64_t(1) << 18, 8192, 64, 16384);
  REQUIRE(plan.feasible);
  REQUIRE(plan.levels == 1);
  REQUIRE(plan.segments[1] == 64);
  using tuning = d::deterministic_sample_tuning<std::uint32_t, d::no_value>;
  constexpr d::deterministic_sample_merge_limits merge = tuning::merge_limits;
  d::deterministic_sample_costs costs = tuning::costs;
  costs.final_blocks_per_sm = 2;
  d::deterministic_sample_costs unfloored = costs;
  unfloored.final_blocks_per_sm = 0;
  // 16 SMs run 32 buckets at once: 64 keep them busy.
  CHECK(d::deterministic_sample_estimate(plan, costs, merge, 16) == d::deterministic_sample_estimate(plan, unfloored, merge, 16));
  CHECK(d::deterministic_sample_estimate(plan, costs, merge, 32) == d::deterministic_sample_estimate(plan, unfloored, merge, 32));
  // 132 SMs run 264: the network costs as if 264 buckets of the mean size were sorted.
  const double network_ns = (std::int64_t(1) << 18) * costs.final_stage_ns * d::deterministic_sample_final_stages(plan);
  const double expected = d::deterministic_sample_estimate(plan, unfloored, merge, 132) + network_ns * (264.0 / 64 - 1);
  CHECK(std::abs(d::deterministic_sample_estimate(plan, costs, merge, 132) - expected) <= 1e-9 * expected);
}

TEST_CASE("step 4 is priced by its form: a merge per search, a sort of the samples per level",
          "[deterministic_sample]") {
  namespace d = gpusort::detail;
  using tuning = d::deterministic_sample_tuning<std::uint32_t, d::no_value>;
  constexpr d::deterministic_sample_merge_limits merge = tuning::merge_limits;
  d::deterministic_sample_costs unpriced = tuning::costs;
  unpriced.merged_search_ns = 0;
  unpriced.sorted_samples_level_ns = 0;
  d::deterministic_sample_costs priced = unpriced;
  priced.merged_search_ns = 0.5;
  priced.sorted_samples_level_ns = 7000;
  // 2^20 in 8K tiles: s = 128 makes 128 rows of 128 * 128 searches, 2.1M, which are merged;
  // s = 256 makes 128 rows of 128 * 256, 4.2M, more than the level may merge: sorted.
  const deterministic_sample_plan merged(std::int64_t(1) << 20, 8192, 128, 16384);
  const deterministic_sample_plan sorted(std::int64_t(1) << 20, 8192, 256, 16384);
  REQUIRE(merged.levels == 1);
  REQUIRE(sorted.levels == 1);
  REQUIRE(d::deterministic_sample_merges_rows(merged, 0, merge));
  REQUIRE_FALSE(d::deterministic_sample_merges_rows(sorted, 0, merge));
  const auto added = [&](const deterministic_sample_plan& plan) {
    return d::deterministic_sample_estimate(plan, priced, merge, 132) -
           d::deterministic_sample_estimate(plan, unpriced, merge, 132);
  };
  const double searches = 128.0 * 128 * 128;
  CHECK(std::abs(added(merged) - 0.5 * searches) <= 1e-6 * searches);
  CHECK(std::abs(added(sorted) - 7000) <= 1e-6);
  // Two levels, the second merged: each priced by its own form.
  const deterministic_sample_plan two(std::int64_t(1) << 24, 16384, 96, 16384);
  REQUIRE(two.levels == 2);
  REQUIRE_FALSE(d::deterministic_sample_merges_rows(two, 0, merge));
  REQUIRE(d::deterministic_sample_merges_rows(two, 1, merge));
  const double second_searches =
      static_cast<double>(two.rows[1]) * static_cast<double>(d::deterministic_sample_row_searches(two, 1));
  CHECK(std::abs(added(two) - (7000 + 0.5 * second_searches)) <= 1e-6 * second_searches);
}

TEST_CASE("the default s is the feasible candidate of least estimated time", "[deterministic_sample]") {
  using tuning = gpusort::detail::deterministic_sample_tuning<std::uint32_t, gpusort::detail::no_value>;
  const gpusort::detail::deterministic_sample_costs costs = tuning::costs;
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(5000), std::int64_t(1) << 20,
                                  std::int64_t(1) << 24, std::int64_t(1) << 28,
                                  (std::int64_t(1) << 31) + 4097);
  const int tile = GENERATE(4096, 8192);
  const int sms = GENERATE(8, 132);
  const std::int64_t max_segment = tile;
  const int s = gpusort::detail::deterministic_sample_choose_samples(
      n, tile, max_segment, tuning::min_default_samples, tuning::max_samples, costs,
      tuning::merge_limits, sms);
  INFO("n " << n << ", tile " << tile << ", SMs " << sms << ", chosen s " << s);
  REQUIRE(s >= tuning::min_default_samples);
  REQUIRE(s <= tuning::max_samples);
  // A power of two or the point halfway to the next one (3·2^k).
  const int power = s % 3 == 0 ? s / 3 : s;
  CHECK((power & (power - 1)) == 0);
  const deterministic_sample_plan chosen(n, tile, s, max_segment);
  REQUIRE(chosen.feasible);
  const double chosen_ns = gpusort::detail::deterministic_sample_estimate(chosen, costs, tuning::merge_limits, sms);
  for (int other = tuning::min_default_samples; other <= tuning::max_samples; other *= 2) {
    for (const int candidate : {other, other + other / 2}) {
      if (candidate > tuning::max_samples) continue;
      const deterministic_sample_plan plan(n, tile, candidate, max_segment);
      if (plan.feasible) CHECK(chosen_ns <= gpusort::detail::deterministic_sample_estimate(plan, costs, tuning::merge_limits, sms));
    }
  }
}

// The estimate reproduces the fastest s of the sweeps with each type's own tile: the H200's
// for 4-byte keys (bench/RESULTS.md runs 56, 58 and 63: u32 from 2^16 to 2^30, every candidate
// from 16 to 1024 up to 2^23), 8-byte items (runs 57 and 63), items of 9 to 24 bytes in 4K tiles
// (run 58), 12-byte keys in 8K tiles and 16-byte keys with 16-byte values in 2K tiles (run
// 59), the H100's for 64-byte keys (run 43). Up to 2^22 u32 keys are too few for the full
// tile (min_tiles_per_sm), so their plans have the half tile. The SMs are the H200's.
template <class Key, class Value>
int tuned_samples(int log_n, bool half = false) {
  using tuning = gpusort::detail::deterministic_sample_tuning<Key, Value>;
  constexpr int h200_sms = 132;
  return gpusort::detail::deterministic_sample_choose_samples(
      std::int64_t(1) << log_n, half ? tuning::half_tile : tuning::tile,
      tuning::segment_tuning::max_huge_items, tuning::min_default_samples, tuning::max_samples,
      tuning::costs, tuning::merge_limits, h200_sms);
}

TEST_CASE("the default s is the fastest s the sweep measured", "[deterministic_sample]") {
  using gpusort::detail::no_value;
  using u32 = std::uint32_t;
  // 4-byte keys: run 58's H200 sweep (fastest; 2^28 384, 1.7 % ahead of 256 on uniform keys
  // and 5.6 % behind it on sorted ones; 2^30 768, 3 % behind 512 and 11 % ahead of the run-56
  // costs' 96).
  // Run 63's sweep, where fewer buckets than SMs priced moved the pick: u32, u32:u32 and u64 at
  // 2^16 128 (fastest), u32 at 2^17 128 (fastest). Run 66's, with the splitters at three
  // quarters of each group: u32 at 2^19 and 2^20 192 (fastest).
  CHECK(tuned_samples<u32, no_value>(16, true) == 128);
  CHECK(tuned_samples<u32, no_value>(17, true) == 128);
  for (int log_n : {19, 20}) CHECK(tuned_samples<u32, no_value>(log_n, true) == 192);
  CHECK(tuned_samples<u32, u32>(16, true) == 128);
  CHECK(tuned_samples<std::uint64_t, no_value>(16, true) == 128);
  CHECK(tuned_samples<u32, no_value>(21, true) == 384);
  CHECK(tuned_samples<u32, no_value>(22, true) == 768);
  CHECK(tuned_samples<u32, no_value>(23) == 1024);
  for (int log_n : {24, 25}) CHECK(tuned_samples<u32, no_value>(log_n) == 96);
  for (int log_n : {26, 27}) CHECK(tuned_samples<u32, no_value>(log_n) == 192);
  for (int log_n : {28, 29}) CHECK(tuned_samples<u32, no_value>(log_n) == 384);
  CHECK(tuned_samples<u32, no_value>(30) == 768);
  // 8-byte items: run 57's H200 sweep (fastest, or within 1 % of it: u64 at 2^27 256).
  CHECK(tuned_samples<std::uint64_t, no_value>(20, true) == 384);
  CHECK(tuned_samples<std::uint64_t, no_value>(21, true) == 512);
  for (int log_n : {23, 24}) CHECK(tuned_samples<std::uint64_t, no_value>(log_n) == 96);
  for (int log_n : {25, 26}) CHECK(tuned_samples<std::uint64_t, no_value>(log_n) == 192);
  for (int log_n : {27, 28}) CHECK(tuned_samples<std::uint64_t, no_value>(log_n) == 384);
  CHECK(tuned_samples<std::uint64_t, no_value>(29) == 512);
  CHECK(tuned_samples<std::uint64_t, no_value>(30) == 128);  // 768 took 1.18 times as long
  CHECK(tuned_samples<u32, u32>(19, true) == 192);
  CHECK(tuned_samples<u32, u32>(20, true) == 384);
  for (int log_n : {23, 24}) CHECK(tuned_samples<u32, u32>(log_n) == 96);
  for (int log_n : {25, 26}) CHECK(tuned_samples<u32, u32>(log_n) == 192);
  for (int log_n : {27, 28}) CHECK(tuned_samples<u32, u32>(log_n) == 384);
  CHECK(tuned_samples<u32, u32>(29) == 512);
  // Items of more than 8 bytes in 4K tiles: run 58's sweep and A/B (2^27 and 2^28: 9-15 %
  // faster than the 64 and 96 run 22's costs chose).
  CHECK(tuned_samples<gpusort_test::key16, no_value>(24) == 128);
  CHECK(tuned_samples<gpusort_test::key16, no_value>(26) == 256);
  for (int log_n : {27, 28}) {
    const int fastest = log_n == 27 ? 384 : 512;
    CHECK(tuned_samples<gpusort_test::key16, no_value>(log_n) == fastest);
    CHECK(tuned_samples<std::uint64_t, std::uint32_t>(log_n) == fastest);
    CHECK(tuned_samples<gpusort_test::key16, std::uint64_t>(log_n) == fastest);
  }
  // 12-byte keys alone (8K tiles): run 59's sweep, the fastest s at these sizes.
  CHECK(tuned_samples<gpusort_test::key12, no_value>(18, true) == 384);
  CHECK(tuned_samples<gpusort_test::key12, no_value>(19, true) == 768);
  CHECK(tuned_samples<gpusort_test::key12, no_value>(22) == 192);
  for (int log_n : {24, 25}) CHECK(tuned_samples<gpusort_test::key12, no_value>(log_n) == 384);
  for (int log_n : {26, 29}) CHECK(tuned_samples<gpusort_test::key12, no_value>(log_n) == 768);
  // 16-byte keys with 16-byte values (2K tiles): run 59's sweep, the fastest s at these sizes.
  CHECK(tuned_samples<gpusort_test::key16, gpusort_test::value16>(20) == 96);
  for (int log_n : {22, 23, 24}) CHECK(tuned_samples<gpusort_test::key16, gpusort_test::value16>(log_n) == 192);
  CHECK(tuned_samples<gpusort_test::key16, gpusort_test::value16>(25) == 64);
  for (int log_n : {26, 27}) CHECK(tuned_samples<gpusort_test::key16, gpusort_test::value16>(log_n) == 96);
  // 64-byte keys, alone and with u64 values: run 43's sweeps (1K tiles).
  CHECK(tuned_samples<gpusort_test::key64, no_value>(22) == 128);
  CHECK(tuned_samples<gpusort_test::key64, no_value>(24) == 64);
  CHECK(tuned_samples<gpusort_test::key64, no_value>(26) == 96);
  CHECK(tuned_samples<gpusort_test::key64, std::uint64_t>(24) == 256);
}
