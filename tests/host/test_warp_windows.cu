// Host tests of warp::bitonic_windows (warp/shared_bitonic_merge.cuh): every window hands each
// item to exactly one (lane, register), pairs each network stride's partners within one lane,
// runs the strides from the highest down exactly once, and keeps a window's shared-memory
// accesses free of bank conflicts for 4-byte items.
#include "common/catch.hpp"

#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <set>
#include <vector>

namespace {

template <int M>
void check_windows() {
  using windows = gpusort::warp::bitonic_windows<M>;
  constexpr int items = windows::items;
  INFO("M = " << M);

  // The swizzle is a permutation of the buffer, linear over XOR.
  std::set<int> slots;
  for (int i = 0; i < items; ++i) {
    const int s = windows::slot(i);
    REQUIRE(s >= 0);
    REQUIRE(s < items);
    slots.insert(s);
    for (int j = 0; j < items; ++j) REQUIRE((windows::slot(i) ^ windows::slot(j)) == windows::slot(i ^ j));
  }
  REQUIRE(slots.size() == static_cast<std::size_t>(items));

  std::vector<int> merged_strides;
  for (int w = 0; w < windows::count; ++w) {
    INFO("window " << w);
    const int fresh = windows::top(w) - windows::low(w);
    REQUIRE(fresh >= 1);
    REQUIRE(fresh <= windows::register_bits);
    for (int bit = windows::top(w) - 1; bit >= windows::low(w); --bit) merged_strides.push_back(1 << bit);

    std::set<int> seen;
    for (int r = 0; r < M; ++r) {
      std::set<int> banks;
      for (int lane = 0; lane < 32; ++lane) {
        REQUIRE((windows::lane_part(w, lane) & windows::register_part(w, r)) == 0);
        const int i = windows::lane_part(w, lane) | windows::register_part(w, r);
        REQUIRE(i < items);
        seen.insert(i);
        banks.insert(windows::slot(i) % 32);
        // half_cleaner's register strides 2^(fresh-1) .. 1 are this window's index strides.
        for (int k = 0; k < fresh; ++k) {
          if ((r & (1 << k)) == 0) {
            const int partner = windows::lane_part(w, lane) | windows::register_part(w, r | (1 << k));
            REQUIRE(partner == (i | (1 << (windows::low(w) + k))));
            REQUIRE((i & (1 << (windows::low(w) + k))) == 0);
          }
        }
      }
      REQUIRE(banks.size() == 32u);
    }
    REQUIRE(seen.size() == static_cast<std::size_t>(items));
  }
  // Every stride of the network, once, from the largest down.
  std::vector<int> expected;
  for (int stride = items / 2; stride >= 1; stride /= 2) expected.push_back(stride);
  REQUIRE(merged_strides == expected);
}

}  // namespace

TEST_CASE("warp::bitonic_windows cover the network once, conflict-free", "[warp][host]") {
  check_windows<2>();
  check_windows<4>();
  check_windows<8>();
  check_windows<16>();
}
