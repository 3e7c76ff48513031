// Host tests of policy::merge's tile shapes: the measured shapes of the tested types, and
// wide items, whose tiles (and, past a few hundred bytes, blocks) shrink until every kernel's
// own shared storage fits the 48 KB a block may declare statically.
#include "common/catch.hpp"

#include <gpusort/detail/merge_sort.cuh>

#include <cstdint>
#include <vector>

namespace {

using gpusort::detail::equal_runs;
using gpusort::detail::four_way_min_blocks;
using gpusort::detail::multiway_tuning;
using gpusort::detail::launch_merge_pass;
using gpusort::detail::merge_pass_items;
using gpusort::detail::merge_searches_in_pass;
using gpusort::detail::merge_searching_pass_fits;
using gpusort::detail::merge_tile_sort_storage;
using gpusort::detail::merge_tuning;
using gpusort::detail::merge_width_supported;
using gpusort::detail::merges_four_way;
using gpusort::detail::needs_ranks;
using gpusort::detail::no_value;
using gpusort::detail::ranked;
using gpusort::detail::staged_merge_storage;
using gpusort::detail::static_shared_limit;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

template <int BYTES>
struct item {
  unsigned char bytes[BYTES];
};

struct first_byte_less {
  template <int BYTES>
  __host__ __device__ bool operator()(const item<BYTES>& a, const item<BYTES>& b) const {
    return a.bytes[0] < b.bytes[0];
  }
};

// The shapes fit (the four-way pass's too), and each is the largest that does: twice the
// items, or twice the threads, would not fit, unless the item count is already the
// network's 16.
template <class Key, class Value>
constexpr bool shapes_fit() {
  using t = merge_tuning<Key, Value>;
  using sort_storage = merge_tile_sort_storage<t::threads, t::sort_items, ranked<Key>, Key, Value>;
  constexpr bool fit =
      sizeof(sort_storage) <= static_shared_limit &&
      sizeof(staged_merge_storage<t::threads, t::merge_items, Key, Value>) <= static_shared_limit &&
      sizeof(staged_merge_storage<t::threads, t::wide_merge_items, Key, Value>) <= static_shared_limit &&
      sizeof(staged_merge_storage<multiway_tuning<Key, Value>::threads, t::merge_items, Key, Value>) <=
          static_shared_limit;
  constexpr bool largest_sort =
      t::sort_items == 16 ||
      sizeof(merge_tile_sort_storage<t::threads, 2 * t::sort_items, ranked<Key>, Key, Value>) >
          static_shared_limit;
  constexpr bool largest_merge =
      t::merge_items_fitting == 16 ||
      sizeof(staged_merge_storage<t::threads, 2 * t::merge_items_fitting, Key, Value>) > static_shared_limit;
  constexpr bool most_threads =
      t::threads == 256 ||
      sizeof(merge_tile_sort_storage<2 * t::threads, 1, ranked<Key>, Key, Value>) > static_shared_limit ||
      sizeof(staged_merge_storage<2 * t::threads, 1, Key, Value>) > static_shared_limit;
  return fit && largest_sort && largest_merge && most_threads;
}

}  // namespace

TEST_CASE("merge_tuning: the measured shapes of the tested types", "[merge][host]") {
  STATIC_REQUIRE(merge_tuning<u32, no_value>::threads == 256);
  STATIC_REQUIRE(merge_tuning<u32, no_value>::sort_items == 16);
  STATIC_REQUIRE(merge_tuning<u32, no_value>::merge_items == 16);
  STATIC_REQUIRE(multiway_tuning<u32, no_value>::threads == 256);
  STATIC_REQUIRE(merge_tuning<u64, no_value>::sort_items == 8);
  STATIC_REQUIRE(merge_tuning<u64, no_value>::merge_items == 16);
  STATIC_REQUIRE(merge_tuning<u32, u32>::sort_items == 8);
  STATIC_REQUIRE(merge_tuning<u32, u32>::merge_items == 16);
  STATIC_REQUIRE(merge_tuning<item<16>, item<16>>::merge_items == 4);
  // Wide tiles (merge_wide_tiles_from): 32 items a thread where that tile fits 48 KB and spans
  // at most two sort tiles; elsewhere the same width.
  STATIC_REQUIRE(merge_tuning<u32, no_value>::wide_merge_items == 32);
  STATIC_REQUIRE(merge_tuning<std::uint16_t, no_value>::wide_merge_items == 32);
  STATIC_REQUIRE(merge_tuning<u64, no_value>::wide_merge_items == 16);
  STATIC_REQUIRE(merge_tuning<u32, u32>::wide_merge_items == 16);
  STATIC_REQUIRE(merge_tuning<item<16>, item<16>>::wide_merge_items == 4);
  STATIC_REQUIRE(merge_tuning<u32, no_value>::wide_merge_tile <= 2 * merge_tuning<u32, no_value>::sort_tile);
  STATIC_REQUIRE(shapes_fit<u32, no_value>());
  STATIC_REQUIRE(shapes_fit<u32, u32>());
  STATIC_REQUIRE(shapes_fit<item<16>, item<16>>());
}

