// Host tests of the thread layer: merge_path, items_before, serial_merge, pivot_select,
// sorting_network, flip / half_cleaner and compare_exchange, against plain C++ references.
#include "common/catch.hpp"
#include "common/key_types.cuh"

#include <gpusort/compare.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/thread/compare_exchange.cuh>
#include <gpusort/thread/four_way_merge_path.cuh>
#include <gpusort/thread/multiway_select.cuh>
#include <gpusort/thread/merge_path.cuh>
#include <gpusort/thread/pivot_select.cuh>
#include <gpusort/thread/serial_merge.cuh>
#include <gpusort/thread/sorting_network.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------
// Merge inputs: keys carry a tag (run and index) that the comparator ignores, so the
// reference can tell which of two equal keys a merge took.

struct tagged {
  std::uint32_t key;
  int run;    // 0: a, 1: b (four-way merges: 0..3)
  int index;  // position inside its run
};

struct key_less {
  __host__ __device__ bool operator()(const tagged& x, const tagged& y) const {
    return x.key < y.key;
  }
};
struct key_greater {
  __host__ __device__ bool operator()(const tagged& x, const tagged& y) const {
    return y.key < x.key;
  }
};

enum class shape { random_dups, random_wide, all_equal, a_below_b, a_above_b, interleaved };

template <class Compare>
std::vector<tagged> make_run(int run, int count, shape s, std::mt19937& rng, Compare cmp) {
  std::vector<tagged> v(count);
  for (int i = 0; i < count; ++i) {
    std::uint32_t k = 0;
    switch (s) {
      case shape::random_dups: k = rng() % 5; break;
      case shape::random_wide: k = rng(); break;
      case shape::all_equal: k = 7; break;
      case shape::a_below_b: k = std::uint32_t(run * 1000 + i); break;
      case shape::a_above_b: k = std::uint32_t((1 - run) * 1000 + i); break;
      case shape::interleaved: k = std::uint32_t(2 * i + run); break;
    }
    v[i] = tagged{k, run, 0};
  }
  std::sort(v.begin(), v.end(), cmp);
  for (int i = 0; i < count; ++i) v[i].index = i;
  return v;
}

// std::merge is stable: on ties it takes from its first range.
template <class Compare>
std::vector<tagged> stable_merge(const std::vector<tagged>& a, const std::vector<tagged>& b,
                                 Compare cmp) {
  std::vector<tagged> out(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), cmp);
  return out;
}

bool same_items(const std::vector<tagged>& x, const std::vector<tagged>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].key != y[i].key || x[i].run != y[i].run || x[i].index != y[i].index) return false;
  }
  return true;
}

const int run_lengths[] = {0, 1, 2, 3, 5, 8, 17, 32, 33};
const shape all_shapes[] = {shape::random_dups, shape::random_wide, shape::all_equal,
                            shape::a_below_b,   shape::a_above_b,   shape::interleaved};

// fn(s, a, b, merged) for runs a and b of every shape and pair of lengths, with their stable
// merge.
template <class Compare, class Fn>
void for_each_two_run_merge(Compare cmp, std::uint32_t seed, Fn fn) {
  std::mt19937 rng(seed);
  for (shape s : all_shapes) {
    for (int na : run_lengths) {
      for (int nb : run_lengths) {
        const auto a = make_run(0, na, s, rng, cmp);
        const auto b = make_run(1, nb, s, rng, cmp);
        fn(s, a, b, stable_merge(a, b, cmp));
      }
    }
  }
}

// Size: the counts' type, which is the width of the searches' arithmetic (int in shared
// memory, std::int64_t over device memory).
template <class Size, class Compare>
void check_merge_path_all_diagonals(Compare cmp, std::uint32_t seed) {
  for_each_two_run_merge(cmp, seed, [&](shape s, const std::vector<tagged>& a,
                                        const std::vector<tagged>& b,
                                        const std::vector<tagged>& merged) {
    const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
    std::int64_t from_a = 0;
    for (int d = 0; d <= na + nb; ++d) {
      if (d > 0 && merged[d - 1].run == 0) ++from_a;
      CAPTURE(int(s), na, nb, d);
      const Size i = gpusort::thread::merge_path(a.data(), Size{na}, b.data(), Size{nb}, Size{d}, cmp);
      REQUIRE(i == from_a);
      // The co-rank's defining inequalities, stated directly.
      const std::int64_t j = d - i;
      REQUIRE((i >= 0 && i <= na && j >= 0 && j <= nb));
      if (i > 0 && j < nb) REQUIRE(!cmp(b[j], a[i - 1]));
      if (j > 0 && i < na) REQUIRE(cmp(b[j - 1], a[i]));
      // items_before places the d-th output among the other run's items (a is first).
      if (d < na + nb) {
        const tagged& item = merged[d];
        const Size other_before =
            item.run == 0 ? gpusort::thread::items_before(b.data(), Size{nb}, item, false, cmp)
                          : gpusort::thread::items_before(a.data(), Size{na}, item, true, cmp);
        REQUIRE(other_before == (item.run == 0 ? j : i));
      }
    }
  });
}

