// CUB baselines and the bandwidth ceiling (DESIGN.md §5): cub::DeviceRadixSort and
// cub::DeviceMergeSort on uniform u32, u64, u32:u32 pairs and 16-byte keys (radix through a
// decomposer), at n = 2^20, 2^24, 2^28 (2^27 for key16), and device-to-device copies of the
// same byte counts. Every other benchmark binary can register the same baselines
// (gpusort_bench::cub_baseline::register_baselines) to report ratios.
#include "common/harness.cuh"

#include <algorithm>
#include <cstdint>
#include <set>

using namespace gpusort_bench;

int main(int argc, char** argv) {
  return run_main(argc, argv, [] {
    constexpr int largest_key16_log2 = 27;  // the 16-byte case stops at 2^27, as in DESIGN.md §5
    std::set<std::size_t> copy_bytes;
    for (int e : {20, 24, 28}) {
      const std::int64_t n = std::int64_t(1) << e;
      const std::int64_t n16 = std::int64_t(1) << std::min(e, largest_key16_log2);
      cub_baseline::register_baselines<std::uint32_t>(n, distribution::uniform);
      cub_baseline::register_baselines<std::uint64_t>(n, distribution::uniform);
      cub_baseline::register_baselines<std::uint32_t, std::uint32_t>(n, distribution::uniform);
      cub_baseline::register_baselines<key16, void, gpusort_test::key16_less>(
          n16, distribution::uniform);
      // The copy ceiling for each array size above (bytes of one key array / pair array).
      copy_bytes.insert(static_cast<std::size_t>(n) * sizeof(std::uint32_t));
      copy_bytes.insert(static_cast<std::size_t>(n) * sizeof(std::uint64_t));
      copy_bytes.insert(static_cast<std::size_t>(n16) * sizeof(key16));
    }
    for (std::size_t bytes : copy_bytes) register_copy(bytes);
  });
}
