// Host tests of the multi-GPU sort's stage logic (detail/multi_merge.cuh, multi_transport.cuh):
// the recursion over shards, the swap plan and the k-ary co-rank search, run on a host
// transport whose shards are std::vectors. Checks the result is std::stable_sort of the
// concatenation for many shard counts and layouts (empty shards, lopsided counts, ties),
// that every shard keeps its count, and that the k-ary search agrees with merge_path.
#include "common/catch.hpp"

#include <gpusort/compare.cuh>
#include <gpusort/detail/multi_merge.cuh>
#include <gpusort/detail/multi_transport.cuh>
#include <gpusort/thread/merge_path.cuh>
#include <gpusort/thread/pivot_select.cuh>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

struct item {
  std::uint32_t key;
  std::uint32_t index;  // input position: checks stability and permutation
};
struct item_less {
  __host__ __device__ bool operator()(const item& x, const item& y) const { return x.key < y.key; }
};

// The concatenation of the host shards from `base` on (a flat copy: merge_path is
// __host__ __device__, so the accessor is plain pointer arithmetic).
struct host_run {
  const item* flat;
  std::int64_t base;
  __host__ __device__ const item& operator[](std::int64_t i) const { return flat[base + i]; }
};

// The transport interface on the host; the pivot by thread::pivot_select or by rounds.
struct host_transport {
  std::vector<std::vector<item>> shards, buffers;
  gpusort::detail::shard_layout lay;
  bool by_rounds = false;
  int rounds = 0;

  explicit host_transport(std::vector<std::vector<item>> data) : shards(std::move(data)) {
    lay.offsets.assign(1, 0);
    for (auto& s : shards) lay.offsets.push_back(lay.offsets.back() + static_cast<std::int64_t>(s.size()));
    buffers.resize(shards.size());
    for (std::size_t j = 0; j < shards.size(); ++j) buffers[j].resize(shards[j].size());
  }
  const gpusort::detail::shard_layout& layout() const { return lay; }
  bool involved(int, int) const { return true; }
  std::size_t item_bytes() const { return sizeof(item); }
  template <class F, class G>
  cudaError_t both(F f, G g) {
    const cudaError_t a = f();
    const cudaError_t b = g();
    return a != cudaSuccess ? a : b;
  }
  cudaError_t local_sort_all() {
    for (auto& s : shards) std::stable_sort(s.begin(), s.end(), item_less{});
    return cudaSuccess;
  }
  cudaError_t pivot(int lo, int mid, int hi, std::int64_t& p) {
    const std::int64_t a0 = lay.begin(lo), m = lay.begin(mid), e = lay.end(hi - 1);
    std::vector<item> flat;
    for (const auto& s : shards) flat.insert(flat.end(), s.begin(), s.end());
    const host_run a{flat.data(), a0}, b{flat.data(), m};
    if (!by_rounds) {
      p = gpusort::thread::pivot_select(a, m - a0, b, e - m, item_less{});
      return cudaSuccess;
    }
    std::int64_t co_rank = 0;
    const std::int64_t a_count = m - a0;
    const cudaError_t s = gpusort::detail::co_rank_by_rounds(
        a_count, e - m, a_count,
        [&](const gpusort::detail::candidate_round& r, int* truth) {
          ++rounds;
          for (int t = 0; t < r.count; ++t)
            truth[t] = item_less{}(b[a_count - 1 - r.positions[t]], a[r.positions[t]]);
          return cudaSuccess;
        },
        co_rank);
    p = a_count - co_rank;
    return s;
  }
  cudaError_t exchange(const std::vector<gpusort::detail::swap_move>& moves) {
    for (const auto& mv : moves)
      for (std::int64_t i = 0; i < mv.length; ++i)
        buffers[mv.dst_shard][mv.dst_offset + i] = shards[mv.src_shard][mv.src_offset + i];
    return cudaSuccess;
  }
  cudaError_t finish(const std::vector<int>& js, const std::vector<std::int64_t>& boundaries) {
    for (std::size_t i = 0; i < js.size(); ++i) {
      auto& buf = buffers[js[i]];
      auto& out = shards[js[i]];
      std::merge(buf.begin(), buf.begin() + boundaries[i], buf.begin() + boundaries[i], buf.end(),
                 out.begin(), item_less{});
    }
    return cudaSuccess;
  }
  cudaError_t merge_in_place(int j, std::int64_t boundary) {
    buffers[j] = shards[j];
    return finish({j}, {boundary});
  }
};

void check_layout(const std::vector<std::int64_t>& counts, std::uint32_t distinct, bool by_rounds,
                  std::uint32_t seed) {
  INFO("shards " << counts.size() << ", distinct " << distinct << ", rounds " << by_rounds);
  std::mt19937 rng(seed);
  std::vector<std::vector<item>> data;
  std::vector<item> all;
  std::uint32_t index = 0;
  for (auto c : counts) {
    std::vector<item> shard;
    for (std::int64_t i = 0; i < c; ++i) {
      const item it{static_cast<std::uint32_t>(rng() % distinct), index++};
      shard.push_back(it);
      all.push_back(it);
    }
    data.push_back(shard);
  }
  host_transport t(data);
  t.by_rounds = by_rounds;
  REQUIRE(gpusort::detail::multi_sort(t, nullptr) == cudaSuccess);
  std::stable_sort(all.begin(), all.end(), item_less{});
  std::size_t at = 0;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    REQUIRE(static_cast<std::int64_t>(t.shards[j].size()) == counts[j]);
    for (const item& it : t.shards[j]) {
      REQUIRE(it.key == all[at].key);
      REQUIRE(it.index == all[at].index);  // stable, and a permutation
      ++at;
    }
  }
}

}  // namespace

