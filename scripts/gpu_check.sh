#!/usr/bin/env bash
# The GPU checks that CI cannot make, in one command from the repository root on a machine
# with a CUDA GPU (made for the device tool: at most 8 files back):
#   configure (default preset) -> build of what the run uses, on all cores -> the whole
#   ctest suite, GPU tests included (JUnit report) -> compute-sanitizer over the [sanitize]
#   cases of a few GPU tests -> a short run of each named benchmark binary (JSON).
# Times: on one H200's 16 cores (bench/RESULTS.md run 90) "configure build" with
# GPU_CHECK_LIMIT_BUILD=540 took 451 s, then at once "build test sanitize bench" with three
# sanitized binaries 127 s (ctest 29 s): two calls, as the README says. On the two-GPU kind's
# 32 cores (run 55) the whole run with five sanitized binaries took 436 s in one call. A build
# cut short by its limit continues on the next call while the machine stays warm.
# With a bundle built on a machine without a GPU (scripts/gpu_bundle.sh; carry .gpu_bundle),
# "unpack test sanitize bench" takes its binaries instead of building: one call for the suite
# (run 95, four sanitized binaries: 240 s on an H200, 266 s on an H100).
# Output, in $OUT (else ./gpu_check_out): gpu_check.log (every step's full output),
# junit.xml, bench_<name>.json per benchmark, summary.txt. The summary is printed last.
# Every step has a time limit and the whole run a budget; a step that no longer fits is
# skipped and says so. Edit the lists below, or override them from the environment.
# Exit status 1 when anything failed, found errors or ran out of time.
set -uo pipefail

# --- what to run (edit here; or set the GPU_CHECK_* variables, space-separated) ---------
# GPU test binaries (build/default/tests/gpu/<name>) run under compute-sanitizer, each as
# "name" (runs SANITIZE_FILTER) or "name:<catch2 test spec>". Keep each run short: racecheck
# is slow, hence the [sanitize] tag on a few small cases per binary. The default is what fits
# one device call beside the build: the bucket sort's building block and the wide items of
# every policy. Name the binaries a change touches; the building blocks (test_bitonic_blocks,
# test_splitter_blocks_gpu, test_segment_slices, test_warp_merge) and every sort's tests
# have [sanitize] cases, e.g. in a second call on the warm machine:
#   GPU_CHECK_STAGES=sanitize GPU_CHECK_SANITIZE="test_sort_warpsort test_sort_randomized_sample
#   test_sort_deterministic_sample" bash scripts/gpu_check.sh
SANITIZE_TESTS=(
  test_sort_segments
  test_sort_wide_items
)
SANITIZE_FILTER="${GPU_CHECK_SANITIZE_FILTER:-[sanitize]}"
SANITIZE_TOOLS=(memcheck racecheck)   # synccheck too where a change adds barriers
# Benchmark binaries (build/default/bench/<name>); empty: every executable there. At most 5
# JSON files fit in what comes back (8 files in all), so name the ones that matter:
# bench_block_sort (the tile sort against cub::BlockMergeSort, the ratio the foundation
# promises) and the paper studies (bench_deterministic_sample, bench_randomized_sample,
# bench_warpsort, bench_multi_gpu) run when named in GPU_CHECK_BENCHES.
BENCHES=(bench_sort)
# --benchmark_filter regex; the default: every policy and CUB at the issues' sizes, and 64-byte
# keys (30 s); "." runs bench_sort's whole grid (about 150 s, and since run 45's rows of
# u64, u32:u32 and 16-byte keys on every distribution about 90 s more: a call of its own).
BENCH_FILTER="${GPU_CHECK_BENCH_FILTER:-^(gpusort_[a-z_]+|cub_merge|cub_radix)/((u32|u64|u32:u32)/uniform/n:2\^(24|28)|key64/uniform/n:2\^24)/}"
BENCH_MIN_TIME="${GPU_CHECK_BENCH_MIN_TIME:-0.05}" # seconds; a plain number suits Benchmark 1.7 and 1.8
CTEST_JOBS="${GPU_CHECK_CTEST_JOBS:-8}"
CTEST_ARGS="${GPU_CHECK_CTEST_ARGS:-}"              # e.g. "-R sort_ -LE huge"
# Which parts run: any of configure build test sanitize bench, or unpack in place of
# configure and build. A machine stays warm between device calls, so a run too long for one
# call can be split: "configure build test", then "sanitize bench" on the build the first
# left behind.
STAGES=" ${GPU_CHECK_STAGES:-configure build test sanitize bench} "
BUNDLE="${GPU_CHECK_BUNDLE:-.gpu_bundle}"   # what scripts/gpu_bundle.sh wrote
# read -a: no glob expansion, so "[sanitize]" in an entry stays as written.
[ -n "${GPU_CHECK_SANITIZE:-}" ] && read -r -a SANITIZE_TESTS <<<"$GPU_CHECK_SANITIZE"
[ -n "${GPU_CHECK_SANITIZE_TOOLS:-}" ] && read -r -a SANITIZE_TOOLS <<<"$GPU_CHECK_SANITIZE_TOOLS"
[ -n "${GPU_CHECK_BENCHES:-}" ] && read -r -a BENCHES <<<"$GPU_CHECK_BENCHES"

