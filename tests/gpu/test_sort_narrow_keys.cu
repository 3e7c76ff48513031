// Keys (and values) narrower than a 4-byte word through one policy, GPUSORT_TEST_POLICY
// (tests/gpu/CMakeLists.txt builds this file once per policy: with every policy in one unit
// it compiled for over 8 minutes on 16 cores, longer than the rest of the build): u8, u16,
// i16, __half and __nv_bfloat16 keys, u16 values. Every distribution, the awkward sizes, and
// 2^24 keys, where 2^16 distinct values make every input one of many ties (which the sample
// sorts' equality buckets and tie-breaking by position must absorb).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;

namespace {
using tested_policy = gpusort::policy::GPUSORT_TEST_POLICY;
constexpr std::int64_t narrow_sizes[] = {1, 33, 4097, 65536, 999983};
}  // namespace

TEST_CASE("narrow keys and values, every distribution", "[narrow]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(tested_policy{}, sort_case{dist, n, /*special_floats=*/true});
}

TEST_CASE("narrow keys at every awkward size", "[narrow]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  check_narrow_key_types(tested_policy{}, sort_case{dist, n, /*special_floats=*/true});
}

TEST_CASE("2^24 narrow keys", "[narrow][large]") {
  const auto dist = GENERATE(distribution::uniform, distribution::sorted);
  check_narrow_key_types(tested_policy{}, sort_case{dist, std::int64_t(1) << 24, /*special_floats=*/true});
}

// 270001: every step of warpsort's and merge's passes over runs of 2-byte items; several
// tiles and buckets, the scatter and the bucket sort in the sample sorts.
TEST_CASE("narrow keys under the sanitizers", "[narrow][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(270001));
  check_narrow_key_types_briefly(tested_policy{}, sort_case{distribution::uniform, n, /*special_floats=*/true});
}