TEST_CASE("merge_tuning: wide items shrink their tiles, then their blocks", "[merge][host]") {
  // The sizes that failed to compile before (tiles sized without the job splits and the
  // network's value slot): 64-byte keys, 16-byte keys with 24-byte values.
  STATIC_REQUIRE(shapes_fit<item<64>, no_value>());
  STATIC_REQUIRE(shapes_fit<item<64>, item<64>>());
  STATIC_REQUIRE(shapes_fit<item<16>, item<24>>());
  STATIC_REQUIRE(merge_tuning<item<64>, no_value>::threads == 256);
  STATIC_REQUIRE(merge_tuning<item<64>, no_value>::merge_items == 1);
  STATIC_REQUIRE(merge_tuning<item<16>, item<24>>::merge_items == 2);
  // One item a thread in 256 threads no longer fits (64-byte keys with 64-byte values and
  // the job splits outgrow 48 KB): fewer threads.
  STATIC_REQUIRE(merge_tuning<item<64>, item<64>>::threads == 128);
  STATIC_REQUIRE(shapes_fit<item<256>, no_value>());
  STATIC_REQUIRE(merge_tuning<item<256>, no_value>::threads == 64);
  STATIC_REQUIRE(shapes_fit<item<512>, no_value>());
  STATIC_REQUIRE(merge_tuning<item<512>, no_value>::threads == 32);
}

TEST_CASE("merge passes take wide tiles from merge_wide_tiles_from items, or the policy's width",
          "[merge][host]") {
  constexpr std::int64_t from = gpusort::detail::merge_wide_tiles_from;
  STATIC_REQUIRE(merge_pass_items<u32, no_value>(0, from - 1) == 16);
  STATIC_REQUIRE(merge_pass_items<u32, no_value>(0, from) == 32);
  STATIC_REQUIRE(merge_pass_items<u32, no_value>(16, from) == 16);
  STATIC_REQUIRE(merge_pass_items<u32, no_value>(32, 100000) == 32);
  STATIC_REQUIRE(merge_pass_items<u64, no_value>(0, from) == 16);
  STATIC_REQUIRE(merge_width_supported<u32, no_value>(0));
  STATIC_REQUIRE(merge_width_supported<u32, no_value>(16));
  STATIC_REQUIRE(merge_width_supported<u32, no_value>(32));
  STATIC_REQUIRE(!merge_width_supported<u32, no_value>(8));
  STATIC_REQUIRE(!merge_width_supported<u64, no_value>(32));
  STATIC_REQUIRE(!merge_width_supported<u32, u32>(32));
  // The wide tile searches its co-ranks in the pass up to the same tile count.
  STATIC_REQUIRE(merge_searches_in_pass<u32, no_value, 32>(4096));
  STATIC_REQUIRE(!merge_searches_in_pass<u32, no_value, 32>(4097));
}

TEST_CASE("merge passes search their co-ranks in the merge kernel where the tile leaves room",
          "[merge][host]") {
  STATIC_REQUIRE(merge_searches_in_pass<u32, no_value>(1));
  // Items of up to 4 bytes up to 4096 tiles, wider ones up to 1024.
  STATIC_REQUIRE(merge_searches_in_pass<u32, no_value>(4096));
  STATIC_REQUIRE(!merge_searches_in_pass<u32, no_value>(4097));
  STATIC_REQUIRE(merge_searches_in_pass<std::uint16_t, no_value>(4096));
  STATIC_REQUIRE(merge_searches_in_pass<u32, u32>(1024));
  STATIC_REQUIRE(!merge_searches_in_pass<u32, u32>(1025));
  STATIC_REQUIRE(!merge_searches_in_pass<u64, no_value>(1025));
  STATIC_REQUIRE(merge_searches_in_pass<item<16>, item<16>>(1024));
  // 57-byte keys with 8-byte values: the merge tile takes all 48 KB, so the passes keep their
  // partition launch.
  STATIC_REQUIRE(sizeof(staged_merge_storage<merge_tuning<item<57>, u64>::threads,
                                             merge_tuning<item<57>, u64>::merge_items, item<57>, u64>) ==
                 static_shared_limit);
  STATIC_REQUIRE(!merge_searching_pass_fits<item<57>, u64>);
  STATIC_REQUIRE(!merge_searches_in_pass<item<57>, u64>(1));
  // Compiled, not run: taking the pass's address instantiates its kernels for the device, and
  // a searching kernel with the two co-ranks beside that tile would not compile (ptxas: too
  // much shared data), which fails this file's build.
  [[maybe_unused]] const auto pass = &launch_merge_pass<item<57>, u64, equal_runs, first_byte_less>;
}

