// policy::deterministic_sample on every key type and comparator of DESIGN.md §4 (a file of
// its own so that the instantiations compile in parallel with the rest of the suite).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;
using gpusort::detail::no_value;
using ds_policy = gpusort::policy::deterministic_sample;

TEST_CASE("deterministic_sample: every key type and comparator", "[deterministic_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  const sort_case c{dist, n, /*special_floats=*/true};
  const ds_policy p{};
  check_sort<ds_policy, std::int32_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<ds_policy, std::uint64_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<ds_policy, std::int64_t, no_value>(p, c, gpusort::less{}, false);
  check_sort<ds_policy, float, no_value>(p, c, gpusort::total_less{}, false);
  check_sort<ds_policy, double, no_value>(p, c, gpusort::total_less{}, false);
  check_sort<ds_policy, key16, no_value>(p, c, key16_less{}, false);
  check_sort<ds_policy, key12, no_value>(p, c, key12_less{}, false);
  check_sort<ds_policy, std::uint32_t, no_value>(p, c, gpusort::greater{}, false);
  check_sort<ds_policy, std::uint32_t, std::uint64_t>(p, c, gpusort::greater{}, false);
  check_sort<ds_policy, std::uint64_t, std::uint32_t>(p, c, gpusort::less{}, false);
}