TEST_CASE("multi plan: the stage logic sorts every layout (stable)", "[multi]") {
  std::mt19937 rng(11);
  for (int shards = 1; shards <= 9; ++shards) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<std::int64_t> counts(shards);
      for (auto& c : counts) c = rng() % 4 == 0 ? 0 : rng() % (trial < 20 ? 9 : 300);
      const std::uint32_t distinct = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 17 : 1000000;
      check_layout(counts, distinct, trial % 2 == 1, 1000 * shards + trial);
    }
  }
}

TEST_CASE("multi plan: lopsided layouts", "[multi]") {
  using v = std::vector<std::int64_t>;
  for (const auto& counts : {v{}, v{0}, v{5}, v{0, 0}, v{1000, 1}, v{1, 1000}, v{0, 700, 0, 3, 0},
                             v{4096, 4097, 4095, 1, 0, 33, 8191, 2}, v{1, 1, 1, 1, 1, 1, 1, 1},
                             v{3000, 0, 0, 0, 0, 0, 0, 2999}}) {
    check_layout(counts, 50, false, 7);
    check_layout(counts, 3, true, 8);
  }
}

TEST_CASE("multi plan: k-ary co-rank search equals merge_path, in O(log_k n) rounds", "[multi]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t a_count = rng() % 5000, b_count = rng() % 5000;
    std::vector<std::uint32_t> a(a_count), b(b_count);
    for (auto& x : a) x = rng() % (trial % 2 ? 7 : 100000);
    for (auto& x : b) x = rng() % (trial % 2 ? 7 : 100000);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const std::int64_t diagonal = std::min<std::int64_t>(a_count, a_count + b_count);
    int rounds = 0;
    std::int64_t got = -1;
    REQUIRE(gpusort::detail::co_rank_by_rounds(
                a_count, b_count, diagonal,
                [&](const gpusort::detail::candidate_round& r, int* truth) {
                  ++rounds;
                  for (int t = 0; t < r.count; ++t)
                    truth[t] = b[diagonal - 1 - r.positions[t]] < a[r.positions[t]];
                  return cudaSuccess;
                },
                got) == cudaSuccess);
    const std::int64_t expected =
        gpusort::thread::merge_path(a.data(), a_count, b.data(), b_count, diagonal,
                                    gpusort::less{});
    REQUIRE(got == expected);
    REQUIRE(rounds <= 3);  // 32^3 > 5000
  }
}

TEST_CASE("multi plan: a swap plan moves two equal ranges and keeps counts", "[multi]") {
  gpusort::detail::shard_layout layout{{0, 10, 10, 25, 40}};
  const auto moves = gpusort::detail::plan_swap(layout, 0, 4, 25, 12);
  std::vector<std::int64_t> filled(4, 0);
  for (const auto& m : moves) {
    const std::int64_t dst = layout.begin(m.dst_shard) + m.dst_offset;
    const std::int64_t src = layout.begin(m.src_shard) + m.src_offset;
    for (std::int64_t i = 0; i < m.length; ++i) {
      const std::int64_t x = dst + i, from = src + i;
      const std::int64_t expected = x >= 13 && x < 25 ? x + 12 : x >= 25 && x < 37 ? x - 12 : x;
      REQUIRE(from == expected);
    }
    filled[m.dst_shard] += m.length;
  }
  REQUIRE(filled == (std::vector<std::int64_t>{0, 0, 15, 15}));
}

TEST_CASE("multi plan: the NCCL pivot's candidate packs reach every rank in place", "[multi]") {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    const int ranks = 2 + static_cast<int>(rng() % 7);
    gpusort::detail::shard_layout layout;
    layout.offsets.assign(1, 0);
    for (int q = 0; q < ranks; ++q)
      layout.offsets.push_back(layout.offsets.back() + (rng() % 3 == 0 ? 0 : rng() % 400));
    const int lo = 0, hi = ranks, mid = 1 + static_cast<int>(rng() % (ranks - 1));
    const std::int64_t a_begin = layout.begin(lo), middle = layout.begin(mid),
                       end = layout.end(hi - 1);
    if (a_begin == middle || middle == end) continue;
    const std::int64_t a_count = middle - a_begin, b_count = end - middle;
    const std::int64_t lo_c = std::max<std::int64_t>(0, a_count - b_count);
    const auto round = gpusort::detail::pick_candidates(lo_c, a_count);
    // The global array holds its positions; staging is what every rank ends up with.
    std::vector<std::int64_t> staging(2 * round.count, -1);
    const auto reference = gpusort::detail::plan_candidate_exchange(layout, round, a_begin, middle, 0);
    for (int q = 0; q < ranks; ++q) {
      const auto x = gpusort::detail::plan_candidate_exchange(layout, round, a_begin, middle, q);
      REQUIRE(x.owned == reference.owned);
      REQUIRE(x.first == reference.first);
      REQUIRE(x.gather.count == x.owned[q]);
      for (int i = 0; i < x.gather.count; ++i) {
        const int slot = x.gather.slot[i];
        REQUIRE(slot >= x.first[q]);
        REQUIRE(slot < x.first[q] + x.owned[q]);  // inside q's pack
        REQUIRE(staging[slot] == -1);             // written once
        staging[slot] = layout.begin(q) + x.gather.local[i];
      }
    }
    for (int t = 0; t < round.count; ++t) {
      REQUIRE(staging[reference.map.a[t]] == a_begin + round.positions[t]);
      REQUIRE(staging[reference.map.b[t]] == middle + a_count - 1 - round.positions[t]);
    }
  }
}
