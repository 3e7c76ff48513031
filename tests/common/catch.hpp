// Catch2 2.13 (Debian, CI) and Catch2 3.x (the GPU machine) behind one include.
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>
#include <catch2/catch_template_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif
