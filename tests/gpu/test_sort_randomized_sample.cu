// policy::randomized_sample through the public entry points: u32 keys on every distribution
// and awkward size, u32 pairs, 2^24 and 2^28 keys, more than 2^31 keys, reproducibility by
// seed, every supported k, the fallback after too few levels, and the error contract. The
// other key types are in files of their own, so that their instantiations compile in
// parallel: integer keys and comparators in test_sort_randomized_sample_types.cu, floating-
// point and struct keys in test_sort_randomized_sample_float_struct.cu.
#include "common/staged_sort.cuh"
#include "sort_cases.cuh"

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {
using rs_policy = gpusort::policy::randomized_sample;
const rs_policy sample_policy{};

// Sorts a copy of `input` (pairs: values = indices) with `policy`; returns keys and values.
template <class Key, class Value, class Compare>
std::pair<std::vector<Key>, std::vector<Value>> sorted_copy(const rs_policy& policy,
                                                            const device_buffer<Key>& input,
                                                            std::int64_t n, Compare cmp) {
  device_buffer<Key> keys(n);
  device_buffer<Value> values(n);
  REQUIRE(cudaMemcpy(keys.data(), input.data(), n * sizeof(Key), cudaMemcpyDeviceToDevice) ==
          cudaSuccess);
  REQUIRE(iota_values(values.data(), n) == cudaSuccess);
  REQUIRE(gpusort::sort_pairs(policy, keys.data(), values.data(), n, cmp) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  return {keys.to_host(), values.to_host()};
}

// Runs the sort with at most `levels` levels, so the rest goes to the fallback merge sort.
template <class Key, class Value, class Compare>
void check_fallback(distribution dist, std::int64_t n, int levels, Compare cmp) {
  INFO("distribution " << name(dist) << ", n = " << n << ", levels = " << levels);
  constexpr bool pairs = !std::is_same<Value, no_value>::value;
  using tuning = gpusort::detail::randomized_sample_tuning<Key, Value>;
  constexpr int log_k = tuning::default_log_buckets;
  guarded_buffer<Key> keys(n);
  REQUIRE(generate(keys.data(), n, dist, 99) == cudaSuccess);
  device_buffer<Key> input(n);
  REQUIRE(cudaMemcpy(input.data(), keys.data(), n * sizeof(Key), cudaMemcpyDeviceToDevice) ==
          cudaSuccess);
  guarded_buffer<std::conditional_t<pairs, Value, char>> values(pairs ? n : 0);
  if constexpr (pairs) REQUIRE(iota_values(values.data(), n) == cudaSuccess);
  const gpusort::detail::randomized_sample_layout<Key, Value> plan(log_k, n);
  device_buffer<char> temp(static_cast<std::int64_t>(plan.layout.total));
  Value* value_ptr = nullptr;
  if constexpr (pairs) value_ptr = values.data();
  REQUIRE(gpusort::detail::randomized_sample_sort<log_k>(
              sample_policy, tuning::sample_size >> log_k, temp.data(), keys.data(), value_ptr,
              n, cmp, 0, levels) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  if constexpr (pairs) {
    REQUIRE(verify_pairs(input.data(), keys.data(), values.data(), n, cmp, false));
    REQUIRE(values.check_guard());
  } else {
    REQUIRE(verify_keys(input.data(), keys.data(), n, cmp));
  }
  REQUIRE(keys.check_guard());
}
}  // namespace

TEST_CASE("randomized_sample: u32 keys, every distribution and awkward size", "[randomized_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_sort<rs_policy, std::uint32_t, no_value>(sample_policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("randomized_sample: pairs on every distribution", "[randomized_sample]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(65537), std::int64_t(1) << 20);
  check_sort<rs_policy, std::uint32_t, std::uint32_t>(sample_policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("randomized_sample: every supported k and a few oversampling factors", "[randomized_sample]") {
  const int buckets = GENERATE(256, 512, 1024);
  const int oversampling = GENERATE(1, 2, 4);
  rs_policy policy{};
  policy.buckets = buckets;
  policy.oversampling = oversampling;
  INFO("k = " << buckets << ", a = " << oversampling);
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17, distribution::zipf);
  check_sort<rs_policy, std::uint32_t, no_value>(policy, {dist, 999983}, gpusort::less{}, false);
  check_sort<rs_policy, std::uint32_t, no_value>(policy, {dist, std::int64_t(1) << 22}, gpusort::less{}, false);
}

// At k >= 512, 4-byte keys alone are scattered in chunks of two loads (16K keys): a
// segment's last chunk is ragged in either load (float keys: the float_struct file).
TEST_CASE("randomized_sample: chunks of two loads, ragged in either", "[randomized_sample][sanitize]") {
  const int buckets = GENERATE(512, 1024);
  rs_policy policy{};
  policy.buckets = buckets;
  INFO("k = " << buckets);
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17, distribution::sorted);
  const std::int64_t n = GENERATE(std::int64_t(40009), std::int64_t(300007));
  check_sort<rs_policy, std::uint32_t, no_value>(policy, {dist, n}, gpusort::less{}, false);
}

// A tile is a whole number of 8K-key units: here 24K, so every tile's second chunk is half
// a chunk, its second load empty.
TEST_CASE("randomized_sample: tiles that are not whole chunks", "[randomized_sample][large]") {
  rs_policy policy{};
  policy.buckets = 512;
  const std::int64_t n = 3 * (std::int64_t(1) << 24) + 4099;
  check_sort<rs_policy, std::uint32_t, no_value>(policy, {distribution::uniform, n}, gpusort::less{}, false);
  check_sort<rs_policy, std::uint32_t, no_value>(policy, {distribution::zipf, n}, gpusort::less{}, false);
}

TEST_CASE("randomized_sample: the convenience overloads on the default stream",
          "[randomized_sample][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(0), std::int64_t(129), std::int64_t(65537),
                                  std::int64_t(300007));
  const auto dist = GENERATE(distribution::gaussian, distribution::all_equal, distribution::few_distinct_2);
  const sort_case c{dist, n, false, api::convenience};
  check_sort<rs_policy, std::uint32_t, no_value>(sample_policy, c, gpusort::less{}, false);
  check_sort<rs_policy, std::uint32_t, std::uint32_t>(sample_policy, c, gpusort::less{}, false);
}

