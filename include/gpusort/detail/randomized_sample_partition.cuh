// gpusort/detail/randomized_sample_partition.cuh — phases 2 and 4 of a level of
// policy::randomized_sample (Leischner, Osipov & Sanders: each thread block's bucket sizes,
// then, after the prefix sum over the table, its items placed at their final positions),
// whole-block building blocks that the level's kernels call on their tiles and chunks.
//
// Keys find their bucket in the splitter tree with equality buckets (block::splitter_tree).
// The scatter stages a chunk by bucket in shared memory (rs_partition_storage) and writes
// each bucket's run coalesced: ranked (a stable place per item: needs_ranks) or order-free
// (keys alone whose ties are the same bits).
#pragma once

#include <gpusort/block/splitter_tree.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/padded_buffer.cuh>
#include <gpusort/detail/ranked.cuh>

#include <cub/block/block_scan.cuh>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpusort {
namespace detail {

// A scatter block's chunk of CHUNK items staged by bucket. RANKED: needs_ranks of the sort
// (the order-free scatter keeps no counts per warp).
template <class Key, class Value, int THREADS, int CHUNK, int LOG_K, bool RANKED>
struct rs_partition_storage {
  static constexpr int nb = (1 << (LOG_K + 1)) - 1;  // 2k-1 buckets with equality
  static constexpr int warps = THREADS / 32;
  Key keys[CHUNK];
  padded_buffer<Value, CHUNK> values;
  unsigned short ids[CHUNK];
  // The ranked scatter's counts per warp and bucket, + a column for the chunk's absent slots;
  // also seen as words of two neighbouring columns, and as 16-byte vectors, so that a row
  // is cleared and the columns summed with a half or less of the shared-memory accesses.
  // With the chunk advanced in one sweep (rs_advance_chunk), H100 (run 48): u32:u32 0.6-2.0 %
  // faster from 2^22 to 2^28, u64:u64 1.4-1.6 %, f32:u32 1.3 %.
  // Those views read a member other than the one last written. Every access names the
  // union's member (no pointer cast), the punning GNU C++ defines; cub::BlockRadixRank sums
  // its 16-bit digit counters as packed words through a union the same way.
  static constexpr int count_columns = nb + 1;
  static_assert(count_columns % 8 == 0, "a row of counts is a whole number of 16-byte vectors");
  union {
    unsigned short warp_counts[RANKED ? warps : 1][count_columns];
    unsigned warp_count_pairs[RANKED ? warps : 1][count_columns / 2];
    uint4 warp_count_vectors[RANKED ? warps : 1][count_columns / 8];
    std::int64_t chunk_base[nb + 1];  // order-free scatter: base - start
  };
  int total[nb + 1];
  int start[nb + 1];
  std::int64_t base[nb + 1];
  typename cub::BlockScan<int, THREADS>::TempStorage scan;
};

// Exclusive sum over the NB+1 bucket entries `in` (int) into `out`, whole block.
template <int THREADS, int NB, class Out>
__device__ __forceinline__ void rs_scan_buckets(const int* in, Out* out,
                                                typename cub::BlockScan<int, THREADS>::TempStorage& temp) {
  constexpr int per_thread = (NB + 1 + THREADS - 1) / THREADS;
  int v[per_thread];
#pragma unroll
  for (int r = 0; r < per_thread; ++r) {
    const int j = static_cast<int>(threadIdx.x) * per_thread + r;
    v[r] = j <= NB ? in[j] : 0;
  }
  cub::BlockScan<int, THREADS>(temp).ExclusiveSum(v, v);
#pragma unroll
  for (int r = 0; r < per_thread; ++r) {
    const int j = static_cast<int>(threadIdx.x) * per_thread + r;
    if (j <= NB) out[j] = static_cast<Out>(v[r]);
  }
  __syncthreads();
}

// Adds the bucket counts of one chunk, keys[0, valid), to `hist`; RAGGED: valid may be less
// than the chunk (the segment's last), else every index is in range and needs no check.
template <int THREADS, int ITEMS, bool RAGGED, int LOG_K, class Key, class Compare>
__device__ __forceinline__ void rs_histogram_chunk(const Key* keys, int valid,
                                                   const block::splitter_tree<Key, LOG_K>& tree,
                                                   bool repeated, int* hist, Compare cmp) {
  Key items[ITEMS];
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) {
    const int i = r * THREADS + static_cast<int>(threadIdx.x);
    items[r] = keys[RAGGED && i >= valid ? 0 : i];
  }
  int bucket[ITEMS];
  tree.find_buckets_with_equality(items, bucket, cmp, repeated);
#pragma unroll
  for (int r = 0; r < ITEMS; ++r)
    if (!RAGGED || r * THREADS + static_cast<int>(threadIdx.x) < valid) atomicAdd(&hist[bucket[r]], 1);
}

