#!/usr/bin/env bash
# Whether the host executor uses the host's cores: the host-heavy commands (graph files parsed
# and converted, a vantage-point tree built on the host, a large tree and its weights read and
# the result formatted) timed with --threads 1, --threads 16 and the default, on the GPU machine.
#
# Usage, from the repository root on the GPU machine:
#   bench/gpu_threads.sh OUTDIR [BUILD]
# BUILD is a build folder holding apps/treefix (default: build-gpu, configured and built first
# when it lacks the program). Writes OUTDIR/times.csv (command, threads, repeat, seconds),
# OUTDIR/summary.txt (median seconds per command and thread count, and 1 thread / 16 threads),
# and each run's --stats phases in OUTDIR/stats/.
set -uo pipefail
out=$(mkdir -p "${1:?output directory}" && cd "$1" && pwd)
build=${2:-build-gpu}
data=${TREEFIX_DATA:-../shared/data}
repeats=${REPEATS:-3}
vertices=${VERTICES:-16777216}  # of the generated tree
scale=${SCALE:-20}               # of the generated Kronecker graph (2^scale vertices, 16 edges each)

source "$(dirname "$0")/lib/gpu_env.sh"
if [[ ! -x $build/apps/treefix ]]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > "$out/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target treefix >> "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log" >&2; exit 1; }
fi
treefix=$(cd "$build" && pwd)/apps/treefix
scratch=${TMPDIR:-/tmp}/treefix-threads
mkdir -p "$scratch" "$out/stats"
export TREEFIX_CACHE_DIR=$scratch/kernel-cache
{ nproc; command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv; } \
  > "$out/host.txt" 2>&1

# Inputs made once: a random tree (2^24 vertices by default) and its weights, as text; a
# Kronecker graph as Matrix Market text.
[[ -s $scratch/tree.txt ]] || "$treefix" generate random --vertices "$vertices" --seed 1 -o "$scratch/tree.txt"
[[ -s $scratch/w.txt ]] || awk -v n="$vertices" 'BEGIN { srand(2); for (i = 0; i < n; ++i) printf "%.6f\n", rand() }' > "$scratch/w.txt"

[[ -s $scratch/kronecker.mtx ]] || "$treefix" generate kronecker --scale "$scale" -o "$scratch/kronecker.mtx"

declare -A commands=(
  [convert-kronecker-mtx]="convert --graph $scratch/kronecker.mtx --output $scratch/k.csr --stats"
  [convert-luxembourg-mtx]="convert --graph $data/luxembourg_osm.mtx --output $scratch/lux.csr --stats"
  [convert-notredame-xz]="convert --graph $data/web-NotreDame.txt.xz --output $scratch/nd.csr --stats"
  [bfs-luxembourg-mtx]="bfs --graph $data/luxembourg_osm.mtx --output $scratch/bfs.txt --stats"
  [knn-vp-dragon]="knn --points $data/stanford_dragon_scan.xyz -k 8 --index vp --output $scratch/knn.npz --stats"
  [rootfix-text]="rootfix --tree $scratch/tree.txt --weights $scratch/w.txt --type float --output $scratch/r.txt --stats"
)
echo "command,threads,repeat,seconds" > "$out/times.csv"
for name in "${!commands[@]}"; do
  read -ra args <<< "${commands[$name]}"
  "$treefix" "${args[@]}" > /dev/null 2>&1  # warm: kernel cache, page cache
  for repeat in $(seq 1 "$repeats"); do
    for threads in 1 16 default; do
      option=()
      [[ $threads == default ]] || option=(--threads "$threads")
      start=$(date +%s%N)
      "$treefix" "${option[@]}" "${args[@]}" > /dev/null 2> "$out/stats/$name-$threads-$repeat.txt" ||
        echo "FAILED: $name $threads" >&2
      end=$(date +%s%N)
      ns=$((end - start))
      printf '%s,%s,%s,%d.%09d\n' "$name" "$threads" "$repeat" $((ns / 1000000000)) $((ns % 1000000000)) >> "$out/times.csv"
    done
  done
done

python3 - "$out/times.csv" > "$out/summary.txt" << 'PY'
import csv, statistics, sys
from collections import defaultdict
times = defaultdict(list)
for row in csv.DictReader(open(sys.argv[1])):
    times[(row["command"], row["threads"])].append(float(row["seconds"]))
print(f"{'command':24} {'1 thread s':>10} {'16 s':>8} {'default s':>10} {'1/16':>6}")
for name in sorted({c for c, _ in times}):
    one, sixteen, default = (statistics.median(times[(name, t)]) for t in ("1", "16", "default"))
    print(f"{name:24} {one:10.3f} {sixteen:8.3f} {default:10.3f} {one / sixteen:6.2f}")
PY
cat "$out/summary.txt"
