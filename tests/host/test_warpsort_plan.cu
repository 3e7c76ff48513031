// Host tests of policy::warpsort's host-side arithmetic: the shape of a sort (passes, runs,
// levels, two-way and four-way step 2), the pairings of the merge passes of steps 2 and 4
// (every output position in exactly one pair, pieces where the previous pass left them), the
// tiles of the four-way passes and the sample positions.
#include "common/catch.hpp"

#include <gpusort/detail/warpsort.cuh>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using gpusort::detail::four_run_groups;
using gpusort::detail::warpsort_bucket_pairs;
using gpusort::detail::warpsort_four_way_tiles;
using gpusort::detail::warpsort_pair;
using gpusort::detail::warpsort_shape;
using gpusort::detail::warpsort_tuning;
using gpusort::detail::warpsort_uniform_pairs;
using gpusort::detail::warpsort_whole_waves;
using gpusort::detail::no_value;

// Keys of 16 to 176 bytes, the widest warpsort takes (only their size matters to the shapes).
struct key16 {
  std::uint64_t w[2];
};
struct key56 {
  std::uint64_t w[7];
};
struct key64 {
  std::uint64_t w[8];
};
struct key176 {
  std::uint64_t w[22];
};

template <class Key, class Value>
void check_shape(std::int64_t n, bool four_way) {
  using tuning = warpsort_tuning<Key, Value>;
  const warpsort_shape<Key, Value> s(n, four_way);
  CAPTURE(n, four_way);
  REQUIRE(s.step1_runs == (n + tuning::run - 1) / tuning::run);
  REQUIRE(s.step2_ways == (four_way ? 4 : 2));
  std::int64_t run = tuning::run;
  for (int pass = 0; pass < s.step2_passes; ++pass) run *= s.step2_ways;
  REQUIRE(s.run_after_step2 == run);
  const std::int64_t runs_left = (n + s.run_after_step2 - 1) / s.run_after_step2;
  REQUIRE(runs_left <= tuning::split_runs);
  if (s.step2_passes > 0) REQUIRE(runs_left * s.step2_ways > tuning::split_runs);
  if (runs_left <= 1) {
    REQUIRE(s.runs == 0);
    REQUIRE(s.levels == 0);
  } else {
    REQUIRE(s.runs == (1 << s.levels));
    REQUIRE(s.runs >= runs_left);
    REQUIRE(s.runs < 2 * runs_left);
  }
}

}  // namespace

TEST_CASE("warpsort_shape: passes, runs and levels", "[warpsort][host]") {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(128), std::int64_t(1024), std::int64_t(1025),
                         std::int64_t(4097), std::int64_t(65536), std::int64_t(65537),
                         std::int64_t(999983), std::int64_t(1) << 24, std::int64_t(1) << 28,
                         (std::int64_t(1) << 31) + 4097}) {
    for (bool four_way : {false, true}) {
      check_shape<std::uint32_t, no_value>(n, four_way);
      check_shape<std::uint32_t, std::uint32_t>(n, four_way);
      check_shape<std::uint64_t, std::uint64_t>(n, four_way);
    }
  }
  // Four runs a pass: u32:u32 at 2^24 (2048 runs of 8K) in 5 passes instead of 9, then one
  // step-4 level instead of two. The policy merges four a pass for items of 4 to 8 bytes from
  // four_way_from items: 2^25 4-byte items, 3/2 of 2^24 pairs of 8 bytes, 256 MiB of 8-byte
  // keys.
  using pair_tuning = warpsort_tuning<std::uint32_t, std::uint32_t>;
  using key_tuning = warpsort_tuning<std::uint32_t, no_value>;
  const warpsort_shape<std::uint32_t, std::uint32_t> two(std::int64_t(1) << 24, false), four(std::int64_t(1) << 24, true);
  REQUIRE(two.step2_passes == 9);
  REQUIRE(two.levels == 2);
  REQUIRE(four.step2_passes == 5);
  REQUIRE(four.levels == 1);
  STATIC_REQUIRE(pair_tuning::four_way_passes);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, no_value>::four_way_passes);
  STATIC_REQUIRE(key_tuning::four_way_passes);
  STATIC_REQUIRE(!warpsort_tuning<std::uint16_t, no_value>::four_way_passes);
  STATIC_REQUIRE(!warpsort_tuning<std::uint64_t, std::uint64_t>::four_way_passes);
  STATIC_REQUIRE(pair_tuning::four_way_from == 3 * (std::int64_t(1) << 23));
  STATIC_REQUIRE(warpsort_tuning<std::uint16_t, std::uint16_t>::four_way_from == std::int64_t(1) << 25);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, no_value>::four_way_from == std::int64_t(1) << 25);
  STATIC_REQUIRE(key_tuning::four_way_from == std::int64_t(1) << 25);
  REQUIRE(warpsort_shape<std::uint32_t, std::uint32_t>(pair_tuning::four_way_from - 1).step2_ways == 2);
  REQUIRE(warpsort_shape<std::uint32_t, std::uint32_t>(pair_tuning::four_way_from).step2_ways == 4);
  REQUIRE(warpsort_shape<std::uint32_t, no_value>(key_tuning::four_way_from - 1).step2_ways == 2);
  REQUIRE(warpsort_shape<std::uint32_t, no_value>(key_tuning::four_way_from).step2_ways == 4);
  REQUIRE(warpsort_shape<std::uint16_t, no_value>(std::int64_t(1) << 28).step2_ways == 2);
  STATIC_REQUIRE(warpsort_tuning<std::uint32_t, no_value>::chunk >= 128);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, std::uint64_t>::chunk >= 128);
  // Step 1 merges 4 chunks per warp for the common item sizes (16 KB buffers), then the
  // runs of a block's warps.
  STATIC_REQUIRE(warpsort_tuning<std::uint32_t, no_value>::warp_run == 4096);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, no_value>::warp_run == 2048);
  STATIC_REQUIRE(warpsort_tuning<std::uint32_t, std::uint32_t>::warp_run == 2048);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, std::uint64_t>::warp_run == 1024);
  using u32_tuning = warpsort_tuning<std::uint32_t, no_value>;
  STATIC_REQUIRE(u32_tuning::run == u32_tuning::warp_run * u32_tuning::run_warps);
}

