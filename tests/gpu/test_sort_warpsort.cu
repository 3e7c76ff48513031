// policy::warpsort through the public entry points: every distribution and awkward size,
// every key type of DESIGN.md §4, pairs, each merge width, sizes that exercise every step
// (one step-1 run only; steps 3-4 without step 2; all four steps), 2^24 and 2^28, more than
// 2^31 keys, and the error contract. The four-way step 2, which the policy takes only from
// four_way_from items, also forced at small sizes through detail::warpsort_sort.
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {
const gpusort::policy::warpsort warpsort_policy{};
using policy_t = gpusort::policy::warpsort;
}  // namespace

// A sort by detail::warpsort_sort with step 2 forced to four runs a pass, in the temp storage
// the policy asks for, checked as check_sort checks the policy.
template <class Key, class Value, class Compare>
void check_four_way(const sort_case& c, Compare cmp) {
  using gpusort::detail::warpsort_step1;
  using gpusort::detail::warpsort_step2;
  INFO("four-way step 2, distribution " << name(c.dist) << ", n = " << c.n);
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  guarded_buffer<Key> keys(c.n);
  REQUIRE(generate(keys.data(), c.n, c.dist, c.seed) == cudaSuccess);
  device_buffer<Key> input(c.n);
  REQUIRE(cudaMemcpy(input.data(), keys.data(), c.n * sizeof(Key), cudaMemcpyDeviceToDevice) == cudaSuccess);
  guarded_buffer<std::conditional_t<pairs, Value, char>> values(pairs ? c.n : 0);
  Value* value_data = nullptr;
  std::size_t bytes = 0;
  if constexpr (pairs) {
    REQUIRE(iota_values(values.data(), c.n) == cudaSuccess);
    value_data = values.data();
    REQUIRE(gpusort::sort_pairs(warpsort_policy, nullptr, bytes, keys.data(), value_data, c.n, cmp) == cudaSuccess);
  } else {
    REQUIRE(gpusort::sort_keys(warpsort_policy, nullptr, bytes, keys.data(), c.n, cmp) == cudaSuccess);
  }
  device_buffer<char> temp(static_cast<std::int64_t>(bytes));
  REQUIRE(gpusort::detail::warpsort_sort<warpsort_step1::warp_bitonic, warpsort_step2::four_way_bitonic_merge>(
              warpsort_policy, temp.data(), keys.data(), value_data, c.n, cmp, 0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  if constexpr (pairs) {
    REQUIRE(verify_pairs(input.data(), keys.data(), values.data(), c.n, cmp, false));
    REQUIRE(values.check_guard());
  } else {
    REQUIRE(verify_keys(input.data(), keys.data(), c.n, cmp));
  }
  REQUIRE(keys.check_guard());
}

TEST_CASE("warpsort: four-way step 2 on every distribution, ragged sizes, 4- to 8-byte items", "[warpsort]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  // 65537: two groups of four runs, the last with one item; 999983 and 2^21 + 5: several
  // four-way passes, ragged last groups; the first step 2s of every item size.
  const std::int64_t n = GENERATE(std::int64_t(65537), std::int64_t(999983), (std::int64_t(1) << 21) + 5);
  check_four_way<std::uint32_t, std::uint32_t>({dist, n}, gpusort::less{});
  check_four_way<std::uint64_t, no_value>({dist, n}, gpusort::less{});
  check_four_way<std::uint32_t, no_value>({dist, n}, gpusort::greater{});
  // 2-byte keys, which cp.async cannot stage: the ties' copies go one a lane at a time.
  check_four_way<std::uint16_t, std::uint32_t>({dist, n}, gpusort::less{});
}

TEST_CASE("warpsort: u32 keys, every distribution and awkward size", "[warpsort]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_sort<policy_t, std::uint32_t, no_value>(warpsort_policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("warpsort: pairs on every distribution", "[warpsort]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  // 4097: steps 3-4 only; 2^20 + 3: all four steps with a ragged last run.
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537), (std::int64_t(1) << 20) + 3);
  check_sort<policy_t, std::uint32_t, std::uint32_t>(warpsort_policy, {dist, n}, gpusort::less{}, false);
  check_sort<policy_t, key16, value16>(warpsort_policy, {dist, n}, key16_less{}, false);
}

TEST_CASE("warpsort: every key type and comparator", "[warpsort]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  const sort_case c{dist, n, /*special_floats=*/true};
  check_integer_key_types(warpsort_policy, c, false);
  check_float_and_struct_key_types(warpsort_policy, c);
}

