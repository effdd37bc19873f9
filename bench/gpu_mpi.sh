#!/usr/bin/env bash
# The distributed graph layer on a multi-GPU machine (docs/distributed.md), within a time budget.
# Usage, from the repository root on that machine:  [BUDGET_S=540] bench/gpu_mpi.sh OUTDIR [SCALE]
#
# Steps, each started only when its estimated time still fits the budget (skips are noted):
#   build     treefix and treefix-bench with MPI in build-mpi/ (skipped when $TREEFIX names a
#             program; treefix-bench is then taken from beside it)
#   warm-up   every kernel compiled into the kernel cache on a small graph, on 1 and N ranks
#   generate  Kronecker SCALE (default 26) once, as a raw CSR binary in $SCRATCH (every run
#             below reads it: reading takes seconds, generating tens of seconds)
#   bfs       Graph500 (treefix-bench graph500) on 1, 2, 4, ... and N ranks: 64 random roots, each
#             validated, harmonic-mean GTEPS, a CSV row per search, the first and slowest
#             search's levels with the exchange's share
#   cc        connected components on 1 rank (the single-device command) and on 2, 4, ... N
#   largest   the largest scale N GPUs hold and one GPU refuses (one GPU's capacity check
#             answers at once), BFS from 4 validated roots, generated in place
#   cc+1      components at SCALE + 1, on as many rank counts
# N: the GPUs `nvidia-smi -L` lists (or $GPUS). Writes OUTDIR/mpi.csv, one log per run,
# 1-summary.txt, and everything in OUTDIR/0-results.tgz (first by name); prints the summary.
#
# Without GPUs (a test of the script): GPUS=2 DEVICE=cpu NO_ICD=1 TREEFIX=build/apps/treefix
#   bench/gpu_mpi.sh /tmp/out 10   (DEVICE: the --device of every rank; scale 10..12)
set -uo pipefail
out=${1:?output directory}
scale=${2:-26}
budget=${BUDGET_S:-540}  # seconds for the whole script
reserve=15               # kept for the summary and the archive
scratch=${SCRATCH:-/tmp/gpu_mpi_scratch}
mkdir -p "$out" "$scratch"
out=$(cd "$out" && pwd)
summary="$out/1-summary.txt"
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }
left() { echo $((budget - SECONDS)); }
# fits NAME SECONDS: whether a step estimated at SECONDS still fits (else noted as skipped)
fits() {
  if (($(left) - reserve < $2)); then
    note "skipped $1: needs ~$2 s, $(($(left) - reserve)) s left"
    return 1
  fi
}
# at SCALE SECONDS: an estimate measured at scale 26, for another scale (at least 5 s)
at() {
  local s=$1 t=$2
  while ((s < 26)); do t=$((t / 2)); s=$((s + 1)); done
  while ((s > 26)); do t=$((t * 2)); s=$((s - 1)); done
  echo $((t < 5 ? 5 : t))
}
finish() {
  note "total ${SECONDS}s"
  rm -rf "$scratch"
  # packed outside the folder (tar fails on a folder that changes while it is read)
  local archive
  archive=$(mktemp /tmp/gpu_mpi_results.XXXXXX) &&
    tar -C "$out" --exclude=0-results.tgz -czf "$archive" . && mv "$archive" "$out/0-results.tgz"
  exit "${1:-0}"
}

source "$(dirname "$0")/lib/mpi_env.sh"
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
if [[ -n ${GPUS:-} ]]; then
  gpus=$GPUS
  echo "GPUS=$GPUS given" > "$out/gpus.txt"
else
  gpus=$(nvidia-smi -L | wc -l)
  { nvidia-smi -L; nvidia-smi topo -m; } > "$out/gpus.txt" 2>&1
fi
note "GPUs: $gpus; scale $scale; budget ${budget}s; $(nproc) cores; commit $(checkout_commit)"

if [[ -n ${TREEFIX:-} ]]; then
  treefix=$(cd "$(dirname "$TREEFIX")" && pwd)/$(basename "$TREEFIX")