// serial_merge's stretches of `stretch` outputs, placed side by side, must write std::merge's
// output, each value (a code of its key's run and index) beside its key.
template <bool WITH_VALUES, class Compare>
void check_serial_merge_stretches(Compare cmp, std::uint32_t seed) {
  using value = std::conditional_t<WITH_VALUES, std::int64_t, gpusort::detail::no_value>;
  const auto code = [](const tagged& t) { return std::int64_t{t.run} * 1000000 + t.index; };
  for_each_two_run_merge(cmp, seed, [&](shape s, const std::vector<tagged>& a,
                                        const std::vector<tagged>& b,
                                        const std::vector<tagged>& merged) {
    const std::int64_t na = static_cast<std::int64_t>(a.size());
    const std::int64_t nb = static_cast<std::int64_t>(b.size());
    const std::int64_t total = na + nb;
    std::vector<value> a_values(a.size()), b_values(b.size());
    if constexpr (WITH_VALUES) {
      for (std::size_t i = 0; i < a.size(); ++i) a_values[i] = code(a[i]);
      for (std::size_t i = 0; i < b.size(); ++i) b_values[i] = code(b[i]);
    }
    for (std::int64_t stretch : {std::int64_t{1}, std::int64_t{3}, std::int64_t{7}, total}) {
      if (stretch == 0) continue;
      CAPTURE(int(s), na, nb, stretch);
      std::vector<tagged> out(total, tagged{0, -1, -1});
      std::vector<value> out_values(total);
      if constexpr (WITH_VALUES) std::fill(out_values.begin(), out_values.end(), -1);
      for (std::int64_t first = 0; first < total; first += stretch) {
        const std::int64_t last = std::min(first + stretch, total);
        gpusort::thread::serial_merge(a.data(), WITH_VALUES ? a_values.data() : nullptr, na,
                                      b.data(), WITH_VALUES ? b_values.data() : nullptr, nb, first,
                                      last, out.data(), WITH_VALUES ? out_values.data() : nullptr,
                                      cmp);
      }
      REQUIRE(same_items(out, merged));
      if constexpr (WITH_VALUES) {
        for (std::int64_t k = 0; k < total; ++k) REQUIRE(out_values[k] == code(merged[k]));
      }
    }
  });
}

// The stable merge of runs [first, last) (a power of two of them): the tree of pairwise
// merges of neighbouring runs, for four merge(merge(r0, r1), merge(r2, r3)).
template <class Compare>
std::vector<tagged> stable_tree_merge(const std::vector<tagged>* runs, int first, int last, Compare cmp) {
  if (last - first == 1) return runs[first];
  const int middle = (first + last) / 2;
  return stable_merge(stable_tree_merge(runs, first, middle, cmp),
                      stable_tree_merge(runs, middle, last, cmp), cmp);
}

// At every diagonal, a split of WAYS runs must count for each run the items of it that their
// stable tree merge puts before the diagonal: search(starts, counts, d), and between(starts,
// counts, d, low, high) started from the splits of a diagonal before and one after it (unless
// between is nullptr: a search without a bounded form).
template <int WAYS = 4, class Compare, class Search, class Between>
void check_multiway_splits_all_diagonals(Compare cmp, std::uint32_t seed, Search search,
                                         Between between) {
  std::mt19937 rng(seed);
  const int lengths[] = {0, 1, 3, 8, 17, 33};
  for (shape s : all_shapes) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<tagged> runs[WAYS];
      std::int64_t counts[WAYS];
      const tagged* starts[WAYS];
      for (int j = 0; j < WAYS; ++j) {
        runs[j] = make_run(j, lengths[rng() % 6], s, rng, cmp);
        counts[j] = static_cast<std::int64_t>(runs[j].size());
        starts[j] = runs[j].data();
      }
      const auto merged = stable_tree_merge(runs, 0, WAYS, cmp);
      const std::int64_t total = static_cast<std::int64_t>(merged.size());
      std::vector<gpusort::thread::multiway_split<WAYS>> expected(total + 1, {{}});
      for (std::int64_t d = 1; d <= total; ++d) {
        expected[d] = expected[d - 1];
        ++expected[d].taken[merged[d - 1].run];
      }
      for (std::int64_t d = 0; d <= total; ++d) {
        CAPTURE(int(s), trial, std::vector<std::int64_t>(counts, counts + WAYS), d);
        const auto split = search(starts, counts, d);
        for (int j = 0; j < WAYS; ++j) REQUIRE(split.taken[j] == expected[d].taken[j]);
        if constexpr (!std::is_same_v<Between, std::nullptr_t>) {
          const std::int64_t low = static_cast<std::int64_t>(rng() % (d + 1));
          const std::int64_t high = d + static_cast<std::int64_t>(rng() % (total - d + 1));
          CAPTURE(low, high);
          const auto bounded = between(starts, counts, d, expected[low], expected[high]);
          for (int j = 0; j < 4; ++j) REQUIRE(bounded.taken[j] == expected[d].taken[j]);
        }
      }
    }
  }
}

// PROBES: outer probes a step (1: a binary search; more: a (PROBES + 1)-ary one).
template <int PROBES, class Compare>
void check_four_way_merge_path_all_diagonals(Compare cmp, std::uint32_t seed) {
  check_multiway_splits_all_diagonals(
      cmp, seed,
      [cmp](const auto& starts, const auto& counts, std::int64_t d) {
        return gpusort::thread::four_way_merge_path<PROBES>(starts, counts, d, cmp);
      },
      [cmp](const auto& starts, const auto& counts, std::int64_t d, const auto& low, const auto& high) {
        return gpusort::thread::four_way_merge_path_between<PROBES>(starts, counts, d, low, high, cmp);
      });
}

