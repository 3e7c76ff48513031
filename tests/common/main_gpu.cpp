// Runner for GPU tests: without a usable CUDA device, or when a case found it cannot run here
// (skip.hpp), it reports the whole binary skipped (exit 77, ctest's SKIP_RETURN_CODE)
// instead of passing with nothing checked.
#include "skip.hpp"

#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cuda_runtime.h>

#include <cstdio>

std::string& gpusort_test::skipped_because() {
  static std::string reason;
  return reason;
}

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device (%s)\n", cudaGetErrorString(status));
    return 77;
  }
  const int failed = Catch::Session().run(argc, argv);
  if (failed == 0 && !gpusort_test::skipped_because().empty()) {
    std::printf("SKIPPED: %s\n", gpusort_test::skipped_because().c_str());
    return 77;
  }
  return failed;
}
