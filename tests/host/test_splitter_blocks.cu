// Host tests of the sampling and splitter building blocks: regular_sample_index,
// detail::precedes and sample_codec, splitter_rank and the halving search of
// locate_splitters, the splitter tree (with equality buckets) and the column-major index map
// of bucket_offsets, each against a plain C++ reference.
#include "common/catch.hpp"

#include <gpusort/block/locate_splitters.cuh>
#include <gpusort/block/regular_sample.cuh>
#include <gpusort/block/splitter_tree.cuh>
#include <gpusort/compare.cuh>
#include <gpusort/detail/positioned.cuh>
#include <gpusort/device/bucket_offsets.cuh>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using gpusort::detail::precedes;

// ---------------------------------------------------------------------------------------
// regular_sample_index

TEST_CASE("regular_sample_index picks s equidistant items ending at the tile's last",
          "[regular_sample]") {
  for (int valid = 1; valid <= 300; valid += (valid < 40 ? 1 : 7)) {
    for (int samples = 1; samples <= 70; ++samples) {
      CAPTURE(valid, samples);
      int previous = -1;
      const int max_gap = (valid + samples - 1) / samples;
      for (int j = 0; j < samples; ++j) {
        const int i = gpusort::block::regular_sample_index(j, valid, samples);
        REQUIRE(i >= 0);
        REQUIRE(i < valid);
        // Reference: the last item of the j-th of s equal slices, clamped into the tile.
        const long long expected = std::max(0LL, (j + 1LL) * valid / samples - 1);
        REQUIRE(i == expected);
        REQUIRE(i >= previous);
        if (valid >= samples) REQUIRE(i > previous);  // distinct items when there are enough
        REQUIRE(i - previous <= max_gap);             // no slice longer than ceil(v / s)
        previous = i;
      }
      REQUIRE(previous == valid - 1);
    }
  }
  // Every item is sampled when the tile is shorter than the sample.
  for (int valid = 1; valid <= 16; ++valid) {
    std::vector<bool> seen(valid, false);
    for (int j = 0; j < 16; ++j) seen[gpusort::block::regular_sample_index(j, valid, 16)] = true;
    REQUIRE(std::count(seen.begin(), seen.end(), true) == valid);
  }
  // No 32-bit overflow of (j + 1) * valid_items.
  REQUIRE(gpusort::block::regular_sample_index(4095, 1 << 22, 4096) == (1 << 22) - 1);
  REQUIRE(gpusort::block::regular_sample_index(2047, 1 << 22, 4096) == (1 << 21) - 1);
}

// ---------------------------------------------------------------------------------------
// precedes

TEST_CASE("precedes orders by key, then by position", "[positioned]") {
  const std::vector<int> keys = {-3, 0, 0, 5, 7, 7, 7};
  const std::vector<std::int64_t> positions = {-2, 0, 1, 3, 1LL << 40};
  for (int a : keys)
    for (std::int64_t pa : positions)
      for (int b : keys)
        for (std::int64_t pb : positions) {
          CAPTURE(a, pa, b, pb);
          const bool expected = std::make_pair(a, pa) < std::make_pair(b, pb);
          REQUIRE(precedes(a, pa, b, pb, gpusort::less{}) == expected);
          // Under greater the keys reverse, the tie-break by position does not.
          const bool expected_desc = a > b || (a == b && pa < pb);
          REQUIRE(precedes(a, pa, b, pb, gpusort::greater{}) == expected_desc);
        }
  // Equivalent floats under total_less tie-break too (NaN is equivalent to itself only).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(precedes(nan, 1, nan, 2, gpusort::total_less{}));
  REQUIRE_FALSE(precedes(nan, 2, nan, 1, gpusort::total_less{}));
  REQUIRE(precedes(-0.0f, 9, 0.0f, 1, gpusort::total_less{}));
}

template <class Key, class Compare, class Position>
constexpr bool packs_samples = std::is_same<
    typename gpusort::detail::sample_codec<Key, Compare, Position>::sample, std::uint64_t>::value;

