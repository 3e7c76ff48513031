// gpusort/detail/multi_transport.cuh — what the multi-GPU pivot merge sort (Tanasic et al.)
// needs from the machinery that moves data between GPUs, and the pieces both transports
// share: the shard layout, the swap plan, the k-ary co-rank search and its kernels.
//
// The stage logic (detail/multi_merge.cuh) is written once against this interface; it is
// implemented by the peer transport (one process, CUDA peer access, detail/multi_peer.cuh)
// and the NCCL transport (one rank per GPU, detail/multi_nccl.cuh). Every transport knows
// the counts of all shards (the global layout) and acts for the shards it owns.
//
//   struct Transport {
//     const shard_layout& layout() const;            // counts of all shards
//     bool involved(int lo, int hi) const;           // acts for a shard of [lo, hi)
//     std::size_t item_bytes() const;                // key + value bytes (statistics)
//     template <class F, class G>
//     cudaError_t both(F f, G g);                    // two tasks on disjoint shard ranges,
//                                                    // concurrently where it can
//     cudaError_t local_sort_all();                  // single-GPU sort of every owned shard
//     cudaError_t pivot(int lo, int mid, int hi, std::int64_t& p);
//         // p of thread::pivot_select for the runs [begin(lo), begin(mid)) and
//         // [begin(mid), end(hi - 1)) of the concatenation; the same p on every process
//     cudaError_t exchange(const std::vector<swap_move>& moves);
//         // every owned destination shard gets its new content in its buffer; returns once
//         // all copies reading or writing owned shards completed, shards still unchanged
//     cudaError_t finish(const std::vector<int>& shards,
//                        const std::vector<std::int64_t>& boundaries);
//         // buffer -> shard for the owned ones: stable merge of buffer[0, boundary) and
//         // [boundary, count), or a plain copy when boundary is 0; synchronized
//     cudaError_t merge_in_place(int shard, std::int64_t boundary);
//         // the shard's two sorted runs merged, through its buffer
//   };
//
// Every call returns once its work is complete (the next step's sizes depend on it).
// Failure contract: exchange() writes only buffers, so a failed copy leaves every shard as
// it was before the swap. finish() is the only step that overwrites a shard after a swap.
//
// Ordering rules (a race here shows only when the GPU is busy: keep them):
// - Entry: the peer transport's own streams are non-blocking, so each first waits for an
//   event recorded on its device's legacy default stream (wait_for_default_streams): the
//   sort starts after what the caller issued to the default streams (legacy or per-thread)
//   and to blocking streams, as cudaMemcpy would. The NCCL transport runs on the caller's
//   stream. Work on the caller's other (non-blocking) streams must be complete.
// - Within: a shard's buffer and scratch are used only on that shard's stream (the one that
//   cudaMallocAsync'd them); another stream reads a shard only after the host synchronized
//   the stream that last wrote it (every step synchronizes each stream it used before it
//   returns); both()'s halves touch disjoint shards, so disjoint streams and scratch.
// - NCCL: a non-blocking communicator may return ncclInProgress before the work is on the
//   stream; the stream is synchronized only after the communicator leaves that state.
// - Exit: every stream is synchronized (storage freed on it) before the sort returns.
#pragma once

#include <gpusort/detail/no_value.cuh>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusort {
namespace detail {

// Makes `stream` (of the current device) wait for the work issued so far to the device's
// legacy default stream, which itself waits for every blocking stream (cudaStreamCreate'd
// and per-thread default streams): the entry rule above.
inline cudaError_t wait_for_default_streams(cudaStream_t stream) {
  cudaEvent_t issued = nullptr;
  if (cudaError_t e = cudaEventCreateWithFlags(&issued, cudaEventDisableTiming)) return e;
  cudaError_t e = cudaEventRecord(issued, cudaStreamLegacy);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, issued, 0);
  // Destroying a recorded event is safe: the wait has captured it.
  const cudaError_t destroyed = cudaEventDestroy(issued);
  return e != cudaSuccess ? e : destroyed;
}

// Where each shard's items lie in the concatenation of all shards.
struct shard_layout {
  std::vector<std::int64_t> offsets;  // shards + 1 entries; shard j is [offsets[j], offsets[j+1])

