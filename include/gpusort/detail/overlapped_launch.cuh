// gpusort/detail/overlapped_launch.cuh — a kernel launch that may start while the kernel
// before it in the stream still runs (programmatic dependent launch, compute capability 9.0
// on), and the device side of that handshake.
//
// Back-to-back launches in one stream leave the GPU idle between them: the next grid starts
// only once the last block of the one before has finished and its writes are flushed. Where
// the two grids touch disjoint data (device::sort_segments' size classes), the second may
// run beside the first; it must still wait for the first before it ends, so that a kernel
// launched after it in the usual way sees both grids' writes. (Launched so, with a wait at its
// start, every later kernel of deterministic_sample saved nothing measurable: H200, run 65.)
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpusort {
namespace detail {

// Called by every block of a grid: the grid launched after it with overlaps_previous may
// start now (it starts anyway once this grid ends). A no-op before compute capability 9.0.
__device__ __forceinline__ void allow_next_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

// Waits until the grid launched before this one in the stream has ended and its writes are
// visible. Returns at once where this grid was not launched overlapped.
__device__ __forceinline__ void await_previous_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...), allowed to start before the
// kernel launched before it ends where overlaps_previous holds and the device supports it
// (elsewhere the launch waits as usual: older GPUs do not know the attribute).
template <class... Params, class... Args>
cudaError_t launch_overlapped(void (*kernel)(Params...), dim3 grid, dim3 block,
                              std::size_t shared_bytes, cudaStream_t stream, bool overlaps_previous,
                              Args&&... args) {
  int device = 0, major = 0;
  if (cudaError_t e = cudaGetDevice(&device)) return e;
  if (cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device))
    return e;
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &overlap;
  config.numAttrs = overlaps_previous && major >= 9 ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Args&&>(args)...);
}

}  // namespace detail
}  // namespace gpusort