// A sample codec's samples sort, under its comparator, as their (key, position) do under
// precedes; absent samples after every real one; key and position come back as they went in.
template <class Key, class Compare>
void check_sample_codec(const std::vector<Key>& keys, Compare cmp) {
  using codec = gpusort::detail::sample_codec<Key, Compare, std::int32_t>;
  const std::vector<std::int64_t> positions = {0, 1, 2, 77, (std::int64_t(1) << 31) - 1};
  const auto compare = codec::compare(cmp);
  for (const Key& a : keys)
    for (std::int64_t pa : positions) {
      const auto sa = codec::make(a, pa);
      REQUIRE(codec::position(sa) == pa);
      const Key back = codec::key(sa);
      REQUIRE(std::memcmp(&back, &a, sizeof(Key)) == 0);
      REQUIRE(compare(sa, codec::absent(a)));
      REQUIRE_FALSE(compare(codec::absent(a), sa));
      for (const Key& b : keys)
        for (std::int64_t pb : positions) {
          CAPTURE(pa, pb);
          REQUIRE(compare(sa, codec::make(b, pb)) == precedes(a, pa, b, pb, cmp));
        }
    }
}

TEST_CASE("sample_codec packs keys with an order word into words that sort as precedes",
          "[positioned]") {
  using std::int32_t;
  using std::int64_t;
  STATIC_REQUIRE(packs_samples<std::uint32_t, gpusort::less, int32_t>);
  STATIC_REQUIRE(packs_samples<float, gpusort::total_less, int32_t>);
  // No order word (floats under less: -0 == +0), or 64-bit positions: positioned keys.
  STATIC_REQUIRE(!packs_samples<float, gpusort::less, int32_t>);
  STATIC_REQUIRE(!packs_samples<std::uint32_t, gpusort::less, int64_t>);
  check_sample_codec<std::uint32_t>({0u, 1u, 7u, 0x80000000u, 0xffffffffu}, gpusort::less{});
  check_sample_codec<std::uint32_t>({0u, 1u, 7u, 0x80000000u, 0xffffffffu}, gpusort::greater{});
  check_sample_codec<std::int32_t>({std::numeric_limits<std::int32_t>::min(), -1, 0, 5,
                                    std::numeric_limits<std::int32_t>::max()},
                                   gpusort::less{});
  check_sample_codec<std::int16_t>({-32768, -1, 0, 3, 32767}, gpusort::greater{});
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  check_sample_codec<float>({-inf, -1.5f, -0.0f, 0.0f, 2.0f, inf, nan}, gpusort::total_less{});
  // The general codec keeps (key, position) and orders by positioned_less.
  check_sample_codec<float>({-1.5f, -0.0f, 0.0f, 2.0f}, gpusort::less{});
}

// ---------------------------------------------------------------------------------------
// splitter_rank and the halving search

struct splitter_set {
  std::vector<int> keys;
  std::vector<std::int64_t> positions;
};

// Count of tile items preceding (key, position): the definition, item by item.
int brute_rank(const std::vector<int>& tile, std::int64_t offset, int key, std::int64_t pos) {
  int count = 0;
  for (std::size_t i = 0; i < tile.size(); ++i) {
    if (precedes(tile[i], offset + static_cast<std::int64_t>(i), key, pos, gpusort::less{})) {
      ++count;
    }
  }
  return count;
}

// Splitters as the sort would pick them, plus pairs from other tiles and out-of-range keys,
// sorted under precedes.
splitter_set make_splitters(const std::vector<int>& tile, std::int64_t offset, int count,
                            int key_range, std::mt19937& rng) {
  std::vector<std::pair<int, std::int64_t>> pairs;
  const std::int64_t tile_end = offset + static_cast<std::int64_t>(tile.size());
  for (int b = 0; b < count; ++b) {
    switch (rng() % 4) {
      case 0:
        if (!tile.empty()) {
          const int i = static_cast<int>(rng() % tile.size());
          pairs.emplace_back(tile[i], offset + i);  // an item of this tile
          break;
        }
        [[fallthrough]];
      case 1:
        pairs.emplace_back(static_cast<int>(rng() % (key_range + 2)) - 1,
                           offset - 1 - static_cast<std::int64_t>(rng() % 100));  // earlier tile
        break;
      case 2:
        pairs.emplace_back(static_cast<int>(rng() % (key_range + 2)) - 1,
                           tile_end + static_cast<std::int64_t>(rng() % 100));  // later tile
        break;
      default:
        if (!pairs.empty()) pairs.push_back(pairs.back());  // a repeated splitter
        else pairs.emplace_back(0, offset);
    }
  }
  std::sort(pairs.begin(), pairs.end());  // pair order is precedes under less
  splitter_set s;
  for (const auto& p : pairs) {
    s.keys.push_back(p.first);
    s.positions.push_back(p.second);
  }
  return s;
}

