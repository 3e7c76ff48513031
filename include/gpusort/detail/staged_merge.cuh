// gpusort/detail/staged_merge.cuh — a block merges pieces of sorted runs that it staged in
// shared memory, each thread ITEMS outputs through a bitonic merge network in registers (keys
// alone) or a serial merge (items with values).
//
// The inner loop of policy::merge's passes (Satish et al., GPU merge sort, step 2): merge
// path splits a staged pair of pieces again so that each thread owns a job of at most ITEMS
// consecutive outputs; the thread's piece of a (ascending) and of b (reversed) form a
// bitonic sequence that an ITEMS-wide half-cleaner network sorts (the paper's 16-wide
// networks; one per thread instead of two per warp, because on today's GPUs a shuffle costs
// several register compare-exchanges). Ties are broken by rank, a first, so the merge is
// stable; items with values merge serially instead, ties to a. The result is written back
// over the pair's own slots, so the two-way pass merges one pair in place and the four-way
// pass (detail/multiway_merge.cuh) merges two pairs and then their results without another
// buffer.
#pragma once

#include <gpusort/block/tile_io.cuh>
#include <gpusort/detail/no_value.cuh>
#include <gpusort/detail/ranked.cuh>
#include <gpusort/thread/merge_path.cuh>
#include <gpusort/thread/sorting_network.cuh>

#include <cstdint>
#include <type_traits>

