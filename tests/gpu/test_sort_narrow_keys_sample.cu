// Keys (and values) narrower than a 4-byte word through the sample sorts,
// policy::randomized_sample and policy::deterministic_sample: the cases of
// test_sort_narrow_keys.cu (u8, u16, i16, __half and __nv_bfloat16 keys, u16 values; every
// distribution, the awkward sizes, and 2^24 keys, where 2^16 distinct values make every input
// one of many ties, which the equality buckets and the tie-breaking by position must absorb).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;

namespace {
using randomized_t = gpusort::policy::randomized_sample;
using deterministic_t = gpusort::policy::deterministic_sample;
constexpr std::int64_t narrow_sizes[] = {1, 33, 4097, 65536, 999983};
}  // namespace

TEST_CASE("randomized_sample: narrow keys and values, every distribution", "[randomized_sample][narrow]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(randomized_t{}, sort_case{dist, n, /*special_floats=*/true}, false);
}

TEST_CASE("deterministic_sample: narrow keys and values, every distribution", "[deterministic_sample][narrow]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(deterministic_t{}, sort_case{dist, n, /*special_floats=*/true}, false);
}

TEST_CASE("sample sorts: narrow keys at every awkward size", "[randomized_sample][deterministic_sample][narrow]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  const sort_case c{dist, n, /*special_floats=*/true};
  check_narrow_key_types(randomized_t{}, c, false);
  check_narrow_key_types(deterministic_t{}, c, false);
}

TEST_CASE("sample sorts: 2^24 narrow keys", "[randomized_sample][deterministic_sample][narrow][large]") {
  const auto dist = GENERATE(distribution::uniform, distribution::sorted);
  const sort_case c{dist, std::int64_t(1) << 24, /*special_floats=*/true};
  check_narrow_key_types(randomized_t{}, c, false);
  check_narrow_key_types(deterministic_t{}, c, false);
}

// 270001: several tiles and buckets, the scatter and the bucket sort of 2-byte items.
TEST_CASE("sample sorts: narrow keys under the sanitizers", "[randomized_sample][deterministic_sample][narrow][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(270001));
  const sort_case c{distribution::uniform, n, /*special_floats=*/true};
  check_narrow_key_types_briefly(randomized_t{}, c, false);
  check_narrow_key_types_briefly(deterministic_t{}, c, false);
}