// From merge_multiway_from_bytes the passes merge four runs at once where they merge in the
// four-way pass's width, an item's widest: keys of up to 4 bytes too, unless the policy names
// their narrow width; and the temp storage asked for follows. Keys searched by selection start
// at 2^27 bytes if of up to 4 bytes or of 9-16, at 2^28 if of 5-8 (runs 80-82), 4-byte keys
// alone (eight-way passes) at 2^26 (run 101); wider keys at 2^29.
TEST_CASE("merge passes merge four runs at once in the four-way pass's width only",
          "[merge][host]") {
  using gpusort::detail::merge_multiway_from_bytes;
  STATIC_REQUIRE(merge_multiway_from_bytes<u16, no_value> == std::int64_t(1) << 27);
  STATIC_REQUIRE(merge_multiway_from_bytes<u32, no_value> == std::int64_t(1) << 26);
  STATIC_REQUIRE(merge_multiway_from_bytes<float, no_value> == std::int64_t(1) << 26);
  STATIC_REQUIRE(merge_multiway_from_bytes<u32, u32> == std::int64_t(1) << 27);
  STATIC_REQUIRE(merge_multiway_from_bytes<u16, u32> == std::int64_t(1) << 27);
  STATIC_REQUIRE(merge_multiway_from_bytes<u64, no_value> == std::int64_t(1) << 28);
  STATIC_REQUIRE(merge_multiway_from_bytes<u64, u32> == std::int64_t(1) << 28);
  STATIC_REQUIRE(merge_multiway_from_bytes<item<9>, no_value> == std::int64_t(1) << 27);
  STATIC_REQUIRE(merge_multiway_from_bytes<item<16>, no_value> == std::int64_t(1) << 27);
  STATIC_REQUIRE(merge_multiway_from_bytes<item<17>, no_value> == std::int64_t(1) << 29);
  STATIC_REQUIRE(merge_multiway_from_bytes<item<64>, no_value> == std::int64_t(1) << 29);
  constexpr std::int64_t from = merge_multiway_from_bytes<u32, u32>;
  constexpr std::int64_t from8 = merge_multiway_from_bytes<u64, no_value>;
  constexpr std::int64_t from64 = merge_multiway_from_bytes<item<64>, no_value>;
  STATIC_REQUIRE(merges_four_way<u64, no_value>(from8 / 8, 0));
  STATIC_REQUIRE(!merges_four_way<u64, no_value>(from8 / 8 - 1, 0));
  STATIC_REQUIRE(merges_four_way<u32, u32>(from / 8, 0));
  STATIC_REQUIRE(!merges_four_way<u32, u32>(from / 8 - 1, 0));
  STATIC_REQUIRE(merges_four_way<u16, u32>(from / 6 + 1, 0));
  STATIC_REQUIRE(merges_four_way<item<16>, no_value>(from / 16, 0));
  STATIC_REQUIRE(!merges_four_way<item<16>, no_value>(from / 16 - 1, 0));
  STATIC_REQUIRE(merges_four_way<item<64>, no_value>(from64 / 64, 0));
  STATIC_REQUIRE(!merges_four_way<item<64>, no_value>(from64 / 64 - 1, 0));
  STATIC_REQUIRE(merges_four_way<u32, no_value>(std::int64_t(1) << 24, 0));
  STATIC_REQUIRE(!merges_four_way<u32, no_value>((std::int64_t(1) << 24) - 1, 0));
  STATIC_REQUIRE(merges_four_way<u16, no_value>(from / 2, 0));
  STATIC_REQUIRE(!merges_four_way<u16, no_value>(from / 2 - 1, 0));
  STATIC_REQUIRE(merges_four_way<u16, u16>(from / 4, 0));
  STATIC_REQUIRE(!merges_four_way<u32, no_value>(from, 16));
  STATIC_REQUIRE(multiway_tuning<u32, no_value>::items == 32);
  using merge = gpusort::detail::algorithm<gpusort::policy::merge>;
  gpusort::policy::merge narrow{};
  narrow.network_width = 16;
  const std::int64_t n = from / 4;
  CHECK(merge::temp_storage_bytes<u32, no_value>(gpusort::policy::merge{}, n) >
        merge::temp_storage_bytes<u32, no_value>(narrow, n));
  CHECK(merge::temp_storage_bytes<u64, no_value>(narrow, from8 / 8) ==
        merge::temp_storage_bytes<u64, no_value>(gpusort::policy::merge{}, from8 / 8));
}

