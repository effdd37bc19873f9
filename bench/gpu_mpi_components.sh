#!/usr/bin/env bash
# Distributed connected components on a multi-GPU machine (docs/distributed.md): the labels of
# several ranks checked against one GPU's, then timed against one GPU.
# Usage, from the repository root on that machine:  bench/gpu_mpi_components.sh OUTDIR [SCALE]
#
#   build   treefix and the unit tests with MPI in build-mpi/ (skipped when $TREEFIX names a
#           program; the unit tests then run only if $TESTS names their binary)
#   tests   the distributed unit tests on the first GPU (teams of 32 and of 1, a partial team)
#   check   Kronecker-$CHECK_SCALE (default 22) as a .csr: labels on 2 and N ranks equal the
#           single-device command's
#   time    Kronecker SCALE (default 26) as a .csr: the single-device command's components phase
#           (upload, kernels, labels back) on one GPU, and the same span on 2 and N ranks, with
#           the phases --stats prints (local walk, exchange, merge)
#   +1      SCALE + 1 on N ranks (one GPU's connectivity refuses it)
# N: the GPUs `nvidia-smi -L` lists (or $GPUS). Each command is stopped after $STEP_S seconds
# (default 300). Writes OUTDIR/1-summary.txt and one log per run.
#
# Without GPUs (a test of the script): GPUS=2 DEVICE=cpu NO_ICD=1 TREEFIX=build/apps/treefix
#   TESTS=build/tests/treefix-tests CHECK_SCALE=14 bench/gpu_mpi_components.sh /tmp/out 16
set -uo pipefail
out=${1:?output directory}
scale=${2:-26}
step_s=${STEP_S:-300}
check_scale=${CHECK_SCALE:-22}
scratch=${SCRATCH:-/tmp/gpu_mpi_components_scratch}
mkdir -p "$out" "$scratch"
out=$(cd "$out" && pwd)
summary="$out/1-summary.txt"
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }

source "$(dirname "$0")/lib/mpi_env.sh"
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
gpus=${GPUS:-$(nvidia-smi -L | wc -l)}
note "GPUs: $gpus; scale $scale; $(nproc) cores; commit $(checkout_commit)"

tests=${TESTS:-}
if [[ -n ${TREEFIX:-} ]]; then
  treefix=$(cd "$(dirname "$TREEFIX")" && pwd)/$(basename "$TREEFIX")
else
  { cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON &&
    cmake --build build-mpi -j"$(nproc)" --target treefix treefix-tests; } > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; note "build failed"; exit 1; }
  treefix=$PWD/build-mpi/apps/treefix
  tests=$PWD/build-mpi/tests/treefix-tests
  note "built in ${SECONDS}s"
fi
export TREEFIX_CACHE_DIR=${TREEFIX_CACHE_DIR:-$(dirname "$treefix")/../kernel-cache}
mkdir -p "$TREEFIX_CACHE_DIR"
one() { OMP_NUM_THREADS=$(nproc) timeout -k 5 "$step_s" "$treefix" "$@"; }
mpi() {
  local ranks=$1
  shift
  OMP_NUM_THREADS=$(($(nproc) / ranks > 0 ? $(nproc) / ranks : 1)) timeout -k 5 "$step_s" \
    mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$ranks" "$treefix" "$@"
}
counts=(2)
((gpus > 2)) && counts+=("$gpus")

if [[ -n $tests ]]; then
  tests=$(cd "$(dirname "$tests")" && pwd)/$(basename "$tests")
  (cd "$(dirname "$tests")" && timeout -k 5 "$step_s" "$tests" -tc='*distributed*') \
    > "$out/tests.log" 2>&1
  note "unit tests (distributed): exit $?, $(grep -o 'test cases:.*' "$out/tests.log" | head -1)"
fi

# Kernels compiled once into the cache, so no timing below pays for it.
one components --graph kronecker:12 -o /dev/null > "$out/warmup.log" 2>&1
mpi "${counts[-1]}" components --graph kronecker:12 -o /dev/null >> "$out/warmup.log" 2>&1

# check: the same labels on 1 GPU (single-device command) and on several
one generate kronecker --scale "$check_scale" --distributed -o "$scratch/k$check_scale.csr" > /dev/null 2>&1
one components --graph "$scratch/k$check_scale.csr" -o "$scratch/ref.txt" > "$out/check-1.log" 2>&1
for ranks in "${counts[@]}"; do
  mpi "$ranks" components --graph "$scratch/k$check_scale.csr" -o "$scratch/labels.txt" \
    > "$out/check-$ranks.log" 2>&1
  rc=$?
  if ((rc == 0)) && cmp -s "$scratch/ref.txt" "$scratch/labels.txt"; then
    note "check kronecker-$check_scale on $ranks ranks: labels equal to one GPU's"
  else
    note "check kronecker-$check_scale on $ranks ranks: FAILED (exit $rc; labels differ or missing)"
  fi
done
rm -f "$scratch/k$check_scale.csr" "$scratch/ref.txt" "$scratch/labels.txt"

# time RANKS S: one GPU's components phase, or the distributed command's span and phases
time_components() {
  local ranks=$1 s=$2 log="$out/cc-$1-s$2.log"
  if ((ranks == 1)); then
    one components --graph "$scratch/k$s.csr" --stats -o /dev/null > "$log" 2>&1
    note "components 1 GPU scale $s: exit $?," \
      "$(grep -o 'components: components *[0-9.e+-]* ms' "$log" | awk '{print $3}') ms"
  else
    mpi "$ranks" components --graph "$scratch/k$s.csr" --stats -o /dev/null > "$log" 2>&1
    note "components $ranks ranks scale $s: exit $?," \
      "$(grep -o 'label exchanges\?, [0-9.e+-]* ms' "$log" | awk '{print $3}') ms;" \
      "$(grep '^  local' "$log" | sed 's/^ *//')"
  fi
}
for s in "$scale" $((scale + 1)); do
  mpi "${counts[-1]}" generate kronecker --scale "$s" --distributed -o "$scratch/k$s.csr" \
    > "$out/generate-$s.log" 2>&1 || { note "generating scale $s failed"; continue; }
  if ((s == scale)); then
    for ranks in 1 "${counts[@]}"; do time_components "$ranks" "$s"; done
  else
    time_components "${counts[-1]}" "$s"
  fi
  rm -f "$scratch/k$s.csr"
done
note "total ${SECONDS}s"
rm -rf "$scratch"