template <int WAYS, class Compare>
void check_multiway_select_all_diagonals(Compare cmp, std::uint32_t seed) {
  check_multiway_splits_all_diagonals<WAYS>(
      cmp, seed,
      [cmp](const auto& starts, const auto& counts, std::int64_t d) {
        return gpusort::thread::multiway_select(starts, counts, d, cmp);
      },
      nullptr);
}

// Reads a[i] = i * step + offset without storing it: lets the search run on 64-bit
// counts no host could hold.
struct affine_range {
  std::int64_t step, offset;
  __host__ __device__ std::int64_t operator[](std::int64_t i) const { return i * step + offset; }
};

// affine_range that counts the items read, to check a search's bound on its loads.
struct counted_affine_range {
  std::int64_t step, offset;
  int* reads;
  __host__ __device__ std::int64_t operator[](std::int64_t i) const {
    ++*reads;
    return i * step + offset;
  }
};

// Counts the comparisons a search makes, to check its logarithmic bound.
struct counting_less {
  int* calls;
  template <class T>
  __host__ __device__ bool operator()(const T& x, const T& y) const {
    ++*calls;
    return x < y;
  }
};

int ceil_log2_plus_one(std::int64_t w) {  // ceil(log2(w + 1))
  int bits = 0;
  while ((std::int64_t(1) << bits) < w + 1) ++bits;
  return bits;
}

}  // namespace

TEST_CASE("merge_path and items_before match std::merge on every diagonal", "[thread][merge_path]") {
  SECTION("ascending") { check_merge_path_all_diagonals<std::int64_t>(key_less{}, 1u); }
  SECTION("descending") { check_merge_path_all_diagonals<std::int64_t>(key_greater{}, 2u); }
  SECTION("ascending, int counts") { check_merge_path_all_diagonals<int>(key_less{}, 1u); }
  SECTION("descending, int counts") { check_merge_path_all_diagonals<int>(key_greater{}, 2u); }
}

TEST_CASE("serial_merge stretches side by side match std::merge", "[thread][serial_merge]") {
  SECTION("keys, ascending") { check_serial_merge_stretches<false>(key_less{}, 11u); }
  SECTION("keys, descending") { check_serial_merge_stretches<false>(key_greater{}, 12u); }
  SECTION("pairs, ascending") { check_serial_merge_stretches<true>(key_less{}, 13u); }
  SECTION("pairs, descending") { check_serial_merge_stretches<true>(key_greater{}, 14u); }
}

TEST_CASE("four_way_merge_path matches a stable four-way merge on every diagonal",
          "[thread][merge_path]") {
  SECTION("ascending, one probe") { check_four_way_merge_path_all_diagonals<1>(key_less{}, 3u); }
  SECTION("descending, one") { check_four_way_merge_path_all_diagonals<1>(key_greater{}, 4u); }
  SECTION("ascending, two probes") { check_four_way_merge_path_all_diagonals<2>(key_less{}, 5u); }
  SECTION("ascending, three probes") { check_four_way_merge_path_all_diagonals<3>(key_less{}, 6u); }
  SECTION("descending, three") { check_four_way_merge_path_all_diagonals<3>(key_greater{}, 7u); }
  SECTION("ascending, seven probes") { check_four_way_merge_path_all_diagonals<7>(key_less{}, 8u); }
}

TEST_CASE("multiway_select matches a stable four- and eight-way merge on every diagonal",
          "[thread][merge_path]") {
  SECTION("four, ascending") { check_multiway_select_all_diagonals<4>(key_less{}, 9u); }
  SECTION("four, descending") { check_multiway_select_all_diagonals<4>(key_greater{}, 10u); }
  SECTION("eight, ascending") { check_multiway_select_all_diagonals<8>(key_less{}, 16u); }
  SECTION("eight, descending") { check_multiway_select_all_diagonals<8>(key_greater{}, 17u); }
}

// Keys with an order word take multiway_select's one-word items: the runs' keys alone, as Key,
// under Compare, against the stable merge of the tagged runs under the matching TaggedCompare;
// four runs and eight (the word's run field at its widest).
template <class Key, class Compare, class TaggedCompare, class AsKey>
void check_multiway_select_order_words(Compare cmp, TaggedCompare tagged_cmp, AsKey as_key,
                                       std::uint32_t seed) {
  static_assert(gpusort::detail::order_word<Key, Compare>::exists, "the one-word items' path");
  const auto search = [cmp, as_key](const auto& starts, const auto& counts, std::int64_t d) {
    constexpr int ways = sizeof(counts) / sizeof(counts[0]);
    std::vector<Key> keys[ways];
    const Key* key_starts[ways];
    for (int j = 0; j < ways; ++j) {
      for (std::int64_t i = 0; i < counts[j]; ++i) keys[j].push_back(as_key(starts[j][i].key));
      key_starts[j] = keys[j].data();
    }
    return gpusort::thread::multiway_select(key_starts, counts, d, cmp);
  };
  check_multiway_splits_all_diagonals<4>(tagged_cmp, seed, search, nullptr);
  check_multiway_splits_all_diagonals<8>(tagged_cmp, seed + 100, search, nullptr);
}

