// A GPU test case that cannot run on this device (too little memory, say) records why here
// instead of passing with nothing checked; the runner (main_gpu.cpp) then reports the whole
// binary skipped (exit 77, ctest's SKIP_RETURN_CODE) if nothing failed.
#pragma once

#include <string>

namespace gpusort_test {

std::string& skipped_because();

inline void skip_case(const std::string& reason) { skipped_because() = reason; }

}  // namespace gpusort_test