// Adds the bucket counts of keys[0, count) to `hist` (shared, NB+1 entries). repeated: the
// tree's block_has_repeated_splitters.
template <int THREADS, int ITEMS, int LOG_K, class Key, class Compare>
__device__ __forceinline__ void rs_histogram(const Key* keys, std::int64_t count,
                                             const block::splitter_tree<Key, LOG_K>& tree,
                                             bool repeated, int* hist, Compare cmp) {
  constexpr int chunk = THREADS * ITEMS;
  std::int64_t offset = 0;
  for (; count - offset >= chunk; offset += chunk)
    rs_histogram_chunk<THREADS, ITEMS, false>(keys + offset, chunk, tree, repeated, hist, cmp);
  if (offset < count)
    rs_histogram_chunk<THREADS, ITEMS, true>(keys + offset, static_cast<int>(count - offset), tree,
                                             repeated, hist, cmp);
}

// Order-free ranking (keys alone whose ties are the same bits, so the order inside a bucket
// cannot show in the sorted result), the whole block: rank[r] is item r's place among the
// chunk's items of bucket[r], taken with a shared atomicAdd on that bucket's count in s.total
// (zero on entry; the absent column nb is not counted). Warps keep no counters of their own,
// and there is no __match_any_sync: warp-aggregated atomics (match, then one atomicAdd per
// bucket and warp) measured 4 % slower than the ordered ranks on 2^24 u32 keys, one
// atomicAdd per item 13 % faster. A warp whose items all fall in one bucket (sorted runs,
// equal keys) takes its places with one atomicAdd instead of queueing 32 on one address.
template <int ITEMS, class Storage>
__device__ __forceinline__ void rs_rank_order_free(const int (&bucket)[ITEMS], int (&rank)[ITEMS],
                                                   Storage& s) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int lead = __shfl_sync(0xffffffffu, bucket[0], 0);
  bool same = true;
#pragma unroll
  for (int r = 0; r < ITEMS; ++r) same &= bucket[r] == lead;
  if (__all_sync(0xffffffffu, same)) {
    int first = 0;
    if (lane == 0 && lead < Storage::nb) first = atomicAdd(&s.total[lead], 32 * ITEMS);
    first = __shfl_sync(0xffffffffu, first, 0);
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) rank[r] = first + r * 32 + lane;
    return;
  }
#pragma unroll
  for (int r = 0; r < ITEMS; ++r)
    rank[r] = bucket[r] < Storage::nb ? atomicAdd(&s.total[bucket[r]], 1) : 0;
}

// From the chunk's bucket counts (s.total): its bucket starts (s.start, and s.start[nb] =
// the items it places) and the bases advanced past the chunk, in one sweep over the
// columns. Slot i of bucket b of the staged chunk then goes to s.base[b] - s.start[b + 1] + i.
// ORDER_FREE: the scatter that holds no counts per warp keeps that base in s.chunk_base,
// and its counts are zeroed for the next chunk (its ranks add to them; the ranked scatter
// writes every count afresh). The whole block.
template <int THREADS, bool ORDER_FREE, class Storage>
__device__ __forceinline__ void rs_advance_chunk(Storage& s) {
  constexpr int nb = Storage::nb;
  constexpr int per_thread = (nb + 1 + THREADS - 1) / THREADS;
  int count[per_thread], start[per_thread];
#pragma unroll
  for (int r = 0; r < per_thread; ++r) {
    const int j = static_cast<int>(threadIdx.x) * per_thread + r;
    count[r] = j < nb ? s.total[j] : 0;
  }
  cub::BlockScan<int, THREADS>(s.scan).ExclusiveSum(count, start);
#pragma unroll
  for (int r = 0; r < per_thread; ++r) {
    const int j = static_cast<int>(threadIdx.x) * per_thread + r;
    if (j < nb) {
      s.start[j] = start[r];
      if constexpr (ORDER_FREE) {
        s.chunk_base[j] = s.base[j] - start[r];
        s.total[j] = 0;
      }
      s.base[j] += count[r];
    } else if (j == nb) {
      s.start[j] = start[r];
    }
  }
  __syncthreads();
}