TEST_CASE("multiway_select of keys with an order word matches a stable multi-way merge",
          "[thread][merge_path]") {
  const auto as_u32 = [](std::uint32_t k) { return k; };
  // Flipping the sign bit keeps the order of the unsigned keys.
  const auto as_i32 = [](std::uint32_t k) { return static_cast<std::int32_t>(k ^ 0x80000000u); };
  SECTION("u32, less") {
    check_multiway_select_order_words<std::uint32_t>(gpusort::less{}, key_less{}, as_u32, 11u);
  }
  SECTION("u32, greater") {
    check_multiway_select_order_words<std::uint32_t>(gpusort::greater{}, key_greater{}, as_u32, 12u);
  }
  SECTION("i32, less") {
    check_multiway_select_order_words<std::int32_t>(gpusort::less{}, key_less{}, as_i32, 13u);
  }
  SECTION("i32, greater") {
    check_multiway_select_order_words<std::int32_t>(gpusort::greater{}, key_greater{}, as_i32, 14u);
  }
  // Every 32-bit word is some float's total-order word (NaNs with payloads included), in order.
  const auto as_f32 = [](std::uint32_t k) {
    return gpusort::detail::order_word<float, gpusort::total_less>::decode(k);
  };
  SECTION("f32, total_less") {
    check_multiway_select_order_words<float>(gpusort::total_less{}, key_less{}, as_f32, 15u);
  }
}

// As for four_way_merge_path below: run j of WAYS holds WAYS i + j. Each step reads a
// candidate a run and one item an exchange, at most one a run: 2 WAYS reads a step, one step a
// bit of the diagonal.
template <int WAYS>
void check_multiway_select_reads() {
  const std::int64_t count = std::int64_t(1) << 33;
  std::int64_t counts[WAYS];
  for (int j = 0; j < WAYS; ++j) counts[j] = count;
  for (const std::int64_t d : {std::int64_t(0), std::int64_t(1), std::int64_t(5),
                               (std::int64_t(1) << 34) + 2, WAYS * count - 1, WAYS * count}) {
    CAPTURE(WAYS, d);
    int reads = 0;
    counted_affine_range runs[WAYS];
    for (int j = 0; j < WAYS; ++j) runs[j] = {WAYS, j, &reads};
    const auto split = gpusort::thread::multiway_select(runs, counts, d, gpusort::less{});
    for (int j = 0; j < WAYS; ++j)
      REQUIRE(split.taken[j] == std::max<std::int64_t>(0, (d - j + WAYS - 1) / WAYS));
    REQUIRE(reads <= 2 * WAYS * std::max(1, ceil_log2_plus_one(d)));
  }
}

TEST_CASE("multiway_select uses 64-bit counts and reads at most 2 WAYS items a bit of the diagonal",
          "[thread][merge_path]") {
  check_multiway_select_reads<4>();
  check_multiway_select_reads<8>();
}

TEST_CASE("merge_paths_between gives each search merge_path's co-rank", "[thread][merge_path]") {
  // Five searches over runs of their own, each from bounds around its answer (or the whole
  // grid), so that they end after different numbers of steps.
  std::mt19937 rng(9u);
  for (shape s : all_shapes) {
    for (int trial = 0; trial < 200; ++trial) {
      constexpr int n = 5;
      std::vector<tagged> a[n], b[n];
      gpusort::thread::merge_path_query<const tagged*> q[n];
      std::int64_t expected[n];
      for (int j = 0; j < n; ++j) {
        a[j] = make_run(0, static_cast<int>(rng() % 70), s, rng, key_less{});
        b[j] = make_run(1, static_cast<int>(rng() % 70), s, rng, key_less{});
        const std::int64_t na = static_cast<std::int64_t>(a[j].size());
        const std::int64_t nb = static_cast<std::int64_t>(b[j].size());
        const std::int64_t d = static_cast<std::int64_t>(rng() % (na + nb + 1));
        expected[j] = gpusort::thread::merge_path(a[j].data(), na, b[j].data(), nb, d, key_less{});
        const bool whole = rng() % 3 == 0;
        const std::int64_t lo = whole ? 0 : expected[j] - static_cast<std::int64_t>(rng() % 9);
        const std::int64_t hi = whole ? d : expected[j] + static_cast<std::int64_t>(rng() % 9);
        q[j] = {a[j].data(), b[j].data(), na, nb, d, lo, hi};
      }
      gpusort::thread::merge_paths_between(q, key_less{});
      for (int j = 0; j < n; ++j) {
        CAPTURE(int(s), trial, j);
        REQUIRE(q[j].lo == expected[j]);
      }
    }
  }
}

TEST_CASE("four_way_merge_path uses 64-bit counts", "[thread][merge_path]") {
  // Run j holds 4i + j: the merge is 0, 1, 2, ..., so before diagonal d run j has
  // ceil((d - j) / 4) items.
  const std::int64_t count = std::int64_t(1) << 33;
  const affine_range runs[4] = {{4, 0}, {4, 1}, {4, 2}, {4, 3}};
  const std::int64_t counts[4] = {count, count, count, count};
  for (const std::int64_t d : {std::int64_t(0), std::int64_t(5), (std::int64_t(1) << 34) + 2,
                               4 * count - 1, 4 * count}) {
    const auto split = gpusort::thread::four_way_merge_path(runs, counts, d, gpusort::less{});
    for (int j = 0; j < 4; ++j) REQUIRE(split.taken[j] == std::max<std::int64_t>(0, (d - j + 3) / 4));
  }
}

