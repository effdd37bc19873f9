#!/usr/bin/env bash
# The sanitizer and fuzzing job (run by .ci/run after the README's tests; runnable by hand):
#
#   tests/sanitize.sh [BUILD_DIR]          (default: build-sanitize)
#
# 1. Builds the library, `treefix`, `treefix-bench`, the test binary and the fuzz targets with
#    Clang, AddressSanitizer and UBSan (cmake -DTREEFIX_FUZZ=ON, cmake/Sanitizers.cmake): one
#    build for both jobs, so the library is compiled once.
# 2. Runs under the sanitizers every CLI script of tests/cli/ (the hostile-input tables of
#    hostile.sh included: a row fails when its stderr shows a sanitizer report) and the unit tests
#    of the readers.
# 3. Runs each fuzz target of tests/fuzz/ for TREEFIX_FUZZ_SECONDS seconds, starting from its
#    committed corpus and the inputs that once crashed it (tests/fuzz/crashes/); new inputs go to
#    BUILD_DIR/fuzz/<target>/corpus, a crash's reproducer to BUILD_DIR/fuzz/<target>/.
# Every step runs even when an earlier one failed; the exit status is 1 if any failed. Each
# step's own output goes to a log under BUILD_DIR; what failed is printed again at the very end
# (with the tail of its log), where a CI system that keeps only the end of the output shows it.
#
# Environment: CXX (default clang++-14), TREEFIX_FUZZ_SECONDS (default 15; 0 skips fuzzing),
# TREEFIX_SANITIZE_JOBS (build and fuzz jobs; default nproc), TREEFIX_CACHE_DIR (kernel cache:
# default build/kernel-cache when the normal build left one, else BUILD_DIR/kernel-cache).
#
# Sanitizer options, and why:
#   leaks            detected, except in PoCL and its LLVM (tests/lsan.supp): a kernel compiled
#                    rather than found in the caches leaves their compiler state allocated at exit
#   halt_on_error / -fno-sanitize-recover   the first report ends the run with an error status
#   use_sigaltstack=0  ASan gives each thread a 32 KB alternate signal stack and unmaps it when
#                    the thread ends. PoCL's LLVM, where it sets up its signal handlers, replaces
#                    a stack smaller than its own (79,040 bytes in CI) by a malloc'd one: on a
#                    thread other than the main one (`treefix rootfix` sets the device up on a
#                    second thread), ASan then fails to unmap it at the thread's end ("unable to
#                    unmap" CHECK, exit status 1).
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(realpath -m "${1:-build-sanitize}")  # absolute: the CLI scripts change directory
fuzz_seconds=${TREEFIX_FUZZ_SECONDS:-15}
jobs=${TREEFIX_SANITIZE_JOBS:-$(nproc)}
if [[ -z ${TREEFIX_CACHE_DIR:-} ]]; then
  if [[ -d build/kernel-cache ]]; then TREEFIX_CACHE_DIR=$PWD/build/kernel-cache
  else TREEFIX_CACHE_DIR=$build/kernel-cache; fi
fi
mkdir -p "$TREEFIX_CACHE_DIR"
export TREEFIX_CACHE_DIR
export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:use_sigaltstack=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

failed=()
failure_logs=()  # the logs whose tails the summary at the end prints again
step() {  # step NAME COMMAND...: runs, times and records one step
  local name=$1 start=$SECONDS
  shift
  echo "=== sanitize: $name"
  if "$@"; then
    echo "=== sanitize: $name passed in $((SECONDS - start)) s"
  else
    echo "=== sanitize: $name FAILED in $((SECONDS - start)) s"
    failed+=("$name")
  fi
}

build_all() {
  # (CMake takes CMAKE_CXX_COMPILER_LAUNCHER=ccache from the environment, when set.)
  # -O1 (the level Clang's AddressSanitizer documentation names for reasonable speed): the build
  # is the job's longest step, and on 2 cores -O1 compiles it in 360-390 s against 410-530 s
  # with the release flags, while the CLI scripts run as fast (their time is the kernels' and
  # process start-up's) and reports keep more of their inlined frames.
  mkdir -p "$build"
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DCMAKE_CXX_COMPILER="${CXX:-clang++-14}" -DTREEFIX_FUZZ=ON -DTREEFIX_BUILD_TESTS=ON \
    > "$build/configure.log" || { cat "$build/configure.log"; return 1; }
  cmake --build "$build" -j"$jobs"
}

