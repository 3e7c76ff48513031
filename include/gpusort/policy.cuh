// gpusort/policy.cuh — the policy types that select an algorithm and its tuning.
//
// Policies are aggregates; a field left at 0 means "use the tuned default".
#pragma once

#include <cstdint>

namespace gpusort {
namespace policy {

// Deterministic sample sort (Dehne & Zaboli). Not stable. Extra memory: one copy of the keys
// (and values) plus the m×s sample, rank and offset tables (about n·s/tile · (sizeof(Key) +
// 20) bytes) and the segment arrays. Invalid fields: cudaErrorInvalidValue before any work.
struct deterministic_sample {
  int samples_per_tile = 0;  // s: samples per tile = buckets per segment; 0 (tuned) or
                             // 4 <= s <= min(1024, tile); a plan that would need more than 8
                             // levels for n is refused too
  int tile_items = 0;        // items one block sorts in step 2: 0 (read off the device) or
                             // the tuned tile or half of it (16384 / 8192 for u32 keys);
                             // larger than the device's shared memory grants: refused
};

// Randomized sample sort (Leischner, Osipov & Sanders) with equality buckets. Not stable
// (but reproducible: the same seed gives the same result). Extra memory: one copy of the
// keys (and values) plus O(n/P·k + n/M) bytes of bucket tables and lists. buckets: 0 or a
// power of two in [256, 1024]; oversampling: 0 or 1 ... 4096/buckets (with buckets = 0:
// 1 ... 16, lowered to 4096/k where n takes a larger tuned k); else cudaErrorInvalidValue.
// Wide keys: cudaErrorInvalidValue beyond one block's segment where the sample and splitter
// tree would outgrow what a block may opt in to, which depends on the device and on k (H100:
// keys of 36 bytes and more at every k, 32-byte keys at k >= 512).
struct randomized_sample {
  int buckets = 0;       // k
  int oversampling = 0;  // samples drawn per splitter
  std::uint64_t seed = 0x5eed;
};

// GPU-Warpsort (Ye et al.). Not stable. Extra memory: one copy of the keys (and values)
// plus a few hundred kilobytes of step-3 tables.
struct warpsort {
  int merge_width = 0;  // t: items in a warp's merge buffer: 0 (tuned: 64 below 5 * 2^18
                        // items, 128 from there, 256 from 7 * 2^18; for 4-byte items 512
                        // from 2^22, 1024 from 3 * 2^22, 256 again from 2^25, where step 2
                        // merges four runs a pass; items of more than 24 bytes at
                        // most 128, of more than 48 bytes 64) or 64, 128, 256, and 512 or
                        // 1024 for 4-byte items; others, and widths whose warp buffer would
                        // not fit in 48 KB of shared memory (items of hundreds of bytes):
                        // cudaErrorInvalidValue
};

// Merge sort with bitonic merge networks (Satish et al.). Stable. Extra memory: one copy
// of the keys (and values) plus 8 bytes per merge tile.
struct merge {
  int network_width = 0;  // items a thread's merge network merges in the passes: 0 (tuned by size) or a width the items have
                          // (16 for 4- and 8-byte keys, and 32 for keys of up to 4 bytes; from
                          // 2^29 bytes the passes merge four runs at once in an item's widest width);
                          // other values: cudaErrorInvalidValue
};

// Chooses one of the policies above from the measurements in bench/RESULTS.md: for 1-, 2-, 4-
// and 8-byte keys without values whose equal keys are the same bits, warpsort (4 and 8 bytes)
// or randomized_sample from sizes measured per key size, merge below them and everywhere else
// (detail/automatic.cuh). Stable.
struct automatic {};

}  // namespace policy
}  // namespace gpusort