TEST_CASE("four-way splits stay inside the runs under a comparator that is no order",
          "[thread][merge_path]") {
  // A comparator that answers at random breaks every bound the search derives; the co-ranks
  // must still lie inside their runs and sum to the diagonal.
  std::mt19937 rng(5u);
  const auto coin = [&rng](const tagged&, const tagged&) { return (rng() & 1u) != 0; };
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<tagged> runs[4];
    std::int64_t counts[4];
    const tagged* starts[4];
    for (int j = 0; j < 4; ++j) {
      runs[j] = make_run(j, static_cast<int>(rng() % 40), shape::random_wide, rng, key_less{});
      counts[j] = static_cast<std::int64_t>(runs[j].size());
      starts[j] = runs[j].data();
    }
    const std::int64_t total = counts[0] + counts[1] + counts[2] + counts[3];
    const std::int64_t d = static_cast<std::int64_t>(rng() % (total + 1));
    // Bounds that claim anything: each split of a random diagonal under the same coin.
    const auto low = gpusort::thread::four_way_merge_path(starts, counts, rng() % (total + 1), coin);
    const auto high = gpusort::thread::four_way_merge_path(starts, counts, rng() % (total + 1), coin);
    for (const auto& split : {gpusort::thread::four_way_merge_path<1>(starts, counts, d, coin),
                              gpusort::thread::four_way_merge_path<3>(starts, counts, d, coin),
                              gpusort::thread::four_way_merge_path_between<1>(starts, counts, d, low,
                                                                              high, coin),
                              gpusort::thread::four_way_merge_path_between<3>(starts, counts, d, low,
                                                                              high, coin),
                              gpusort::thread::multiway_select(starts, counts, d, coin)}) {
      std::int64_t sum = 0;
      for (int j = 0; j < 4; ++j) {
        REQUIRE((split.taken[j] >= 0 && split.taken[j] <= counts[j]));
        sum += split.taken[j];
      }
      REQUIRE(sum == d);
    }
    // Eight runs: the first four again, and four more.
    std::vector<tagged> more[4];
    const tagged* starts8[8];
    std::int64_t counts8[8];
    for (int j = 0; j < 8; ++j) {
      if (j >= 4) more[j - 4] = make_run(j, static_cast<int>(rng() % 40), shape::random_wide, rng, key_less{});
      starts8[j] = j < 4 ? starts[j] : more[j - 4].data();
      counts8[j] = j < 4 ? counts[j] : static_cast<std::int64_t>(more[j - 4].size());
    }
    std::int64_t total8 = 0;
    for (const std::int64_t c : counts8) total8 += c;
    const std::int64_t d8 = static_cast<std::int64_t>(rng() % (total8 + 1));
    const auto split8 = gpusort::thread::multiway_select(starts8, counts8, d8, coin);
    std::int64_t sum8 = 0;
    for (int j = 0; j < 8; ++j) {
      REQUIRE((split8.taken[j] >= 0 && split8.taken[j] <= counts8[j]));
      sum8 += split8.taken[j];
    }
    REQUIRE(sum8 == d8);
  }
}

TEST_CASE("merge_path uses 64-bit counts and a logarithmic search", "[thread][merge_path]") {
  // a holds the even numbers, b the odd ones: the first d merged items are 0..d-1, of
  // which (d + 1) / 2 are even.
  const affine_range evens{2, 0}, odds{2, 1};
  const std::int64_t n = std::int64_t(3) << 31;  // 6.4e9 items per run
  const std::int64_t diagonals[] = {0, 1, 2, 3, (std::int64_t(1) << 32) + 1, n - 1, n, n + 1,
                                    2 * n - 1, 2 * n};
  for (std::int64_t d : diagonals) {
    CAPTURE(d);
    int calls = 0;
    const std::int64_t i =
        gpusort::thread::merge_path(evens, n, odds, n, d, counting_less{&calls});
    REQUIRE(i == (d + 1) / 2);
    const std::int64_t w = std::min(std::min(d, n), 2 * n - d);
    REQUIRE(calls <= ceil_log2_plus_one(w));
  }
  // Unequal lengths: every b item precedes every a item, so a joins only past b_count.
  const affine_range high{1, std::int64_t(1) << 40}, low{1, 0};
  const std::int64_t nb = (std::int64_t(1) << 33) + 5;
  REQUIRE(gpusort::thread::merge_path(high, std::int64_t{10}, low, nb, nb, gpusort::less{}) == 0);
  REQUIRE(gpusort::thread::merge_path(high, std::int64_t{10}, low, nb, nb + 3, gpusort::less{}) == 3);
}

TEST_CASE("items_before uses 64-bit counts and a logarithmic search", "[thread][merge_path]") {
  // The run holds the even numbers 0, 2, ..., 2(n - 1): item v is preceded by ceil(v / 2)
  // of them, and where the run comes first also by v itself if v is even and in the run.
  const affine_range evens{2, 0};
  const std::int64_t n = std::int64_t(3) << 31;
  for (const std::int64_t v : {std::int64_t(-1), std::int64_t(0), std::int64_t(7), std::int64_t(1) << 33,
                               2 * n - 2, 2 * n - 1, 2 * n + 10}) {
    for (const bool run_first : {false, true}) {
      CAPTURE(v, run_first);
      int calls = 0;
      const std::int64_t before = gpusort::thread::items_before(evens, n, v, run_first, counting_less{&calls});
      const std::int64_t below = std::min(n, std::max<std::int64_t>(0, (v + 1) / 2));
      const bool tie = run_first && v >= 0 && v % 2 == 0 && v / 2 < n;
      REQUIRE(before == below + (tie ? 1 : 0));
      REQUIRE(calls <= ceil_log2_plus_one(n));
    }
  }
}

// ---------------------------------------------------------------------------------------
// pivot_select

