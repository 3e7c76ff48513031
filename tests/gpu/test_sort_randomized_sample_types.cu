// policy::randomized_sample on the integer key types and comparators of DESIGN.md §4, and on
// 8-byte keys whose ties are not identical (a file of its own so that its instantiations
// compile in parallel with the main test and the floating-point and struct keys' file).
#include "sort_cases.cuh"

#include <cstdint>

using namespace gpusort_test;
using gpusort::detail::no_value;

namespace {
using rs_policy = gpusort::policy::randomized_sample;
}

TEST_CASE("randomized_sample: integer keys and comparators", "[randomized_sample]") {
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::few_distinct_2, distribution::all_equal,
                             distribution::reverse_sorted);
  const std::int64_t n = GENERATE(std::int64_t(1), std::int64_t(4097), std::int64_t(999983));
  check_integer_key_types(rs_policy{}, sort_case{dist, n}, false);
}

// The integer keys alone above rank their ties by shared atomics (equal keys are the same
// bits). 8-byte keys whose ties are not identical rank in order, in the narrow scatter block
// (randomized_sample_tuning::wide_scatter gives the wide one to 8-byte pairs and keys with
// identical ties only), at each k: u64 by its top 12 bits (uniform input: about 2^12
// classes of different bits, so groups whose largest key ties many times) and double under
// less.
TEST_CASE("randomized_sample: 8-byte keys whose ties are not identical, at every k",
          "[randomized_sample]") {
  rs_policy policy{};
  policy.buckets = GENERATE(256, 512, 1024);
  const auto dist = GENERATE(distribution::uniform, distribution::few_distinct_17,
                             distribution::zipf, distribution::sorted, distribution::gaussian);
  const std::int64_t n = GENERATE(std::int64_t(4097), std::int64_t(999983), (std::int64_t(1) << 22) + 1);
  INFO("k = " << policy.buckets);
  check_sort<rs_policy, std::uint64_t, no_value>(policy, {dist, n}, top_bits_less<12>{}, false);
  check_sort<rs_policy, double, no_value>(policy, {dist, n}, gpusort::less{}, false);
}

TEST_CASE("randomized_sample: 2^28 8-byte keys whose ties are not identical",
          "[randomized_sample][large]") {
  const std::int64_t n = std::int64_t(1) << 28;
  check_sort<rs_policy, std::uint64_t, no_value>(rs_policy{}, {distribution::uniform, n},
                                                 top_bits_less<12>{}, false);
  check_sort<rs_policy, double, no_value>(rs_policy{}, {distribution::gaussian, n},
                                          gpusort::less{}, false);
}
