// Host tests of warp::bitonic_windows (warp/shared_bitonic_merge.cuh): in every merge of
// blocks of 2^bits items that shared_bitonic_merge can run on a buffer, every window hands each
// item to exactly one (lane, group, register), pairs each network stride's partners within
// one lane's registers, runs the strides from the highest down exactly once, keeps a block's
// direction bit out of the lanes, and keeps every warp access free of bank conflicts for
// 4-byte planes (window loads and stores, and the row-major accesses lane i -> item i mod 32).
#include "common/catch.hpp"

#include <gpusort/warp/shared_bitonic_merge.cuh>

#include <set>
#include <vector>

namespace {

template <int M, int ITEMS>
void check_merge(int bits) {
  using windows = gpusort::warp::bitonic_windows<M, ITEMS>;
  constexpr int items = ITEMS;
  INFO("M = " << M << ", ITEMS = " << ITEMS << ", bits = " << bits);
  std::vector<int> merged_strides;
  for (int j = windows::count(bits) - 1; j >= 0; --j) {
    INFO("window " << j);
    const int low = windows::fresh_low(j), top = windows::fresh_top(j, bits);
    const int fresh = top - low;
    REQUIRE(fresh >= 1);
    REQUIRE(fresh <= windows::register_bits);
    REQUIRE(windows::register_low(j, bits) >= 0);
    for (int bit = top - 1; bit >= low; --bit) merged_strides.push_back(1 << bit);

    std::set<int> seen;
    for (int g = 0; g < windows::groups; ++g) {
      std::set<int> direction_bits;
      for (int r = 0; r < M; ++r) {
        std::set<int> banks;
        for (int lane = 0; lane < 32; ++lane) {
          const int outer = windows::outer_part(j, bits, lane, g);
          REQUIRE((outer & windows::register_part(j, bits, r)) == 0);
          const int i = outer | windows::register_part(j, bits, r);
          REQUIRE(i < items);
          seen.insert(i);
          banks.insert(windows::slot(i) % 32);
          if (bits < windows::index_bits) direction_bits.insert(i >> bits & 1);
          // half_cleaner's register strides 2^(fresh-1) .. 1 are this window's index strides.
          for (int k = 0; k < fresh; ++k) {
            if ((r & (1 << k)) == 0) {
              const int partner = outer | windows::register_part(j, bits, r | (1 << k));
              REQUIRE(partner == (i | (1 << (low + k))));
              REQUIRE((i & (1 << (low + k))) == 0);
            }
          }
        }
        REQUIRE(banks.size() == 32u);
      }
      // One direction per group: the descending flag is uniform across the warp.
      REQUIRE(direction_bits.size() <= 1u);
    }
    REQUIRE(seen.size() == static_cast<std::size_t>(items));
  }
  // Every stride of the merge, once, from the largest down.
  std::vector<int> expected;
  for (int stride = (1 << bits) / 2; stride >= 1; stride /= 2) expected.push_back(stride);
  REQUIRE(merged_strides == expected);
}

template <int M, int ITEMS>
void check_windows() {
  using windows = gpusort::warp::bitonic_windows<M, ITEMS>;
  INFO("M = " << M << ", ITEMS = " << ITEMS);
  // The swizzle is a permutation of the buffer, linear over XOR.
  std::set<int> slots;
  for (int i = 0; i < ITEMS; ++i) {
    const int s = windows::slot(i);
    REQUIRE(s >= 0);
    REQUIRE(s < ITEMS);
    slots.insert(s);
    for (int b = 0; b < windows::index_bits; ++b)
      REQUIRE((windows::slot(i) ^ windows::slot(1 << b)) == windows::slot(i ^ (1 << b)));
  }
  REQUIRE(slots.size() == static_cast<std::size_t>(ITEMS));
  // Row-major accesses (coalesced copies in and out): lane i touches item row * 32 + i.
  for (int row = 0; row < ITEMS / 32; ++row) {
    std::set<int> banks;
    for (int lane = 0; lane < 32; ++lane) banks.insert(windows::slot(row * 32 + lane) % 32);
    REQUIRE(banks.size() == 32u);
  }
  // The whole buffer, and every block size shared_bitonic_merge accepts below it.
  check_merge<M, ITEMS>(windows::index_bits);
  for (int bits = windows::register_bits + 5; bits < windows::index_bits; ++bits)
    check_merge<M, ITEMS>(bits);
}

template <int M>
void check_buffers() {
  check_windows<M, 32 * M>();
  check_windows<M, 64 * M>();
  check_windows<M, 128 * M>();
  check_windows<M, 256 * M>();
  if constexpr (32 * M <= 256) check_windows<M, 2048 * M>();
}

}  // namespace

TEST_CASE("warp::bitonic_windows cover every merge once, conflict-free", "[warp][host]") {
  check_buffers<2>();
  check_buffers<4>();
  check_buffers<8>();
  check_buffers<16>();
  check_buffers<32>();
}
