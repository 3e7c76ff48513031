# shellcheck shell=bash
# scripts/sources_fingerprint.sh — sourced by gpu_bundle.sh and gpu_check.sh.
#
# sources_fingerprint: 12 hex digits naming every file a build of the default preset reads
# (headers, tests, benchmarks, examples, CMake files; not results, plots or prose). A bundle of
# binaries built here runs on the device only where the tree that travelled there gives the
# same fingerprint, so what the GPU tests is what the tree holds. Plain files, not git: the
# device tool copies the working tree, not always a current .git.
sources_fingerprint() {
  find include tests bench examples cmake CMakeLists.txt CMakePresets.json \
    \( -path bench/results -o -path bench/plots -o -name __pycache__ \) -prune -o \
    -type f ! -name '*.md' -print | fingerprint_of_listed
}

# include_fingerprint: the same over include/ alone, the figure RESULTS.md names a tree by.
include_fingerprint() {
  find include -type f | fingerprint_of_listed
}

# The files named on stdin, in a fixed order, as 12 hex digits.
fingerprint_of_listed() {
  LC_ALL=C sort | xargs sha1sum | sha1sum | cut -c1-12
}
