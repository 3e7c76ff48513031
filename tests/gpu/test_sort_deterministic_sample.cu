// policy::deterministic_sample through the public entry points: every distribution and
// awkward size, floating-point and struct keys (integer keys and comparators:
// test_sort_deterministic_sample_types.cu), pairs, 2^24 and 2^28 keys, more than 2^31
// keys, the error contract; and, through the detail hook, the bucket bound of every level
// on every distribution (the guarantee that makes all-equal input cost what uniform costs).
#include "common/staged_sort.cuh"
#include "sort_cases.cuh"

#include <gpusort/detail/deterministic_sample_sort.cuh>

#include <cstdint>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;
using ds_policy = gpusort::policy::deterministic_sample;

namespace {

const ds_policy default_policy{};
// Few samples per tile: more levels, so the recursion is exercised at moderate sizes.
const ds_policy few_samples{16, 0};

// Sorts n keys of distribution d and checks, for every level of the plan, that the
// buckets it made partition the array in order and that none exceeds the plan's bound.
template <class Key = std::uint32_t, class Compare = gpusort::less>
void check_bucket_bound(const ds_policy& policy, distribution d, std::int64_t n, Compare cmp = {}) {
  using setup_type = gpusort::detail::deterministic_sample_setup<Key, no_value>;
  INFO("distribution " << name(d) << ", n = " << n << ", s = " << policy.samples_per_tile);
  setup_type setup;
  REQUIRE(setup_type::make(policy, n, setup) == cudaSuccess);
  const auto& plan = setup.plan;
  REQUIRE(plan.levels >= 1);
  device_buffer<Key> keys(n);
  device_buffer<char> temp(static_cast<std::int64_t>(setup.layout.total));
  for (int level = 0; level < plan.levels; ++level) {
    INFO("level " << level << " of " << plan.levels);
    REQUIRE(generate(keys.data(), n, d, 99) == cudaSuccess);
    const std::int64_t entries = plan.segments[level + 1] + 1;
    device_buffer<std::int64_t> buckets(entries);
    REQUIRE(gpusort::detail::deterministic_sample_sort(
                policy, temp.data(), keys.data(), static_cast<no_value*>(nullptr), n, cmp, 0,
                gpusort::detail::deterministic_sample_stop_after::bucket_sort,
                buckets.data(), level) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<std::int64_t> b = buckets.to_host();
    REQUIRE(b.front() == 0);
    REQUIRE(b.back() == n);
    std::int64_t largest = 0;
    bool ordered = true;
    for (std::size_t i = 1; i < b.size(); ++i) {
      ordered = ordered && b[i] >= b[i - 1];
      largest = std::max(largest, b[i] - b[i - 1]);
    }
    CHECK(ordered);
    INFO("largest bucket " << largest << ", bound " << plan.bound[level + 1]);
    CHECK(largest <= plan.bound[level + 1]);
    REQUIRE(device_check_sorted(keys.data(), n, cmp));
  }
}

// The issue's bound on temp storage: at most 1.05 × the items' bytes, plus a few MiB.
template <class Key, class Value>
void check_temp_bound(std::int64_t n) {
  const std::size_t bytes =
      gpusort::detail::algorithm<ds_policy>::template temp_storage_bytes<Key, Value>(default_policy, n);
  constexpr std::size_t item_bytes = gpusort::detail::item_bytes_of<Key, Value>;
  const double items = static_cast<double>(n) * item_bytes;
  INFO("item bytes " << item_bytes << ", n = " << n << ", temp / items = "
                     << static_cast<double>(bytes) / items);
  CHECK(static_cast<double>(bytes) <= 1.05 * items + 4.0 * (1 << 20));
}

}  // namespace

TEST_CASE("deterministic_sample: temp storage within 1.05 × the items' bytes + 4 MiB",
          "[deterministic_sample]") {
  for (int log_n = 16; log_n <= 28; ++log_n) {
    const std::int64_t n = std::int64_t(1) << log_n;
    check_temp_bound<std::uint32_t, no_value>(n);
    check_temp_bound<std::uint32_t, no_value>(n + 12345);
    check_temp_bound<std::uint64_t, no_value>(n);
    check_temp_bound<std::uint32_t, std::uint32_t>(n);
    check_temp_bound<key16, no_value>(n / 2);
  }
}

TEST_CASE("deterministic_sample: samples in the idle keys, or in temp storage where they do not fit",
          "[deterministic_sample]") {
  // 4-byte keys: the sample table and its sort's scratch borrow the level's idle keys.
  using u32_setup = gpusort::detail::deterministic_sample_setup<std::uint32_t, no_value>;
  u32_setup wide_keys;
  REQUIRE(u32_setup::make(default_policy, 999983, wide_keys) == cudaSuccess);
  CHECK(wide_keys.samples_in_other);
  // 1-byte keys with many samples per half tile: 8-byte samples, two copies for the sort,
  // about twice the keys' bytes; they go to the temp storage.
  using u8_setup = gpusort::detail::deterministic_sample_setup<std::uint8_t, no_value>;
  using u8_tuning = u8_setup::tuning;
  const ds_policy many{u8_tuning::max_samples, u8_tuning::half_tile};
  u8_setup narrow_keys;
  REQUIRE(u8_setup::make(many, 999983, narrow_keys) == cudaSuccess);
  CHECK(!narrow_keys.samples_in_other);
  const auto dist = GENERATE(distribution::uniform, distribution::all_equal,
                             distribution::reverse_sorted);
  check_sort<ds_policy, std::uint8_t, no_value>(many, {dist, 999983}, gpusort::less{}, false);
  check_sort<ds_policy, std::uint8_t, no_value>(default_policy, {dist, 999983}, gpusort::less{}, false);
  check_sort<ds_policy, std::uint32_t, no_value>(default_policy, {dist, 999983}, gpusort::less{}, false);
}

TEST_CASE("deterministic_sample: u32 keys, every distribution and awkward size",
          "[deterministic_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_sort<ds_policy, std::uint32_t, no_value>(default_policy, {dist, n}, gpusort::less{}, false);
  check_sort<ds_policy, std::uint32_t, no_value>(few_samples, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("deterministic_sample: buckets stay within 2n/s on every distribution",
          "[deterministic_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  using tuning = gpusort::detail::deterministic_sample_tuning<std::uint32_t, no_value>;
  check_bucket_bound(default_policy, dist, std::int64_t(1) << 20);
  check_bucket_bound(few_samples, dist, 999983);
  // The full tile (16K on the H100): warp-sorted tiles, each segment's short last tile apart.
  check_bucket_bound(ds_policy{64, tuning::tile}, dist, 3000017);
}

// 8-byte integer keys sort their samples as (key, position) pairs (deterministic_sample_
// pair_table), the table's rows without a tile under the largest key of the comparator.
TEST_CASE("deterministic_sample: 8-byte integer keys, whose samples sort as pairs, on every distribution",
          "[deterministic_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  check_bucket_bound<std::uint64_t>(default_policy, dist, std::int64_t(1) << 20);
  check_bucket_bound<std::int64_t>(few_samples, dist, 999983, gpusort::greater{});
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537), std::int64_t(999983));
  check_sort<ds_policy, std::uint64_t, no_value>(default_policy, {dist, n}, gpusort::less{}, false);
  check_sort<ds_policy, std::int64_t, std::uint32_t>(few_samples, {dist, n}, gpusort::greater{}, false);
}

// Where a level's sample rows are many (u32 keys near 2^20, u64 near 2^18), step 4 merges them
// in groups, then ranks the groups' runs among each other; these sizes end in a shorter group.
// The plan is checked to take that form, so that the sorts go through it.
using u32_sample_table = gpusort::detail::deterministic_sample_table<
    gpusort::detail::deterministic_sample_setup<std::uint32_t, no_value>::narrow_codec<gpusort::less>,
    std::uint32_t, gpusort::less>;
using u64_sample_table = gpusort::detail::deterministic_sample_pair_table<std::uint64_t, gpusort::less>;

template <class Key, class Table>
void check_grouped_sample_merge(std::int64_t n, distribution dist) {
  using setup_type = gpusort::detail::deterministic_sample_setup<Key, no_value>;
  setup_type setup;
  REQUIRE(setup_type::make(default_policy, n, setup) == cudaSuccess);
  REQUIRE(setup.samples_in_other);
  const auto merge =
      gpusort::detail::deterministic_sample_merge_groups<Table, typename setup_type::tuning>(setup.plan, 0);
  INFO("n = " << n << ": " << setup.plan.rows[0] << " rows, groups of " << merge.group_rows);
  REQUIRE(merge.groups > 1);
  CHECK(setup.plan.rows[0] % merge.group_rows != 0);
  check_sort<ds_policy, Key, no_value>(default_policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("deterministic_sample: step 4 merges many sample rows in groups, then the groups",
          "[deterministic_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  check_grouped_sample_merge<std::uint32_t, u32_sample_table>(std::int64_t(1) << 20, dist);
  check_grouped_sample_merge<std::uint32_t, u32_sample_table>(999983, dist);
  check_grouped_sample_merge<std::uint64_t, u64_sample_table>(262145, dist);
}

TEST_CASE("deterministic_sample: the grouped sample merge under the sanitizers",
          "[deterministic_sample][sanitize]") {
  check_grouped_sample_merge<std::uint64_t, u64_sample_table>(262145, distribution::uniform);
}

TEST_CASE("deterministic_sample: pairs on every distribution", "[deterministic_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537), std::int64_t(1) << 20);
  check_sort<ds_policy, std::uint32_t, std::uint32_t>(default_policy, {dist, n}, gpusort::less{}, false);
  check_sort<ds_policy, key16, value16>(default_policy, {dist, n}, key16_less{}, false);
}

TEST_CASE("deterministic_sample: floating-point keys (with NaN, ±0, ±inf) and struct keys", "[deterministic_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  check_float_and_struct_key_types(default_policy, sort_case{dist, n, /*special_floats=*/true});
}

// 12-byte keys (8K tiles) and 16-byte keys with 16-byte values (2K tiles) have costs of their
// own; these sizes take both tile shapes of each, and plans of one level and of two.
TEST_CASE("deterministic_sample: the item shapes with costs of their own, where their s moved",
          "[deterministic_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::organ_pipe,
                             distribution::few_distinct_2);
  const std::int64_t n = GENERATE(std::int64_t(262145), std::int64_t(1) << 21, std::int64_t(8388607));
  check_sort<ds_policy, key12, no_value>(default_policy, {dist, n}, key12_less{}, false);
  check_sort<ds_policy, key16, value16>(default_policy, {dist, n}, key16_less{}, false);
}

TEST_CASE("deterministic_sample: both tile shapes and several s", "[deterministic_sample]") {
  using tuning = gpusort::detail::deterministic_sample_tuning<std::uint32_t, no_value>;
  const int tile = GENERATE(tuning::tile, tuning::half_tile);
  const int s = GENERATE(4, 7, 64, 1000);
  const ds_policy p{s, tile};
  const auto dist = GENERATE(distribution::uniform, distribution::all_equal);
  check_sort<ds_policy, std::uint32_t, no_value>(p, {dist, 999983}, gpusort::less{}, false);
}

TEST_CASE("deterministic_sample: the convenience overloads on the default stream",
          "[deterministic_sample][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(0), std::int64_t(129), std::int64_t(65537));
  const sort_case c{distribution::gaussian, n, false, api::convenience};
  check_sort<ds_policy, std::uint32_t, no_value>(default_policy, c, gpusort::less{}, false);
  check_sort<ds_policy, std::uint32_t, std::uint32_t>(default_policy, c, gpusort::less{}, false);
  // Several levels, small enough for the sanitizer; 8-byte keys sort their samples as pairs.
  const sort_case deep{distribution::few_distinct_2, 70000, false, api::two_phase};
  check_sort<ds_policy, std::uint32_t, std::uint32_t>(few_samples, deep, gpusort::less{}, false);
  check_sort<ds_policy, std::int64_t, no_value>(few_samples, deep, gpusort::greater{}, false);
}

// The bucket sort's size classes are overlapped launches (programmatic dependent launch):
// captured into a CUDA graph they become its edges, and the replay still sorts.
TEST_CASE("deterministic_sample: a sort captured in a CUDA graph replays correctly", "[deterministic_sample]") {
  const std::int64_t n = GENERATE(std::int64_t(100003), std::int64_t(1) << 20, std::int64_t(1) << 22);
  CAPTURE(n);
  CHECK(gpusort_test::replay_captured_sort(gpusort::policy::deterministic_sample{}, n) > 1);
}

TEST_CASE("deterministic_sample: 2^24 keys on every distribution",
          "[deterministic_sample][large]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  check_sort<ds_policy, std::uint32_t, no_value>(default_policy, {dist, std::int64_t(1) << 24},
                                                 gpusort::less{}, false);
}

TEST_CASE("deterministic_sample: 2^28 keys and pairs", "[deterministic_sample][large]") {
  const std::int64_t n = std::int64_t(1) << 28;
  check_sort<ds_policy, std::uint32_t, no_value>(default_policy, {distribution::uniform, n},
                                                 gpusort::less{}, false);
  check_sort<ds_policy, std::uint32_t, std::uint32_t>(
      default_policy, {distribution::few_distinct_17, n}, gpusort::less{}, false);
  check_bucket_bound(default_policy, distribution::all_equal, n);
  check_sort<ds_policy, std::uint64_t, no_value>(default_policy, {distribution::uniform, n},
                                                 gpusort::less{}, false);
}

TEST_CASE("deterministic_sample: too little temp storage leaves the keys untouched",
          "[deterministic_sample]") {
  check_refuses_small_temp_storage<ds_policy, std::uint32_t>(default_policy, 100000);
}

TEST_CASE("deterministic_sample: temp storage at any address; an error left pending is returned before any work",
          "[deterministic_sample]") {
  check_temp_storage_at_any_address(default_policy, 100000);
  check_pending_error_returned_first(default_policy, 100000);
}

TEST_CASE("deterministic_sample: unsupported policy fields are refused before any work",
          "[deterministic_sample]") {
  using tuning = gpusort::detail::deterministic_sample_tuning<std::uint32_t, no_value>;
  const ds_policy bad = GENERATE(ds_policy{-1, 0}, ds_policy{0, -1}, ds_policy{2, 0},
                                 ds_policy{3, 0}, ds_policy{tuning::max_samples + 1, 0},
                                 ds_policy{0, 1000}, ds_policy{0, tuning::tile * 2},
                                 ds_policy{tuning::half_tile * 2, tuning::half_tile});
  INFO("samples_per_tile " << bad.samples_per_tile << ", tile_items " << bad.tile_items);
  check_refuses_policy(bad);
}

TEST_CASE("deterministic_sample: more than 2^31 keys", "[deterministic_sample][large][huge]") {
  check_more_than_2_31_keys(default_policy);
}
