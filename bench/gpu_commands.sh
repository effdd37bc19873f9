#!/usr/bin/env bash
# Whole commands on the GPU machine, process start to exit: builds `treefix` alone (build-gpu-cli/),
# then runs each command below once to warm the kernel cache and RUNS more times, writing the wall
# time of each run and the last run's --stats phases. From the repository root:
#   bench/gpu_commands.sh OUTDIR [DATA]     (DATA: the real data sets, default shared/data)
# Writes OUTDIR/commands.csv (command, run, wall_ms) and OUTDIR/stats-NAME.txt.
set -uo pipefail
out=${1:?output directory}
data=${2:-shared/data}
runs=${RUNS:-3}
mkdir -p "$out"
source bench/lib/gpu_env.sh
{ cmake -S . -B build-gpu-cli -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=OFF &&
  cmake --build build-gpu-cli -j"$(nproc)" --target treefix; } > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
export TREEFIX_CACHE_DIR=$PWD/build-gpu-cli/kernel-cache
treefix=$PWD/build-gpu-cli/apps/treefix
work=$(mktemp -d)
declare -A commands=(
  [rootfix-birds-euler]="rootfix --tree $data/birds_gumbs2022.nwk --algorithm euler -o $work/birds.txt"
  [bfs-luxembourg]="bfs --graph $data/luxembourg_osm.mtx --source 0 -o $work/lux.depth"
  [components-luxembourg]="components --graph $data/luxembourg_osm.mtx -o $work/lux.cc"
  [components-notredame-strong]="components --graph $data/web-NotreDame.txt.xz --strong -o $work/web.scc"
  [knn-dragon]="knn --points $data/stanford_dragon_scan.xyz -k 8 -o $work/dragon.knn"
)
echo "command,run,wall_ms" > "$out/commands.csv"
for name in $(printf '%s\n' "${!commands[@]}" | sort); do
  read -r -a args <<< "${commands[$name]}"
  "$treefix" "${args[@]}" > /dev/null 2>&1  # warm-up: kernels into the cache
  for run in $(seq 1 "$runs"); do
    start=$(date +%s%N)
    "$treefix" "${args[@]}" --stats 2> "$out/stats-$name.txt" > /dev/null || echo "$name failed" >&2
    echo "$name,$run,$(( ($(date +%s%N) - start) / 1000000 ))" >> "$out/commands.csv"
  done
done
cat "$out/commands.csv"
