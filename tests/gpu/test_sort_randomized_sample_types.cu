// policy::randomized_sample on the integer key types and comparators of DESIGN.md §4 (a
// file of its own so that its instantiations compile in parallel with the main test, which
// has the floating-point and struct keys).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;

TEST_CASE("randomized_sample: integer keys and comparators", "[randomized_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::few_distinct_2, distribution::all_equal,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  check_integer_key_types(gpusort::policy::randomized_sample{}, sort_case{dist, n}, false);
}