else
  cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF \
    > "$out/build.log" 2>&1 &&
    cmake --build build-mpi -j"$(nproc)" --target treefix treefix-bench >> "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; note "build failed"; finish 1; }
  treefix=$PWD/build-mpi/apps/treefix
  note "built in ${SECONDS}s"
fi
bench=$(dirname "$treefix")/treefix-bench
export TREEFIX_CACHE_DIR=${TREEFIX_CACHE_DIR:-$(dirname "$treefix")/../kernel-cache}
mkdir -p "$TREEFIX_CACHE_DIR"
# mpi RANKS COMMAND...: under mpirun, the host's cores shared by the ranks' host loops, stopped
# when the budget (less the reserve) runs out
mpi() {
  local ranks=$1
  shift
  mpi_program "$ranks" "$treefix" "$@"
}
mpi_bench() {  # the same for treefix-bench
  local ranks=$1
  shift
  mpi_program "$ranks" "$bench" "$@"
}
mpi_program() {
  local ranks=$1
  shift
  OMP_NUM_THREADS=$(($(nproc) / ranks > 0 ? $(nproc) / ranks : 1)) \
    timeout -k 5 $(($(left) - reserve)) mpirun --allow-run-as-root --oversubscribe \
    --bind-to none -np "$ranks" "$@"
}
echo "ranks,scale,test,value,unit,seconds,log" > "$out/mpi.csv"
csv() { echo "$1,$2,$3,$4,$5,$6,$7" >> "$out/mpi.csv"; }
# value PATTERN LOG: the number after PATTERN in LOG (empty when absent)
value() { grep -o "$1 [0-9.e+-]*" "$2" | head -1 | awk '{print $NF}'; }
# column NAME CSV: NAME's value in the first row of treefix-bench's CSV (empty when absent)
column() {
  awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == name) c = i }
    NR == 2 && c { print $c }' "$2" 2> /dev/null
}

# --- warm-up: every kernel compiled once (BFS, its check, components), so no timing pays for it
if fits warm-up 60; then
  start=$SECONDS
  for ranks in 1 "$gpus"; do
    mpi_bench "$ranks" graph500 --scale 12 --roots 2 --check
    mpi "$ranks" components --graph kronecker:12 -o /dev/null
  done > "$out/warmup.log" 2>&1
  "$treefix" generate kronecker --scale 12 --distributed -o "$scratch/k12.csr" >> "$out/warmup.log" 2>&1
  "$treefix" components --graph "$scratch/k12.csr" -o /dev/null >> "$out/warmup.log" 2>&1
  note "warm-up: $((SECONDS - start))s"
fi

# generate S: the raw CSR binary of Kronecker S in $scratch (every rank writes its rows)
generate() {
  local s=$1 log="$out/generate-$1.log" start=$SECONDS
  fits "generating scale $s" $(($(at "$s" 80) / gpus)) || return 1  # 16 cores a rank
  mpi "$gpus" generate kronecker --scale "$s" --distributed -o "$scratch/k$s.csr" > "$log" 2>&1
  local rc=$?
  note "generate scale $s on $gpus ranks: exit $rc, $((SECONDS - start))s ($(grep -o 'generate [0-9.]* ms, write [0-9.]* ms' "$log"))"
  ((rc == 0))
}
# graph500 RANKS S: 64 validated roots on the .csr of scale S
graph500() {
  local ranks=$1 s=$2 log="$out/bfs-$1-s$2.log" start=$SECONDS
  fits "BFS on $ranks ranks at scale $s" "$(at "$s" 60)" || return 0
  mpi_bench "$ranks" graph500 --graph "$scratch/k$s.csr" --roots 64 --check --levels \
    --csv "$out/bfs-$1-s$2.csv" > "$log" 2>&1
  local rc=$? gteps check_ms
  gteps=$(column hmean_GTEPS "$out/bfs-$1-s$2.csv")
  check_ms=$(column check_ms "$out/bfs-$1-s$2.csv")
  note "bfs $ranks ranks scale $s: exit $rc, ${gteps:-?} GTEPS (harmonic mean, 64 validated roots; check ${check_ms:-?} ms a root), $((SECONDS - start))s"
  grep "^  level\|root:" "$log" | sed 's/^/    /' | tee -a "$summary"
  csv "$ranks" "$s" bfs_gteps "${gteps:-}" GTEPS $((SECONDS - start)) "$(basename "$log")"
}
# components RANKS S: on 1 rank the single-device command (its components phase: upload, kernels,
# labels back), on more the distributed one (the same span)
components() {
  local ranks=$1 s=$2 log="$out/cc-$1-s$2.log" start=$SECONDS ms rc
  fits "components on $ranks ranks at scale $s" "$(at "$s" 30)" || return 0
  if ((ranks == 1)); then
    OMP_NUM_THREADS=$(nproc) timeout -k 5 $(($(left) - reserve)) "$treefix" components \
      --graph "$scratch/k$s.csr" --stats -o /dev/null > "$log" 2>&1
    rc=$?
    ms=$(grep -o "components: components *[0-9.e+-]* ms" "$log" | awk '{print $3}')
  else
    mpi "$ranks" components --graph "$scratch/k$s.csr" --stats -o /dev/null > "$log" 2>&1
    rc=$?
    ms=$(grep -o "label exchanges\?, [0-9.e+-]* ms" "$log" | awk '{print $3}')
  fi
  note "components $ranks ranks scale $s: exit $rc, ${ms:-?} ms ($(grep -o '^[0-9][0-9]* components' "$log" | head -1)), $((SECONDS - start))s"
  csv "$ranks" "$s" cc_ms "${ms:-}" ms $((SECONDS - start)) "$(basename "$log")"
}