namespace {

// The swap property: after exchanging a's last p items with b's first p, no item of b'
// precedes an item of a'.
template <class Compare>
bool swap_is_valid(const std::vector<tagged>& a, const std::vector<tagged>& b, std::int64_t p,
                   Compare cmp) {
  const std::int64_t na = std::int64_t(a.size()), nb = std::int64_t(b.size());
  std::vector<tagged> a2(a.begin(), a.end() - p), b2(a.end() - p, a.end());
  a2.insert(a2.end(), b.begin(), b.begin() + p);
  b2.insert(b2.end(), b.begin() + p, b.end());
  if (std::int64_t(a2.size()) != na || std::int64_t(b2.size()) != nb) return false;
  for (const auto& x : a2) {
    for (const auto& y : b2) {
      if (cmp(y, x)) return false;
    }
  }
  return true;
}

template <class Compare>
void check_pivot_select(Compare cmp, std::uint32_t seed) {
  std::mt19937 rng(seed);
  for (shape s : all_shapes) {
    for (int na : run_lengths) {
      for (int nb : run_lengths) {
        CAPTURE(int(s), na, nb);
        const auto a = make_run(0, na, s, rng, cmp);
        const auto b = make_run(1, nb, s, rng, cmp);
        const std::int64_t p = gpusort::thread::pivot_select(a.data(), na, b.data(), nb, cmp);
        REQUIRE(p >= 0);
        REQUIRE(p <= std::min(na, nb));
        REQUIRE(swap_is_valid(a, b, p, cmp));

        // Brute force: the reference answer is the smallest valid swap count.
        std::int64_t smallest = -1;
        for (std::int64_t q = 0; q <= std::min(na, nb) && smallest < 0; ++q) {
          if (swap_is_valid(a, b, q, cmp)) smallest = q;
        }
        REQUIRE(p == smallest);

        // Stability: merging each side's two pieces (a's piece first) and concatenating
        // gives the stable merge of a and b, item for item.
        const std::vector<tagged> a_keep(a.begin(), a.end() - p), a_give(a.end() - p, a.end());
        const std::vector<tagged> b_give(b.begin(), b.begin() + p), b_keep(b.begin() + p, b.end());
        auto left = stable_merge(a_keep, b_give, cmp);
        const auto right = stable_merge(a_give, b_keep, cmp);
        left.insert(left.end(), right.begin(), right.end());
        REQUIRE(same_items(left, stable_merge(a, b, cmp)));
      }
    }
  }
}

}  // namespace

TEST_CASE("pivot_select finds the smallest stable swap", "[thread][pivot_select]") {
  SECTION("ascending") { check_pivot_select(key_less{}, 3u); }
  SECTION("descending") { check_pivot_select(key_greater{}, 4u); }
}

TEST_CASE("pivot_select on Tanasic et al.'s equal-length distinct-key case",
          "[thread][pivot_select]") {
  // Sorted halves of a permutation of 0..2n-1: exactly the items below n must end on the
  // left, so p is the number of them that start on the right.
  std::mt19937 rng(5u);
  for (int n : {1, 2, 7, 64, 1000}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<std::uint32_t> all(2 * n);
      for (int i = 0; i < 2 * n; ++i) all[i] = std::uint32_t(i);
      std::shuffle(all.begin(), all.end(), rng);
      std::vector<std::uint32_t> a(all.begin(), all.begin() + n), b(all.begin() + n, all.end());
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      const auto expected = std::count_if(b.begin(), b.end(),
                                          [n](std::uint32_t k) { return k < std::uint32_t(n); });
      CAPTURE(n, trial);
      REQUIRE(gpusort::thread::pivot_select(a.data(), n, b.data(), n, gpusort::less{}) ==
              expected);
    }
  }
}

TEST_CASE("pivot_select uses 64-bit counts", "[thread][pivot_select]") {
  // a = evens, b = odds, both of length n: the first n merged items are 0..n-1, of which
  // n/2 are odd (n even), so n/2 items swap.
  const std::int64_t n = std::int64_t(5) << 31;
  int calls = 0;
  REQUIRE(gpusort::thread::pivot_select(affine_range{2, 0}, n, affine_range{2, 1}, n,
                                        counting_less{&calls}) == n / 2);
  REQUIRE(calls <= ceil_log2_plus_one(n));
  // Unequal lengths with every item of b below every item of a: all of the shorter run swaps.
  const affine_range high{1, std::int64_t(1) << 40}, low{1, 0};
  const std::int64_t big = (std::int64_t(1) << 32) + 1;
  REQUIRE(gpusort::thread::pivot_select(high, 3, low, big, gpusort::less{}) == 3);
  REQUIRE(gpusort::thread::pivot_select(high, big, low, 3, gpusort::less{}) == 3);
  REQUIRE(gpusort::thread::pivot_select(low, big, high, 3, gpusort::less{}) == 0);
}

// ---------------------------------------------------------------------------------------
// compare_exchange

