// gpusort/policy.cuh — the policy types that select an algorithm and its tuning.
//
// Policies are aggregates; a field left at 0 means "use the tuned default".
#pragma once

#include <cstdint>

namespace gpusort {
namespace policy {

// Deterministic sample sort (Dehne & Zaboli). Not stable. Not built yet: its entry points
// return cudaErrorNotSupported.
struct deterministic_sample {
  int samples_per_tile = 0;  // s: splitters per tile, also the number of buckets
  int tile_items = 0;        // items one block sorts in step 2
};

// Randomized sample sort (Leischner, Osipov & Sanders). Not stable. Not built yet.
struct randomized_sample {
  int buckets = 0;       // k
  int oversampling = 0;  // samples drawn per splitter
  std::uint64_t seed = 0x5eed;
};

// GPU-Warpsort (Ye et al.). Not stable. Not built yet.
struct warpsort {
  int merge_width = 0;  // t: items a warp merges per step
};

// Merge sort with bitonic merge networks (Satish et al.). Stable. Extra memory: one copy
// of the keys (and values) plus 8 bytes per merge tile.
struct merge {
  int network_width = 0;  // items one thread's merge network merges: 0 or the tuned width
                          // (16 for 4- and 8-byte keys); other values: cudaErrorInvalidValue
};

// Chooses one of the built policies from the measurements in bench/RESULTS.md (today:
// merge, the only one built).
struct automatic {};

}  // namespace policy
}  // namespace gpusort
