#!/usr/bin/env bash
# Builds the default preset on this machine (nvcc, no GPU needed) and packs what
# scripts/gpu_check.sh runs into .gpu_bundle/, so that a device call runs the GPU suite
# without building it there. The device's build of every test and bench_sort costs about
# 640 s of device time on 16 cores (bench/RESULTS.md run 92); unpacked, the suite starts at once.
#   bash scripts/gpu_bundle.sh       # here: build (about an hour on 2 cores), then pack
# then through the device tool, carrying .gpu_bundle (it must stay within the 64 MiB that
# travel: move bench/results aside for the call):
#   GPU_CHECK_STAGES="unpack test sanitize bench" bash scripts/gpu_check.sh
# gpu_check.sh refuses a bundle whose sources differ from the tree that travelled
# (scripts/sources_fingerprint.sh), and names any library an executable misses there.
# The build (build/bundle) differs from the default one only in what the executables carry:
# sm_90 machine code alone, without the compute_90 PTX that an H100 or H200 never loads, and
# not compressed by nvcc, so that xz packs it three times smaller (bench/RESULTS.md run 94).
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/sources_fingerprint.sh
source scripts/sources_fingerprint.sh
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:${PATH}"

BUILD=build/bundle
DEST=.gpu_bundle
ARCHITECTURES=90-real
fingerprint=$(sources_fingerprint)

[ -f "$BUILD/build.ninja" ] || cmake --preset default -B "$BUILD" \
  -DCMAKE_CUDA_ARCHITECTURES="$ARCHITECTURES" -DCMAKE_CUDA_FLAGS=--compress-mode=none
cmake --build "$BUILD"
# The build must be of these sources: an edit during the build would leave stale binaries.
if [ "$(sources_fingerprint)" != "$fingerprint" ]; then
  echo "gpu_bundle: the sources changed during the build; run it again" >&2
  exit 1
fi

rm -rf "$DEST"
mkdir -p "$DEST/lib"
# Every executable ctest or gpu_check.sh starts (tests, examples, benchmarks) and ctest's own
# files; not the consumer projects, which ctest configures and builds where it runs.
list=$(mktemp)
trap 'rm -f "$list"' EXIT
(cd "$BUILD" && find . \( -name CMakeFiles -o -name 'consumer_*' \) -prune -o -type f \
  \( -name CTestTestfile.cmake -o \( -perm -u+x ! -name '*.sh' \) \) -print | LC_ALL=C sort) >"$list"

# Libraries outside the C/C++ runtime and the CUDA Toolkit (which the device image has), such
# as this machine's Google Benchmark: gpu_check.sh uses a copy only where the device lacks it.
while read -r path; do
  [[ $path == *CTestTestfile.cmake ]] && continue
  { ldd "$BUILD/$path" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done <"$list" | sort -u | while read -r soname file; do
  case $soname in
    ld-linux* | libc.so* | libm.so* | libgcc_s.so* | libstdc++.so* | libpthread.so* | libdl.so* | \
      librt.so* | libutil.so* | libcuda.so* | libcudart.so* | libnccl.so* | libcupti.so*) ;;
    *) cp -L "$file" "$DEST/lib/$soname" && echo "gpu_bundle: packs $soname ($file)" ;;
  esac
done

tar -cf - -C "$BUILD" -T "$list" | xz -6 -T0 >"$DEST/build.tar.xz"
{
  echo "sources $fingerprint"
  echo "include $(include_fingerprint)"
  echo "root $(pwd)"
  echo "build $BUILD"
  echo "architectures $ARCHITECTURES"
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "nvcc $(nvcc --version | tail -n 1)"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
} >"$DEST/manifest.txt"
cat "$DEST/manifest.txt"
echo "gpu_bundle: $(wc -l <"$list") files, $(du -sh "$DEST" | cut -f1) in $DEST"
