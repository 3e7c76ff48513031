// Host tests of policy::warpsort's host-side arithmetic: the shape of a sort (passes, runs,
// levels, two- and four-way passes), the groups of the merge passes of steps 2 and 4 (every
// output position in exactly one group, pieces where the previous pass left them, every
// input position located in its run) and the sample positions.
#include "common/catch.hpp"

#include <gpusort/detail/warpsort.cuh>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using gpusort::detail::warpsort_bucket_groups;
using gpusort::detail::warpsort_group;
using gpusort::detail::warpsort_shape;
using gpusort::detail::warpsort_tuning;
using gpusort::detail::warpsort_uniform_groups;
using gpusort::detail::no_value;

template <class Key, class Value>
void check_shape(std::int64_t n, int max_fan_in) {
  using tuning = warpsort_tuning<Key, Value>;
  const warpsort_shape<Key, Value> s(n, max_fan_in);
  const warpsort_shape<Key, Value> pairwise(n, 2);
  CAPTURE(n, max_fan_in);
  REQUIRE(s.step1_runs == (n + tuning::run - 1) / tuning::run);
  // Four-way passes first, each worth two pairwise ones.
  REQUIRE(s.step2_four_way <= s.step2_passes);
  if (max_fan_in == 2) REQUIRE(s.step2_four_way == 0);
  REQUIRE(s.run_after_step2 ==
          static_cast<std::int64_t>(tuning::run) << (s.step2_passes + s.step2_four_way));
  const std::int64_t runs_left = (n + s.run_after_step2 - 1) / s.run_after_step2;
  REQUIRE(runs_left <= tuning::split_runs);
  if (s.step2_passes > 0) REQUIRE(runs_left * 2 > tuning::split_runs);
  // Step 2 ends with the runs the paper's pairwise merges end with, in fewer passes.
  REQUIRE(s.run_after_step2 == pairwise.run_after_step2);
  REQUIRE(s.step2_passes == pairwise.step2_passes - s.step2_four_way);
  if (runs_left <= 1) {
    REQUIRE(s.runs == 0);
    REQUIRE(s.levels == 0);
    REQUIRE(s.levels_four_way == 0);
  } else {
    REQUIRE(s.runs == (1 << s.levels));
    REQUIRE(s.runs >= runs_left);
    REQUIRE(s.runs < 2 * runs_left);
    // Four-way levels while four groups fit in the runs, then at most one pairwise level.
    REQUIRE(2 * s.levels_four_way <= s.levels);
    REQUIRE(s.levels - 2 * s.levels_four_way <= (max_fan_in == 4 ? 1 : s.levels));
    if (max_fan_in == 2) REQUIRE(s.levels_four_way == 0);
  }
  REQUIRE(s.passes() == s.step2_passes + s.levels - s.levels_four_way);
}

}  // namespace

TEST_CASE("warpsort_shape: passes, runs and levels", "[warpsort][host]") {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(128), std::int64_t(1024), std::int64_t(1025),
                         std::int64_t(4097), std::int64_t(65536), std::int64_t(65537),
                         std::int64_t(999983), std::int64_t(1) << 24, std::int64_t(1) << 28,
                         (std::int64_t(1) << 31) + 4097}) {
    for (int max_fan_in : {2, 4}) {
      check_shape<std::uint32_t, no_value>(n, max_fan_in);
      check_shape<std::uint32_t, std::uint32_t>(n, max_fan_in);
      check_shape<std::uint64_t, std::uint64_t>(n, max_fan_in);
    }
  }
  STATIC_REQUIRE(warpsort_tuning<std::uint32_t, no_value>::chunk >= 128);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, std::uint64_t>::chunk >= 128);
  // Step 1 merges 4 chunks per warp for the common item sizes (16 KB buffers).
  STATIC_REQUIRE(warpsort_tuning<std::uint32_t, no_value>::run == 4096);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, no_value>::run == 2048);
  STATIC_REQUIRE(warpsort_tuning<std::uint32_t, std::uint32_t>::run == 2048);
  STATIC_REQUIRE(warpsort_tuning<std::uint64_t, std::uint64_t>::run == 1024);
  // u32 keys at 2^28: 65536 runs of step 1, five four-way passes to 64, three four-way levels.
  const warpsort_shape<std::uint32_t, no_value> u32_28(std::int64_t(1) << 28);
  CHECK(u32_28.step2_passes == 5);
  CHECK(u32_28.step2_four_way == 5);
  CHECK(u32_28.levels_four_way == 3);
  CHECK(u32_28.passes() == 8);
  CHECK(warpsort_shape<std::uint32_t, no_value>(std::int64_t(1) << 28, 2).passes() == 16);
}

