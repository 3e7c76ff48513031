// Runner for GPU tests: without a usable CUDA device it reports the whole binary skipped
// (exit 77, ctest's SKIP_RETURN_CODE) instead of passing with nothing run.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cuda_runtime.h>

#include <cstdio>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device (%s)\n", cudaGetErrorString(status));
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