# --- time budget (seconds) ------------------------------------------------------------
BUDGET="${GPU_CHECK_BUDGET:-590}"   # the whole script; the device tool stops a command at 600
LIMIT_CONFIGURE=90
LIMIT_BUILD="${GPU_CHECK_LIMIT_BUILD:-450}"
LIMIT_CTEST="${GPU_CHECK_LIMIT_CTEST:-300}"
LIMIT_SANITIZE="${GPU_CHECK_LIMIT_SANITIZE:-100}"   # per binary and tool
LIMIT_BENCH="${GPU_CHECK_LIMIT_BENCH:-210}"   # per benchmark binary

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/sources_fingerprint.sh
source scripts/sources_fingerprint.sh
export NCCL_NVLS_ENABLE=0   # NVLink multicast stays off on the lent machines
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:${PATH}"

BUILD=build/default
OUT_DIR="${OUT:-./gpu_check_out}"
mkdir -p "$OUT_DIR"
OUT_DIR="$(cd "$OUT_DIR" && pwd)"
LOG="$OUT_DIR/gpu_check.log"
SUMMARY="$OUT_DIR/summary.txt"
: >"$LOG"
STEP_OUT=$(mktemp)
trap 'rm -f "$STEP_OUT"' EXIT
START=$(date +%s)
declare -a ROWS=()
FAILED=0   # the exit status: 1 when anything failed, ran out of time or found errors

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
row() {
  ROWS+=("$(printf '%-40s %s' "$1" "$2")")
  case $2 in ok* | clean* | *passed,\ 0\ failed* | bench_* | skipped:* | "none built") ;; *) FAILED=1 ;; esac
}
stage() { [[ $STAGES == *" $1 "* ]]; }
remaining() { echo $((BUDGET - ($(date +%s) - START))); }

# run_step <label> <limit> <command...>: runs the command under the smaller of its limit and
# what is left of the budget, full output to the log; on failure also its tail to stdout.
# Sets STEP_RC (124: out of time, 125: not started for lack of time) and STEP_SECONDS; the
# output stays in STEP_OUT until the next step.
run_step() {
  local label=$1 limit=$2
  shift 2
  local left
  left=$(remaining)
  ((left - 5 < limit)) && limit=$((left - 5))
  if ((limit < 10)); then
    say "== $label: SKIPPED, time budget spent"
    STEP_RC=125
    STEP_SECONDS=0
    return
  fi
  say "== $label (limit ${limit}s): $*"
  local begin
  begin=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" >"$STEP_OUT" 2>&1
  STEP_RC=$?
  cat "$STEP_OUT" >>"$LOG"
  if ((STEP_RC != 0)); then
    tail -n 30 "$STEP_OUT"
  fi
  STEP_SECONDS=$(($(date +%s) - begin))
  say "-- $label: rc=$STEP_RC in ${STEP_SECONDS}s"
}

