# cmake -P driver for the consumer_* tests: builds tests/consumer against this checkout in a
# fresh directory and runs it.
#   MODE=package       cmake --install BUILD_DIR into WORK_DIR/prefix, then find_package
#   MODE=subdirectory  add_subdirectory(SOURCE_DIR)
# Also: SOURCE_DIR, BUILD_DIR, WORK_DIR, GENERATOR, MAKE_PROGRAM, CUDA_COMPILER,
# CUDA_HOST_COMPILER, CXX_COMPILER, CUDA_ARCHITECTURES, CONFIG (all but the first three
# may be empty).
cmake_minimum_required(VERSION 3.25)

foreach(required MODE SOURCE_DIR BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${required} OR "${${required}}" STREQUAL "")
    message(FATAL_ERROR "build_consumer.cmake: -D${required}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status COMMAND_ECHO STDOUT)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "consumer (${MODE}): command failed (${status})")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")

# The top-level build's toolchain and settings, so the consumer compiles like gpusort's tests.
set(options "-DGPUSORT_CONSUMER_MODE=${MODE}")
if(GENERATOR)
  list(APPEND options -G "${GENERATOR}")
endif()
foreach(pair CMAKE_MAKE_PROGRAM:MAKE_PROGRAM CMAKE_CUDA_COMPILER:CUDA_COMPILER
             CMAKE_CUDA_HOST_COMPILER:CUDA_HOST_COMPILER CMAKE_CXX_COMPILER:CXX_COMPILER
             CMAKE_BUILD_TYPE:CONFIG)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 cache_var)
  list(GET pair 1 input)
  if(NOT "${${input}}" STREQUAL "")
    list(APPEND options "-D${cache_var}=${${input}}")
  endif()
endforeach()
# Through the environment: a list ("80;90") would not survive as one -D argument.
if(NOT "${CUDA_ARCHITECTURES}" STREQUAL "")
  set(ENV{CUDAARCHS} "${CUDA_ARCHITECTURES}")
endif()
set(config_option)
if(CONFIG)
  set(config_option --config "${CONFIG}")
endif()

if(MODE STREQUAL "package")
  run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix" ${config_option})
  list(APPEND options "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
elseif(MODE STREQUAL "subdirectory")
  list(APPEND options "-DGPUSORT_SOURCE_DIR=${SOURCE_DIR}")
else()
  message(FATAL_ERROR "MODE must be package or subdirectory")
endif()

run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/build" ${options})
run("${CMAKE_COMMAND}" --build "${WORK_DIR}/build" ${config_option})
run("${WORK_DIR}/build/consumer")