namespace gpusort {
namespace detail {

// What the networks sort: keys, or keys with their ranks (rank_codec) where ties need them.
template <bool RANKED, class Key, class Compare>
using merge_network_item = std::conditional_t<RANKED, typename rank_codec<Key, Compare>::item, Key>;

// Shared memory of a block's staged merges: the staged keys and values, and where each
// thread's job starts in its run a.
template <int THREADS, int ITEMS, class Key, class Value>
struct staged_merge_storage {
  block::tile_buffer<THREADS, ITEMS, Key> keys;
  block::tile_buffer<THREADS, ITEMS, Value> values;
  int job_splits[THREADS];
};

// Coalesced copy of `count` items into shared memory at `at`.
template <int THREADS, class T, class Buffer>
__device__ __forceinline__ void stage(const T* in, int count, Buffer& buffer, int at) {
  if constexpr (has_values<T>) {
    for (int i = threadIdx.x; i < count; i += THREADS) buffer[at + i] = in[i];
  }
}

// Coalesced copy of a[0, a_count) and then b[0, count - a_count) into shared memory [0,
// count), count <= THREADS * ITEMS: one loop over both pieces, unrolled so that each thread
// has several loads in flight.
template <int THREADS, int ITEMS, class T, class Buffer>
__device__ __forceinline__ void stage_both(const T* a, int a_count, const T* b, int count,
                                           Buffer& buffer) {
  if constexpr (has_values<T>) {
#pragma unroll 4
    for (int s = 0; s < ITEMS; ++s) {
      const int i = s * THREADS + static_cast<int>(threadIdx.x);
      if (i < count) buffer[i] = i < a_count ? a[i] : b[i - a_count];
    }
  }
}

// A merge tile's two pieces, a's then b's, keys and values, into shared memory [0, count).
// Items of 8 bytes or more load both pieces in one unrolled loop: whole sorts of u32:u32
// pairs 3-11 % faster, of u64 keys 3-5 % up to 2^24. Smaller items keep one plain loop per
// piece: for u32 keys the unrolled loop cost registers and 3-11 % (H200, bench/RESULTS.md
// run 73).
template <int THREADS, int ITEMS, class Key, class Value>
__device__ __forceinline__ void stage_pieces(const Key* a_keys, const Value* a_values,
                                             int a_count, const Key* b_keys,
                                             const Value* b_values, int count,
                                             staged_merge_storage<THREADS, ITEMS, Key, Value>& shared) {
  if constexpr (item_bytes_of<Key, Value> >= 8) {
    stage_both<THREADS, ITEMS>(a_keys, a_count, b_keys, count, shared.keys);
    stage_both<THREADS, ITEMS>(a_values, a_count, b_values, count, shared.values);
  } else {
    stage<THREADS>(a_keys, a_count, shared.keys, 0);
    stage<THREADS>(b_keys, count - a_count, shared.keys, a_count);
    stage<THREADS>(a_values, a_count, shared.values, 0);
    stage<THREADS>(b_values, count - a_count, shared.values, a_count);
  }
}

// Coalesced copy of the first `count` staged items (values alongside) to out[at, at + count):
// how a pass writes its merged tile. With values, the loop is unrolled so that the stores of
// several items issue together.
template <int THREADS, int ITEMS, class Key, class Value>
__device__ __forceinline__ void write_staged(
    staged_merge_storage<THREADS, ITEMS, Key, Value>& shared, int count, Key* keys_out,
    Value* values_out, std::int64_t at) {
  if constexpr (has_values<Value>) {
    keys_out += at;
    values_out += at;
#pragma unroll 4
    for (int s = 0; s < ITEMS; ++s) {
      const int i = s * THREADS + static_cast<int>(threadIdx.x);
      if (i < count) {
        keys_out[i] = shared.keys[i];
        values_out[i] = shared.values[i];
      }
    }
  } else {
    for (int i = threadIdx.x; i < count; i += THREADS) keys_out[at + i] = shared.keys[i];
  }
}

// A staged pair: run a's piece at [at, at + a_count), run b's right after it.
struct staged_pair {
  int at, a_count, b_count;
};

// One thread's job: outputs [first, last) of its pair's merge (0 <= first <= last <=
// first + ITEMS). A job that does not end its pair is followed, at the next thread, by the
// job of the same pair that starts at `last`.
struct merge_job {
  staged_pair pair;
  int first, last;
  __device__ bool ends_pair() const { return last == pair.a_count + pair.b_count; }
};

// The whole block, every thread with its job (possibly empty): merges the jobs' pairs and
// writes each pair's result over the pair's slots. Slot 0 must hold a staged key (it pads
// empty jobs, whose results are not written). The caller synchronises before it reads the
// result or stages again.
template <int THREADS, int ITEMS, bool RANKED, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_staged(const merge_job job, Compare cmp,
                                             staged_merge_storage<THREADS, ITEMS, Key, Value>& shared) {
  auto& shared_keys = shared.keys;
  auto& shared_values = shared.values;
  struct shared_run {
    block::tile_buffer<THREADS, ITEMS, Key>* buffer;
    int at;
    __device__ const Key& operator[](int i) const { return (*buffer)[at + i]; }
  };
  const staged_pair pair = job.pair;
  const int a_at = pair.at, b_at = pair.at + pair.a_count;
  const shared_run a{&shared_keys, a_at}, b{&shared_keys, b_at};
  // Each thread finds where its job starts in a; where it ends is where the next job starts.
  shared.job_splits[threadIdx.x] =
      static_cast<int>(thread::merge_path(a, pair.a_count, b, pair.b_count, job.first, cmp));
  __syncthreads();
  const int a_first = shared.job_splits[threadIdx.x];
  const int b_first = job.first - a_first;
  const int taken_a =
      (job.ends_pair() ? pair.a_count : shared.job_splits[threadIdx.x + 1]) - a_first;
  const int taken_b = (job.last - job.first) - taken_a;

  const int out_at = pair.at + job.first;
  if constexpr (has_values<Value>) {
    // Items with values merge serially: one comparison an output, ties to a (stable without
    // ranks), each output's value read from the slot its key came from. The network needs a
    // rank on every key to find the values after it; this way whole pair sorts ran 2-10 %
    // faster (H200, bench/RESULTS.md run 71 §6), keys alone 2-6 % slower (§5), so they keep
    // the network.
    int ia = a_at + a_first, ib = b_at + b_first;
    const int a_end = ia + taken_a, b_end = ib + taken_b;
    Key ka = shared_keys[ia < a_end ? ia : 0];
    Key kb = shared_keys[ib < b_end ? ib : 0];
    Key keys[ITEMS];
    Value values[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const bool take_b = ib < b_end && (ia >= a_end || cmp(kb, ka));
      keys[r] = take_b ? kb : ka;
      values[r] = shared_values[r < taken_a + taken_b ? (take_b ? ib : ia) : 0];
      if (take_b) {
        ++ib;
        kb = shared_keys[ib < b_end ? ib : 0];
      } else {
        ++ia;
        ka = shared_keys[ia < a_end ? ia : 0];
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      if (r < taken_a + taken_b) {
        shared_keys[out_at + r] = keys[r];
        shared_values[out_at + r] = values[r];
      }
    }
  } else {
    // Slots between the two pieces (a job shorter than ITEMS) must sort last: with ranks they
    // are absent; without, they copy the largest item, identical to it (ties_are_identical).
    const Key& a_top = shared_keys[taken_a > 0 ? a_at + a_first + taken_a - 1 : 0];
    const Key& b_top = shared_keys[taken_b > 0 ? b_at + b_first + taken_b - 1 : 0];
    const Key padding = taken_a == 0 ? b_top : (taken_b == 0 || !cmp(a_top, b_top)) ? a_top : b_top;
    using codec = rank_codec<Key, Compare>;
    merge_network_item<RANKED, Key, Compare> items[ITEMS];
    no_value no_values[ITEMS];
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      const bool from_a = r < taken_a;
      const bool from_b = r >= ITEMS - taken_b;
      const int from = from_a ? a_at + a_first + r : b_at + b_first + (ITEMS - 1 - r);
      const Key key = from_a || from_b ? shared_keys[from] : padding;
      if constexpr (RANKED) {
        items[r] = codec::make(key, from_a ? r : from_b ? taken_a + (ITEMS - 1 - r) : absent_rank);
      } else {
        items[r] = key;
      }
    }
    if constexpr (RANKED) {
      thread::half_cleaner(items, no_values, codec::compare(cmp), ITEMS / 2);
    } else {
      thread::half_cleaner(items, no_values, cmp, ITEMS / 2);
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
      if (job.first + r < job.last) {
        if constexpr (RANKED) {
          shared_keys[out_at + r] = codec::key(items[r]);
        } else {
          shared_keys[out_at + r] = items[r];
        }
      }
    }
  }
}

}  // namespace detail
}  // namespace gpusort