verdict() {   # a step's exit status in words
  case $1 in
    0) echo ok ;;
    124 | 137) echo "TIMEOUT" ;;
    125) echo "skipped (time budget)" ;;
    *) echo "FAILED (rc $1)" ;;
  esac
}

# --- machine ------------------------------------------------------------------------------
say "== gpu_check $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(pwd)"
{ nvidia-smi -L || echo "nvidia-smi failed"; } 2>&1 | tee -a "$LOG"
{ nvcc --version | tail -n 2; cmake --version | head -n 1; } 2>&1 | tee -a "$LOG"
git rev-parse --short HEAD 2>/dev/null | sed 's/^/commit /' | tee -a "$LOG"
# The device tool copies the working tree, not always a current .git: this fingerprint of
# the headers (compare: the same command where the tree came from) names what was tested.
{ include_fingerprint | sed 's/^/include tree /'; } 2>&1 | tee -a "$LOG"

STEP_RC=0
STEP_SECONDS=0

# --- or a bundle's binaries ---------------------------------------------------------------
# Only a bundle of exactly the sources that travelled: else the suite would test other code.
if stage unpack; then
  manifest="$BUNDLE/manifest.txt"
  field() { sed -n "s/^$1 //p" "$manifest"; }   # a line of the manifest, without its name
  here=$(sources_fingerprint)
  STEP_RC=1
  if [ ! -f "$manifest" ]; then
    row unpack "FAILED: no $manifest (make it with scripts/gpu_bundle.sh, carry $BUNDLE)"
  elif [ "$(field sources)" != "$here" ]; then
    row unpack "FAILED: bundle of sources $(field sources), this tree $here"
  else
    BUILD=$(field build)   # the tests, sanitizers and benchmarks below run from there
    rm -rf "${BUILD:?}" && mkdir -p "$BUILD/bundle_lib"
    run_step unpack 120 tar -xJf "$BUNDLE/build.tar.xz" -C "$BUILD"
    # ctest's files name the executables by the path they were built at.
    built_root=$(field root)
    if [ "$built_root" != "$(pwd)" ]; then
      find "$BUILD" -name CTestTestfile.cmake -exec sed -i "s#$built_root/#$(pwd)/#g" {} +
    fi
    # A packed library only where this machine has none of that name.
    for lib in "$BUNDLE"/lib/*; do
      [ -e "$lib" ] || continue
      ldconfig -p | grep -q "^[[:space:]]*$(basename "$lib") " || cp "$lib" "$BUILD/bundle_lib/"
    done
    LD_LIBRARY_PATH="$(pwd)/$BUILD/bundle_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    # The executables look for the CUDA Toolkit's libraries (cudart, CUPTI) where the building
    # machine's toolkit kept them (RUNPATH); this machine's may keep them elsewhere.
    if cuda_bin=$(command -v nvcc); then
      cuda_root=$(dirname "$(dirname "$cuda_bin")")
      for dir in lib64 lib targets/x86_64-linux/lib extras/CUPTI/lib64; do
        [ -d "$cuda_root/$dir" ] && LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$cuda_root/$dir"
      done
    fi
    export LD_LIBRARY_PATH
    # "library (executables that need it)" for each library no path above holds. The others
    # still run, so one missing library costs its tests, not the call.
    missing=$(find "$BUILD" -name CMakeFiles -prune -o -type f -perm -u+x -exec ldd {} + 2>/dev/null |
      awk '/^[^[:space:]].*:$/ {exe = $1; sub(/:$/, "", exe); n = split(exe, p, "/"); exe = p[n]}
           /not found/ {need[$1] = need[$1] " " exe}
           END {for (lib in need) printf "%s (%s) ", lib, substr(need[lib], 2)}')
    if ((STEP_RC != 0)); then
      row unpack "$(verdict $STEP_RC)"
    else
      row unpack "ok: $(field commit), sources $here, sm $(field architectures), built $(field built)"
      [ -n "$missing" ] && row "  libraries" "FAILED, missing here: $missing"
      # ctest configures and builds the consumer projects itself, from a build tree a bundle
      # does not hold; CI runs them.
      [ -z "${GPU_CHECK_CTEST_ARGS:-}" ] && CTEST_ARGS="-E ^consumer_"
    fi
  fi
  ((STEP_RC == 0)) || STAGES=" "   # nothing to test
fi

# --- configure and build ------------------------------------------------------------------
if stage configure; then
  run_step configure "$LIMIT_CONFIGURE" cmake --preset default
  row configure "$(verdict $STEP_RC) in ${STEP_SECONDS}s"
fi
if ((STEP_RC == 0)) && stage build; then
  # Only the targets this run uses: the executables of the tests it runs (those
  # GPU_CHECK_CTEST_ARGS selects) where it tests, the sanitized ones where it sanitizes, and the
  # named benchmarks (every one if none is named) where it benchmarks; a run that stops after
  # the build builds for a default run to follow. The whole tree no longer builds within one
  # device call (run 42: past 420 s on 16 cores), and CI compiles every target on each push; a
  # benchmarks-only call that built every test too ran out of time (run 56). A test is named
  # after its executable, but for a "<name>_huge" test (its executable's [huge] cases) and
  # consumer_* (ctest builds those).
  later_stage=false
  for later in test sanitize bench; do stage "$later" && later_stage=true; done
  targets=()
  if stage test || ! $later_stage; then
    # shellcheck disable=SC2086  # CTEST_ARGS is a list of arguments: build what it selects
    mapfile -t targets < <(ctest --test-dir "$BUILD" -N $CTEST_ARGS |
      sed -nE 's/^ *Test +#[0-9]+: ([^ ]+).*$/\1/p' | sed 's/_huge$//' | grep -v '^consumer_' | sort -u)
  fi
  if stage sanitize; then
    for entry in "${SANITIZE_TESTS[@]}"; do targets+=("${entry%%:*}"); done
  fi
  if stage bench || ! $later_stage; then
    if ((${#BENCHES[@]} > 0)); then targets+=("${BENCHES[@]}"); else targets=(all); fi
  fi
  # -k 0: past a failing target, build every other one, and test what did build below;
  # one broken header should not hide the rest.
  run_step build "$LIMIT_BUILD" cmake --build --preset default -j "$(nproc)" \
    --target "${targets[@]}" -- -k 0
  row build "$(verdict $STEP_RC) in ${STEP_SECONDS}s"
  # The build dir outlives the call while the machine stays warm (about 30 s): say at once
  # how to finish there rather than start a bare machine.
  ((STEP_RC == 124 || STEP_RC == 137)) &&
    row "  finish it" "call again at once: GPU_CHECK_STAGES='build test sanitize bench' bash scripts/gpu_check.sh"
fi

# --- the whole test suite -----------------------------------------------------------------
if stage test; then
  JUNIT="$OUT_DIR/junit.xml"
  # shellcheck disable=SC2086  # CTEST_ARGS is a list of arguments
  run_step ctest "$LIMIT_CTEST" ctest --test-dir "$BUILD" -j "$CTEST_JOBS" --output-on-failure \
    --output-junit "$JUNIT" $CTEST_ARGS
  # Counted from ctest's own summary: in the JUnit file a test whose binary failed to build
  # ("Not Run", a failure) looks the same as one that skipped itself (no device).
  # With no failure ctest says "100% tests passed out of N" and leaves out the failed count.
  counts=$(grep -E '^[0-9]+% tests passed(, [0-9]+ tests failed)? out of [0-9]+' "$STEP_OUT" | tail -n 1)
  if [ -n "$counts" ]; then
    total=${counts##* }
    failed=0
    [[ $counts == *"tests failed"* ]] && failed=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$counts")
    skipped=$(grep -cE '^[[:space:]]+[0-9]+ - .* \(Skipped\)$' "$STEP_OUT")
    row tests "$((total - failed - skipped)) passed, $failed failed, $skipped skipped of $total in ${STEP_SECONDS}s"
    failed_names=$(sed -n '/^The following tests FAILED:/,/^[^[:space:]]/p' "$STEP_OUT" |
      sed -nE 's/^[[:space:]]+[0-9]+ - (.*)$/\1/p' | tr '\n' ' ')
    [ -n "$failed_names" ] && row "  failed" "$failed_names"
  else
    row tests "no result: $(verdict $STEP_RC)"
  fi
fi

# --- compute-sanitizer --------------------------------------------------------------------
stage sanitize || SANITIZE_TESTS=()
SANITIZER=$(command -v compute-sanitizer || true)
for candidate in /usr/local/cuda/compute-sanitizer/compute-sanitizer /usr/local/cuda/bin/compute-sanitizer; do
  [ -z "$SANITIZER" ] && [ -x "$candidate" ] && SANITIZER=$candidate
done
SANITIZER_ERROR_RC=86   # what compute-sanitizer returns when it found errors
for entry in "${SANITIZE_TESTS[@]}"; do
  name=${entry%%:*}
  filter=$SANITIZE_FILTER
  [[ $entry == *:* ]] && filter=${entry#*:}
  binary="$BUILD/tests/gpu/$name"
  for tool in "${SANITIZE_TOOLS[@]}"; do
    label="$tool $name"
    if [ -z "$SANITIZER" ]; then
      row "$label" "not run: no compute-sanitizer"
      continue
    fi
    if [ ! -x "$binary" ]; then
      row "$label" "not run: $binary not built"
      continue
    fi
    run_step "$label $filter" "$LIMIT_SANITIZE" "$SANITIZER" --tool "$tool" \
      --error-exitcode "$SANITIZER_ERROR_RC" "$binary" "$filter"
    if ((STEP_RC == 0)); then
      row "$label" "clean in ${STEP_SECONDS}s"
    elif ((STEP_RC == SANITIZER_ERROR_RC)); then
      row "$label" "ERRORS (see gpu_check.log)"
    elif ((STEP_RC == 77)); then
      row "$label" "skipped: no device"
    elif grep -q 'No test cases matched' "$STEP_OUT"; then
      row "$label" "not run: no test matches $filter"
    else
      row "$label" "$(verdict $STEP_RC) (the test itself)"
    fi
  done
done

# --- benchmarks ---------------------------------------------------------------------------
if ! stage bench; then
  BENCHES=()
elif ((${#BENCHES[@]} == 0)) && [ -d "$BUILD/bench" ]; then
  mapfile -t BENCHES < <(find "$BUILD/bench" -maxdepth 1 -type f -executable -printf '%f\n' | sort)
fi
if ((${#BENCHES[@]} == 0)) && stage bench; then
  row bench "none built"
fi
for name in "${BENCHES[@]}"; do
  json="$OUT_DIR/bench_$name.json"
  if [ ! -x "$BUILD/bench/$name" ]; then
    row "bench $name" "not built"
    continue
  fi
  run_step "bench $name" "$LIMIT_BENCH" "$BUILD/bench/$name" --benchmark_min_time="$BENCH_MIN_TIME" \
    --benchmark_filter="$BENCH_FILTER" --benchmark_out="$json" --benchmark_out_format=json
  if ((STEP_RC == 0)); then
    row "bench $name" "$(basename "$json") in ${STEP_SECONDS}s"
  else
    row "bench $name" "$(verdict $STEP_RC)$([ -s "$json" ] && echo ", partial $(basename "$json")")"
  fi
done

# --- summary, printed last ----------------------------------------------------------------
{
  echo
  echo "==================== gpu_check summary ===================="
  nvidia-smi -L 2>/dev/null | head -n 1
  printf '%s\n' "${ROWS[@]}"
  echo "elapsed $(($(date +%s) - START))s of ${BUDGET}s; files in $OUT_DIR:"
  (cd "$OUT_DIR" && ls -1 | tr '\n' ' ')
  echo
} >"$SUMMARY"
cat "$SUMMARY" >>"$LOG"
cat "$SUMMARY"
exit "$FAILED"