TEST_CASE("warpsort_uniform_pairs: every position in its pair", "[warpsort][host]") {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(4096), std::int64_t(5000)}) {
    for (std::int64_t run : {std::int64_t(128), std::int64_t(1024)}) {
      const warpsort_uniform_pairs pairs{n, run};
      for (std::int64_t p = 0; p < n; ++p) {
        const warpsort_pair pr = pairs[pairs.find(p)];
        REQUIRE(pr.out_begin <= p);
        REQUIRE(p < pr.out_end);
        REQUIRE(pr.a_begin == pr.out_begin);
        REQUIRE(pr.b_begin == pr.a_begin + pr.a_count);
        REQUIRE(pr.a_count + pr.b_count == pr.out_end - pr.out_begin);
        REQUIRE(pr.a_count <= run);
        REQUIRE(pr.b_count <= run);
      }
    }
  }
}

TEST_CASE("warpsort_bucket_pairs: step-4 levels partition the output", "[warpsort][host]") {
  std::mt19937_64 rng(11);
  const int runs = GENERATE(2, 4, 8);
  const int buckets = GENERATE(1, 3, 16);
  const std::int64_t run = 40;
  const std::int64_t n = run * (runs - 1) + 17;  // last run ragged
  CAPTURE(runs, buckets);
  // Random cuts of each run into `buckets` pieces (some empty).
  std::vector<std::int64_t> counts(runs * buckets), begins(runs * buckets), offsets(runs * buckets);
  for (int x = 0; x < runs; ++x) {
    const std::int64_t length = std::min(run, n - x * run);
    std::vector<std::int64_t> cuts(buckets - 1);
    for (auto& c : cuts) c = static_cast<std::int64_t>(rng() % (length + 1));
    std::sort(cuts.begin(), cuts.end());
    std::int64_t lo = 0;
    for (int b = 0; b < buckets; ++b) {
      const std::int64_t hi = b == buckets - 1 ? length : cuts[b];
      begins[x * buckets + b] = lo;
      counts[x * buckets + b] = hi - lo;
      lo = hi;
    }
  }
  std::int64_t total = 0;
  for (int b = 0; b < buckets; ++b)
    for (int x = 0; x < runs; ++x) {
      offsets[x * buckets + b] = total;
      total += counts[x * buckets + b];
    }
  REQUIRE(total == n);
  for (int group = 1; group < runs; group *= 2) {
    CAPTURE(group);
    const warpsort_bucket_pairs pairs{offsets.data(), counts.data(), begins.data(), n, run,
                                      runs, buckets, group};
    for (std::int64_t p = 0; p < n; ++p) {
      const std::int64_t q = pairs.find(p);
      const warpsort_pair pr = pairs[q];
      REQUIRE(pr.out_begin <= p);
      REQUIRE(p < pr.out_end);
      REQUIRE(pr.a_count + pr.b_count == pr.out_end - pr.out_begin);
      // Pair q covers bucket-major pieces [2q*group, 2(q+1)*group): one bucket only.
      const std::int64_t c = q * 2 * group;
      const int b = static_cast<int>(c / runs);
      const int x = static_cast<int>(c % runs);
      REQUIRE(x + 2 * group <= runs);
      std::int64_t a_items = 0, b_items = 0;
      for (int i = 0; i < group; ++i) {
        a_items += counts[(x + i) * buckets + b];
        b_items += counts[(x + group + i) * buckets + b];
      }
      REQUIRE(pr.a_count == a_items);
      REQUIRE(pr.b_count == b_items);
      if (group == 1) {
        REQUIRE(pr.a_begin == std::min(x * run, n) + begins[x * buckets + b]);
        REQUIRE(pr.b_begin == std::min((x + 1) * run, n) + begins[(x + 1) * buckets + b]);
      } else {
        REQUIRE(pr.a_begin == pr.out_begin);
        REQUIRE(pr.b_begin == pr.out_begin + pr.a_count);
      }
    }
  }
}

