#!/usr/bin/env bash
# Connected components of one graph past 2^31 arcs on one GPU: Kronecker scale 27 (2^27
# vertices, about 4.0e9 arcs, 16 GiB of columns; the row offsets are 64-bit), through the
# `components` command (file in, labels out) and treefix-bench's kernel timing. Two to three
# minutes on an H100 host of 16 cores (scaled from runs at scales 14-20 on PoCL), most of it
# generating, writing and reading the graph; each step is capped (4 + 2.5 + 3 minutes at most).
# Usage, from the repository root:  bench/gpu_connectivity_wide.sh OUTDIR [SCALE]
#
# Needs build-gpu/ with apps/treefix and apps/treefix-bench (bench/run_gpu.sh builds it), built
# with MPI: the graph comes from `generate kronecker --distributed` (one process, all host cores;
# the sequential generator takes minutes at this scale). TREEFIX=... and BENCH=... name other
# programs (e.g. build-mpi/apps/treefix of bench/gpu_mpi.sh for the generator).
#   SCRATCH=DIR  where the graph is written (default /tmp/gpu_cc_wide; ~17 GB at scale 27)
# Without a GPU (a test of the script): bench/gpu_connectivity_wide.sh /tmp/out 12
# Writes OUTDIR/generate.log, components.log, bench.log, cc.csv and summary.txt (printed).
set -uo pipefail
out=${1:?output directory}
scale=${2:-27}
mkdir -p "$out"
out=$(cd "$out" && pwd)
source bench/lib/gpu_env.sh
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
treefix=${TREEFIX:-build-gpu/apps/treefix}
bench=${BENCH:-build-gpu/apps/treefix-bench}
scratch=${SCRATCH:-/tmp/gpu_cc_wide}
graph=$scratch/kronecker$scale.csr
summary=$out/summary.txt
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }
for program in "$treefix" "$bench"; do
  [[ -x $program ]] || { note "missing $program (bench/run_gpu.sh builds build-gpu/)"; exit 1; }
done
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
export TREEFIX_CACHE_DIR=${TREEFIX_CACHE_DIR:-$(dirname "$treefix")/../kernel-cache}
mkdir -p "$TREEFIX_CACHE_DIR"
note "kronecker scale $scale; $(nproc) cores; commit $(checkout_commit)"
command -v nvidia-smi > /dev/null && note "$(nvidia-smi -L | head -1)"

# 1. The graph, as a raw CSR binary (64-bit row offsets in the file whatever the size).
if ! timeout 240 "$treefix" generate kronecker --scale "$scale" --distributed -o "$graph" \
  > "$out/generate.log" 2>&1; then
  note "generate failed (a build without MPI? set TREEFIX to an MPI build's treefix):"
  tail -5 "$out/generate.log" | tee -a "$summary"
  exit 1
fi
note "generated in ${SECONDS}s: $(grep -o '[0-9]* vertices, [0-9]* arcs' "$out/generate.log")"
arcs=$(grep -o '[0-9]* arcs' "$out/generate.log" | awk '{print $1}')
if ((arcs > 2147483646)); then
  note "$arcs arcs > 2^31 - 2: the device graph has 64-bit row offsets"
else
  note "$arcs arcs fit 32-bit row offsets (a smaller scale: the 64-bit path is not exercised)"
fi

# 2. The command: file read, device graph, components, labels written (to /dev/null).
start=$SECONDS
timeout 150 "$treefix" components --graph "$graph" --stats -o - 2> "$out/components.log" > /dev/null
status=$?
note "treefix components: exit $status in $((SECONDS - start))s"
grep -E "components|total" "$out/components.log" | tee -a "$summary"

# 3. Kernel time: connectivity and the spanning forest's packing, medians of 3 runs, with the
# device's sampling setting (auto: Afforest's sampling and giant skip) and without (0). The bench
# checks the labels on the host: consistent along every arc, each label a vertex of its own
# label, and the same for both settings. Its small grid and Kronecker rows are there because the
# suite always adds them.
start=$SECONDS
timeout 180 "$bench" rooting --parts cc --graph "$graph" --scale 10 --grid-side 16 \
  --strip-width 4 --repeats 3 --warmup 1 --cc-samples auto,0 --csv "$out/cc.csv" \
  > "$out/bench.log" 2>&1
status=$?
note "treefix-bench rooting --parts cc: exit $status in $((SECONDS - start))s"
grep -E "^# treefix-bench|kronecker$scale" "$out/bench.log" | tee -a "$summary"
grep -E "kronecker$scale" "$out/cc.csv" >> "$summary" 2> /dev/null
note "total ${SECONDS}s"