  int shards() const { return static_cast<int>(offsets.size()) - 1; }
  std::int64_t begin(int j) const { return offsets[j]; }
  std::int64_t end(int j) const { return offsets[j + 1]; }
  std::int64_t count(int j) const { return offsets[j + 1] - offsets[j]; }

  // The non-empty shard holding global position x (offsets[0] <= x < offsets.back()).
  int shard_of(std::int64_t x) const {
    const auto it = std::upper_bound(offsets.begin(), offsets.end(), x);
    return static_cast<int>(it - offsets.begin()) - 1;
  }
};

// One contiguous copy of a swap: `length` items from src_shard at src_offset to the buffer
// of dst_shard at dst_offset. src_shard == dst_shard: items that stay (a local copy).
struct swap_move {
  int src_shard, dst_shard;
  std::int64_t src_offset, dst_offset, length;
};

// The swap of Tanasic et al. (Figure 3, steps 2 and 5) between runs that meet at global
// position `mid`: [mid - p, mid) and [mid, mid + p) trade places. Every shard that overlaps
// them gets its whole new content (so that its buffer can replace it), in position order.
// Both ranges may span several shards, so a shard may receive from several.
inline std::vector<swap_move> plan_swap(const shard_layout& layout, int lo, int hi,
                                        std::int64_t mid, std::int64_t p) {
  std::vector<swap_move> moves;
  const std::int64_t first = mid - p, last = mid + p;
  for (int j = lo; j < hi; ++j) {
    const std::int64_t b = layout.begin(j), e = layout.end(j);
    if (e <= first || b >= last || b == e) continue;
    // Pieces of [b, e) cut at first, mid, last; each has a source shift.
    const std::int64_t cuts[] = {b, std::clamp(first, b, e), std::clamp(mid, b, e),
                                 std::clamp(last, b, e), e};
    const std::int64_t shifts[] = {0, p, -p, 0};
    for (int piece = 0; piece < 4; ++piece) {
      for (std::int64_t x = cuts[piece]; x < cuts[piece + 1];) {
        const std::int64_t source = x + shifts[piece];
        const int s = layout.shard_of(source);
        const std::int64_t length = std::min(cuts[piece + 1] - x, layout.end(s) - source);
        moves.push_back({s, j, source - layout.begin(s), x - b, length});
        x += length;
      }
    }
  }
  return moves;
}

// Shards whose content a plan changes (each once, ascending).
inline std::vector<int> swapped_shards(const std::vector<swap_move>& moves) {
  std::vector<int> shards;
  for (const swap_move& m : moves)
    if (shards.empty() || shards.back() != m.dst_shard) shards.push_back(m.dst_shard);
  return shards;
}

// k-ary co-rank search (the NCCL pivot: O(log_k n) rounds of k candidate keys, not one key
// a round; also the peer pivot without peer access). Candidate positions of run a; the
// merge_path predicate at candidate c is cmp(b[diagonal - 1 - c], a[c]), monotone in c.
// Tuning: candidates per round; 2 * 31 keys of each round fit one small message.
constexpr int pivot_candidates = 31;

struct candidate_round {
  int count = 0;
  std::int64_t positions[pivot_candidates];
};

// The candidates of one round in [lo, hi): evenly spaced, all of them once hi - lo <= k.
inline candidate_round pick_candidates(std::int64_t lo, std::int64_t hi) {
  candidate_round r;
  const std::int64_t width = hi - lo;
  r.count = static_cast<int>(std::min<std::int64_t>(width, pivot_candidates));
  for (int t = 0; t < r.count; ++t) r.positions[t] = lo + width * (t + 1) / (r.count + 1);
  return r;
}

// Narrows [lo, hi) from one round's predicate values (truth[t] for positions[t]).
inline void narrow(const candidate_round& r, const int* truth, std::int64_t& lo,
                   std::int64_t& hi) {
  for (int t = 0; t < r.count; ++t) {
    if (truth[t]) {
      hi = r.positions[t];
      return;
    }
    lo = r.positions[t] + 1;
  }
}