namespace {

// Every input position lies where locate() says: in run `member` of its group.
template <class Groups>
void check_locate(const Groups& groups, std::int64_t p) {
  const auto place = groups.locate(p);
  REQUIRE(place.group >= 0);
  REQUIRE(place.group < groups.size());
  REQUIRE(place.member >= 0);
  REQUIRE(place.member < Groups::fan_in);
  const auto g = groups[place.group];
  REQUIRE(g.begin[place.member] + place.index == p);
  REQUIRE(place.index < g.count[place.member]);
}

template <int K>
void check_uniform_groups() {
  CAPTURE(K);
  for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(4096), std::int64_t(5000)}) {
    for (std::int64_t run : {std::int64_t(128), std::int64_t(1024)}) {
      CAPTURE(n, run);
      const warpsort_uniform_groups<K> groups{n, run};
      REQUIRE(groups.size() == (n + K * run - 1) / (K * run));
      for (std::int64_t p = 0; p < n; ++p) {
        const warpsort_group<K> g = groups[groups.find(p)];
        REQUIRE(g.out_begin <= p);
        REQUIRE(p < g.out_end);
        std::int64_t next = g.out_begin;
        for (int r = 0; r < K; ++r) {
          REQUIRE(g.begin[r] == next);
          REQUIRE(g.count[r] <= run);
          next += g.count[r];
        }
        REQUIRE(next == g.out_end);
        check_locate(groups, p);
      }
    }
  }
}

// Step 4's groups of a level with fan-in K over random pieces: every output position in
// exactly one group of one bucket, the group's runs the right pieces, every input position
// located.
template <int K>
void check_bucket_groups(int runs, int buckets, std::mt19937_64& rng) {
  const std::int64_t run = 40;
  const std::int64_t n = run * (runs - 1) + 17;  // last run ragged
  CAPTURE(K, runs, buckets);
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
  for (int group = 1; K * group <= runs; group *= K) {
    CAPTURE(group);
    const warpsort_bucket_groups<K> groups{offsets.data(), counts.data(), begins.data(), n, run,
                                           runs, buckets, group};
    REQUIRE(groups.size() == std::int64_t(runs) * buckets / (K * group));
    for (std::int64_t p = 0; p < n; ++p) {
      const std::int64_t q = groups.find(p);
      const warpsort_group<K> g = groups[q];
      REQUIRE(g.out_begin <= p);
      REQUIRE(p < g.out_end);
      // Group q covers bucket-major pieces [K q group, K (q + 1) group): one bucket only.
      const std::int64_t c = q * K * group;
      const int b = static_cast<int>(c / runs);
      const int x = static_cast<int>(c % runs);
      REQUIRE(x + K * group <= runs);
      std::int64_t items = 0;
      for (int r = 0; r < K; ++r) {
        std::int64_t member_items = 0;
        for (int i = 0; i < group; ++i) member_items += counts[(x + r * group + i) * buckets + b];
        REQUIRE(g.count[r] == member_items);
        if (group == 1) REQUIRE(g.begin[r] == std::min((x + r) * run, n) + begins[(x + r) * buckets + b]);
        else REQUIRE(g.begin[r] == g.out_begin + items);
        items += member_items;
      }
      REQUIRE(items == g.out_end - g.out_begin);
      // The level reads the previous level's output: at the first level the runs of step 2.
      check_locate(groups, p);
    }
  }
}

}  // namespace

TEST_CASE("warpsort_uniform_groups: every position in its group, located in its run", "[warpsort][host]") {
  check_uniform_groups<2>();
  check_uniform_groups<4>();
}

TEST_CASE("warpsort_bucket_groups: step-4 levels partition the output", "[warpsort][host]") {
  std::mt19937_64 rng(11);
  const int runs = GENERATE(2, 4, 8, 16, 64);
  const int buckets = GENERATE(1, 3, 16);
  check_bucket_groups<2>(runs, buckets, rng);
  check_bucket_groups<4>(runs, buckets, rng);
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
  CHECK(width_u32(21) == 128);
  CHECK(width_u32(22) == 256);
  CHECK(width_u32(23) == 512);
  CHECK(width_u32(26) == 512);
  CHECK(width_u32(27) == 1024);
  CHECK(width_u32(28) == 1024);
  CHECK(warpsort_width<u64, no_value>(tuned, std::int64_t(1) << 28) == 256);
  CHECK(warpsort_width<u32, u32>(tuned, std::int64_t(1) << 28) == 256);
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

  // A warp takes 16 or 32 buffer halves; 32 only where the pass still has busy_warps warps,
  // and a tuned width above 64 always leaves them.
  using shape = warpsort_shape<u32, no_value>;
  constexpr std::int64_t busy = warpsort_tuning<u32, no_value>::busy_warps;
  for (int e = 10; e <= 31; ++e) {
    const std::int64_t n = std::int64_t(1) << e;
    CAPTURE(e);
    for (int width : {64, 128, 256, 512, 1024}) {
      const std::int64_t outputs = shape::warp_outputs(width, n);
      const std::int64_t half = width / 2;
      REQUIRE((outputs == 16 * half || outputs == 32 * half));
      if (outputs == 32 * half) REQUIRE(n / outputs >= busy);
      else REQUIRE(n / (2 * outputs) < busy);
    }
    const int tuned_width = width_u32(e);
    if (tuned_width > 64) REQUIRE(n / shape::warp_outputs(tuned_width, n) >= busy);
  }
}
