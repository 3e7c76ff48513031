// Host tests of the randomized sample sort's planning arithmetic
// (detail/randomized_sample_plan.cuh): tile size, levels, the worst-case list and table
// bounds checked against brute-force worst cases, and the reproducible sample indices.
#include "common/catch.hpp"

#include <gpusort/detail/bucket_major_index.cuh>
#include <gpusort/detail/randomized_sample_plan.cuh>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

using namespace gpusort::detail;

namespace {
constexpr std::int64_t chunk = 4096, target_tiles = 2048, max_chunks = 32, M = 8192;

// Greedy grouping of one segment's bucket sizes, as rs_classify groups them: small buckets
// (<= M) together up to G items, a group closed by a large bucket or by a bucket that does
// not fit. Returns the number of groups.
std::int64_t group(const std::vector<std::int64_t>& sizes, std::int64_t max_segment,
                   std::int64_t max_group) {
  std::int64_t groups = 0, open = 0;
  for (std::int64_t m : sizes) {
    if (m == 0) continue;
    if (m <= max_segment) {
      if (open + m > max_group) {
        ++groups;
        open = 0;
      }
      open += m;
    } else {
      if (open > 0) ++groups;
      open = 0;
    }
  }
  return groups + (open > 0 ? 1 : 0);
}

// Bucket sizes adversarial to grouping: empty, 1, G, (G, M], large, and random small ones.
std::vector<std::int64_t> adversarial_sizes(std::mt19937_64& rng, int buckets, std::int64_t max_segment,
                                            std::int64_t max_group) {
  std::vector<std::int64_t> sizes;
  for (int j = 0; j < buckets; ++j) {
    const int kind = static_cast<int>(rng() % 6);
    const auto pick = [&](std::int64_t lo, std::int64_t hi) {  // in [lo, hi]
      return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    };
    sizes.push_back(kind == 0   ? 0
                    : kind == 1 ? 1
                    : kind == 2 ? max_group
                    : kind == 3 ? pick(max_group, max_segment)
                    : kind == 4 ? pick(max_segment + 1, max_segment + 100)
                                : pick(1, max_group));
  }
  return sizes;
}
}  // namespace

TEST_CASE("randomized_sample_tile: whole chunks, about target_tiles tiles, clamped") {
  CHECK(randomized_sample_tile(1, chunk, target_tiles, max_chunks) == chunk);
  CHECK(randomized_sample_tile(std::int64_t(1) << 24, chunk, target_tiles, max_chunks) == 2 * chunk);
  CHECK(randomized_sample_tile(std::int64_t(1) << 28, chunk, target_tiles, max_chunks) == 32 * chunk);
  CHECK(randomized_sample_tile(std::int64_t(1) << 34, chunk, target_tiles, max_chunks) == 32 * chunk);
}

TEST_CASE("randomized_sample_levels: none when one block sorts all, else enough plus spares") {
  CHECK(randomized_sample_levels(M, M, 512, 1) == 0);
  CHECK(randomized_sample_levels(M + 1, M, 512, 1) == 2);
  CHECK(randomized_sample_levels(std::int64_t(1) << 20, M, 512, 1) == 2);
  CHECK(randomized_sample_levels(std::int64_t(1) << 24, M, 512, 1) == 3);
  CHECK(randomized_sample_levels(std::int64_t(1) << 28, M, 512, 1) == 3);
  CHECK(randomized_sample_levels(std::int64_t(1) << 28, M, 128, 0) == 3);
  // (k/2)^planned * M >= n for every n
  for (std::int64_t n : {std::int64_t(10000), std::int64_t(1) << 22, std::int64_t(3) << 30}) {
    for (int k : {128, 256, 512, 1024}) {
      const int planned = randomized_sample_levels(n, M, k, 0);
      double reach = M;
      for (int l = 0; l < planned; ++l) reach *= k / 2;
      CHECK(reach >= static_cast<double>(n) / 2);  // integer division per level: within 2x
    }
  }
}

TEST_CASE("randomized_sample_plan: the tile always exceeds M; the bounds hold the worst cases") {
  for (std::int64_t n : {std::int64_t(8193), std::int64_t(100000), std::int64_t(1) << 24,
                         (std::int64_t(1) << 31) + 4097}) {
    const auto b = randomized_sample_plan(n, M, M / 2, 512, chunk, target_tiles, max_chunks, 1);
    INFO("n = " << n);
    CHECK(b.tile > M);
    CHECK(b.tile % chunk == 0);
    // Big segments (> P each) and their rows: segments of P+1 items are the worst.
    const std::int64_t worst_big = n / (b.tile + 1);
    CHECK(worst_big <= b.big_segments);
    CHECK(worst_big * ((b.tile + 1 + b.tile - 1) / b.tile) <= b.table_rows);
    // One big segment of everything.
    CHECK((n + b.tile - 1) / b.tile <= b.table_rows);
    CHECK(n / (M + 1) <= b.local_segments);
    CHECK(n / (M + 1) <= b.copies);
  }
}