std::vector<int> make_sorted_tile(int size, int key_range, std::mt19937& rng) {
  std::vector<int> tile(size);
  for (int& k : tile) k = static_cast<int>(rng() % key_range);
  std::sort(tile.begin(), tile.end());
  return tile;
}

TEST_CASE("splitter_rank counts the tile items preceding a (key, position)", "[locate_splitters]") {
  std::mt19937 rng(12345);
  for (int size : {0, 1, 2, 3, 31, 64, 100, 1000}) {
    for (int key_range : {1, 2, 17, 1 << 30}) {
      const std::int64_t offset = static_cast<std::int64_t>(rng() % 5) * 1000;
      const auto tile = make_sorted_tile(size, key_range, rng);
      const auto s = make_splitters(tile, offset, 50, key_range, rng);
      for (std::size_t b = 0; b < s.keys.size(); ++b) {
        CAPTURE(size, key_range, b, s.keys[b], s.positions[b]);
        const int expected = brute_rank(tile, offset, s.keys[b], s.positions[b]);
        REQUIRE(gpusort::block::splitter_rank(tile.data(), 0, size, offset, s.keys[b],
                                              s.positions[b], gpusort::less{}) == expected);
        // Narrowed to any [lo, hi] that contains the answer, the result is the same.
        const int lo = expected == 0 ? 0 : static_cast<int>(rng() % (expected + 1));
        const int hi = expected + static_cast<int>(rng() % (size - expected + 1));
        REQUIRE(gpusort::block::splitter_rank(tile.data(), lo, hi, offset, s.keys[b],
                                              s.positions[b], gpusort::less{}) == expected);
      }
    }
  }
  // All-equal tile: the position alone decides, one item per step of the splitter's position.
  const std::vector<int> equal(10, 7);
  for (std::int64_t pos = 95; pos <= 115; ++pos) {
    const int expected = static_cast<int>(std::clamp<std::int64_t>(pos - 100, 0, 10));
    REQUIRE(gpusort::block::splitter_rank(equal.data(), 0, 10, 100, 7, pos, gpusort::less{}) ==
            expected);
  }
}

TEST_CASE("halving_first_step is the least power of two leaving at most threads slots",
          "[locate_splitters]") {
  for (int threads : {1, 3, 32, 128}) {
    for (int s = 0; s <= 1030; ++s) {
      CAPTURE(threads, s);
      const int step = gpusort::detail::halving_first_step(s, threads);
      REQUIRE((step & (step - 1)) == 0);
      REQUIRE(s / step <= threads);
      if (step > 1) REQUIRE(s / (step / 2) > threads);
    }
  }
}

// The levels of block::locate_splitters for a block of `threads`, run one after the other;
// inside a level the searches run in reverse to show they do not depend on one another.
std::vector<int> halving_ranks(const std::vector<int>& tile, std::int64_t offset,
                               const splitter_set& s, int threads) {
  const int count = static_cast<int>(s.keys.size());
  std::vector<int> ranks(count, -1);
  const int first = gpusort::detail::halving_first_step(count, threads);
  for (int slot = count / first - 1; slot >= 0; --slot) {
    gpusort::detail::halving_first_search(tile.data(), static_cast<int>(tile.size()), offset,
                                          s.keys.data(), s.positions.data(), ranks.data(), first,
                                          slot, gpusort::less{});
  }
  for (int half = first / 2; half >= 1; half /= 2) {
    for (int node = (count / half + 1) / 2 - 1; node >= 0; --node) {
      gpusort::detail::halving_search(tile.data(), static_cast<int>(tile.size()), offset,
                                      s.keys.data(), s.positions.data(), count, ranks.data(),
                                      half, node, gpusort::less{});
    }
  }
  return ranks;
}