TEST_CASE("warpsort_sample_position: inside the array", "[warpsort][host]") {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(7), std::int64_t(1) << 33}) {
    for (int j = 0; j < 5000; ++j) {
      const std::int64_t p = gpusort::detail::warpsort_sample_position(0x5eed, j, n);
      REQUIRE(p >= 0);
      REQUIRE(p < n);
    }
  }
}

TEST_CASE("warpsort: the tuned merge width and outputs per warp", "[warpsort][host]") {
  using gpusort::detail::warpsort_supports_width;
  using gpusort::detail::warpsort_width;
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  const gpusort::policy::warpsort tuned{};
  const auto width_u32 = [&](int e) { return warpsort_width<u32, no_value>(tuned, std::int64_t(1) << e); };
  CHECK(width_u32(10) == 64);
  CHECK(width_u32(20) == 64);
  const auto width_at = [&](auto key, std::int64_t n) {
    return warpsort_width<decltype(key), no_value>(tuned, n);
  };
  // bench/RESULTS.md run 44: 128 from 5/4 of 2^20, 256 from 7/4, 512 (4-byte keys) from 2^22.
  const std::int64_t quarter = std::int64_t(1) << 18;
  CHECK(width_at(u32{}, 5 * quarter - 1) == 64);
  CHECK(width_at(u32{}, 5 * quarter) == 128);
  CHECK(width_at(u32{}, 7 * quarter - 1) == 128);
  CHECK(width_at(u32{}, 7 * quarter) == 256);
  CHECK(width_at(u64{}, 7 * quarter) == 256);
  CHECK(width_u32(21) == 256);
  CHECK(width_at(u32{}, (std::int64_t(1) << 22) - 1) == 256);
  CHECK(width_u32(22) == 512);
  CHECK(width_at(u64{}, std::int64_t(1) << 22) == 256);
  // Run 45: 1024 (4-byte keys) from 3/4 of 2^24.
  CHECK(width_at(u32{}, 3 * (std::int64_t(1) << 22) - 1) == 512);
  CHECK(width_at(u32{}, 3 * (std::int64_t(1) << 22)) == 1024);
  CHECK(width_u32(24) == 1024);
  CHECK(width_at(u64{}, std::int64_t(1) << 24) == 256);
  // Run 111: where step 2 merges four runs a pass (4-byte keys from 2^25), 256.
  CHECK(width_at(u32{}, (std::int64_t(1) << 25) - 1) == 1024);
  CHECK(width_u32(25) == 256);
  CHECK(width_u32(28) == 256);
  CHECK(warpsort_width<float, no_value>(tuned, std::int64_t(1) << 28) == 256);
  CHECK(warpsort_width<u64, no_value>(tuned, std::int64_t(1) << 28) == 256);
  CHECK(warpsort_width<u32, u32>(tuned, std::int64_t(1) << 28) == 256);
  // Each form's own t, whichever the policy takes (bench_warpsort's ways study).
  using gpusort::detail::warpsort_tuned_width;
  CHECK(warpsort_tuned_width<u32, no_value>(std::int64_t(1) << 24, true) == 256);
  CHECK(warpsort_tuned_width<u32, no_value>(std::int64_t(1) << 28, false) == 1024);
  CHECK(warpsort_tuned_width<u64, no_value>(std::int64_t(1) << 28, false) == 256);
  gpusort::policy::warpsort chosen{};
  chosen.merge_width = 128;
  CHECK(warpsort_width<u32, no_value>(chosen, std::int64_t(1) << 28) == 128);

  // 512 and 1024 only where a lane's 16 or 32 items are 4 bytes each.
  STATIC_REQUIRE(warpsort_supports_width<u32, no_value>(512));
  STATIC_REQUIRE(warpsort_supports_width<float, no_value>(512));
  STATIC_REQUIRE(warpsort_supports_width<u32, no_value>(1024));
  STATIC_REQUIRE(!warpsort_supports_width<u64, no_value>(512));
  STATIC_REQUIRE(!warpsort_supports_width<u32, u32>(512));
  STATIC_REQUIRE(!warpsort_supports_width<u32, u32>(1024));
  STATIC_REQUIRE(!warpsort_supports_width<u32, no_value>(2048));

  // Four warps a merge block, fewer where their buffers would outgrow static shared memory;
  // a width is offered only where one warp's buffer fits.
  STATIC_REQUIRE(warpsort_tuning<u32, no_value>::merge_warps_per_block<32> == 4);
  STATIC_REQUIRE(warpsort_tuning<u32, u32>::merge_warps_per_block<8> == 4);
  STATIC_REQUIRE(warpsort_tuning<key64, u64>::merge_warps_per_block<2> == 4);
  STATIC_REQUIRE(warpsort_tuning<key64, u64>::merge_warps_per_block<8> == 2);
  STATIC_REQUIRE(warpsort_supports_width<key64, u64>(256));
  STATIC_REQUIRE(warpsort_tuning<key176, no_value>::merge_warps_per_block<8> == 1);
  STATIC_REQUIRE(warpsort_tuning<key176, key176>::merge_warps_per_block<2> == 2);
  STATIC_REQUIRE(warpsort_tuning<key176, key176>::merge_warps_per_block<4> == 1);
  STATIC_REQUIRE(warpsort_supports_width<key176, key176>(128));
  STATIC_REQUIRE(!warpsort_supports_width<key176, key176>(256));
  CHECK(warpsort_width<key176, key176>(tuned, std::int64_t(1) << 28) == 64);
  // Step 3's samples shrink to what fits too (56-byte keys: positioned, 64 bytes each).
  STATIC_REQUIRE(warpsort_tuning<u32, no_value>::sample_items == 4);
  STATIC_REQUIRE(warpsort_tuning<key56, no_value>::sample_items == 2);

  // Tuned, a lane's buffered items stay within lane_word_budget words: 64-byte keys merge at
  // t = 64 (t = 256 spilled), items of up to 24 bytes keep t = 256, 32-byte items take 128.
  CHECK(warpsort_width<key64, no_value>(tuned, std::int64_t(1) << 28) == 64);
  CHECK(warpsort_width<key64, u64>(tuned, std::int64_t(1) << 28) == 64);
  CHECK(warpsort_width<key16, u64>(tuned, std::int64_t(1) << 28) == 256);
  CHECK(warpsort_width<key16, key16>(tuned, std::int64_t(1) << 28) == 128);
  CHECK(warpsort_width<key16, no_value>(tuned, std::int64_t(1) << 28) == 256);

  // A warp takes 16 buffer halves, doubled only while the pass keeps busy_warps warps, up
  // to 32 halves or long_range outputs (whichever is more).
  using shape = warpsort_shape<u32, no_value>;
  constexpr std::int64_t busy = warpsort_tuning<u32, no_value>::busy_warps;
  constexpr std::int64_t long_range = warpsort_tuning<u32, no_value>::long_range;
  for (int e = 10; e <= 31; ++e) {
    const std::int64_t n = std::int64_t(1) << e;
    CAPTURE(e);
    for (int width : {64, 128, 256, 512, 1024}) {
      CAPTURE(width);
      const std::int64_t outputs = shape::warp_outputs(width, n);
      const std::int64_t half = width / 2;
      const std::int64_t most = std::max(32 * half, long_range);
      REQUIRE(outputs % (16 * half) == 0);
      REQUIRE((outputs / (16 * half) & (outputs / (16 * half) - 1)) == 0);  // 16 halves x 2^j
      REQUIRE(outputs <= most);
      if (outputs > 16 * half) REQUIRE(n / outputs >= busy);
      if (2 * outputs <= most) REQUIRE(n / (2 * outputs) < busy);
    }
  }
}

