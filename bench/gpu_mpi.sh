#!/usr/bin/env bash
# The distributed graph layer on a multi-GPU machine (docs/distributed.md), in at most ~9 minutes.
# Usage, from the repository root on that machine:  bench/gpu_mpi.sh OUTDIR [SCALE]
# Builds with MPI in build-mpi/ (the treefix program only), then on 1, 2, 4, ... ranks (one per GPU,
# as many as `nvidia-smi -L` lists): Graph500 BFS on Kronecker SCALE (default 26; 64 random roots,
# each validated, harmonic-mean GTEPS) and connected components; then the largest scale the GPUs
# hold that one GPU refuses, if time is left. Writes OUTDIR/mpi.csv, one log per run, summary.txt.
set -uo pipefail
out=${1:?output directory}
scale=${2:-26}
budget=${BUDGET_S:-530}  # seconds for the whole script
mkdir -p "$out"
[[ -n ${NO_ICD:-} ]] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks, unpacked here (not committed)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
left() { echo $((budget - SECONDS)); }
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi -L > "$out/gpus.txt"
nvidia-smi topo -m >> "$out/gpus.txt" 2>&1
note "GPUs: $gpus; scale $scale; budget ${budget}s"
cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF \
  > "$out/build.log" 2>&1 &&
  cmake --build build-mpi -j"$(nproc)" --target treefix >> "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
note "built in ${SECONDS}s"
treefix=$PWD/build-mpi/apps/treefix
unset TREEFIX_DEVICE  # each rank takes the GPU of its local rank
export TREEFIX_CACHE_DIR=$PWD/build-mpi/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi() {  # mpi RANKS SECONDS COMMAND...: the host's cores shared by the ranks' host loops
  local ranks=$1 limit=$2
  shift 2
  OMP_NUM_THREADS=$(($(nproc) / ranks)) timeout "$limit" mpirun --allow-run-as-root \
    --oversubscribe --bind-to none -np "$ranks" "$@"
}
# Rank counts: 1, 2, 4, ... up to the GPUs present.
counts=(1)
for ((r = 2; r <= gpus; r *= 2)); do counts+=("$r"); done
((gpus > 2 && (gpus & (gpus - 1)) != 0)) && counts+=("$gpus")
echo "ranks,scale,test,value,unit,seconds,log" > "$out/mpi.csv"
# A warm-up that builds the kernels (small graph), so no run below pays for compilation.
mpi 1 120 "$treefix" bfs --graph kronecker:16 --roots 2 --check > "$out/warmup.log" 2>&1
mpi "${counts[-1]}" 120 "$treefix" bfs --graph kronecker:16 --roots 2 --check >> "$out/warmup.log" 2>&1
for ranks in "${counts[@]}"; do
  if (($(left) < 150)); then note "skipped BFS on $ranks ranks: $(left)s left"; continue; fi
  log="$out/bfs-$ranks.log"
  start=$SECONDS
  mpi "$ranks" $(($(left) - 60)) "$treefix" bfs --graph "kronecker:$scale" --roots 64 \
    --check --stats > "$log" 2>&1
  rc=$?
  gteps=$(grep -o "harmonic mean [0-9.e+-]*" "$log" | awk '{print $3}')
  note "bfs $ranks ranks scale $scale: exit $rc, ${gteps:-?} GTEPS (harmonic mean, 64 validated roots), $((SECONDS - start))s"
  echo "$ranks,$scale,bfs_gteps,${gteps:-},GTEPS,$((SECONDS - start)),$(basename "$log")" >> "$out/mpi.csv"
  if (($(left) < 90)); then note "skipped components on $ranks ranks: $(left)s left"; continue; fi
  log="$out/cc-$ranks.log"
  start=$SECONDS
  mpi "$ranks" $(($(left) - 30)) "$treefix" components --graph "kronecker:$scale" --stats \
    -o /dev/null > "$log" 2>&1
  rc=$?
  ms=$(grep -o "label-exchange rounds, [0-9.e+-]* ms" "$log" | awk '{print $3}')
  note "components $ranks ranks scale $scale: exit $rc, ${ms:-?} ms, $((SECONDS - start))s"
  echo "$ranks,$scale,cc_ms,${ms:-},ms,$((SECONDS - start)),$(basename "$log")" >> "$out/mpi.csv"
done
# The largest scale: one GPU refuses it before generating (the capacity check), all GPUs run it.
if ((gpus > 1)); then
  for big in 30 29 28 27; do
    if mpi 1 60 "$treefix" bfs --graph "kronecker:$big" --roots 1 > "$out/refuse-$big.log" 2>&1; then
      note "one GPU does not refuse scale $big"; break
    fi
    grep -q "needs" "$out/refuse-$big.log" || continue
    if (($(left) < 200)); then
      note "largest scale: one GPU refuses $big ($(grep -o 'needs.*' "$out/refuse-$big.log" | head -1)); not run on $gpus GPUs: $(left)s left"
      continue
    fi
    log="$out/largest-$big.log"
    start=$SECONDS
    mpi "$gpus" $(($(left) - 20)) "$treefix" bfs --graph "kronecker:$big" --roots 8 --check \
      --stats > "$log" 2>&1
    rc=$?
    gteps=$(grep -o "harmonic mean [0-9.e+-]*" "$log" | awk '{print $3}')
    note "largest: scale $big on $gpus GPUs: exit $rc, ${gteps:-?} GTEPS (8 validated roots), $((SECONDS - start))s"
    echo "$gpus,$big,largest_bfs_gteps,${gteps:-},GTEPS,$((SECONDS - start)),$(basename "$log")" >> "$out/mpi.csv"
    (( rc == 0 )) && break
  done
fi
note "total ${SECONDS}s"
tar -C "$out" -czf /tmp/mpi-results.tgz . && mv /tmp/mpi-results.tgz "$out/mpi-results.tgz"
