#!/usr/bin/env bash
# The command line's start-up costs, on the device machine (or here, on PoCL, with SKIP_BUILD=1
# and BUILD=build: a build folder relative to the repository root): 100 rootfix jobs on 2^20-vertex trees run as 100 processes and as one
# `treefix batch`, and the device setup of one command with the kernel cache cold and warm.
# Usage, from the repository root:  bench/gpu_cli.sh OUTDIR [JOBS]
# Writes OUTDIR/cli.csv (what,seconds; the batch_phase_ms_* rows are mean milliseconds per batch
# job, phase by phase, from a second batch with --stats) and OUTDIR/cli.log.
set -euo pipefail
out=${1:?output directory}
jobs=${2:-100}
build=${BUILD:-build-gpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks, unpacked here (not committed)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [[ -z ${SKIP_BUILD:-} ]]; then
  [[ -e /etc/OpenCL/vendors/nvidia.icd ]] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 &&
    cmake --build "$build" -j16 --target treefix >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
fi
treefix=$PWD/$build/apps/treefix
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TREEFIX_CACHE_DIR=$work/cache
now() { date +%s.%N; }
log() { echo "$*" | tee -a "$out/cli.log"; }
echo "what,seconds" > "$out/cli.csv"
record() { echo "$1,$2" >> "$out/cli.csv"; log "$1: $2 s"; }

"$treefix" --version | tee "$out/cli.log"
# Four 2^20-vertex trees of different shapes (npy parents, as the pipeline bench uses), each used
# by a quarter of the jobs.
shapes=(random kary caterpillar path)
for s in "${shapes[@]}"; do "$treefix" generate "$s" -n 1048576 --shuffle -o "$work/$s.npy"; done

# Setup, cold (empty cache) then warm: one small rootfix, --stats lists "device setup".
"$treefix" generate random -n 1000 -o "$work/small.txt"
for state in cold warm; do
  [[ $state == cold ]] && rm -rf "$TREEFIX_CACHE_DIR"
  start=$(now)
  "$treefix" rootfix --tree "$work/small.txt" --stats -o "$work/small.out" 2> "$work/stats.txt"
  record "setup_$state" "$(awk -v a="$(now)" -v b="$start" 'BEGIN {printf "%.3f", a - b}')"
  grep "device setup" "$work/stats.txt" | tee -a "$out/cli.log"
done

for ((i = 0; i < jobs; i++)); do
  s=${shapes[i % 4]}
  echo "rootfix --tree $work/$s.npy -o $work/out$i.npy"
done > "$work/jobs.txt"

# 100 processes, one after another (warm cache, as a script would run them).
start=$(now)
while read -r line; do "$treefix" $line; done < "$work/jobs.txt"
record "processes_$jobs" "$(awk -v a="$(now)" -v b="$start" 'BEGIN {printf "%.3f", a - b}')"
cp "$work/out0.npy" "$work/first.npy"

# The same jobs in one batch.
start=$(now)
"$treefix" batch --quiet "$work/jobs.txt"
record "batch_$jobs" "$(awk -v a="$(now)" -v b="$start" 'BEGIN {printf "%.3f", a - b}')"
cmp "$work/out0.npy" "$work/first.npy" || { log "batch output differs"; exit 1; }
awk -F, '/^processes/ {p = $2} /^batch_/ {b = $2} END {printf "batch/processes: %.3f\n", b / p}' \
  "$out/cli.csv" | tee -a "$out/cli.log"

# Where a batch job's time goes: the same batch again with --stats (not timed), each phase's mean
# per job in milliseconds (a phase met twice in a job, as write, counts both).
sed 's/$/ --stats/' "$work/jobs.txt" > "$work/jobs-stats.txt"
"$treefix" batch --quiet "$work/jobs-stats.txt" 2> "$work/phases.txt"
awk -v jobs="$jobs" '/^treefix rootfix: / {
    line = $0; sub(/^treefix rootfix: /, "", line); ms = line; sub(/ ms$/, "", ms); sub(/.* /, "", ms)
    name = line; sub(/ +[0-9.]+ ms$/, "", name); gsub(/ /, "_", name)
    if (!(name in sum)) order[++count] = name
    sum[name] += ms
  } END { for (i = 1; i <= count; ++i) printf "batch_phase_ms_%s,%.1f\n", order[i], sum[order[i]] / jobs }' \
  "$work/phases.txt" | tee -a "$out/cli.csv" | tee -a "$out/cli.log"