TEST_CASE("warpsort_four_way_tiles: every output in one tile of its group", "[warpsort][host]") {
  // Tiles of whole merge steps, no more a group than `outputs` long ones would make, equal
  // within a group but its last; never more of them for
  // longer warp ranges (the plan sizes the co-rank table with the shortest).
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    const std::int64_t run = std::int64_t(256) << (rng() % 12);
    const std::int64_t n = 1 + static_cast<std::int64_t>(rng() % (9 * run));
    const std::int64_t granule = std::int64_t(32) << (rng() % 5);
    const std::int64_t outputs = granule * (16 << (rng() % 2));
    const std::int64_t longer = outputs + granule * static_cast<std::int64_t>(rng() % 64);
    CAPTURE(run, n, granule, outputs, longer);
    const four_run_groups<0> groups = warpsort_four_way_tiles(outputs, granule, run, n);
    REQUIRE(groups.tile % granule == 0);
    REQUIRE(groups.tiles_per_group() <= (4 * run + outputs - 1) / outputs);
    REQUIRE(warpsort_four_way_tiles(longer, granule, run, n).tiles() <= groups.tiles());
    std::int64_t next = 0;  // every output position once, in order
    for (std::int64_t i = 0; i < groups.tiles(); ++i) {
      const auto t = groups.at(i);
      REQUIRE(t.start + t.position == next);
      const std::int64_t count = groups.outputs(t);
      REQUIRE(count > 0);
      REQUIRE(count <= groups.tile);
      if (!groups.ends_group(t)) REQUIRE(count == groups.tile);
      REQUIRE(t.group_count == std::min(4 * run, n - t.start));
      std::int64_t in_runs = 0;
      for (int j = 0; j < 4; ++j) in_runs += t.run_count[j];
      REQUIRE(in_runs == t.group_count);
      next += count;
    }
    REQUIRE(next == n);
  }
}

