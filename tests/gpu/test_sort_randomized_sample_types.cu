// policy::randomized_sample on every key type and comparator of DESIGN.md §4 (a file of its
// own so that the two halves of the instantiations compile in parallel).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {
using rs_policy = gpusort::policy::randomized_sample;
const rs_policy sample_policy{};
}  // namespace

TEST_CASE("randomized_sample: every key type and comparator", "[randomized_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::few_distinct_2, distribution::all_equal,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  const sort_case c{dist, n, /*special_floats=*/true};
  check_sort<rs_policy, std::int32_t, no_value>(sample_policy, c, gpusort::less{}, false);
  check_sort<rs_policy, std::uint64_t, no_value>(sample_policy, c, gpusort::less{}, false);
  check_sort<rs_policy, std::int64_t, no_value>(sample_policy, c, gpusort::less{}, false);
  check_sort<rs_policy, float, no_value>(sample_policy, c, gpusort::total_less{}, false);
  check_sort<rs_policy, double, no_value>(sample_policy, c, gpusort::total_less{}, false);
  check_sort<rs_policy, key16, no_value>(sample_policy, c, key16_less{}, false);
  check_sort<rs_policy, key12, no_value>(sample_policy, c, key12_less{}, false);
  check_sort<rs_policy, std::uint32_t, no_value>(sample_policy, c, gpusort::greater{}, false);
  check_sort<rs_policy, std::uint32_t, std::uint64_t>(sample_policy, c, gpusort::greater{}, false);
  check_sort<rs_policy, std::uint64_t, std::uint32_t>(sample_policy, c, gpusort::less{}, false);
}

