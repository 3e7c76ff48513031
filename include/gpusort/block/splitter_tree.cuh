// gpusort/block/splitter_tree.cuh — bucket lookup through k-1 splitters kept as an implicit
// binary search tree, with optional equality buckets
// (Leischner, Osipov & Sanders, GPU sample sort: phase 2, "computing element bucket indices").
//
// The k-1 sorted splitters s[0] <= ... <= s[k-2] (k = 2^LOG_BUCKETS) are stored in heap
// (Eytzinger) order: node 1 is the median s[k/2 - 1], node j has children 2j and 2j+1,
// node 0 is unused. find_bucket walks LOG_BUCKETS levels with j = 2j + cmp(node[j], key):
// no branch, the loop fully unrolled, so every thread of a warp runs the same instructions
// whatever its key (the paper's predicated traversal). It returns
//   bucket b in [0, k) = the number of splitters that order before key (a lower bound),
// so bucket b holds the keys with s[b-1] < key <= s[b] (s[-1] = -inf, s[k-1] = +inf), and
// the buckets in index order are in sorted order. Repeated splitters are allowed: all keys
// equal to a repeated value v land in the first bucket whose splitter is v, the buckets of
// the repeats stay empty.
//
// Equality buckets — the paper's remedy for inputs with few distinct keys, where one value
// can fill a whole bucket that recursion would then never shrink. find_bucket_with_equality
// makes one more comparison, against the splitter s[b] that bounds the key's bucket from
// above, and returns one of 2k-1 buckets, still in sorted order:
//   bucket 2b     (b in [0, k))  : keys with s[b-1] < key < s[b]   — sort further;
//   bucket 2b + 1 (b in [0, k-1)): keys equivalent to s[b]         — all equal, done.
// Every key equal to any splitter therefore goes to an odd bucket that needs no recursion;
// a value repeated among the splitters (the sign that it is frequent) gets exactly one
// non-empty equality bucket, 2b+1 for the first b with s[b] equal to it. Since the
// splitters are drawn from the input, a recursion on an even bucket sees only values that
// no splitter took; should such a bucket hold a single value after all, the recursion on it
// draws every splitter equal to that value and sends all its keys to equality bucket 1: one
// more pass, never an endless recursion. Without repeated splitters (has_repeated_splitters
// false, the common case for random samples of many distinct keys) the equality buckets
// would hold single keys: find_buckets_with_equality can then leave them empty and skip the
// extra comparison, keeping the 2k-1 bucket numbering.
//
// find_buckets / find_buckets_with_equality look up a thread's N keys together, level by
// level, so that their reads overlap: use them wherever a thread holds several keys.
//
// Preconditions: `build` / `load` get k-1 splitters sorted under the same `cmp` that
// find_bucket uses; Key is trivially copyable and default-constructible (the tree lives in
// __shared__ memory). Storage: k keys. Cost: LOG_BUCKETS comparisons per key (+1 with
// equality buckets), reads of shared memory that are broadcasts at the top levels.
#pragma once

#include <cstdint>

namespace gpusort {
namespace detail {

__host__ __device__ inline int floor_log2(unsigned x) {
#ifdef __CUDA_ARCH__
  return 31 - __clz(x);
#else
  int r = 0;
  while (x >>= 1) ++r;
  return r;
#endif
}

__host__ __device__ inline int count_trailing_zeros(unsigned x) {  // x != 0
#ifdef __CUDA_ARCH__
  return __ffs(x) - 1;
#else
  int r = 0;
  while ((x & 1u) == 0) {
    x >>= 1;
    ++r;
  }
  return r;
#endif
}

// Sorted index held by heap node j (1 <= j < 2^levels) of a complete tree of 2^levels - 1
// nodes: node j at depth d is the i-th of its level (i = j - 2^d), and in sorted order the
// nodes of depth d sit at the odd multiples of 2^(levels-1-d), counting from 1.
__host__ __device__ inline int eytzinger_to_sorted(int j, int levels) {
  const int depth = floor_log2(static_cast<unsigned>(j));
  const int i = j - (1 << depth);
  return ((2 * i + 1) << (levels - 1 - depth)) - 1;
}

// The inverse: the heap node of sorted index r (0 <= r < 2^levels - 1). For r = 2^levels - 1
// (the last bucket, which has no upper splitter) it returns node 1, a valid slot, so callers
// can read it unconditionally and discard the result.
__host__ __device__ inline int sorted_to_eytzinger(int r, int levels) {
  const int t = r + 1;
  return ((1 << levels) + t) >> (count_trailing_zeros(static_cast<unsigned>(t)) + 1);
}

}  // namespace detail

namespace block {

template <class Key, int LOG_BUCKETS>
struct splitter_tree {
  static_assert(LOG_BUCKETS >= 1 && LOG_BUCKETS <= 16,
                "between 2 and 65536 buckets (the tree is held in shared memory)");
  static constexpr int levels = LOG_BUCKETS;
  static constexpr int buckets = 1 << LOG_BUCKETS;               // k, find_bucket's range
  static constexpr int splitters = buckets - 1;                  // k - 1
  static constexpr int buckets_with_equality = 2 * buckets - 1;  // find_bucket_with_equality's