TEST_CASE("warpsort: merge ranges stretched to whole waves of the device", "[warpsort]") {
  // Every output in exactly one range, never more ranges than the plan's (they size the
  // co-rank table), whole waves of whole merge steps where the plan has at least one wave
  // and fewer than stretch_below_waves.
  using gpusort::detail::stretch_below_waves;
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 4000; ++trial) {
    const std::int64_t n = 1 + static_cast<std::int64_t>(rng() % (std::int64_t(1) << (10 + trial % 22)));
    const std::int64_t granule = std::int64_t(32) << (rng() % 5);  // t / 2 for t = 64 .. 1024
    const std::int64_t outputs = granule * (rng() % 2 == 0 ? 16 : 32);
    const std::int64_t resident = 1 + static_cast<std::int64_t>(rng() % 4000);
    CAPTURE(n, outputs, granule, resident);
    const auto split = warpsort_whole_waves(n, outputs, granule, resident);
    const std::int64_t ranges = (n + outputs - 1) / outputs;
    REQUIRE(split.outputs >= outputs);
    REQUIRE(split.outputs % granule == 0);
    REQUIRE(split.ranges == (n + split.outputs - 1) / split.outputs);
    REQUIRE(split.ranges <= ranges);
    const std::int64_t waves = ranges / resident;
    if (waves == 0 || waves >= stretch_below_waves) {
      REQUIRE(split.outputs == outputs);
    } else {
      REQUIRE(split.ranges <= waves * resident);
      // The shortest such ranges: one merge step fewer would need more than the whole waves.
      if (split.outputs > outputs) REQUIRE((split.outputs - granule) * waves * resident < n);
    }
  }
  // The case that motivated it: u32:u32 pairs at 2^24 on an H100, 4096 ranges of 4096 items
  // (t = 256) and 2640 resident warps become one wave.
  const auto h100 = warpsort_whole_waves(std::int64_t(1) << 24, 4096, 128, 2640);
  REQUIRE(h100.ranges <= 2640);
  REQUIRE(h100.ranges > 2600);
}