// The end of a scatter chunk: the items staged by bucket in s.keys / s.values (s.ids[i]:
// the bucket of slot i) go to the output, slot i to to(bucket, i).
template <int THREADS, class Storage, class Key, class Value, class Destination>
__device__ __forceinline__ void rs_write_staged(Storage& s, int valid, Key* keys_out,
                                                Value* values_out, Destination to) {
  for (int i = threadIdx.x; i < valid; i += THREADS) {
    const std::int64_t at = to(s.ids[i], i);
    keys_out[at] = s.keys[i];
    if constexpr (has_values<Value>) values_out[at] = s.values[i];
  }
}

// The slot in a scatter load of a thread's r-th item: a warp's ITEMS rows of 32 consecutive
// items, so that every load is coalesced.
template <int ITEMS>
__device__ __forceinline__ int rs_load_slot(int r) {
  return (static_cast<int>(threadIdx.x) / 32 * ITEMS + r) * 32 + static_cast<int>(threadIdx.x) % 32;
}

// The order-free scatter (keys alone whose ties are identical; rs_scatter says what it
// does). A chunk is ROUNDS loads of ITEMS keys a thread, each classified and ranked as it
// arrives, its keys and its (bucket, rank) words held in registers until the chunk's scan:
// a chunk larger than one load makes each bucket's run of output longer, so that its
// writes leave fewer sectors partly written.
template <int THREADS, int ITEMS, int ROUNDS, int LOG_K, class Key, class Compare>
__device__ void rs_scatter_order_free(
    const Key* keys, std::int64_t count, Key* keys_out, const block::splitter_tree<Key, LOG_K>& tree,
    bool repeated, rs_partition_storage<Key, no_value, THREADS, THREADS * ITEMS * ROUNDS, LOG_K, false>& s,
    Compare cmp) {
  constexpr int nb = (1 << (LOG_K + 1)) - 1;
  constexpr int load = THREADS * ITEMS;
  constexpr int chunk = load * ROUNDS;
  static_assert(chunk <= 0xffff && nb <= 0xffff, "a bucket and a rank share a word");
  for (int j = threadIdx.x; j <= nb; j += THREADS) s.total[j] = 0;
  __syncthreads();
  for (std::int64_t offset = 0; offset < count; offset += chunk) {
    const int valid = static_cast<int>(count - offset < chunk ? count - offset : chunk);
    const bool ragged = valid < chunk;  // only a segment's last chunk: the others load unchecked
    Key items[ROUNDS][ITEMS];
    unsigned placed[ROUNDS][ITEMS];  // bucket << 16 | rank among the chunk's items of that bucket
#pragma unroll
    for (int round = 0; round < ROUNDS; ++round) {
      const int first = round * load;
      if (ragged) {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
          const int i = first + rs_load_slot<ITEMS>(r);
          items[round][r] = keys[offset + (i < valid ? i : 0)];
        }
      } else {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) items[round][r] = keys[offset + first + rs_load_slot<ITEMS>(r)];
      }
      int bucket[ITEMS], rank[ITEMS];
      tree.find_buckets_with_equality(items[round], bucket, cmp, repeated);
      if (ragged) {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r)
          if (first + rs_load_slot<ITEMS>(r) >= valid) bucket[r] = nb;
      }
      rs_rank_order_free(bucket, rank, s);
#pragma unroll
      for (int r = 0; r < ITEMS; ++r)
        placed[round][r] = static_cast<unsigned>(bucket[r]) << 16 | static_cast<unsigned>(rank[r]);
    }
    __syncthreads();
    rs_advance_chunk<THREADS, true>(s);
#pragma unroll
    for (int round = 0; round < ROUNDS; ++round) {
#pragma unroll
      for (int r = 0; r < ITEMS; ++r) {
        const int b = static_cast<int>(placed[round][r] >> 16);
        if (b < nb) {
          const int slot = s.start[b] + static_cast<int>(placed[round][r] & 0xffffu);
          s.keys[slot] = items[round][r];
          s.ids[slot] = static_cast<unsigned short>(b);
        }
      }
    }
    __syncthreads();
    // The next chunk's first barrier comes before anything read here is rewritten.
    rs_write_staged<THREADS>(s, valid, keys_out, static_cast<no_value*>(nullptr),
                             [&s](int b, int i) { return s.chunk_base[b] + i; });
  }
}