TEST_CASE("compare_exchange orders a pair and moves values with keys",
          "[thread][compare_exchange]") {
  using gpusort::thread::compare_exchange;
  for (bool descending : {false, true}) {
    CAPTURE(descending);
    for (int x = 0; x < 3; ++x) {
      for (int y = 0; y < 3; ++y) {
        int a = x, b = y, va = 10 + x, vb = 20 + y;
        compare_exchange(a, b, va, vb, gpusort::less{}, descending);
        CAPTURE(x, y);
        REQUIRE(a == (descending ? std::max(x, y) : std::min(x, y)));
        REQUIRE(b == (descending ? std::min(x, y) : std::max(x, y)));
        const bool swapped = descending ? x < y : y < x;
        // Equal keys never swap, so their values keep their slots.
        REQUIRE(va == (swapped ? 20 + y : 10 + x));
        REQUIRE(vb == (swapped ? 10 + x : 20 + y));
      }
    }
  }
  // Keys-only: no_value slots compile and the keys are still ordered.
  gpusort::detail::no_value na, nb;
  float a = 2.f, b = -1.f;
  compare_exchange(a, b, na, nb, gpusort::total_less{});
  REQUIRE((a == -1.f && b == 2.f));
  compare_exchange(a, b, na, nb, gpusort::greater{});
  REQUIRE((a == 2.f && b == -1.f));
}

TEST_CASE("compare_exchange orders 8-byte keys whose words it selects one by one",
          "[thread][compare_exchange]") {
  using gpusort::thread::compare_exchange;
  gpusort::detail::no_value na, nb;
  // Keys that differ only in the high word, only in the low word, and not at all.
  const std::uint64_t keys[] = {0x100000000ull, 0x1ull, 0xffffffff00000000ull, 0x00000000ffffffffull,
                                0x123456789abcdef0ull};
  for (std::uint64_t x : keys) {
    for (std::uint64_t y : keys) {
      CAPTURE(x, y);
      std::uint64_t a = x, b = y;
      compare_exchange(a, b, na, nb, gpusort::less{});
      REQUIRE(a == std::min(x, y));
      REQUIRE(b == std::max(x, y));
      std::uint64_t va = x, vb = y, ka = x, kb = y;  // the values follow the keys
      compare_exchange(ka, kb, va, vb, gpusort::greater{});
      REQUIRE(ka == std::max(x, y));
      REQUIRE(kb == std::min(x, y));
      REQUIRE(va == ka);
      REQUIRE(vb == kb);
    }
  }
  // Doubles keep their exact bits (a NaN's payload, -0 against +0) under total_less.
  double nan_payload;
  const std::uint64_t nan_bits = 0x7ff8000000000123ull;
  std::memcpy(&nan_payload, &nan_bits, sizeof nan_payload);
  double a = nan_payload, b = -0.0;
  compare_exchange(a, b, na, nb, gpusort::total_less{});
  std::uint64_t a_bits, b_bits;
  std::memcpy(&a_bits, &a, 8);
  std::memcpy(&b_bits, &b, 8);
  REQUIRE(a_bits == 0x8000000000000000ull);
  REQUIRE(b_bits == nan_bits);
  // select_words is c ? x : y for every size.
  using gpusort::thread::select_words;
  REQUIRE(select_words(true, std::uint64_t{5}, std::uint64_t{7}) == 5u);
  REQUIRE(select_words(false, std::uint64_t{5}, std::uint64_t{7}) == 7u);
  REQUIRE(select_words(true, 1.5, 2.5) == 1.5);
  REQUIRE(select_words(false, 3, 4) == 4);
}

// ---------------------------------------------------------------------------------------
// sorting_network, flip and half_cleaner