// merge_path by rounds: `evaluate(round, truth)` fills truth[t] = predicate at
// round.positions[t]. Returns the co-rank of diagonal `diagonal` of runs of a_count and
// b_count items.
template <class Evaluate>
cudaError_t co_rank_by_rounds(std::int64_t a_count, std::int64_t b_count, std::int64_t diagonal,
                              Evaluate evaluate, std::int64_t& result) {
  std::int64_t lo = diagonal > b_count ? diagonal - b_count : 0;
  std::int64_t hi = diagonal < a_count ? diagonal : a_count;
  while (lo < hi) {
    const candidate_round r = pick_candidates(lo, hi);
    int truth[pivot_candidates];
    if (cudaError_t e = evaluate(r, truth)) return e;
    narrow(r, truth, lo, hi);
  }
  result = lo;
  return cudaSuccess;
}

// truth[t] = cmp(b_keys[t], a_keys[t]): the predicates of one round, on the device because
// cmp need only be callable there.
template <class Key, class Compare>
__global__ void evaluate_candidates_kernel(const Key* a_keys, const Key* b_keys, int count,
                                           int* truth, Compare cmp) {
  const int t = static_cast<int>(threadIdx.x);
  if (t < count) truth[t] = cmp(b_keys[t], a_keys[t]) ? 1 : 0;
}

// Scratch of the pivot on one device: the result, one round's a and b candidates and their
// predicates.
template <class Key>
struct candidate_scratch {
  std::int64_t pivot;
  Key a[pivot_candidates];
  Key b[pivot_candidates];
  int truth[pivot_candidates];
};

// Candidate keys of one round that a rank holds: local positions and where they go in the
// round's staging array.
struct candidate_gather {
  int count = 0;
  std::int64_t local[2 * pivot_candidates];
  int slot[2 * pivot_candidates];
};

// Where candidate t of run a and of run b lie in the staging array.
struct candidate_map {
  int count = 0;
  int a[pivot_candidates];
  int b[pivot_candidates];
};

// Who sends which candidate keys in one round of the NCCL pivot. Slot 2t is candidate t of
// run a (global position a_begin + positions[t]), slot 2t + 1 its mirror in run b (global
// middle + a_count - 1 - positions[t]). The round's staging array holds the slots grouped
// by owner rank (ascending), each owner's in slot order: owner q's pack is
// staging[first[q], first[q] + owned[q]), which q gathers from its shard and sends to every
// other rank of the group, and every rank receives at the same place.
struct candidate_exchange {
  std::vector<int> owned, first;  // per rank: slots held, start of its pack
  candidate_gather gather;        // this rank's slots: local positions -> staging
  candidate_map map;              // staging index of every candidate of a and of b
};

inline candidate_exchange plan_candidate_exchange(const shard_layout& layout,
                                                  const candidate_round& r, std::int64_t a_begin,
                                                  std::int64_t middle, int rank) {
  const int ranks = layout.shards();
  const std::int64_t a_count = middle - a_begin;
  const int slots = 2 * r.count;
  candidate_exchange x;
  x.owned.assign(static_cast<std::size_t>(ranks), 0);
  int owner[2 * pivot_candidates];
  std::int64_t position[2 * pivot_candidates];
  for (int t = 0; t < r.count; ++t) {
    position[2 * t] = a_begin + r.positions[t];
    position[2 * t + 1] = middle + a_count - 1 - r.positions[t];
  }
  for (int s = 0; s < slots; ++s) ++x.owned[owner[s] = layout.shard_of(position[s])];
  x.first.assign(static_cast<std::size_t>(ranks) + 1, 0);
  for (int q = 0; q < ranks; ++q) x.first[q + 1] = x.first[q] + x.owned[q];
  std::vector<int> next(x.first.begin(), x.first.end() - 1);
  x.map.count = r.count;
  for (int s = 0; s < slots; ++s) {
    const int index = next[owner[s]]++;
    (s % 2 == 0 ? x.map.a : x.map.b)[s / 2] = index;
    if (owner[s] == rank) {
      x.gather.local[x.gather.count] = position[s] - layout.begin(rank);
      x.gather.slot[x.gather.count++] = index;
    }
  }
  return x;
}

}  // namespace detail
}  // namespace gpusort