# The doctest cases that read or parse files: trees, weights, Newick, .npy, points, graph formats,
# forests, RuleML and XML (`treefix-tests -ltc` lists them all).
readonly reader_cases='*tokenizer*,compressed input*,*.npy*,*Newick*,*newick*,tree files*,weights files*,points io*,*Matrix Market*,METIS*,*edge lists*,*graph files*,*npz*,*CSR binary*,parser errors*,claims of*,*forest files*,*from files*,XML documents*,*RuleML*'

readonly device_cases='bfs on*,connectivity:*'  # matched above, but not reader tests

reader_tests() {  # from the directory CTest uses: the tests find tests/data relative to it
  local log="$build/reader-tests.log"
  if (cd "$build/tests" && ./treefix-tests -tc="$reader_cases" -tce="$device_cases" \
        --duration=true) > "$log" 2>&1; then
    grep '^\[doctest\]' "$log"
  else
    tail -n 40 "$log"
    failure_logs+=("$log")
    return 1
  fi
}

cli_scripts() {
  local status=0 script
  for script in tests/cli/*.sh; do
    local name start=$SECONDS
    name=$(basename "$script" .sh)
    # (TREEFIX_CASE_VERBOSE: a failing row of hostile.sh shows its standard error in the log)
    if TREEFIX_CASE_VERBOSE=1 bash "$script" "$build/apps/treefix" "$build/cli/$name" \
        > "$build/cli-$name.log" 2>&1; then
      echo "cli $name: passed in $((SECONDS - start)) s"
    else
      echo "cli $name: FAILED in $((SECONDS - start)) s (log: $build/cli-$name.log)"
      tail -n 30 "$build/cli-$name.log"
      failure_logs+=("$build/cli-$name.log")
      status=1
    fi
  done
  return $status
}

fuzz_one() {  # fuzz_one TARGET: a bounded run from the committed corpus
  local target=$1 work="$build/fuzz/$1"
  mkdir -p "$work/corpus"
  # -timeout catches a reader that hangs; -rss_limit_mb (and the same limit on one malloc) one
  # that allocates far more than a 4 KB input justifies.
  if "$build/tests/fuzz/fuzz_$target" -max_total_time="$fuzz_seconds" -max_len=4096 \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$work/" \
      "$work/corpus" "tests/fuzz/corpus/$target" $(ls -d "tests/fuzz/crashes/$target" 2> /dev/null) \
      > "$work/log" 2>&1; then
    echo "fuzz $target: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" |
      grep -o '[0-9]*$') runs, no report"
  else
    echo "fuzz $target: FAILED (log: $work/log; reproducer: $(ls "$work"/crash-* "$work"/leak-* \
      "$work"/timeout-* "$work"/oom-* 2> /dev/null | head -1))"
    grep -A 25 -m1 -E '^==[0-9]+==|runtime error|property violated|deadly signal' "$work/log"
    return 1
  fi
}

fuzzers() {  # every target, `jobs` at a time (each target is one process)
  local source target running=0
  rm -f "$build"/fuzz-*.summary
  for source in tests/fuzz/fuzz_*.cpp; do
    target=$(basename "$source" .cpp)
    target=${target#fuzz_}
    fuzz_one "$target" > "$build/fuzz-$target.summary" 2>&1 &
    running=$((running + 1))
    if ((running >= jobs)); then wait -n; running=$((running - 1)); fi
  done
  wait
  cat "$build"/fuzz-*.summary
  local summary status=0
  for summary in "$build"/fuzz-*.summary; do
    if grep -q FAILED "$summary"; then
      failure_logs+=("$summary")
      status=1
    fi
  done
  return $status
}

start=$SECONDS
step "build (clang, ASan + UBSan, fuzz targets)" build_all || true
if [[ ${#failed[@]} -gt 0 ]]; then exit 1; fi
step "CLI scripts under ASan + UBSan" cli_scripts
step "reader unit tests under ASan + UBSan" reader_tests
if [[ $fuzz_seconds -gt 0 ]]; then
  step "fuzz targets, ${fuzz_seconds} s each" fuzzers
fi
echo "=== sanitize: total $((SECONDS - start)) s"
if [[ ${#failed[@]} -gt 0 ]]; then
  for log in "${failure_logs[@]}"; do
    echo "=== sanitize: the end of $log"
    tail -n 40 "$log"
  done
  printf '=== sanitize: failed: %s\n' "${failed[@]}"
  exit 1
fi
