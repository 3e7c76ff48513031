# What gpusort's targets need, shared by the build tree and gpusortConfig.cmake.
# CUDA 13 ships CCCL (CUB, Thrust, libcu++) with the toolkit; its package file lives in the
# toolkit's lib/cmake folder.
include(CMakeFindDependencyMacro)
find_dependency(CUDAToolkit)
find_dependency(CCCL CONFIG HINTS "${CUDAToolkit_LIBRARY_DIR}/cmake")

# NCCL is optional (only gpusort::nccl needs it) and ships no CMake package file. Look in
# $NCCL_HOME, in the toolkit (pip-style installs put it there), then the system paths.
if(NOT TARGET NCCL::NCCL)
  find_path(GPUSORT_NCCL_INCLUDE_DIR nccl.h
            HINTS ENV NCCL_HOME ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  find_library(GPUSORT_NCCL_LIBRARY nccl
               HINTS ENV NCCL_HOME ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
  if(GPUSORT_NCCL_INCLUDE_DIR AND GPUSORT_NCCL_LIBRARY)
    add_library(NCCL::NCCL UNKNOWN IMPORTED)
    set_target_properties(NCCL::NCCL PROPERTIES
      IMPORTED_LOCATION "${GPUSORT_NCCL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${GPUSORT_NCCL_INCLUDE_DIR}")
  endif()
endif()
