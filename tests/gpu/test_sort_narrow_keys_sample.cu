// Keys (and values) narrower than a 4-byte word through the sample sorts,
// policy::randomized_sample and policy::deterministic_sample: the cases of
// test_sort_narrow_keys.cu (u8, u16, i16, __half and __nv_bfloat16 keys, u16 values; every
// distribution, the awkward sizes, and 2^24 keys, where 2^16 distinct values make every input
// one of many ties, which the equality buckets and the tie-breaking by position must absorb).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;

namespace {
constexpr std::int64_t narrow_sizes[] = {1, 33, 4097, 65536, 999983};
}  // namespace

TEMPLATE_TEST_CASE("sample sorts: narrow keys and values, every distribution", "[narrow]",
                   gpusort::policy::randomized_sample, gpusort::policy::deterministic_sample) {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(TestType{}, sort_case{dist, n, /*special_floats=*/true});
}

TEMPLATE_TEST_CASE("sample sorts: narrow keys at every awkward size", "[narrow]",
                   gpusort::policy::randomized_sample, gpusort::policy::deterministic_sample) {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_narrow_key_types(TestType{}, sort_case{dist, n, /*special_floats=*/true});
}

TEMPLATE_TEST_CASE("sample sorts: 2^24 narrow keys", "[narrow][large]",
                   gpusort::policy::randomized_sample, gpusort::policy::deterministic_sample) {
  const auto dist = GENERATE(distribution::uniform, distribution::sorted);
  check_narrow_key_types(TestType{}, sort_case{dist, std::int64_t(1) << 24, /*special_floats=*/true});
}

// 270001: several tiles and buckets, the scatter and the bucket sort of 2-byte items.
TEMPLATE_TEST_CASE("sample sorts: narrow keys under the sanitizers", "[narrow][sanitize]",
                   gpusort::policy::randomized_sample, gpusort::policy::deterministic_sample) {
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(270001));
  check_narrow_key_types_briefly(TestType{}, sort_case{distribution::uniform, n, /*special_floats=*/true});
}