// Where the passes are multi-way, they merge eight runs while more than four are left, for keys
// of up to 4 bytes in items of up to 8 (pairs from 2^29 bytes); then four while more than two
// are left; then two. u32 keys at 2^28 from runs of 2^14: four eight-way passes and one
// four-way, five passes over memory instead of seven.
TEST_CASE("multi-way passes merge eight runs while more than four are left, keys of up to 4 bytes",
          "[merge][host]") {
  using gpusort::detail::merged_run;
  using gpusort::detail::merges_eight_way;
  constexpr std::int64_t pairs_from = (std::int64_t(1) << 29) / 8;
  STATIC_REQUIRE(merges_eight_way<u16, no_value>(1));
  STATIC_REQUIRE(merges_eight_way<u32, no_value>(1));
  STATIC_REQUIRE(merges_eight_way<float, no_value>(1));
  STATIC_REQUIRE(merges_eight_way<u32, u32>(pairs_from));
  STATIC_REQUIRE(!merges_eight_way<u32, u32>(pairs_from - 1));
  STATIC_REQUIRE(merges_eight_way<u16, u16>((std::int64_t(1) << 29) / 4));
  STATIC_REQUIRE(!merges_eight_way<u32, u64>(std::int64_t(1) << 30));
  STATIC_REQUIRE(!merges_eight_way<u64, no_value>(std::int64_t(1) << 30));
  STATIC_REQUIRE(!merges_eight_way<double, no_value>(std::int64_t(1) << 30));
  STATIC_REQUIRE(!merges_eight_way<item<16>, no_value>(std::int64_t(1) << 30));
  const std::int64_t n = std::int64_t(1) << 28;
  std::vector<std::int64_t> runs{std::int64_t(1) << 14};
  while (runs.back() < n) runs.push_back(merged_run<u32, no_value>(runs.back(), n, 0));
  CHECK(runs == std::vector<std::int64_t>{1 << 14, 1 << 17, 1 << 20, 1 << 23, 1 << 26, n});
  // 34 runs, the last short: eight-way; then five: eight-way again. Three runs: four-way; two:
  // two-way.
  const std::int64_t run = 3 << 20, ragged = 33 * run + 17;
  CHECK(merged_run<u32, u32>(run, ragged, 0) == 8 * run);
  CHECK(merged_run<u32, u32>(8 * run, ragged, 0) == 64 * run);
  CHECK(merged_run<u32, u32>(ragged / 3 + 1, ragged, 0) == 4 * (ragged / 3 + 1));
  CHECK(merged_run<u32, u32>(ragged / 2 + 1, ragged, 0) == 2 * (ragged / 2 + 1));
  // Exactly four runs left: four-way; items without eight-way passes: four-way throughout.
  CHECK(merged_run<u32, u32>(n / 4, n, 0) == n);
  CHECK(merged_run<u64, no_value>(std::int64_t(1) << 14, n, 0) == std::int64_t(1) << 16);
  CHECK(merged_run<u32, u32>(std::int64_t(1) << 14, pairs_from - 1, 0) == std::int64_t(1) << 16);
  CHECK(merged_run<item<16>, no_value>(std::int64_t(1) << 14, n / 4, 0) == std::int64_t(1) << 16);
  // The scratch for the splits of an eight-way pass (64 bytes a tile) is what merge_plan asks.
  using plan = gpusort::detail::merge_plan<u32, no_value>;
  constexpr int eight_tile = multiway_tuning<u32, no_value>::eight_way_tile;
  CHECK(plan::split_bytes(n, 0, 0) >=
        static_cast<std::size_t>(n / eight_tile + 1 + n / (1 << 14)) * 64);
}