# Rank counts: 1, 2, 4, ... below the GPUs present, and all of them.
counts=(1)
for ((r = 2; r < gpus; r *= 2)); do counts+=("$r"); done
((gpus > 1)) && counts+=("$gpus")
if generate "$scale"; then
  for ranks in "${counts[@]}"; do graph500 "$ranks" "$scale"; done
  for ranks in "${counts[@]}"; do components "$ranks" "$scale"; done
fi
rm -f "$scratch/k$scale.csr"

# --- the largest scale: one GPU refuses it before generating (its capacity check), N run it
if ((gpus > 1)); then
  for big in 30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10; do
    ((big > scale)) || break
    # The capacity check comes first: still running after 15 s, one GPU took the graph.
    OMP_NUM_THREADS=1 timeout 15 "$treefix" bfs --graph "kronecker:$big" -o /dev/null \
      > "$out/refuse-1-$big.log" 2>&1
    rc=$?
    if ((rc == 0 || rc == 124)); then
      note "one GPU does not refuse scale $big"
      break
    fi
    grep -q "needs" "$out/refuse-1-$big.log" || { note "scale $big on one GPU: $(tail -1 "$out/refuse-1-$big.log")"; continue; }
    fits "largest scale $big on $gpus GPUs" $(($(at "$big" 80) / gpus)) || continue
    log="$out/largest-$gpus-s$big.log"
    start=$SECONDS
    mpi_bench "$gpus" graph500 --scale "$big" --roots 4 --check --levels \
      --csv "$out/largest-$gpus-s$big.csv" > "$log" 2>&1
    rc=$?
    if ((rc != 0)) && grep -q "needs" "$log"; then
      note "scale $big: refused on $gpus GPUs too ($(grep -o 'needs.*' "$log" | head -1))"
      continue
    fi
    gteps=$(column hmean_GTEPS "$out/largest-$gpus-s$big.csv")
    note "largest: scale $big on $gpus GPUs (one GPU refuses it: $(grep -o 'needs [0-9.]* MiB[^,]*' "$out/refuse-1-$big.log" | head -1)): exit $rc, ${gteps:-?} GTEPS (4 validated roots), $((SECONDS - start))s"
    grep "^  level\|root:" "$log" | sed 's/^/    /' | tee -a "$summary"
    csv "$gpus" "$big" largest_bfs_gteps "${gteps:-}" GTEPS $((SECONDS - start)) "$(basename "$log")"
    break
  done
fi

# --- components one scale up
if ((gpus > 1)) && fits "components at scale $((scale + 1))" "$(at $((scale + 1)) 100)" &&
  generate $((scale + 1)); then
  for ranks in "${counts[@]}"; do components "$ranks" $((scale + 1)); done
fi
finish 0