// The bucket sort's size classes are overlapped launches (programmatic dependent launch):
// captured into a CUDA graph they become its edges, and the replay still sorts.
TEST_CASE("randomized_sample: a sort captured in a CUDA graph replays correctly", "[randomized_sample]") {
  const std::int64_t n = GENERATE(std::int64_t(100003), std::int64_t(1) << 20, std::int64_t(1) << 22);
  CAPTURE(n);
  CHECK(gpusort_test::replay_captured_sort(gpusort::policy::randomized_sample{}, n) > 1);
}

TEST_CASE("randomized_sample: the fallback sorts what too few levels leave",
          "[randomized_sample][sanitize]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17, distribution::sorted);
  // Past M (8K u32 items) and several of the fallback's merge passes; small enough for
  // racecheck.
  const std::int64_t n = GENERATE(std::int64_t(20000), std::int64_t(70001));
  const int levels = GENERATE(0, 1);
  check_fallback<std::uint32_t, no_value>(dist, n, levels, gpusort::less{});
  check_fallback<std::uint64_t, std::uint32_t>(dist, n, levels, gpusort::less{});
}

TEST_CASE("randomized_sample: the same seed gives the same bits, another seed still sorts",
          "[randomized_sample]") {
  const auto dist = GENERATE(distribution::few_distinct_17, distribution::zipf, distribution::uniform);
  const std::int64_t n = GENERATE(std::int64_t(65537), std::int64_t(3) << 20);
  device_buffer<std::uint32_t> input(n);
  REQUIRE(generate(input.data(), n, dist, 5) == cudaSuccess);
  const auto first = sorted_copy<std::uint32_t, std::uint32_t>(sample_policy, input, n, gpusort::less{});
  const auto second = sorted_copy<std::uint32_t, std::uint32_t>(sample_policy, input, n, gpusort::less{});
  CHECK(first.first == second.first);
  CHECK(first.second == second.second);
  rs_policy other{};
  other.seed = 12345;
  check_sort<rs_policy, std::uint32_t, std::uint32_t>(other, {dist, n, false, api::two_phase, 5},
                                                      gpusort::less{}, false);
}