// The four-way pass runs 5 blocks an SM only for 4- and 8-byte items that its networks merge
// as words of their own size; the others would spill (ptxas, bench/RESULTS.md runs 75, 77).
TEST_CASE("the four-way pass bounds its registers for 4- and 8-byte network words only", "[merge][host]") {
  using gpusort::less;
  STATIC_REQUIRE(four_way_min_blocks<256, needs_ranks<u64, no_value, less>, u64, no_value, less> == 5);
  STATIC_REQUIRE(four_way_min_blocks<256, needs_ranks<u32, u32, less>, u32, u32, less> == 5);
  STATIC_REQUIRE(four_way_min_blocks<256, needs_ranks<u32, no_value, less>, u32, no_value, less> == 5);
  STATIC_REQUIRE(four_way_min_blocks<256, needs_ranks<u16, u16, less>, u16, u16, less> == 0);
  STATIC_REQUIRE(four_way_min_blocks<256, needs_ranks<double, no_value, less>, double, no_value, less> == 0);
  STATIC_REQUIRE(four_way_min_blocks<256, true, u16, u64, less> == 0);
  STATIC_REQUIRE(four_way_min_blocks<256, true, u16, u32, less> == 0);
  STATIC_REQUIRE(four_way_min_blocks<256, true, item<16>, no_value, first_byte_less> == 0);
  STATIC_REQUIRE(multiway_tuning<u64, no_value>::threads == 256);
  STATIC_REQUIRE(multiway_tuning<u32, u32>::threads == 256);
}

// The four-way partition selects (thread::four_way_select) for keys of up to 16 bytes, where it
// was measured faster (bench/RESULTS.md runs 78, 81), and searches nested merge paths for wider
// keys, where selection was measured slower (64-byte keys, run 78).
TEST_CASE("the four-way partition selects for keys of up to 16 bytes only", "[merge][host]") {
  using gpusort::detail::four_way_select_partition;
  STATIC_REQUIRE(four_way_select_partition<std::uint16_t>);
  STATIC_REQUIRE(four_way_select_partition<std::uint32_t>);
  STATIC_REQUIRE(four_way_select_partition<std::uint64_t>);
  STATIC_REQUIRE(four_way_select_partition<double>);
  STATIC_REQUIRE(four_way_select_partition<item<16>>);
  STATIC_REQUIRE(!four_way_select_partition<item<17>>);
  STATIC_REQUIRE(!four_way_select_partition<item<64>>);
}

// Ranked items without a packed rank sort their tiles by staged merges for keys of up to 16
// bytes (measured faster, bench/RESULTS.md run 82); 64-byte keys, measured slower, and keys
// that pack with their ranks (float under less too: detail::zero_tied_word) or need none keep
// the bitonic network.
TEST_CASE("the tile sort merges staged runs for unpacked ranked keys of up to 16 bytes only",
          "[merge][host]") {
  using gpusort::detail::merge_network_item;
  using gpusort::detail::sorts_tile_by_merges;
  STATIC_REQUIRE(sorts_tile_by_merges<merge_network_item<true, item<16>, first_byte_less>, item<16>>);
  STATIC_REQUIRE(sorts_tile_by_merges<merge_network_item<true, double, gpusort::less>, double>);
  STATIC_REQUIRE(!sorts_tile_by_merges<merge_network_item<true, float, gpusort::less>, float>);
  STATIC_REQUIRE(!sorts_tile_by_merges<merge_network_item<true, float, gpusort::total_less>, float>);
  STATIC_REQUIRE(
      !sorts_tile_by_merges<merge_network_item<true, std::uint32_t, gpusort::less>, std::uint32_t>);
  STATIC_REQUIRE(
      !sorts_tile_by_merges<merge_network_item<false, std::uint64_t, gpusort::less>, std::uint64_t>);
  STATIC_REQUIRE(!sorts_tile_by_merges<merge_network_item<true, item<17>, first_byte_less>, item<17>>);
  STATIC_REQUIRE(!sorts_tile_by_merges<merge_network_item<true, item<64>, first_byte_less>, item<64>>);
}

// Selection splits every tile over the whole runs in one kernel (run 79: faster than
// coarse and fine kernels); nested merge paths keep the coarse tiles every 16 (run 26).
TEST_CASE("the four-way partition splits coarse tiles first for nested merge paths only",
          "[merge][host]") {
  using gpusort::detail::four_way_coarse_stride;
  STATIC_REQUIRE(four_way_coarse_stride<std::uint32_t> == 1);
  STATIC_REQUIRE(four_way_coarse_stride<std::uint64_t> == 1);
  STATIC_REQUIRE(four_way_coarse_stride<item<16>> == 1);
  STATIC_REQUIRE(four_way_coarse_stride<item<64>> == 16);
}