TEST_CASE("the halving search locates every splitter", "[locate_splitters]") {
  std::mt19937 rng(777);
  for (int size : {0, 1, 5, 128, 1000}) {
    for (int count : {0, 1, 2, 3, 7, 8, 15, 63, 64, 65, 100, 300}) {
      for (int key_range : {1, 3, 1 << 30}) {
        CAPTURE(size, count, key_range);
        const std::int64_t offset = 5000;
        const auto tile = make_sorted_tile(size, key_range, rng);
        const auto s = make_splitters(tile, offset, count, key_range, rng);
        for (int threads : {1, 4, 32, 1024}) {
          const auto ranks = halving_ranks(tile, offset, s, threads);
          for (int b = 0; b < count; ++b) {
            CAPTURE(threads, b);
            REQUIRE(ranks[b] == brute_rank(tile, offset, s.keys[b], s.positions[b]));
          }
        }
      }
    }
  }
}

TEST_CASE("ties by position split an all-equal input into even buckets", "[locate_splitters]") {
  // The deterministic sort's end to end promise on all-equal keys: m tiles, s regular
  // samples each, s global splitters every m-th sample; no bucket exceeds 2n/s.
  const int tiles = 16, tile_items = 256, samples = 8;
  const std::vector<int> tile(tile_items, 42);
  std::vector<std::pair<int, std::int64_t>> all_samples;
  for (int t = 0; t < tiles; ++t) {
    for (int j = 0; j < samples; ++j) {
      const int i = gpusort::block::regular_sample_index(j, tile_items, samples);
      all_samples.emplace_back(42, std::int64_t{t} * tile_items + i);
    }
  }
  std::sort(all_samples.begin(), all_samples.end());
  splitter_set s;
  for (int j = 0; j < samples; ++j) {
    const auto& p = all_samples[gpusort::block::regular_sample_index(
        j, static_cast<int>(all_samples.size()), samples)];
    s.keys.push_back(p.first);
    s.positions.push_back(p.second);
  }
  std::vector<long long> bucket_sizes(samples + 1, 0);
  for (int t = 0; t < tiles; ++t) {
    const auto ranks = halving_ranks(tile, std::int64_t{t} * tile_items, s, 4);
    int previous = 0;
    for (int b = 0; b < samples; ++b) {
      bucket_sizes[b] += ranks[b] - previous;
      previous = ranks[b];
    }
    bucket_sizes[samples] += tile_items - previous;
  }
  const long long n = static_cast<long long>(tiles) * tile_items;
  long long total = 0;
  for (long long size : bucket_sizes) {
    REQUIRE(size <= 2 * n / samples);
    total += size;
  }
  REQUIRE(total == n);
  // s splitters make s + 1 buckets; the last splitter is the largest item, which does not
  // precede itself and so is alone in the last bucket.
  REQUIRE(bucket_sizes[samples] == 1);
}

// ---------------------------------------------------------------------------------------
// splitter tree

TEST_CASE("Eytzinger index maps are inverse and in-order", "[splitter_tree]") {
  for (int levels = 1; levels <= 12; ++levels) {
    CAPTURE(levels);
    const int nodes = (1 << levels) - 1;
    std::vector<int> seen(nodes, 0);
    for (int j = 1; j <= nodes; ++j) {
      const int r = gpusort::detail::eytzinger_to_sorted(j, levels);
      REQUIRE(r >= 0);
      REQUIRE(r < nodes);
      ++seen[r];
      REQUIRE(gpusort::detail::sorted_to_eytzinger(r, levels) == j);
      // Search-tree property: left child sorts before its parent, right child after.
      if (2 * j <= nodes) {
        REQUIRE(gpusort::detail::eytzinger_to_sorted(2 * j, levels) < r);
        REQUIRE(gpusort::detail::eytzinger_to_sorted(2 * j + 1, levels) > r);
      }
    }
    REQUIRE(std::count(seen.begin(), seen.end(), 1) == nodes);
    REQUIRE(gpusort::detail::sorted_to_eytzinger(nodes, levels) == 1);  // readable past the end
  }
}

template <class Key, class Compare>
int reference_bucket(const std::vector<Key>& splitters, const Key& key, Compare cmp) {
  return static_cast<int>(std::lower_bound(splitters.begin(), splitters.end(), key, cmp) -
                          splitters.begin());
}

