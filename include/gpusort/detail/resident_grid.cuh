// gpusort/detail/resident_grid.cuh — a grid of as many blocks of one kernel as the current
// device holds at once, capped by the work there is.
//
// Persistent kernels loop over a device-side work list (one block per item would launch
// blocks only to return), and a grid-wide barrier needs every block resident; both size
// their grid this way.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace gpusort {
namespace detail {

// blocks = min(work, resident blocks of `kernel` at `threads` threads and `shared_bytes` of
// dynamic shared memory), at least 1.
template <class Kernel>
cudaError_t resident_grid(Kernel kernel, int threads, std::size_t shared_bytes, std::int64_t work,
                          unsigned& blocks) {
  int device = 0, sms = 0, per_sm = 0;
  if (cudaError_t e = cudaGetDevice(&device)) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) return e;
  if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes))
    return e;
  const std::int64_t resident = static_cast<std::int64_t>(sms) * (per_sm > 0 ? per_sm : 1);
  blocks = static_cast<unsigned>(std::max<std::int64_t>(1, std::min(work, resident)));
  return cudaSuccess;
}

}  // namespace detail
}  // namespace gpusort