TEST_CASE("warpsort: every merge width", "[warpsort]") {
  const int width = GENERATE(64, 128, 256);
  const auto dist = GENERATE(distribution::uniform, distribution::sorted, distribution::all_equal);
  const std::int64_t n = GENERATE(std::int64_t(129), std::int64_t(65537), std::int64_t(999983));
  policy_t policy{};
  policy.merge_width = width;
  CAPTURE(width);
  check_sort<policy_t, std::uint32_t, no_value>(policy, {dist, n}, gpusort::less{}, false);
  check_sort<policy_t, std::uint32_t, std::uint32_t>(policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("warpsort: the 512- and 1024-item merge buffers of 4-byte keys", "[warpsort]") {
  const int width = GENERATE(512, 1024);
  const auto dist = GENERATE(distribution::uniform, distribution::sorted, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(std::int64_t(257), std::int64_t(65537), std::int64_t(999983));
  policy_t policy{};
  policy.merge_width = width;
  CAPTURE(width);
  check_sort<policy_t, std::uint32_t, no_value>(policy, {dist, n}, gpusort::less{}, false);
  check_sort<policy_t, float, no_value>(policy, {dist, n, /*special_floats=*/true},
                                        gpusort::total_less{}, false);
}

TEST_CASE("warpsort: every merge width on float and struct keys, pairs of 16 bytes", "[warpsort]") {
  // The merge buffer stores 8-, 12- and 16-byte items as planes of 4-byte words.
  const int width = GENERATE(64, 128, 256);
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17);
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537));
  policy_t policy{};
  policy.merge_width = width;
  CAPTURE(width);
  check_float_and_struct_key_types(policy, {dist, n, /*special_floats=*/true});
  check_sort<policy_t, key16, value16>(policy, {dist, n}, key16_less{}, false);
}

TEST_CASE("warpsort: the convenience overloads on the default stream", "[warpsort][sanitize]") {
  // 129: one step-1 run; 4097: steps 3-4; 270001: all four steps (runs of 4096 u32 keys).
  const std::int64_t n = GENERATE(std::int64_t(0), std::int64_t(129), std::int64_t(4097),
                                  std::int64_t(270001));
  const sort_case c{distribution::gaussian, n, false, api::convenience};
  check_sort<policy_t, std::uint32_t, no_value>(warpsort_policy, c, gpusort::less{}, false);
  check_sort<policy_t, std::uint32_t, std::uint32_t>(warpsort_policy, c, gpusort::less{}, false);
}

TEST_CASE("warpsort: 2^24 keys on every distribution", "[warpsort][large]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  check_sort<policy_t, std::uint32_t, no_value>(warpsort_policy, {dist, std::int64_t(1) << 24},
                                                gpusort::less{}, false);
}

TEST_CASE("warpsort: merge passes stretched to whole waves of the device", "[warpsort][large]") {
  // Passes of a few waves of the device's resident warps, which warpsort_whole_waves stretches
  // to whole waves where they fill fewer than four (four-way step-2 passes and step 4's
  // two-way levels alike); at 2^26 step 4's levels take the partition kernel (more than 4096
  // ranges).
  const std::int64_t n = GENERATE((std::int64_t(1) << 25) + 12345, std::int64_t(1) << 26);
  check_sort<policy_t, std::uint32_t, no_value>(warpsort_policy, {distribution::uniform, n},
                                                gpusort::less{}, false);
  check_sort<policy_t, std::uint32_t, std::uint32_t>(warpsort_policy, {distribution::few_distinct_17, n},
                                                     gpusort::less{}, false);
}

TEST_CASE("warpsort: 8-byte pairs either side of the four-way threshold", "[warpsort][large]") {
  // Pairs merge four runs a step-2 pass from four_way_from items (3/2 of 2^24), two below it.
  const std::int64_t from = gpusort::detail::warpsort_tuning<std::uint32_t, std::uint32_t>::four_way_from;
  const std::int64_t n = from + GENERATE(-1, 0);
  const auto dist = GENERATE(distribution::uniform, distribution::sorted, distribution::few_distinct_2);
  check_sort<policy_t, std::uint32_t, std::uint32_t>(warpsort_policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("warpsort: 2^28 keys and pairs", "[warpsort][large]") {
  const std::int64_t n = std::int64_t(1) << 28;
  check_sort<policy_t, std::uint32_t, no_value>(warpsort_policy, {distribution::uniform, n},
                                                gpusort::less{}, false);
  check_sort<policy_t, std::uint32_t, std::uint32_t>(warpsort_policy, {distribution::few_distinct_17, n},
                                                     gpusort::less{}, false);
}

TEST_CASE("warpsort: too little temp storage leaves the keys untouched", "[warpsort]") {
  check_refuses_small_temp_storage<policy_t, std::uint32_t>(warpsort_policy, 100000);
}

TEST_CASE("warpsort: temp storage at any address; an error left pending is returned before any work",
          "[warpsort]") {
  check_temp_storage_at_any_address(warpsort_policy, 100000);
  check_pending_error_returned_first(warpsort_policy, 100000);
}

TEST_CASE("warpsort: an unsupported merge width is refused before any work", "[warpsort]") {
  const int width = GENERATE(-1, 1, 32, 100, 2048);
  CAPTURE(width);
  policy_t odd{};
  odd.merge_width = width;
  check_refuses_policy(odd);
}

TEST_CASE("warpsort: t = 512 and 1024 are refused for items of more than 4 bytes", "[warpsort]") {
  policy_t wide{};
  wide.merge_width = GENERATE(512, 1024);
  check_refuses_policy<policy_t, std::uint64_t>(wide);  // and u64:u32 pairs
}

TEST_CASE("warpsort: more than 2^31 keys", "[warpsort][large][huge]") {
  check_more_than_2_31_keys(warpsort_policy);
}
