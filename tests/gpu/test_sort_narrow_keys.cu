// Keys (and values) narrower than a 4-byte word through policy::merge, policy::warpsort and
// policy::automatic: u8, u16, i16, __half and __nv_bfloat16 keys, u16 values (the sample
// sorts take the same cases in test_sort_narrow_keys_sample.cu, so that the two compile in
// parallel). Every distribution, the awkward sizes, and 2^24 keys, where 2^16 distinct values
// make every input one of many ties.
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;

namespace {
constexpr std::int64_t narrow_sizes[] = {1, 33, 4097, 65536, 999983};
}  // namespace

TEMPLATE_TEST_CASE("narrow keys and values, every distribution", "[narrow]", gpusort::policy::merge,
                   gpusort::policy::warpsort, gpusort::policy::automatic) {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(TestType{}, sort_case{dist, n, /*special_floats=*/true});
}

TEMPLATE_TEST_CASE("narrow keys at every awkward size", "[narrow]", gpusort::policy::merge,
                   gpusort::policy::warpsort, gpusort::policy::automatic) {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_narrow_key_types(TestType{}, sort_case{dist, n, /*special_floats=*/true});
}

TEMPLATE_TEST_CASE("2^24 narrow keys", "[narrow][large]", gpusort::policy::merge,
                   gpusort::policy::warpsort, gpusort::policy::automatic) {
  const auto dist = GENERATE(distribution::uniform, distribution::sorted);
  check_narrow_key_types(TestType{}, sort_case{dist, std::int64_t(1) << 24, /*special_floats=*/true});
}

// 270001: every step of warpsort and merge's passes over runs of 2-byte items.
TEMPLATE_TEST_CASE("narrow keys under the sanitizers", "[narrow][sanitize]", gpusort::policy::merge,
                   gpusort::policy::warpsort, gpusort::policy::automatic) {
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(270001));
  check_narrow_key_types_briefly(TestType{}, sort_case{distribution::uniform, n, /*special_floats=*/true});
}