template <int LOG, class Key, class Compare>
void check_tree(const std::vector<Key>& sorted_splitters, const std::vector<Key>& queries,
                Compare cmp) {
  using tree_t = gpusort::block::splitter_tree<Key, LOG>;
  constexpr int k = tree_t::buckets;
  REQUIRE(static_cast<int>(sorted_splitters.size()) == k - 1);
  tree_t tree;
  tree.build(sorted_splitters.data());
  bool repeated = false;
  for (int r = 0; r < k - 1; ++r) {
    REQUIRE(!cmp(tree.splitter(r), sorted_splitters[r]));
    REQUIRE(!cmp(sorted_splitters[r], tree.splitter(r)));
    if (r > 0 && !cmp(sorted_splitters[r - 1], sorted_splitters[r])) repeated = true;
  }
  REQUIRE(tree.has_repeated_splitters(cmp) == repeated);
  const auto equiv = [&](const Key& a, const Key& b) { return !cmp(a, b) && !cmp(b, a); };
  for (const Key& key : queries) {
    const int b = tree.find_bucket(key, cmp);
    REQUIRE(b == reference_bucket(sorted_splitters, key, cmp));
    REQUIRE(b >= 0);
    REQUIRE(b < k);
    // The bucket's bounds: s[b-1] < key <= s[b].
    if (b > 0) REQUIRE(cmp(sorted_splitters[b - 1], key));
    if (b < k - 1) REQUIRE(!cmp(sorted_splitters[b], key));

    const int e = tree.find_bucket_with_equality(key, cmp);
    REQUIRE(e >= 0);
    REQUIRE(e < tree_t::buckets_with_equality);
    REQUIRE(e / 2 == b);
    const bool equal_to_some_splitter =
        std::any_of(sorted_splitters.begin(), sorted_splitters.end(),
                    [&](const Key& s) { return equiv(s, key); });
    REQUIRE(tree_t::is_equality_bucket(e) == equal_to_some_splitter);
    if (tree_t::is_equality_bucket(e)) {
      REQUIRE(equiv(sorted_splitters[e / 2], key));
      // The first splitter of a run of repeats takes the value.
      if (e / 2 > 0) REQUIRE(!equiv(sorted_splitters[e / 2 - 1], key));
    } else {
      if (b > 0) REQUIRE(cmp(sorted_splitters[b - 1], key));
      if (b < k - 1) REQUIRE(cmp(key, sorted_splitters[b]));
    }
  }
  // A thread's several keys looked up together (level by level) land where each alone does.
  constexpr int batch = 5;
  for (std::size_t first = 0; first + batch <= queries.size(); first += batch) {
    Key keys[batch];
    int buckets[batch], buckets_with_equality[batch];
    std::copy(queries.begin() + first, queries.begin() + first + batch, keys);
    tree.find_buckets(keys, buckets, cmp);
    tree.find_buckets_with_equality(keys, buckets_with_equality, cmp);
    for (int r = 0; r < batch; ++r) {
      CAPTURE(first, r);
      REQUIRE(buckets[r] == reference_bucket(sorted_splitters, keys[r], cmp));
      REQUIRE(buckets_with_equality[r] == tree.find_bucket_with_equality(keys[r], cmp));
    }
    // Told that no splitter repeats: the even bucket of the lower bound, equality buckets
    // left empty.
    if (!repeated) {
      int without_equality[batch];
      tree.find_buckets_with_equality(keys, without_equality, cmp, false);
      for (int r = 0; r < batch; ++r) {
        CAPTURE(first, r);
        REQUIRE(without_equality[r] == 2 * buckets[r]);
      }
    }
  }
  // Buckets follow the key order (so concatenating them sorts).
  std::vector<Key> sorted_queries = queries;
  std::sort(sorted_queries.begin(), sorted_queries.end(), cmp);
  for (std::size_t i = 1; i < sorted_queries.size(); ++i) {
    REQUIRE(tree.find_bucket_with_equality(sorted_queries[i - 1], cmp) <=
            tree.find_bucket_with_equality(sorted_queries[i], cmp));
  }
}

// Splitters from `pick` (sorted), queries: every splitter, its neighbours, random keys.
template <int LOG>
void check_int_tree(int key_range, bool all_equal, std::mt19937& rng) {
  constexpr int k = 1 << LOG;
  std::vector<int> splitters(k - 1);
  for (int& s : splitters) s = all_equal ? 5 : static_cast<int>(rng() % key_range);
  std::sort(splitters.begin(), splitters.end());
  std::vector<int> queries;
  for (int s : splitters) {
    queries.push_back(s - 1);
    queries.push_back(s);
    queries.push_back(s + 1);
  }
  for (int i = 0; i < 200; ++i) queries.push_back(static_cast<int>(rng() % (key_range + 2)) - 1);
  CAPTURE(LOG, key_range, all_equal);
  check_tree<LOG>(splitters, queries, gpusort::less{});
  // The same under greater: splitters sorted descending.
  std::sort(splitters.begin(), splitters.end(), gpusort::greater{});
  check_tree<LOG>(splitters, queries, gpusort::greater{});
}