// k = 256 at 2^28 pairs plans three levels, so the second level's buckets (about 4K items)
// become groups by the tens of thousands in the list that a two-level sort leaves short:
// more than sort_segments used to be launched for, and those past it were sorted by another
// network, whose order of equal keys depended on the group's place in its list, taken by an
// atomic. Uniform u32 keys at 2^28 have millions of ties, which the values show.
TEST_CASE("randomized_sample: the same seed gives the same pairs where level two makes many groups",
          "[randomized_sample][large]") {
  const std::int64_t n = std::int64_t(1) << 28;
  device_buffer<std::uint32_t> input(n);
  REQUIRE(generate(input.data(), n, distribution::uniform, 8) == cudaSuccess);
  rs_policy narrow{};
  narrow.buckets = 256;
  const auto first = sorted_copy<std::uint32_t, std::uint32_t>(narrow, input, n, gpusort::less{});
  const auto second = sorted_copy<std::uint32_t, std::uint32_t>(narrow, input, n, gpusort::less{});
  CHECK(first.first == second.first);
  CHECK(first.second == second.second);
  CHECK(std::is_sorted(first.first.begin(), first.first.end()));
}

TEST_CASE("randomized_sample: 2^24 keys on every distribution", "[randomized_sample][large]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  check_sort<rs_policy, std::uint32_t, no_value>(sample_policy, {dist, std::int64_t(1) << 24},
                                                 gpusort::less{}, false);
}

TEST_CASE("randomized_sample: 2^28 keys and pairs", "[randomized_sample][large]") {
  const std::int64_t n = std::int64_t(1) << 28;
  check_sort<rs_policy, std::uint32_t, no_value>(sample_policy, {distribution::uniform, n},
                                                 gpusort::less{}, false);
  check_sort<rs_policy, std::uint64_t, no_value>(sample_policy, {distribution::zipf, n},
                                                 gpusort::less{}, false);
  check_sort<rs_policy, std::uint32_t, std::uint32_t>(
      sample_policy, {distribution::few_distinct_17, n}, gpusort::less{}, false);
}

TEST_CASE("randomized_sample: too little temp storage leaves the keys untouched", "[randomized_sample]") {
  check_refuses_small_temp_storage<rs_policy, std::uint32_t>(sample_policy, 100000);
}

TEST_CASE("randomized_sample: temp storage at any address; an error left pending is returned before any work",
          "[randomized_sample]") {
  check_temp_storage_at_any_address(sample_policy, 100000);
  check_pending_error_returned_first(sample_policy, 100000);
}

TEST_CASE("randomized_sample: unsupported buckets or oversampling are refused before any work",
          "[randomized_sample]") {
  const int bad_buckets[] = {-256, 3, 100, 128, 2048};
  for (int b : bad_buckets) {
    rs_policy p{};
    p.buckets = b;
    CAPTURE(b);
    check_refuses_policy(p);
  }
  const int bad_oversampling[] = {-1, 9};  // 9 * 512 > 4096
  for (int a : bad_oversampling) {
    rs_policy p{};
    p.buckets = 512;
    p.oversampling = a;
    CAPTURE(a);
    check_refuses_policy(p);
  }
}

TEST_CASE("randomized_sample: more than 2^31 keys", "[randomized_sample][large][huge]") {
  check_more_than_2_31_keys(sample_policy);
}
