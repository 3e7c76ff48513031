// examples/example_util.cuh — what every example needs besides gpusort itself: a clean skip
// without a GPU, and a stop at the first failed CUDA call. This is example code, not library
// code, so it prints and exits; gpusort's own functions only return a cudaError_t.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace example {

// The exit status of an example that found no GPU: ctest's SKIP_RETURN_CODE for the examples
// (examples/CMakeLists.txt), the same code the GPU tests use.
constexpr int no_gpu_exit_code = 77;

// Exits with no_gpu_exit_code, saying why on stderr, when no CUDA device can be used.
inline void require_gpu(const char* program) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "%s: no usable CUDA device (%s); nothing to run\n", program,
                 status != cudaSuccess ? cudaGetErrorString(status) : "none found");
    std::exit(no_gpu_exit_code);
  }
}

// Stops the program when a CUDA call (or a gpusort entry point) failed, naming the call.
inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s failed: %s (%s)\n", what, cudaGetErrorName(status),
                 cudaGetErrorString(status));
    std::exit(EXIT_FAILURE);
  }
}

// Prints the verdict of an example's own check and turns it into the exit status.
inline int verdict(const char* program, bool ok, const char* what) {
  std::printf("%s: %s: %s\n", program, what, ok ? "verified" : "WRONG RESULT");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace example