TEST_CASE("randomized_sample_plan: greedy groups never exceed the bound, adversarial sizes") {
  std::mt19937_64 rng(7);
  const std::int64_t small_M = 64;  // scaled down so that brute force is quick
  for (std::int64_t small_G : {small_M, small_M / 2}) {
    for (int trial = 0; trial < 300; ++trial) {
      // A level: segments of > M items each, split into buckets whose sizes are
      // adversarial: G and 1 alternating overflow every group, large buckets interleaved.
      std::int64_t n = 0, groups = 0;
      const int segments = 1 + static_cast<int>(rng() % 20);
      for (int s = 0; s < segments; ++s) {
        std::vector<std::int64_t> sizes =
            adversarial_sizes(rng, 2 + static_cast<int>(rng() % 200), small_M, small_G);
        std::int64_t total = 0;
        for (std::int64_t m : sizes) total += m;
        if (total <= small_M) sizes.push_back(small_M + 1 - total), total = small_M + 1;
        n += total;
        groups += group(sizes, small_M, small_G);
      }
      const auto b = randomized_sample_plan(n, small_M, small_G, 512, 16, 4, 4, 1);
      INFO("G = " << small_G);
      CHECK(groups <= b.groups);
    }
  }
}

TEST_CASE("sample_index: inside the segment, reproducible, different per level and seed") {
  const std::int64_t begin = 1000, size = 777;
  std::set<std::int64_t> seen;
  for (int i = 0; i < 4096; ++i) {
    const std::int64_t x = sample_index(0x5eed, 1, begin, size, i);
    CHECK(x >= begin);
    CHECK(x < begin + size);
    CHECK(x == sample_index(0x5eed, 1, begin, size, i));
    seen.insert(x);
  }
  CHECK(seen.size() > 700);  // covers most of the segment
  int same_level = 0, same_seed = 0;
  for (int i = 0; i < 256; ++i) {
    same_level += sample_index(0x5eed, 1, begin, size, i) == sample_index(0x5eed, 2, begin, size, i);
    same_seed += sample_index(0x5eed, 1, begin, size, i) == sample_index(0x5eee, 1, begin, size, i);
  }
  CHECK(same_level < 16);
  CHECK(same_seed < 16);
}

TEST_CASE("splitter_sample_rank: every a-th sample, the last splitter inside the sample") {
  CHECK(splitter_sample_rank(0, 1) == 0);
  CHECK(splitter_sample_rank(0, 8) == 7);
  CHECK(splitter_sample_rank(510, 8) == 4087);
  CHECK(splitter_sample_rank(510, 8) < 512 * 8);
}

TEST_CASE("bucket_major_index: a bijection onto each segment's entries; an exclusive scan in "
          "index order gives each segment's buckets contiguously, tiles in order") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const int nb = 1 + static_cast<int>(rng() % 9);
    const int segments = static_cast<int>(rng() % 6);
    std::vector<std::int64_t> rows{0};
    for (int s = 0; s < segments; ++s) rows.push_back(rows.back() + 1 + static_cast<std::int64_t>(rng() % 5));
    const std::int64_t entries = rows.back() * nb;
    std::vector<int> counts(entries);  // row-major, what each tile's histogram counted
    for (auto& c : counts) c = static_cast<int>(rng() % 7);
    std::vector<int> table(entries, -1);  // written the way the histogram kernel writes
    for (int s = 0; s < segments; ++s) {
      for (std::int64_t t = rows[s]; t < rows[s + 1]; ++t) {
        for (int b = 0; b < nb; ++b) {
          const std::int64_t i = bucket_major_index(rows[s], rows[s + 1] - rows[s], t, b, nb);
          REQUIRE(i >= rows[s] * nb);
          REQUIRE(i < rows[s + 1] * nb);
          REQUIRE(table[i] == -1);
          table[i] = counts[t * nb + b];
        }
      }
    }
    std::vector<std::int64_t> offsets(entries);
    std::int64_t sum = 0;
    for (std::int64_t c = 0; c < entries; ++c) {
      offsets[c] = sum;
      sum += table[c];
    }
    // Within segment s, relative to its first entry: bucket b of tile t starts after all
    // of buckets < b and the tiles before t of bucket b.
    for (int s = 0; s < segments; ++s) {
      const std::int64_t first = offsets[rows[s] * nb];
      for (std::int64_t t = rows[s]; t < rows[s + 1]; ++t) {
        for (int b = 0; b < nb; ++b) {
          std::int64_t expect = 0;
          for (std::int64_t t2 = rows[s]; t2 < rows[s + 1]; ++t2)
            for (int b2 = 0; b2 < nb; ++b2)
              if (b2 < b || (b2 == b && t2 < t)) expect += counts[t2 * nb + b2];
          CHECK(offsets[bucket_major_index(rows[s], rows[s + 1] - rows[s], t, b, nb)] - first == expect);
        }
      }
    }
  }
}