namespace {

// Keys equivalent under the test comparators are bitwise identical (total_less is a total
// order on bit patterns), so the sorted output must equal a reference sort byte for byte.
template <class Key>
bool same_bits(const Key& x, const Key& y) {
  return std::memcmp(&x, &y, sizeof(Key)) == 0;
}

template <class Key>
Key random_key(std::mt19937_64& rng, int distinct);

template <>
std::uint32_t random_key<std::uint32_t>(std::mt19937_64& rng, int distinct) {
  return distinct > 0 ? std::uint32_t(rng() % distinct) : std::uint32_t(rng());
}
template <>
float random_key<float>(std::mt19937_64& rng, int distinct) {
  // Any bit pattern: NaNs of both signs, infinities, ±0 and subnormals all turn up,
  // and a pool of specials makes them collide.
  static const std::uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                           0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x00000001u,
                                           0x3f800000u, 0xbf800000u};
  const std::uint32_t bits =
      distinct > 0 ? specials[rng() % (sizeof(specials) / sizeof(specials[0]))]
                   : std::uint32_t(rng());
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
template <>
gpusort_test::key16 random_key<gpusort_test::key16>(std::mt19937_64& rng, int distinct) {
  const int m = distinct > 0 ? 2 : 1 << 30;  // few values per field: ties in the high word
  return gpusort_test::key16{rng() % m, rng() % m};
}

template <class Key, class Compare>
struct reversed {  // the reference order of a descending network
  Compare cmp;
  __host__ __device__ bool operator()(const Key& x, const Key& y) const { return cmp(y, x); }
};

// The network sorts ascending under its comparator; descending is the reversed comparator.
template <int N, class Key, class Value, class Compare>
void sort_network(Key (&keys)[N], Value (&values)[N], Compare cmp, bool descending) {
  if (descending) {
    gpusort::thread::sorting_network(keys, values, reversed<Key, Compare>{cmp});
  } else {
    gpusort::thread::sorting_network(keys, values, cmp);
  }
}

// Runs the network on `input` (keys-only and with index values, both directions) and
// checks the result against std::stable_sort.
template <int N, class Key, class Compare>
void check_network_on(const Key (&input)[N], Compare cmp) {
  for (bool descending : {false, true}) {
    CAPTURE(N, descending);
    std::vector<Key> expected(input, input + N);
    if (descending) {
      std::stable_sort(expected.begin(), expected.end(), reversed<Key, Compare>{cmp});
    } else {
      std::stable_sort(expected.begin(), expected.end(), cmp);
    }

    Key keys[N];
    gpusort::detail::no_value none[N];
    std::copy(input, input + N, keys);
    sort_network(keys, none, cmp, descending);
    for (int r = 0; r < N; ++r) REQUIRE(same_bits(keys[r], expected[r]));

    int values[N];
    std::copy(input, input + N, keys);
    for (int r = 0; r < N; ++r) values[r] = r;
    sort_network(keys, values, cmp, descending);
    std::vector<bool> seen(N, false);
    for (int r = 0; r < N; ++r) {
      REQUIRE(same_bits(keys[r], expected[r]));
      REQUIRE((values[r] >= 0 && values[r] < N));
      REQUIRE(!seen[values[r]]);  // a permutation of the input positions...
      seen[values[r]] = true;
      REQUIRE(same_bits(keys[r], input[values[r]]));  // ...each with its own key
    }
  }
}

template <int N, class Key, class Compare>
void check_network(Compare cmp, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Key input[N];
  for (int distinct : {0, 3}) {
    for (int trial = 0; trial < 40; ++trial) {
      for (int r = 0; r < N; ++r) input[r] = random_key<Key>(rng, distinct);
      check_network_on(input, cmp);
    }
  }
  // Already sorted, reverse sorted and all equal.
  for (int r = 0; r < N; ++r) input[r] = random_key<Key>(rng, 0);
  std::sort(input, input + N, cmp);
  check_network_on(input, cmp);
  std::reverse(input, input + N);
  check_network_on(input, cmp);
  for (int r = 0; r < N; ++r) input[r] = input[0];
  check_network_on(input, cmp);
}

template <class Key, class Compare>
void check_network_all_sizes(Compare cmp, std::uint64_t seed) {
  check_network<1, Key>(cmp, seed);
  check_network<2, Key>(cmp, seed + 1);
  check_network<4, Key>(cmp, seed + 2);
  check_network<8, Key>(cmp, seed + 3);
  check_network<16, Key>(cmp, seed + 4);
  check_network<32, Key>(cmp, seed + 5);
}

// 0-1 principle: a comparator network sorts every input iff it sorts every 0/1 input.
template <int N>
void check_network_zero_one() {
  static_assert(N <= 16, "2^N inputs are enumerated");
  for (std::uint32_t mask = 0; mask < (1u << N); ++mask) {
    std::uint32_t keys[N];
    gpusort::detail::no_value none[N];
    for (int r = 0; r < N; ++r) keys[r] = (mask >> r) & 1u;
    gpusort::thread::sorting_network(keys, none, gpusort::less{});
    int ones = 0;
    for (int r = 0; r < N; ++r) ones += int(keys[r]);
    CAPTURE(N, mask);
    for (int r = 0; r < N; ++r) REQUIRE(keys[r] == (r >= N - ones ? 1u : 0u));
  }
}

}  // namespace

TEST_CASE("sorting_network sorts every 0/1 input (N <= 16)", "[thread][sorting_network]") {
  check_network_zero_one<1>();
  check_network_zero_one<2>();
  check_network_zero_one<4>();
  check_network_zero_one<8>();
  check_network_zero_one<16>();
}

TEST_CASE("sorting_network: u32 keys", "[thread][sorting_network]") {
  check_network_all_sizes<std::uint32_t>(gpusort::less{}, 11u);
}

TEST_CASE("sorting_network: u32 keys under greater", "[thread][sorting_network]") {
  check_network_all_sizes<std::uint32_t>(gpusort::greater{}, 21u);
}

TEST_CASE("sorting_network: float keys under total_less", "[thread][sorting_network]") {
  check_network_all_sizes<float>(gpusort::total_less{}, 31u);
}

TEST_CASE("sorting_network: 16-byte keys, lexicographic", "[thread][sorting_network]") {
  check_network_all_sizes<gpusort_test::key16>(gpusort_test::key16_less{}, 41u);
}

TEST_CASE("half_cleaner sorts a bitonic sequence; flip turns two sorted halves into one",
          "[thread][sorting_network]") {
  constexpr int N = 16;
  std::mt19937 rng(51u);
  for (int trial = 0; trial < 200; ++trial) {
    for (bool two_sorted_halves : {false, true}) {
      std::uint32_t keys[N];
      int values[N];
      for (int r = 0; r < N; ++r) keys[r] = rng() % 9;
      // Ascending then descending halves are bitonic; two ascending halves need the flip.
      std::sort(keys, keys + N / 2);
      if (two_sorted_halves) {
        std::sort(keys + N / 2, keys + N);
      } else {
        std::sort(keys + N / 2, keys + N, gpusort::greater{});
      }
      const std::vector<std::uint32_t> input(keys, keys + N);
      for (int r = 0; r < N; ++r) values[r] = r;
      if (two_sorted_halves) {
        gpusort::thread::flip(keys, values, gpusort::less{}, N);
        gpusort::thread::half_cleaner(keys, values, gpusort::less{}, N / 4);
      } else {
        gpusort::thread::half_cleaner(keys, values, gpusort::less{}, N / 2);
      }
      std::vector<std::uint32_t> expected = input;
      std::sort(expected.begin(), expected.end());
      CAPTURE(trial, two_sorted_halves);
      for (int r = 0; r < N; ++r) {
        REQUIRE(keys[r] == expected[r]);
        REQUIRE(input[values[r]] == keys[r]);
      }
    }
  }
}
