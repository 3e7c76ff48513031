// Keys (and values) narrower than a 4-byte word through policy::merge, policy::warpsort and
// policy::automatic: u8, u16, i16, __half and __nv_bfloat16 keys, u16 values (the sample
// sorts take the same cases in test_sort_narrow_keys_sample.cu, so that the two compile in
// parallel). Every distribution, the awkward sizes, and 2^24 keys, where 2^16 distinct values
// make every input one of many ties.
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;

namespace {
using merge_t = gpusort::policy::merge;
using warpsort_t = gpusort::policy::warpsort;
using automatic_t = gpusort::policy::automatic;
constexpr std::int64_t narrow_sizes[] = {1, 33, 4097, 65536, 999983};
}  // namespace

TEST_CASE("merge: narrow keys and values, every distribution", "[merge][narrow]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(merge_t{}, sort_case{dist, n, /*special_floats=*/true}, true);
}

TEST_CASE("warpsort: narrow keys and values, every distribution", "[warpsort][narrow]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(warpsort_t{}, sort_case{dist, n, /*special_floats=*/true}, false);
}

TEST_CASE("automatic: narrow keys and values, every distribution", "[automatic][narrow]") {
  const auto dist = GENERATE(from_range(std::begin(all_distributions), std::end(all_distributions)));
  const std::int64_t n = GENERATE(from_range(std::begin(narrow_sizes), std::end(narrow_sizes)));
  check_narrow_key_types(automatic_t{}, sort_case{dist, n, /*special_floats=*/true}, true);
}

TEST_CASE("merge, warpsort, automatic: narrow keys at every awkward size", "[merge][warpsort][automatic][narrow]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_2);
  const std::int64_t n = GENERATE(from_range(std::begin(awkward_sizes), std::end(awkward_sizes)));
  const sort_case c{dist, n, /*special_floats=*/true};
  check_narrow_key_types(merge_t{}, c, true);
  check_narrow_key_types(warpsort_t{}, c, false);
  check_narrow_key_types(automatic_t{}, c, true);
}

TEST_CASE("merge, warpsort, automatic: 2^24 narrow keys", "[merge][warpsort][automatic][narrow][large]") {
  const auto dist = GENERATE(distribution::uniform, distribution::sorted);
  const sort_case c{dist, std::int64_t(1) << 24, /*special_floats=*/true};
  check_narrow_key_types(merge_t{}, c, true);
  check_narrow_key_types(warpsort_t{}, c, false);
  check_narrow_key_types(automatic_t{}, c, true);
}

// 270001: every step of warpsort and merge's passes over runs of 2-byte items.
TEST_CASE("merge, warpsort, automatic: narrow keys under the sanitizers", "[merge][warpsort][automatic][narrow][sanitize]") {
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(270001));
  const sort_case c{distribution::uniform, n, /*special_floats=*/true};
  check_narrow_key_types_briefly(merge_t{}, c, true);
  check_narrow_key_types_briefly(warpsort_t{}, c, false);
  check_narrow_key_types_briefly(automatic_t{}, c, true);
}