template <int LOG>
void check_int_trees(std::mt19937& rng) {
  for (int key_range : {1 << 30, 1000, 40, 3}) check_int_tree<LOG>(key_range, false, rng);
  check_int_tree<LOG>(1, true, rng);
}

TEST_CASE("splitter tree find_bucket matches lower_bound, k = 2..256", "[splitter_tree]") {
  std::mt19937 rng(2024);
  check_int_trees<1>(rng);
  check_int_trees<2>(rng);
  check_int_trees<3>(rng);
  check_int_trees<4>(rng);
  check_int_trees<5>(rng);
  check_int_trees<6>(rng);
  check_int_trees<7>(rng);
  check_int_trees<8>(rng);
}

TEST_CASE("splitter tree with all-equal splitters sends that value to bucket 1",
          "[splitter_tree]") {
  using tree_t = gpusort::block::splitter_tree<int, 7>;
  std::vector<int> splitters(tree_t::splitters, 9);
  tree_t tree;
  tree.build(splitters.data());
  REQUIRE(tree.has_repeated_splitters(gpusort::less{}));
  REQUIRE(tree.find_bucket_with_equality(9, gpusort::less{}) == 1);
  REQUIRE(tree.find_bucket_with_equality(8, gpusort::less{}) == 0);
  REQUIRE(tree.find_bucket_with_equality(10, gpusort::less{}) == tree_t::buckets_with_equality - 1);
  REQUIRE(tree.find_bucket(9, gpusort::less{}) == 0);
  REQUIRE(tree.find_bucket(10, gpusort::less{}) == tree_t::buckets - 1);
}

TEST_CASE("splitter tree orders floats with NaN and signed zeros under total_less",
          "[splitter_tree]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> pool = {-nan, -inf, -1e30f, -2.5f, -0.0f, 0.0f, 1e-40f, 1.0f, 3.0f, inf, nan};
  std::mt19937 rng(99);
  std::vector<float> splitters(15);
  for (float& s : splitters) s = pool[rng() % pool.size()];
  std::sort(splitters.begin(), splitters.end(), gpusort::total_less{});
  std::vector<float> queries = pool;
  for (int i = 0; i < 100; ++i) queries.push_back(std::ldexp(float(rng() % 2000) - 1000.f, -4));
  check_tree<4>(splitters, queries, gpusort::total_less{});
}

// ---------------------------------------------------------------------------------------
// bucket_offsets index arithmetic

TEST_CASE("column-major to row-major index map is the transposition", "[bucket_offsets]") {
  for (int tiles : {1, 2, 7, 64, 1000}) {
    for (int buckets : {1, 3, 13, 128}) {
      CAPTURE(tiles, buckets);
      std::int64_t c = 0;
      // Column-major walk: bucket by bucket, tile by tile inside.
      for (int b = 0; b < buckets; ++b) {
        for (int t = 0; t < tiles; ++t, ++c) {
          REQUIRE(gpusort::detail::column_major_to_row_major(c, tiles, buckets) ==
                  std::int64_t{t} * buckets + b);
        }
      }
    }
  }
  // 64-bit tables: more than 2^31 entries.
  const int tiles = 1 << 20, buckets = 4096;
  const std::int64_t last = std::int64_t{tiles} * buckets - 1;
  REQUIRE(gpusort::detail::column_major_to_row_major(last, tiles, buckets) == last);
  REQUIRE(gpusort::detail::column_major_to_row_major(std::int64_t{tiles} * 4095, tiles, buckets) ==
          4095);
}

TEST_CASE("bucket_offsets rejects negative sizes before any work", "[bucket_offsets]") {
  std::size_t bytes = 0;
  REQUIRE(gpusort::device::bucket_offsets<std::int64_t>(nullptr, bytes, nullptr, nullptr, -1, 4) ==
          cudaErrorInvalidValue);
  REQUIRE(gpusort::device::bucket_offsets<std::int64_t>(nullptr, bytes, nullptr, nullptr, 4, -1) ==
          cudaErrorInvalidValue);
}

}  // namespace