// Scatters keys[0, count) (values alongside) to out + base[b] + (rank in bucket b), and
// advances base[b] past them: chunk by chunk, staged by bucket in shared memory so that the
// writes to each bucket are contiguous. The items of one bucket keep their input order within
// a chunk (ranks per warp by __match_any_sync, then per bucket over the warps: the same input
// gives the same output order), except where that order cannot be seen
// (rs_scatter_order_free: ranks by shared atomics, two column sweeps fewer per chunk).
// ROUNDS: loads a chunk, order-free only.
template <int THREADS, int ITEMS, int ROUNDS, int LOG_K, class Key, class Value, class Compare>
__device__ void rs_scatter(const Key* keys, const Value* values, std::int64_t count, Key* keys_out,
                           Value* values_out, const block::splitter_tree<Key, LOG_K>& tree,
                           bool repeated,
                           rs_partition_storage<Key, Value, THREADS, THREADS * ITEMS * ROUNDS, LOG_K,
                                                needs_ranks<Key, Value, Compare>>& s,
                           Compare cmp) {
  if constexpr (!needs_ranks<Key, Value, Compare>) {
    rs_scatter_order_free<THREADS, ITEMS, ROUNDS>(keys, count, keys_out, tree, repeated, s, cmp);
  } else {
    static_assert(ROUNDS == 1, "ranks in input order: one load a chunk");
    constexpr int nb = (1 << (LOG_K + 1)) - 1;
    constexpr int warps = THREADS / 32;
    constexpr int chunk = THREADS * ITEMS;
    static_assert(chunk <= 0xffff, "a column's count fits half a word");
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const unsigned lanes_below = (1u << lane) - 1u;
    for (std::int64_t offset = 0; offset < count; offset += chunk) {
      const int valid = static_cast<int>(count - offset < chunk ? count - offset : chunk);
      for (int j = lane; j < s.count_columns / 8; j += 32) s.warp_count_vectors[warp][j] = uint4{0, 0, 0, 0};
      __syncwarp();
      Key items[ITEMS];
      Value item_values[ITEMS];
      int bucket[ITEMS];
      int rank[ITEMS];
      // A whole chunk (all but a segment's last) loads without bounds checks.
      const bool ragged = valid < chunk;
      if (ragged) {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
          const int i = rs_load_slot<ITEMS>(r);
          items[r] = keys[offset + (i < valid ? i : 0)];
          if constexpr (has_values<Value>) item_values[r] = values[offset + (i < valid ? i : 0)];
        }
      } else {
        const std::int64_t first = offset + warp * ITEMS * 32 + lane;
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
          items[r] = keys[first + r * 32];
          if constexpr (has_values<Value>) item_values[r] = values[first + r * 32];
        }
      }
      tree.find_buckets_with_equality(items, bucket, cmp, repeated);  // slots past `valid` hold key 0
      if (ragged) {
#pragma unroll
        for (int r = 0; r < ITEMS; ++r)
          if (rs_load_slot<ITEMS>(r) >= valid) bucket[r] = nb;
      }
#pragma unroll
      for (int r = 0; r < ITEMS; ++r) {
        const unsigned peers = __match_any_sync(0xffffffffu, bucket[r]);
        const int before = s.warp_counts[warp][bucket[r]];
        __syncwarp();
        if ((peers & lanes_below) == 0) s.warp_counts[warp][bucket[r]] = static_cast<unsigned short>(before + __popc(peers));
        __syncwarp();
        rank[r] = before + __popc(peers & lanes_below);
      }
      __syncthreads();
      // Two columns a word: a column's sum is at most the chunk (< 2^16), so the low half
      // never carries into the high one.
      for (int p = threadIdx.x; p < s.count_columns / 2; p += THREADS) {
        unsigned run = 0;
#pragma unroll
        for (int w = 0; w < warps; ++w) {
          const unsigned t = s.warp_count_pairs[w][p];
          s.warp_count_pairs[w][p] = run;
          run += t;
        }
        s.total[2 * p] = static_cast<int>(run & 0xffffu);
        s.total[2 * p + 1] = 2 * p + 1 < nb ? static_cast<int>(run >> 16) : 0;
      }
      __syncthreads();
      rs_advance_chunk<THREADS, false>(s);
#pragma unroll
      for (int r = 0; r < ITEMS; ++r)
        if (bucket[r] < nb) rank[r] += s.warp_counts[warp][bucket[r]];
#pragma unroll
      for (int r = 0; r < ITEMS; ++r) {
        if (bucket[r] < nb) {
          const int slot = s.start[bucket[r]] + rank[r];
          s.keys[slot] = items[r];
          s.values[slot] = item_values[r];
          s.ids[slot] = static_cast<unsigned short>(bucket[r]);
        }
      }
      __syncthreads();
      // The next chunk's first barrier comes before anything read here is rewritten.
      rs_write_staged<THREADS>(s, valid, keys_out, values_out,
                               [&s](int b, int i) { return s.base[b] - s.start[b + 1] + i; });
    }
    __syncthreads();  // the caller may set the next tile's bases
  }
}

}  // namespace detail
}  // namespace gpusort