  Key nodes[buckets];  // heap order in nodes[1, k); nodes[0] unused so children are 2j, 2j+1

  // One thread (host or device).
  __host__ __device__ void build(const Key* sorted_splitters) {
    for (int j = 1; j < buckets; ++j) {
      nodes[j] = sorted_splitters[detail::eytzinger_to_sorted(j, levels)];
    }
  }

  // The whole block, into a tree in shared memory; the tree is visible to the block on return.
  template <int THREADS>
  __device__ void load(const Key* sorted_splitters) {
    for (int j = 1 + threadIdx.x; j < buckets; j += THREADS) {
      nodes[j] = sorted_splitters[detail::eytzinger_to_sorted(j, levels)];
    }
    __syncthreads();
  }

  // Splitter s[r] in sorted order, 0 <= r < k-1.
  __host__ __device__ const Key& splitter(int r) const {
    return nodes[detail::sorted_to_eytzinger(r, levels)];
  }

  // Bucket in [0, k): the number of splitters s with cmp(s, key).
  template <class Compare>
  __host__ __device__ __forceinline__ int find_bucket(const Key& key, Compare cmp) const {
    const Key keys[1] = {key};
    int bucket[1];
    find_buckets(keys, bucket, cmp);
    return bucket[0];
  }

  // find_bucket of N keys at once (a thread's items), walking the tree level by level for
  // all of them: the N reads of a level are independent and overlap, where N lookups one
  // after another would each wait out LOG_BUCKETS dependent shared-memory reads (the
  // randomized sample sort's scatter spent half its time so, H100: bench/RESULTS.md run 16).
  template <int N, class Compare>
  __host__ __device__ __forceinline__ void find_buckets(const Key (&keys)[N], int (&bucket)[N],
                                                        Compare cmp) const {
    int j[N];
#pragma unroll
    for (int r = 0; r < N; ++r) j[r] = 1;
#pragma unroll
    for (int level = 0; level < levels; ++level) {
#pragma unroll
      for (int r = 0; r < N; ++r) j[r] = 2 * j[r] + (cmp(nodes[j[r]], keys[r]) ? 1 : 0);
    }
#pragma unroll
    for (int r = 0; r < N; ++r) bucket[r] = j[r] - buckets;
  }

  // Bucket in [0, 2k-1): 2b for keys strictly between s[b-1] and s[b], 2b+1 for keys
  // equivalent to s[b].
  template <class Compare>
  __host__ __device__ __forceinline__ int find_bucket_with_equality(const Key& key,
                                                                    Compare cmp) const {
    const Key keys[1] = {key};
    int bucket[1];
    find_buckets_with_equality(keys, bucket, cmp);
    return bucket[0];
  }

  // find_bucket_with_equality of N keys at once, level by level as find_buckets.
  // `repeated` = has_repeated_splitters(); when false, the equality buckets are left empty
  // and a key equivalent to s[b] stays in bucket 2b, which skips the extra comparison and
  // its shared-memory read. Still in sorted order, and recursion still shrinks every bucket:
  // with k-1 distinct splitters drawn from the input, no bucket holds all its keys (bucket 2b
  // lacks the keys equal to s[b-1] or, for b = 0, to s[1]).
  template <int N, class Compare>
  __host__ __device__ __forceinline__ void find_buckets_with_equality(const Key (&keys)[N],
                                                                      int (&bucket)[N],
                                                                      Compare cmp,
                                                                      bool repeated = true) const {
    find_buckets(keys, bucket, cmp);
    if (!repeated) {
#pragma unroll
      for (int r = 0; r < N; ++r) bucket[r] *= 2;
      return;
    }
#pragma unroll
    for (int r = 0; r < N; ++r) {
      const int b = bucket[r];
      // Read unconditionally (node 1 when b = k-1) so the warp does not diverge.
      const bool not_below = !cmp(keys[r], nodes[detail::sorted_to_eytzinger(b, levels)]);
      bucket[r] = 2 * b + ((b < splitters && not_below) ? 1 : 0);
    }
  }

  __host__ __device__ static constexpr bool is_equality_bucket(int bucket_with_equality) {
    return (bucket_with_equality & 1) != 0;
  }

  // True when two neighbouring splitters are equivalent: a frequent key, equality buckets pay.
  template <class Compare>
  __host__ __device__ bool has_repeated_splitters(Compare cmp) const {
    for (int r = 1; r < splitters; ++r) {
      if (!cmp(splitter(r - 1), splitter(r))) return true;
    }
    return false;
  }

  // has_repeated_splitters for the whole block, each thread comparing a few neighbours; the
  // tree must be visible to the block (after load), and every thread gets the answer.
  template <int THREADS, class Compare>
  __device__ bool block_has_repeated_splitters(Compare cmp) const {
    bool repeated = false;
    for (int r = 1 + threadIdx.x; r < splitters; r += THREADS)
      repeated |= !cmp(splitter(r - 1), splitter(r));
    return __syncthreads_or(repeated) != 0;
  }
};

}  // namespace block
}  // namespace gpusort
